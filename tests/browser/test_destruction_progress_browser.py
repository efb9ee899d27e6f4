"""A draw-night step that takes longer than a second (checking the two
members' passwords on a slow server) shows a progress bar and says to wait,
so nobody presses the button again (issue 16)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from licensing.models import BonaFideMember
from raffle.models import CardDestruction, DrawState
from tests.factories import PASSWORD, UserFactory, event_with_draw, members_for, run_draw, user_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_slow_destruction_shows_its_progress_until_it_is_logged(page, live_server, settings):  # R:E3
    settings.PASSWORD_HASHERS = ["tests.hashers.SlowHasher"]  # each check takes 3 s
    actor = UserFactory()
    event = event_with_draw(actor=actor)
    members_for(event)
    draw = run_draw(event.draws.get(number=1), actor=actor, card="QD", until=DrawState.CARD_REVEALED)
    user_with_role(roles.DRAW_STAFF, username="sam")
    night = reverse("draw_night", args=[draw.pk])
    page.goto(f"{live_server.url}{reverse('login')}?next={night}")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(re.escape(night) + "$"))

    for label, name in [
        ("Member who destroyed the card", "Dana Destroyer"),
        ("Member in charge who verified it", "Vic Verifier"),
    ]:
        page.get_by_label(label, exact=True).select_option(label=str(BonaFideMember.objects.get(full_name=name)))
    page.get_by_label("Password of the member who destroyed the card").fill(PASSWORD)
    page.get_by_label("Password of the member in charge who verified it").fill(PASSWORD)
    # While the POST is pending the page cannot be queried, so the page reports what it shows.
    seen = []
    page.on("console", lambda message: seen.append(message.text))
    page.evaluate(
        """() => new MutationObserver(() => {
             const note = document.querySelector("form.step-form .working");
             const button = document.querySelector("form.step-form button[type=submit]");
             if (note && note.querySelector("progress")) {
               console.log("progress shown: " + note.textContent.trim() + " | button disabled: " + button.disabled);
             }
           }).observe(document.body, {childList: true, subtree: true})"""
    )
    page.get_by_role("button", name=re.compile("Log the destruction")).click(no_wait_after=True)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Draw finished", timeout=15000)
    assert CardDestruction.objects.filter(draw=draw).exists()
    shown = [text for text in seen if text.startswith("progress shown")]
    assert shown and "do not press the button again" in shown[0] and "button disabled: true" in shown[0]
