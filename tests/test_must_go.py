"""The exit strategy: the must-go final draw (RULES P7, P2, D8)."""

from decimal import Decimal

import pytest

from core.audit import audit_verify
from core.models import AuditEntry
from licensing.models import LicenceStatus, SalesChannel
from raffle import services, steps
from raffle.errors import RaffleError, TransitionNotAllowed
from raffle.forms import PaperMustGoRedrawForm, RngMustGoRedrawForm
from raffle.models import (
    DRAW_STEPS,
    DRAW_TRANSITIONS,
    CardDestruction,
    Draw,
    DrawState,
    Event,
    EventStatus,
    MustGoPayout,
    MustGoReason,
    MustGoTicket,
    SelectionMethod,
    Ticket,
)
from raffle.models.draw_steps import STEPS_BY_NAME
from tests.factories import SIGNATURES, LicenceFactory, clock_at, event_with_draw, members_for, run_draw

pytestmark = pytest.mark.django_db
D = Decimal
NON_ACES = ["7H", "QD", "2C"]


def _must_go_event(user, payout=MustGoPayout.SHARE_NON_ACE, sales="1000.10"):
    event = event_with_draw(actor=user, must_go_payout=payout)
    draw = services.draw_set_must_go(actor=user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=user, sales=sales, until=DrawState.ANNOUNCED)
    return event, draw


def _serials(draw, count=None):
    """The serials of the draw's real tickets, in the order they were sold."""
    serials = list(Ticket.objects.filter(draw=draw).order_by("seq").values_list("serial", flat=True))
    return serials[:count] if count else serials


def _redraw(draw, user, members, serial, **kwargs):
    destroyer, verifier = members
    return services.draw_must_go_redraw(
        actor=user,
        draw=draw,
        destroyed_by=destroyer,
        verified_by=verifier,
        **SIGNATURES,
        serial=serial,
        serial_again=serial,
        **kwargs,
    )


def _play_until_ace(draw, user, members):
    """Four of the draw's roll tickets drawn from the container in turn: three
    non-ace envelopes (10, 11, 12), then the ace in envelope 13."""
    first, *others = _serials(draw, 4)
    draw = services.draw_record_winning_ticket(
        actor=user, draw=draw, serial=first, serial_again=first, winner_name="Ann"
    )
    for i, card in enumerate(NON_ACES):
        draw = services.draw_choose_envelope(actor=user, draw=draw, envelope_number=10 + i)
        draw = services.draw_reveal_card(actor=user, draw=draw, card=card, card_again=card)
        draw = _redraw(draw, user, members, others[i], winner_name=["Bob", "Cy", "Di"][i])
        assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial == others[i]
    draw = services.draw_choose_envelope(actor=user, draw=draw, envelope_number=13)
    draw = services.draw_reveal_card(actor=user, draw=draw, card="AS", card_again="AS", ace_confirmed=True)
    return services.draw_award_jackpot(actor=user, draw=draw)


@pytest.mark.parametrize(
    "payout, shares, jackpots",
    [
        # 20% of 1,000.10 is 200.02: three holders before the ace share it, the leftover cent to the first.
        (MustGoPayout.SHARE_NON_ACE, ["66.68", "66.67", "66.67", "0.00"], ["0", "0", "0", "300.03"]),
        (MustGoPayout.SHARE_ALL, ["50.01", "50.01", "50.00", "50.00"], ["0", "0", "0", "300.03"]),
        (MustGoPayout.FINAL_WINNER, ["0", "0", "0", "200.02"], ["0", "0", "0", "300.03"]),
    ],
)
def test_a_must_go_draw_with_three_non_ace_envelopes_pays_as_the_rules_say_and_concludes(
    staff_user, payout, shares, jackpots
):  # R:P7 R:P2 R:P4
    event, draw = _must_go_event(staff_user, payout)
    draw = _play_until_ace(draw, staff_user, members_for(event))

    tickets = list(MustGoTicket.objects.filter(draw=draw).order_by("sequence"))
    serials = _serials(draw, 4)
    assert [t.winning_serial for t in tickets] == serials
    assert [t.winner_name for t in tickets] == ["Ann", "Bob", "Cy", "Di"]
    assert [t.envelope.number for t in tickets] == [10, 11, 12, 13]
    assert [t.card for t in tickets] == [*NON_ACES, "AS"]
    assert [t.draw_prize_share for t in tickets] == [D(s) for s in shares]
    assert [t.jackpot_share for t in tickets] == [D(j) for j in jackpots]
    # No consolation prizes: everything paid is the draw prize plus the jackpot, to the cent.
    assert sum(t.total for t in tickets) == draw.draw_prize + draw.jackpot_awarded == D("500.05")
    assert draw.winning_serial == serials[-1] and draw.state == DrawState.CLOSED
    # Every ticket drawn is a real ticket of the draw, its selection kept (T5); only the last is current.
    selections = list(draw.winner_selections.order_by("attempt"))
    assert [s.ticket.serial for s in selections] == serials
    assert [s.superseded_at is None for s in selections] == [False, False, False, True]
    assert "not the Ace of Spades" in selections[0].superseded_reason
    event = Event.objects.get(pk=event.pk)
    assert event.status == EventStatus.CONCLUDED and event.jackpot == 0
    assert event.licence.status == LicenceStatus.CONCLUDED
    # Each re-draw is logged, each non-ace card destroyed and verified (E3).
    assert CardDestruction.objects.filter(draw=draw).count() == 3
    assert AuditEntry.objects.filter(action="raffle.draw.must_go_redraw").count() == 3
    assert AuditEntry.objects.filter(action="raffle.draw.must_go_settle").count() == 1
    assert audit_verify().intact


