"""A roll-ticket draw in Chromium whose winner is not in the hall (RULES T8):
Saturday night the staff say the holder is not here and the draw waits; the
public board says which ticket waits and until when; Sunday the holder
walks in with the ticket and a driver's licence, and chooses the envelope."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from raffle.models import Draw, DrawState
from tests.browser.conftest import axe_violations
from tests.browser.test_draw_night_browser import click_step, sign_in, watch_csp
from tests.factories import UserFactory, clock_at, event_with_draw, members_for, run_draw, user_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_winner_comes_forward_the_next_day_and_picks_the_envelope(
    page, axe_context, live_server, shoot, settings
):  # R:T8
    settings.BOARD_REFRESH_SECONDS = 1
    actor = UserFactory()
    event = event_with_draw(actor=actor, name="Harbourview Catch the Ace", claim_period_days=7)
    members_for(event)
    user = user_with_role(roles.DRAW_STAFF, username="sam", first_name="Sam")
    draw = run_draw(event.draws.get(number=1), actor=actor, sales="30", until=DrawState.TICKET_DRAWN)
    serial = draw.winning_serial
    night = reverse("draw_night", args=[draw.pk])
    url = f"{live_server.url}{night}"
    csp_errors = watch_csp(page)
    axe_page = axe_context.new_page()

    # Saturday night: nobody in the hall holds the ticket drawn.
    sign_in(page, live_server, user.username, night)
    expect(page.get_by_role("heading", name=f"Is the holder of ticket {serial} here?")).to_be_visible()
    shoot(page, "is-the-holder-here")
    click_step(page, "The holder is not here: wait for the claim")
    expect(page.get_by_role("status").first).to_contain_text(f"Ticket {serial} is awaiting its holder's claim")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Awaiting the holder's claim")
    waiting = Draw.objects.get(pk=draw.pk)
    until = timezone.localtime(waiting.claim_until)
    expect(page.locator(".awaiting-claim")).to_contain_text(f"Awaiting claim: ticket {serial} until {until:%A}")
    assert waiting.state == DrawState.AWAITING_CLAIM and waiting.envelope is None
    shoot(page, "awaiting-claim")
    sign_in(axe_page, live_server, user.username, night)
    assert axe_violations(axe_page, url) == []

    # Anyone checking the public board sees which ticket waits, and until when.
    board = page.context.new_page()
    board.goto(f"{live_server.url}{reverse('public_board', args=[event.pk])}")
    expect(board.locator("#awaiting-claim")).to_contain_text(f"awaiting claim: ticket {serial} until")
    shoot(board, "board-awaiting-claim")

    # Sunday afternoon: the holder walks in with the ticket.
    with clock_at(waiting.ticket_drawn_at + datetime.timedelta(days=1, hours=15)):
        sign_in(page, live_server, user.username, night)
        expect(page.locator(".awaiting-claim")).to_contain_text(f"ticket {serial}")
        page.get_by_label("Holder's name").fill("Robin Holder")
        page.get_by_label("Identification seen").fill("Ontario driver's licence")
        page.get_by_label("Checked by").fill("Vic Verifier")
        page.get_by_label("Envelope the holder chooses (1 to 52)").fill("12")
        shoot(page, "claim-form")
        click_step(page, "Record the claim and the envelope chosen")
        expect(page.get_by_role("status").first).to_contain_text(
            f"Ticket {serial} claimed by Robin Holder; envelope 12 chosen."
        )
        expect(page.get_by_role("heading", level=1)).to_contain_text("Reveal the card")
        shoot(page, "claimed-reveal-the-card")

    claimed = Draw.objects.get(pk=draw.pk)
    assert claimed.state == DrawState.ENVELOPE_CHOSEN and claimed.envelope.number == 12
    selection = claimed.winner_selections.get()
    assert (selection.holder_name, selection.id_seen, selection.id_checked_by) == (
        "Robin Holder",
        "Ontario driver's licence",
        "Vic Verifier",
    )
    assert selection.claimed_at - selection.selected_at > datetime.timedelta(days=1)
    board.reload()
    expect(board.locator("main")).not_to_contain_text(re.compile("awaiting claim", re.I))
    assert not [e for e in csp_errors if "Content Security Policy" in e], csp_errors
