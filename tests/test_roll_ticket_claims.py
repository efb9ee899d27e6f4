"""Roll tickets whose holder is not at the draw (RULES T8, D2, P4).

A roll ticket is sold at the hall and carries no name. When it is drawn and
nobody in the room holds it, the staff say so and the draw waits "awaiting
claim" until the end of the event's claim time; no envelope is opened for the
absent holder. The holder comes forward (days later, perhaps), shows their ID
and chooses the envelope then; if nobody does, another ticket of the same draw
is drawn with the same claim time, each drawing logged. Nothing is re-drawn
once an envelope is chosen, a card revealed, or the event concluded.
"""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.errors import EventConcluded, RaffleError, TransitionNotAllowed
from raffle.models import Draw, DrawState, EventStatus, Ticket, WinnerSelection
from tests.factories import (
    LicenceFactory,
    UserFactory,
    acting_as,
    clock_at,
    event_with_draw,
    members_for,
    run_draw,
)

pytestmark = pytest.mark.django_db

CLAIM = {"holder_name": "Robin Holder", "id_seen": "Ontario driver's licence", "id_checked_by": "Vic Verifier"}


def _awaiting(actor, *, sales="10", claim_period_days=7, channel=SalesChannel.PAPER_ROLL):
    """Draw 1 of a roll-ticket raffle: its ticket drawn, the holder not in the room."""
    event = event_with_draw(
        actor=actor, licence=LicenceFactory(sales_channel=channel), claim_period_days=claim_period_days
    )
    return run_draw(event.draws.get(number=1), actor=actor, sales=sales, until=DrawState.AWAITING_CLAIM)


def _snapshot(draw):
    return (
        Draw.objects.filter(pk=draw.pk).values().get(),
        list(WinnerSelection.objects.filter(draw=draw).values()),
        AuditEntry.objects.count(),
    )


def _other_serial(draw):
    drawn = WinnerSelection.objects.filter(draw=draw).values("ticket_id")
    return Ticket.objects.filter(draw=draw, is_void=False).exclude(pk__in=drawn).order_by("seq").first().serial


def test_the_holder_comes_forward_the_next_day_and_chooses_the_envelope(staff_user):  # R:T8
    """Ticket drawn Saturday night; nobody has it. Sunday afternoon Robin
    walks in with the ticket and a driver's licence, Vic checks it, Robin
    picks envelope 12. Only then is an envelope chosen for this draw."""
    draw = _awaiting(staff_user)
    first = draw.winner_selections.get()
    assert draw.state == DrawState.AWAITING_CLAIM and draw.envelope is None
    assert draw.claim_until == first.claim_until
    assert draw.claim_until - first.selected_at == pytest.approx(
        datetime.timedelta(days=7), abs=datetime.timedelta(seconds=5)
    )
    assert AuditEntry.objects.filter(action="raffle.draw.await_claim", object_id=str(draw.pk)).count() == 1

    with clock_at(first.selected_at + datetime.timedelta(days=1)):
        draw = services.draw_claim(actor=staff_user, draw=draw, envelope_number="12", **CLAIM)
    assert draw.state == DrawState.ENVELOPE_CHOSEN and draw.envelope.number == 12
    assert draw.winner_name == "Robin Holder"
    first.refresh_from_db()
    assert (first.holder_name, first.id_seen, first.id_checked_by) == (
        "Robin Holder",
        "Ontario driver's licence",
        "Vic Verifier",
    )
    assert first.claimed_at - first.selected_at >= datetime.timedelta(days=1)
    claim = AuditEntry.objects.get(action="raffle.draw.claim", object_id=str(draw.pk))
    assert claim.data["id_seen"] == "Ontario driver's licence" and claim.data["envelope"] == 12
    # The draw then runs its course: the card revealed and destroyed, the jackpot rolled over.
    destroyer, verifier = members_for(draw.event)
    closed = run_draw(draw, actor=staff_user, card="7C", destroyer=destroyer, verifier=verifier)
    assert closed.state == DrawState.CLOSED and closed.envelope.number == 12


def test_a_claim_without_the_id_seen_is_refused_and_changes_nothing(staff_user):  # R:T8
    draw = _awaiting(staff_user)
    before = _snapshot(draw)
    with pytest.raises(RaffleError, match="identification"):
        services.draw_claim(actor=staff_user, draw=draw, envelope_number="12", **{**CLAIM, "id_seen": "  "})
    assert _snapshot(draw) == before


