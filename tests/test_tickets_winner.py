"""Drawing the winning ticket (RULES D2, D5, T4-T9) and its uniformity."""

import collections
import datetime
import math

import pytest
from django.utils import timezone

from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.forms import PaperWinningTicketForm, RngWinningTicketForm
from raffle.models import (
    DrawState,
    EnvelopeTakenProcedure,
    SelectionMethod,
    Ticket,
    WinnerSelection,
)
from raffle.services.pool import pick_rng
from raffle.steps import perform_next_step, step_form
from tests.factories import LicenceFactory, clock_at, event_with_draw, name_members_in_charge, run_draw, sell_tickets

pytestmark = pytest.mark.django_db


def _event(channel, actor, **kwargs):
    return event_with_draw(actor=actor, licence=LicenceFactory(sales_channel=channel), **kwargs)


def _announced(event, actor, sales="50", **kwargs):
    return run_draw(event.draws.get(number=1), actor=actor, sales=sales, until=DrawState.ANNOUNCED, **kwargs)


# --- Paper: the serial from the container, typed twice (D2, T4) -----------------------------------


@pytest.mark.parametrize(
    "serial, again, message",
    [
        ("100001", "100002", "do not match"),
        ("100001", None, "do not match"),
        ("999999", "999999", "never sold"),
        ("", "", "Type the winning ticket's serial"),
        ("12;DROP", "12;DROP", "not a ticket serial"),
    ],
)
def test_a_bad_paper_winning_serial_is_refused_and_changes_nothing(staff_user, serial, again, message):  # R:D2
    draw = _announced(_event(SalesChannel.PAPER_ROLL, staff_user), staff_user)
    with pytest.raises(RaffleError, match=message):
        services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=serial, serial_again=again)
    draw.refresh_from_db()
    assert draw.state == DrawState.ANNOUNCED and draw.winning_serial == ""
    assert not WinnerSelection.objects.exists()


def test_a_paper_winner_must_be_a_ticket_of_this_draw(staff_user):  # R:T4
    event = _event(SalesChannel.PAPER_ROLL, staff_user)
    run_draw(event.draws.get(number=1), actor=staff_user, sales="10")
    old_serial = Ticket.objects.filter(draw__number=1).first().serial
    draw = run_draw(event.draws.get(number=2), actor=staff_user, sales="10", until=DrawState.ANNOUNCED)
    with (
        clock_at(draw.scheduled_at),
        pytest.raises(RaffleError, match="sold for draw 1; only tickets sold for draw 2"),
    ):
        services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=old_serial, serial_again=old_serial)


def test_a_void_ticket_cannot_win(staff_user):  # R:T11
    event = _event(SalesChannel.PAPER_STUB, staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="15", until=DrawState.SELLING)
    book = services.roll_issue(
        actor=staff_user, draw=draw, seller_name="Jo", first_serial=100050, last_serial=100060, kind="book"
    )
    sale = services.ticket_sell(
        actor=staff_user,
        draw=draw,
        tier_quantity=1,
        serials=["100050"],
        purchaser_name="X",
        purchaser_contact="x@example.org",
        envelope_pick=3,
    )
    services.sale_void(actor=staff_user, sale=sale, reason="printer jam")
    services.roll_return(actor=staff_user, roll=book, first_unsold=100051, tier_counts={})  # R:T7 Jo's book is back
    draw = run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    with pytest.raises(RaffleError, match="voided .printer jam."):
        services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial="100050", serial_again="100050")


def test_a_paper_winner_typed_twice_is_recorded_with_its_holder(staff_user):  # R:D2 R:T9
    event = _event(SalesChannel.PAPER_STUB, staff_user)
    draw = _announced(event, staff_user)
    serial = Ticket.objects.filter(draw=draw).order_by("-seq").first().serial
    draw = services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=f" 0{serial} ", serial_again=serial)
    assert draw.winning_serial == serial and draw.winner_name == "Pat Buyer"
    assert draw.winner_selections.get().method == SelectionMethod.CONTAINER


def test_the_step_form_is_serial_twice_for_paper_and_a_button_for_electronic(staff_user):
    paper = _announced(_event(SalesChannel.PAPER_ROLL, staff_user), staff_user)
    electronic = _announced(_event(SalesChannel.ELECTRONIC, staff_user), staff_user)
    assert isinstance(step_form(paper), PaperWinningTicketForm)
    assert isinstance(step_form(electronic), RngWinningTicketForm)
    form = step_form(electronic, {"confirm": "on"})
    assert form.is_valid()
    draw, message = perform_next_step(actor=staff_user, draw=electronic, cleaned=form.cleaned_data)
    assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial in message
    mismatch = step_form(paper, {"serial": "1", "serial_again": "2"})
    assert not mismatch.is_valid()


# --- Electronic: the cryptographic RNG, its inputs and outcome logged (D5) -------------------------


def test_the_rng_draw_records_what_was_drawn_from_and_the_result(staff_user):  # R:D5
    draw = _announced(_event(SalesChannel.ELECTRONIC, staff_user), staff_user, sales="30")  # 9 tickets
    draw = services.draw_record_winning_ticket(actor=staff_user, draw=draw)
    selection = draw.winner_selections.get()
    assert selection.method == SelectionMethod.RNG and selection.pool_size == 9 and selection.pool_max_seq == 9
    assert selection.rng_picks and 1 <= selection.rng_picks[-1] <= 9
    assert selection.ticket.serial == draw.winning_serial and selection.ticket.seq == selection.rng_picks[-1]
    entry = AuditEntry.objects.get(action="raffle.draw.draw_ticket")
    assert entry.data["pool_size"] == 9 and entry.data["rng_picks"] == selection.rng_picks


