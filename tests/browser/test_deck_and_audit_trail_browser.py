"""The auditor's screens in a real browser (Debian's Chromium through
Playwright, set up in tests/browser/conftest.py): the public deck page and the
audit trail, without JavaScript. Screenshots go to test-artifacts/."""

import pytest
from django.contrib.auth.models import Group

from core import roles
from raffle.models import DrawState
from tests.factories import PASSWORD, UserFactory, event_with_draw, run_draw

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "java_script_enabled": False}


def test_anyone_can_check_the_deck_on_the_public_page(live_server, page, shoot):  # R:E4
    staff = UserFactory(is_staff=True)
    event = event_with_draw(actor=staff, deck_kind="electronic")
    draw = run_draw(event.draws.get(number=1), actor=staff, until=DrawState.CARD_REVEALED)
    page.goto(f"{live_server.url}/events/{event.pk}/deck/")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Electronic deck")
    assert "Verified:" in page.inner_text("main")
    row = page.get_by_role("row").filter(has_text=draw.envelope.commitment.commitment)
    assert "matches" in row.inner_text() and draw.envelope.card in row.inner_text()
    assert page.get_by_role("cell", name="secret until opened").count() == 51
    shoot(page, "deck-verification")


def test_the_auditor_signs_in_and_sees_the_trail_intact(live_server, page, shoot):  # R:D7
    auditor = UserFactory(is_staff=True)
    auditor.groups.add(Group.objects.get(name=roles.AUDITOR))
    event_with_draw(actor=auditor)
    page.goto(f"{live_server.url}/accounts/login/?next=/audit/")
    page.get_by_label("Username").fill(auditor.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("heading", name="Audit trail").is_visible()
    assert "Intact," in page.inner_text("main")
    assert page.get_by_role("cell", name="core.user.login").count() >= 1
    shoot(page, "audit-trail")