def test_when_the_claim_time_runs_out_another_ticket_is_drawn_with_the_same_claim_time(staff_user):  # R:T8
    """Nobody comes forward in the week. The staff draw another ticket from
    the same container; its holder gets seven days from then, and the
    unclaimed ticket is never drawn again. Every drawing is on record."""
    draw = _awaiting(staff_user, sales="20")
    first = draw.winner_selections.get()
    other = _other_serial(draw)
    before = _snapshot(draw)
    with pytest.raises(RaffleError, match="has until .* to claim"):  # a day early: the holder still has time
        services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial=other, serial_again=other)
    assert _snapshot(draw) == before

    week_later = draw.claim_until + datetime.timedelta(minutes=1)
    with clock_at(week_later):
        with pytest.raises(RaffleError, match="claim time of ticket .* ended"):  # too late to claim
            services.draw_claim(actor=staff_user, draw=draw, envelope_number="3", **CLAIM)
        with pytest.raises(RaffleError, match="already drawn"):
            services.draw_redraw_unclaimed(
                actor=staff_user, draw=draw, serial=first.ticket.serial, serial_again=first.ticket.serial
            )
        assert _snapshot(draw) == before
        draw = services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial=other, serial_again=other)
        redrawn_at = timezone.now()
    assert draw.state == DrawState.AWAITING_CLAIM and draw.winning_serial == other and draw.envelope is None
    assert draw.claim_until - redrawn_at == pytest.approx(datetime.timedelta(days=7), abs=datetime.timedelta(seconds=5))
    first.refresh_from_db()
    assert first.superseded_at and first.superseded_reason == "not claimed within 7 days"
    second = draw.winner_selections.get(superseded_at__isnull=True)
    assert (second.attempt, second.ticket.serial, second.claim_until) == (2, other, draw.claim_until)
    logged = AuditEntry.objects.filter(object_id=str(draw.pk), action__startswith="raffle.draw.").values_list(
        "action", "data"
    )
    redraws = [data for action, data in logged if action == "raffle.draw.redraw_unclaimed"]
    assert [(d["unclaimed"], d["serial"], d["attempt"]) for d in redraws] == [(first.ticket.serial, other, 2)]
    # The second holder comes forward within their own week and chooses.
    with clock_at(draw.claim_until - datetime.timedelta(hours=1)):
        draw = services.draw_claim(actor=staff_user, draw=draw, envelope_number="40", **CLAIM)
    assert draw.envelope.number == 40 and draw.winner_selections.get(superseded_at__isnull=True).claimed_at


def test_no_envelope_is_opened_for_an_absent_holder(staff_user):  # R:T8
    """Someone offers to pick an envelope 'for' the absent holder: refused,
    by the service itself, whichever page asks."""
    draw = _awaiting(staff_user)
    before = _snapshot(draw)
    with pytest.raises(RaffleError, match="no envelope is opened for a holder who is not here") as refused:
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number="12")
    assert refused.value.rule == "T8"
    with pytest.raises(TransitionNotAllowed):
        services.draw_reveal_card(actor=staff_user, draw=draw, card="7C", card_again="7C")
    assert _snapshot(draw) == before


def test_a_holder_at_the_hall_chooses_at_once_and_is_never_re_drawn(staff_user):  # R:T8
    """The holder is in the room: the envelope is chosen straight away, as
    always, and that is their claim; nothing can send the draw back."""
    event = event_with_draw(actor=staff_user, claim_period_days=7)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="10", until=DrawState.ENVELOPE_CHOSEN)
    assert draw.winner_selections.get().claimed_at is not None and draw.claim_until is None
    before = _snapshot(draw)
    with clock_at(timezone.now() + datetime.timedelta(days=30)):
        with pytest.raises(TransitionNotAllowed, match="Nothing is re-drawn once an envelope is chosen"):
            services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial="1", serial_again="1")
        with pytest.raises(TransitionNotAllowed):
            services.draw_await_claim(actor=staff_user, draw=draw)
    assert _snapshot(draw) == before