def test_the_ace_on_the_first_ticket_pays_draw_prize_and_jackpot_to_that_holder(staff_user):  # R:P7
    event, draw = _must_go_event(staff_user, sales="100")
    draw = run_draw(draw, actor=staff_user, envelope=1, card="AS")
    ticket = MustGoTicket.objects.get(draw=draw)
    assert (ticket.draw_prize_share, ticket.jackpot_share) == (D("20.00"), D("30.00"))


def test_the_draw_night_flow_offers_the_redraw_after_a_non_ace_in_a_must_go_draw(staff_user):  # R:P7
    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    destroyer, verifier = members_for(event)
    serial = _serials(draw)[1]
    form = steps.step_form(
        draw,
        {
            "destroyed_by": destroyer.pk,
            "verified_by": verifier.pk,
            **SIGNATURES,
            "serial": serial,
            "serial_again": serial,
            "winner_name": "Eve",
        },
    )
    assert isinstance(form, PaperMustGoRedrawForm) and form.is_valid(), form.errors
    draw, message = steps.perform_next_step(actor=staff_user, draw=draw, cleaned=form.cleaned_data)
    assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial == serial
    assert serial in message and draw.envelope is None


def test_the_redraw_form_wants_the_paper_serial_typed_twice(staff_user):  # R:P7 R:D2
    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    destroyer, verifier = members_for(event)
    serial = _serials(draw)[1]
    form = steps.step_form(
        draw,
        {
            "destroyed_by": destroyer.pk,
            "verified_by": verifier.pk,
            **SIGNATURES,
            "serial": serial,
            "serial_again": serial + "1",
        },
    )
    assert not form.is_valid() and "do not match" in str(form.errors)


def test_a_redraw_must_be_a_valid_ticket_of_the_draw_and_changes_nothing_otherwise(staff_user):  # R:P7 R:D2 R:T4
    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    members = members_for(event)
    serial = _serials(draw)[1]
    with pytest.raises(RaffleError, match="do not match"):
        services.draw_must_go_redraw(
            actor=staff_user,
            draw=draw,
            destroyed_by=members[0],
            verified_by=members[1],
            **SIGNATURES,
            serial=serial,
            serial_again="1",
        )
    with pytest.raises(RaffleError, match="never sold") as refused:
        _redraw(draw, staff_user, members, "999999")
    assert refused.value.rule == "D2"
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED
    assert not CardDestruction.objects.exists() and not MustGoTicket.objects.exists()
    assert draw.winner_selections.count() == 1