def test_the_rng_never_draws_a_void_ticket(staff_user):  # R:T11 R:D5
    event = _event(SalesChannel.ELECTRONIC, staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="5", until=DrawState.SELLING)
    for sale in services.tickets_import(
        actor=staff_user,
        draw=draw,
        device="POS-2",
        lines=[services.SaleLine(tier_quantity=3, units=5, purchaser_name="V", purchaser_contact="v", envelope_pick=4)],
    ):
        services.sale_void(actor=staff_user, sale=sale, reason="test sale")
    draw = run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    draw = services.draw_record_winning_ticket(actor=staff_user, draw=draw)
    assert not Ticket.objects.get(draw=draw, serial=draw.winning_serial).is_void


def test_the_winning_draw_is_uniform_over_the_valid_tickets():  # R:D5
    """Chi-square goodness of fit of 1,800 RNG draws over 9 valid tickets (2 more
    are void and must never come up). Significance level 0.001, fixed: a fair
    RNG fails this test once in 1,000 runs (false-failure rate 0.1%); the RNG
    is `secrets`, so there is no seed to fix. df = 8 is even, so the p-value
    has the closed form exp(-x/2) * sum_{i<4} (x/2)^i / i!."""
    from tests.factories import UserFactory

    actor = UserFactory()
    event = _event(SalesChannel.ELECTRONIC, actor)
    draw = services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))
    services.tickets_import(
        actor=actor,
        draw=draw,
        device="POS",
        lines=[
            services.SaleLine(tier_quantity=1, units=11, purchaser_name="U", purchaser_contact="u", envelope_pick=1)
        ],
    )
    Ticket.objects.filter(draw=draw, seq__in=[4, 11]).update(is_void=True)
    name_members_in_charge(draw, actor=actor)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=actor, draw=draw)
    n, bins = 1800, 9  # 200 expected per ticket
    counts = collections.Counter(pick_rng(draw=draw)[0].seq for _ in range(n))
    assert set(counts) <= {1, 2, 3, 5, 6, 7, 8, 9, 10}
    expected = n / bins
    chi2 = sum((counts.get(seq, 0) - expected) ** 2 / expected for seq in (1, 2, 3, 5, 6, 7, 8, 9, 10))
    half = chi2 / 2
    p_value = math.exp(-half) * sum(half**i / math.factorial(i) for i in range(4))
    assert p_value > 0.001, (chi2, counts)


# --- The winner's envelope (T9) --------------------------------------------------------------------


def _to_ticket_drawn(event, actor, pick):
    from raffle.models import Sale

    draw = run_draw(event.draws.get(number=2), actor=actor, until=DrawState.SELLING)
    sell_tickets(draw, actor=actor, sales="5")
    Sale.objects.filter(draw=draw).update(envelope_pick=pick)  # picked while it was sealed
    return run_draw(draw, actor=actor, sales="0", until=DrawState.TICKET_DRAWN)


def test_the_envelope_picked_on_the_ticket_is_the_one_opened(staff_user):  # R:T9
    event = _event(SalesChannel.ELECTRONIC, staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="5", envelope=20, until=DrawState.TICKET_DRAWN)
    draw = services.draw_choose_envelope(actor=staff_user, draw=draw)
    assert draw.envelope.number == 20
    with pytest.raises(RaffleError):
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number=21)


@pytest.mark.parametrize(
    "procedure, requested, expected",
    [
        (EnvelopeTakenProcedure.NEXT_HIGHER, None, 8),
        (EnvelopeTakenProcedure.HOLDER_CHOOSES, 30, 30),
    ],
)
def test_an_open_picked_envelope_follows_the_events_procedure(staff_user, procedure, requested, expected):  # R:T9
    event = _event(SalesChannel.ELECTRONIC, staff_user, envelope_taken_procedure=procedure)
    run_draw(event.draws.get(number=1), actor=staff_user, sales="5", envelope=7, card="9D")
    draw = _to_ticket_drawn(event, staff_user, pick=7)
    if procedure == EnvelopeTakenProcedure.HOLDER_CHOOSES:
        with pytest.raises(RaffleError, match="the winner chooses another envelope that is still sealed"):
            services.draw_choose_envelope(actor=staff_user, draw=draw)
    draw = services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number=requested)
    assert draw.envelope.number == expected


def test_a_random_procedure_picks_a_sealed_envelope(staff_user):  # R:T9
    event = _event(SalesChannel.ELECTRONIC, staff_user, envelope_taken_procedure=EnvelopeTakenProcedure.RANDOM)
    run_draw(event.draws.get(number=1), actor=staff_user, sales="5", envelope=52, card="9D")
    draw = services.draw_choose_envelope(actor=staff_user, draw=_to_ticket_drawn(event, staff_user, pick=52))
    assert draw.envelope.number != 52 and not draw.envelope.is_open


# --- After the draw: pool emptied, destruction date, winner kept (T4, T5, T6) ----------------------


def test_after_the_draw_the_pool_is_emptied_with_a_destruction_date_30_days_on(staff_user):  # R:T4 R:T6 R:T5
    draw = run_draw(_event(SalesChannel.PAPER_ROLL, staff_user).draws.get(number=1), actor=staff_user, sales="20")
    pool = draw.pool
    assert pool.emptied_at is not None
    assert pool.destroy_after == timezone.localdate(draw.ticket_drawn_at) + datetime.timedelta(days=30)
    winner = draw.winner_selections.get().ticket
    assert Ticket.objects.filter(pk=winner.pk).exists()  # kept for the licence period
    second = services.draw_open_sales(actor=staff_user, draw=draw.event.draws.get(number=2))
    sell_tickets(second, actor=staff_user, sales="5")
    assert not Ticket.objects.filter(draw=second).filter(pk=winner.pk).exists()