def test_nothing_is_re_drawn_after_the_card_is_revealed(staff_user):  # R:T8
    draw = _awaiting(staff_user)
    draw = services.draw_claim(actor=staff_user, draw=draw, envelope_number="12", **CLAIM)
    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card="7C", card_again="7C")
    other = _other_serial(draw)
    for moment in (draw.card_revealed_at, draw.claim_until + datetime.timedelta(days=1)):
        before = _snapshot(draw)
        with clock_at(moment), pytest.raises(TransitionNotAllowed, match="Nothing is re-drawn") as refused:
            services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial=other, serial_again=other)
        assert refused.value.rule == "T8" and _snapshot(draw) == before


def test_nothing_is_re_drawn_or_claimed_once_the_event_is_concluded(staff_user):  # R:T8 R:P4
    """The holder claimed, chose envelope 12, and it was the Ace of Spades.
    Months later someone tries the re-draw the old system allowed: refused."""
    draw = _awaiting(staff_user)
    draw = services.draw_claim(actor=staff_user, draw=draw, envelope_number="12", **CLAIM)
    draw = run_draw(draw, actor=staff_user, card="AS")
    assert Draw.objects.get(pk=draw.pk).event.status == EventStatus.CONCLUDED
    other = _other_serial(draw)
    before = _snapshot(draw)
    with clock_at(timezone.now() + datetime.timedelta(days=60)):
        with pytest.raises(EventConcluded):
            services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial=other, serial_again=other)
        with pytest.raises(EventConcluded):
            services.draw_claim(actor=staff_user, draw=draw, envelope_number="3", **CLAIM)
    assert _snapshot(draw) == before


def test_stub_and_electronic_tickets_do_not_wait_for_a_claim(staff_user):  # R:T8 R:T9
    """Stub and electronic tickets carry the buyer's name and the envelope
    they picked: there is no absent holder to wait for."""
    for channel in (SalesChannel.PAPER_STUB, SalesChannel.ELECTRONIC):
        event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=channel))
        draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="10", until=DrawState.TICKET_DRAWN)
        before = _snapshot(draw)
        with pytest.raises(TransitionNotAllowed):
            services.draw_await_claim(actor=staff_user, draw=draw)
        assert _snapshot(draw) == before


def test_a_stale_screen_acts_on_nothing_once_another_ticket_was_drawn(staff_user):  # R:T8
    draw = _awaiting(staff_user, sales="20")
    first = draw.winning_serial
    with clock_at(draw.claim_until + datetime.timedelta(minutes=1)):
        other = _other_serial(draw)
        draw = services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial=other, serial_again=other)
        before = _snapshot(draw)
        with pytest.raises(RaffleError, match=f"Ticket {first} is no longer the winning ticket"):
            services.draw_claim(actor=staff_user, draw=draw, envelope_number="3", expected_serial=first, **CLAIM)
    assert _snapshot(draw) == before