@pytest.mark.parametrize("channel", [SalesChannel.ELECTRONIC, SalesChannel.ONLINE])
def test_an_electronic_must_go_redraw_is_an_rng_pick_and_the_envelope_follows_the_ticket(
    staff_user, channel
):  # R:P7 R:D5 R:T9
    event = event_with_draw(
        actor=staff_user, licence=LicenceFactory(sales_channel=channel), must_go_payout=MustGoPayout.SHARE_ALL
    )
    draw = services.draw_set_must_go(actor=staff_user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    # Every ticket picked envelope 4: after it is opened, the next higher sealed one (the Rules of Play).
    draw = run_draw(draw, actor=staff_user, sales="100", until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    first = draw.winning_serial
    destroyer, verifier = members_for(event)
    form = steps.step_form(
        draw, {"destroyed_by": destroyer.pk, "verified_by": verifier.pk, **SIGNATURES, "confirm": "on"}
    )
    assert isinstance(form, RngMustGoRedrawForm) and form.is_valid(), form.errors
    draw, _ = steps.perform_next_step(actor=staff_user, draw=draw, cleaned=form.cleaned_data)
    selection = draw.winner_selections.get(superseded_at__isnull=True)
    assert selection.method == SelectionMethod.RNG and selection.attempt == 2 and selection.rng_picks
    assert draw.winning_serial == selection.ticket.serial != first
    assert selection.ticket.draw_id == draw.pk and not selection.ticket.is_void
    assert draw.winner_name == "Pat Buyer"
    draw = services.draw_choose_envelope(actor=staff_user, draw=draw)
    assert draw.envelope.number == 5
    entry = AuditEntry.objects.filter(action="raffle.draw.must_go_redraw").get()
    assert entry.data["method"] == SelectionMethod.RNG and entry.data["serial"] == draw.winning_serial


def test_the_rng_never_draws_a_ticket_twice_in_a_must_go_draw(staff_user):  # R:P7 R:D5
    event = event_with_draw(
        actor=staff_user,
        licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC),
        must_go_payout=MustGoPayout.SHARE_ALL,
    )
    draw = services.draw_set_must_go(actor=staff_user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=staff_user, sales="15", until=DrawState.CARD_REVEALED, card="9S")
    tickets = Ticket.objects.filter(draw=draw).count()
    assert 2 <= tickets <= 6
    members = members_for(event)
    for card in ("8S", "7S", "6S", "5S", "4S")[: tickets - 1]:
        draw = _redraw(draw, staff_user, members, "")
        draw = services.draw_choose_envelope(actor=staff_user, draw=draw)
        draw = services.draw_reveal_card(actor=staff_user, draw=draw, card=card, card_again=card)
    assert len({s.ticket_id for s in draw.winner_selections.all()}) == tickets
    with pytest.raises(RaffleError, match="no valid ticket left"):
        _redraw(draw, staff_user, members, "")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED


def test_a_ticket_already_drawn_cannot_be_drawn_again(staff_user):  # R:P7
    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    destroyer, verifier = members_for(event)
    with pytest.raises(RaffleError, match="already drawn"):
        services.draw_must_go_redraw(
            actor=staff_user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=verifier,
            **SIGNATURES,
            serial=draw.winning_serial,
            serial_again=draw.winning_serial,
        )
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED
    assert not CardDestruction.objects.exists()


def test_a_draw_becomes_must_go_only_before_its_ticket_is_drawn(staff_user, event):  # R:P7
    draw = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.TICKET_DRAWN)
    with pytest.raises(RaffleError, match="already drawn"):
        services.draw_set_must_go(actor=staff_user, draw=draw, reason=MustGoReason.PRIZE_BOARD)
    assert not Draw.objects.get(pk=draw.pk).must_go


def test_the_last_draw_before_the_licence_expires_must_go_before_its_ticket_is_drawn(staff_user):  # R:P7
    import datetime

    from django.utils import timezone

    first = timezone.now() + datetime.timedelta(days=1)
    licence = LicenceFactory(expires_on=timezone.localdate(first) + datetime.timedelta(days=6))
    event = event_with_draw(
        actor=staff_user, licence=licence, first_draw_at=first, must_go_payout=MustGoPayout.SHARE_NON_ACE
    )
    draw = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.ANNOUNCED)
    serial = _serials(draw, 1)[0]
    with clock_at(first):  # R:D9 on the draw's night
        with pytest.raises(RaffleError, match="last draw before the licence expires") as refused:
            services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=serial, serial_again=serial)
        assert refused.value.rule == "P7" and Draw.objects.get(pk=draw.pk).state == DrawState.ANNOUNCED
        draw = services.draw_set_must_go(actor=staff_user, draw=draw, reason=MustGoReason.LICENCE_EXPIRY)
        draw = services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=serial, serial_again=serial)
    assert draw.state == DrawState.TICKET_DRAWN and draw.must_go


def test_a_must_go_draw_needs_an_exit_strategy_in_the_rules_of_play(staff_user):  # R:P7
    event = event_with_draw(actor=staff_user, must_go_payout="")
    with pytest.raises(RaffleError, match="do not state the exit strategy"):
        services.draw_set_must_go(actor=staff_user, draw=event.draws.get(), reason=MustGoReason.LICENCE_EXPIRY)


def test_an_ordinary_draw_cannot_go_back_to_draw_another_ticket(staff_user, event):  # R:D8
    draw = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.CARD_REVEALED, card="5D")
    destroyer, verifier = members_for(event)
    with pytest.raises(TransitionNotAllowed):
        services.draw_must_go_redraw(
            actor=staff_user, draw=draw, destroyed_by=destroyer, verified_by=verifier, **SIGNATURES, serial="X-2"
        )
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED


# R:D8 R:P7 every step of the table a must-go draw (card not the ace) may not
# take: from each state, all but the one named here.
MUST_GO_ALLOWED = {
    DrawState.SCHEDULED: "open_sales",
    DrawState.SELLING: "close_sales",
    DrawState.SALES_CLOSED: "announce",
    DrawState.ANNOUNCED: "draw_ticket",
    DrawState.TICKET_DRAWN: "choose_envelope",
    DrawState.ENVELOPE_CHOSEN: "reveal_card",
    DrawState.CARD_REVEALED: "must_go_redraw",
}
# What each step's form would hold (the refusal comes first).
MUST_GO_INPUTS = {
    "ticket_sales": "50",
    "serial": "10",
    "envelope_number": 6,
    "card": "3H",
    "card_again": "3H",
    **SIGNATURES,
}
MUST_GO_FORBIDDEN = [
    (state, step.name)
    for state in MUST_GO_ALLOWED
    for step in DRAW_STEPS
    # R:T8 a roll ticket's holder may be absent in a must-go draw too (tests/test_roll_ticket_claims.py)
    if step.service and MUST_GO_ALLOWED[state] != step.name and not step.choice
]


def test_the_must_go_table_differs_from_the_ordinary_one_only_by_the_redraw():  # R:D8
    ordinary = {
        s: next(iter(DRAW_TRANSITIONS[s] - {DrawState.AWAITING_CLAIM}))  # R:T8 the holder not here: a choice
        for s in MUST_GO_ALLOWED
        if s != DrawState.CARD_REVEALED
    }
    assert ordinary == {
        DrawState.SCHEDULED: DrawState.SELLING,
        DrawState.SELLING: DrawState.SALES_CLOSED,
        DrawState.SALES_CLOSED: DrawState.ANNOUNCED,
        DrawState.ANNOUNCED: DrawState.TICKET_DRAWN,
        DrawState.TICKET_DRAWN: DrawState.ENVELOPE_CHOSEN,
        DrawState.ENVELOPE_CHOSEN: DrawState.CARD_REVEALED,
    }


@pytest.mark.parametrize("from_state, step", MUST_GO_FORBIDDEN)
def test_every_forbidden_move_of_a_must_go_draw_is_refused_and_changes_nothing(
    staff_user, from_state, step
):  # R:D8 R:P7
    event = event_with_draw(actor=staff_user)
    members = members_for(event)
    draw = services.draw_set_must_go(actor=staff_user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    if from_state != DrawState.SCHEDULED:
        draw = run_draw(draw, actor=staff_user, until=from_state, envelope=5, card="2H")
    before = Draw.objects.filter(pk=draw.pk).values().get()
    entries = AuditEntry.objects.count()
    with pytest.raises(TransitionNotAllowed) as refused:
        steps.perform_step(
            STEPS_BY_NAME[step],
            actor=staff_user,
            draw=draw,
            cleaned={**MUST_GO_INPUTS, "destroyed_by": members[0], "verified_by": members[1]},
        )
    assert f"draw {draw.number}" in str(refused.value).lower()
    assert Draw.objects.filter(pk=draw.pk).values().get() == before
    assert AuditEntry.objects.count() == entries


def test_the_admin_draw_page_runs_the_must_go_redraw(client, staff_user):  # R:P7
    from django.urls import reverse

    from tests.factories import UserFactory

    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="9S")
    destroyer, verifier = members_for(event)
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    page = client.get(reverse("admin:raffle_draw_step", args=[draw.pk])).content.decode()
    assert "Next winning ticket serial" in page
    serial = _serials(draw)[-1]
    client.post(
        reverse("admin:raffle_draw_step", args=[draw.pk]),
        {
            "destroyed_by": destroyer.pk,
            "verified_by": verifier.pk,
            "serial": serial,
            "serial_again": serial,
            **SIGNATURES,
        },
    )
    draw = Draw.objects.get(pk=draw.pk)
    assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial == serial


def test_the_ace_cannot_be_redrawn_past(staff_user):  # R:P7
    event, draw = _must_go_event(staff_user)
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED, envelope=4, card="AS")
    destroyer, verifier = members_for(event)
    with pytest.raises(RaffleError, match="award the jackpot"):
        services.draw_must_go_redraw(
            actor=staff_user, draw=draw, destroyed_by=destroyer, verified_by=verifier, **SIGNATURES, serial="Q-1"
        )
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED
