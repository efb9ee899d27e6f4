"""A treasurer's reporting period in a real browser (Chromium via Playwright),
without JavaScript-only controls and without the admin. Screenshots go to
test-artifacts/."""

import re

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone

from core import roles
from licensing.models import Deposit, IssuedReport
from tests.factories import PASSWORD, MemberFactory, UserFactory, event_with_closed_draws


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_treasurer_reconciles_a_deposit_and_issues_the_four_draw_report(live_server, page, artifacts):  # R:L12 R:R1
    treasurer = UserFactory(username="pat", is_staff=True)
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    event, draws = event_with_closed_draws(["795.00", "430.00", "405.00", "385.00"], actor=treasurer)
    for name in ("Pat Morrison", "Lee Tremblay"):
        MemberFactory(organisation=event.licence.organisation, full_name=name, is_in_charge=True)

    page.goto(f"{live_server.url}/treasury/{event.pk}/deposits/")
    page.get_by_label("Username").fill("pat")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    page.get_by_label("Bank or credit union").fill("Kawartha Credit Union")
    page.get_by_label("Account number").fill("004417-92")
    page.get_by_label("Opened on").fill(event.licence.issued_on.isoformat())
    page.get_by_label("Pat Morrison").check()
    page.get_by_label("Lee Tremblay").check()
    page.get_by_role("button", name="Record the account").click()
    assert page.get_by_text("Trust account recorded.").is_visible()

    page.get_by_label("Deposit slip number").fill("DS-0001")
    page.get_by_label("Deposited on").fill(timezone.localdate(draws[0].scheduled_at).isoformat())
    page.get_by_label("Amount of the slip ($)").fill("700.00")
    page.get_by_label("Draw whose sales it holds").select_option(str(draws[0].pk))
    page.get_by_role("button", name="Record the deposit").click()
    assert page.get_by_text("Deposit recorded.").is_visible()
    assert page.locator("td strong.error", has_text="short").count() == 1
    page.screenshot(path=str(artifacts / "treasury-deposits.png"), full_page=True)
    assert Deposit.objects.get().amount == 700

    page.get_by_role("link", name="Reports and deadlines").click()
    assert page.get_by_text(re.compile("not reconciled with the deposits")).is_visible()
    page.get_by_role("button", name="Issue PDF").click()
    assert page.get_by_text(re.compile("issued and kept; SHA-256")).is_visible()
    page.screenshot(path=str(artifacts / "treasury-overview.png"), full_page=True)
    assert IssuedReport.objects.get().generated_by == treasurer