def test_the_board_and_the_dashboard_show_the_ticket_awaiting_its_claim(staff_user, client):  # R:T8 R:D10
    """Someone who bought a roll at the hall checks the board on Sunday: it
    says which ticket is waiting, and until when."""
    from core import roles
    from tests.factories import user_with_role

    draw = _awaiting(staff_user)
    until = timezone.localtime(draw.claim_until)
    board = client.get(reverse("public_board", args=[draw.event_id])).content.decode()
    assert f"awaiting claim: ticket {draw.winning_serial} until {until:%a %-d %b %Y}" in board
    french = client.get(reverse("public_board", args=[draw.event_id]), HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert f"en attente de réclamation : billet {draw.winning_serial} jusqu'au" in french
    client.force_login(user_with_role(roles.TREASURER))
    dashboard = client.get(reverse("event_dashboard", args=[draw.event_id])).content.decode()
    assert f"Awaiting claim: ticket {draw.winning_serial} until {until:%A %-d %B %Y}" in dashboard
    # Once the holder has chosen, the board no longer says it waits.
    services.draw_claim(actor=staff_user, draw=draw, envelope_number="12", **CLAIM)
    assert "awaiting claim" not in client.get(reverse("public_board", args=[draw.event_id])).content.decode()


def test_the_rules_of_play_promise_the_claim_procedure_the_draw_keeps(staff_user):  # R:T8 R:R4
    """The rules say 3 days; the draw waits exactly 3 days, and the rules
    say the holder chooses the envelope when they come forward."""
    from raffle.rules_of_play import rules_of_play

    draw = _awaiting(staff_user, claim_period_days=3)
    text = " ".join(" ".join(section.paragraphs) for section in rules_of_play(draw.event)["sections"])
    assert "no envelope is opened for them" in text
    assert "The holder has 3 days from the moment the ticket is drawn to come forward with it." in text
    assert "another ticket of the same draw is drawn, and its holder has the same 3 days" in text
    drawn = draw.winner_selections.get().selected_at
    assert draw.claim_until - drawn == pytest.approx(datetime.timedelta(days=3), abs=datetime.timedelta(seconds=5))


# --- The admin and the history import keep the same rule --------------------------------------------


def _admin(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def test_the_admin_step_page_waits_claims_and_re_draws_through_the_same_services(staff_user, client):  # R:T8
    event = event_with_draw(actor=staff_user, claim_period_days=7)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="20", until=DrawState.TICKET_DRAWN)
    url = reverse("admin:raffle_draw_step", args=[draw.pk])
    admin = _admin(client)
    assert "?step=await_claim" in admin.get(url).content.decode()
    admin.post(f"{url}?step=await_claim", {})
    draw.refresh_from_db()
    assert draw.state == DrawState.AWAITING_CLAIM and draw.envelope is None
    page = admin.get(url).content.decode()
    assert "Identification seen" in page and f"Awaiting the claim of ticket {draw.winning_serial}" in page

    before = _snapshot(draw)
    with clock_at(draw.claim_until + datetime.timedelta(minutes=1)):
        admin = _admin(client)  # signed in again a week on
        # A claim sent after the claim time is not taken: the step is now the re-draw.
        response = admin.post(url, {**CLAIM, "envelope_number": "12"}, follow=True)
        assert _snapshot(draw)[:2] == before[:2]  # the draw and its drawings (signing in is audited too)
        assert "The same serial again, to confirm" in response.content.decode()
        other = _other_serial(draw)
        admin.post(url, {"serial": other, "serial_again": other})
    draw.refresh_from_db()
    assert draw.state == DrawState.AWAITING_CLAIM and draw.winning_serial == other
    assert draw.winner_selections.count() == 2

    admin.post(url, {**CLAIM, "envelope_number": "12"})
    draw.refresh_from_db()
    assert draw.state == DrawState.ENVELOPE_CHOSEN and draw.envelope.number == 12
    # The re-draw is offered to nobody once the holder chose: not as a step, not as a choice.
    page = admin.get(f"{url}?step=redraw_unclaimed").content.decode()
    assert "Record the ticket drawn in its place" not in page and "Run next step" not in page


def test_the_history_import_waits_for_an_absent_holder_and_its_draws_are_never_re_drawn(staff_user, tmp_path):  # R:T8
    """A raffle moving its records in while draw 1 awaits a claim: the import
    is refused (it would open envelopes with a draw under way); imported
    draws are closed history, and nothing re-draws them."""
    event = event_with_draw(
        actor=staff_user,
        licence=LicenceFactory(issued_on=timezone.localdate() - datetime.timedelta(weeks=20)),
        first_draw_at=timezone.now() - datetime.timedelta(weeks=20),
    )
    path = tmp_path / "history.csv"
    day = (timezone.localdate() - datetime.timedelta(weeks=19)).isoformat()
    path.write_text(f"draw_number,draw_date,ticket_sales,envelope,card\n1,{day},100.00,7,QD\n")
    call_command("import_history", *acting_as(), "--licence", event.licence.number, str(path), stdout=io.StringIO())
    draw = Draw.objects.get(event=event, number=1)
    assert draw.is_imported and draw.state == DrawState.CLOSED
    before = _snapshot(draw)
    with pytest.raises(TransitionNotAllowed, match="Nothing is re-drawn"):
        services.draw_redraw_unclaimed(actor=staff_user, draw=draw, serial="1", serial_again="1")
    assert _snapshot(draw) == before

    waiting = run_draw(event.draws.get(number=2), actor=staff_user, sales="10", until=DrawState.AWAITING_CLAIM)
    path.write_text(f"draw_number,draw_date,ticket_sales,envelope,card\n2,{day},100.00,8,KD\n")
    with pytest.raises(CommandError, match="a draw of this event is under way"):
        call_command("import_history", *acting_as(), "--licence", event.licence.number, str(path), stdout=io.StringIO())
    waiting.refresh_from_db()
    assert waiting.state == DrawState.AWAITING_CLAIM and waiting.envelope is None
