"""The Rules of Play and the exit-strategy page in a real browser, without
JavaScript (RULES R4, T10, L3, P7). Screenshots go to `test-artifacts/`."""

import pytest

from core import roles
from tests.factories import PASSWORD, UserFactory, event_with_draw, members_for, run_draw


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "java_script_enabled": False}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_visitor_reads_the_rules_and_staff_make_the_final_draw(live_server, page, artifacts):  # R:R4 R:T10 R:P7
    from django.contrib.auth.models import Group

    from raffle.models import Draw

    staff = UserFactory(username="treasurer8")
    staff.groups.add(Group.objects.get_or_create(name=roles.TREASURER)[0])
    event = event_with_draw(actor=staff, draw_place="Legion Hall, Perth")
    destroyer, verifier = members_for(event)
    run_draw(event.draws.get(number=1), actor=staff, sales="2000", destroyer=destroyer, verifier=verifier)

    page.goto(f"{live_server.url}/events/{event.pk}/rules/")
    assert page.get_by_role("heading", level=1).inner_text().startswith("Rules of Play")
    assert page.get_by_text("1-866-531-2600").first.is_visible()
    page.screenshot(path=str(artifacts / "rules-of-play.png"), full_page=True)

    page.goto(f"{live_server.url}/accounts/login/?next=/events/{event.pk}/exit-strategy/")
    page.get_by_label("Username").fill("treasurer8")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    assert page.get_by_role("heading", name="Prize board (L3)").is_visible()
    page.get_by_label("Why this is the final draw").select_option("last_draw")
    page.get_by_role("button", name="Make it the final draw").click()
    assert page.get_by_text("is the must-go final draw").first.is_visible()
    page.screenshot(path=str(artifacts / "exit-strategy.png"), full_page=True)
    assert Draw.objects.get(event=event, number=2).must_go
