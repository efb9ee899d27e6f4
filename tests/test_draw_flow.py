"""The draw's state machine and the money it carries (RULES D8, P1, P4, E1-E3)."""

from decimal import Decimal

import pytest

from core.errors import DomainError
from core.models import AuditEntry
from licensing.models import LicenceStatus
from raffle import services
from raffle.errors import EventConcluded, RaffleError, TransitionNotAllowed
from raffle.models import DRAW_TRANSITIONS, CardDestruction, Draw, DrawOutcome, DrawState, EventStatus
from raffle.models.draw_steps import step_leading_to
from raffle.steps import perform_step
from tests.factories import PASSWORD, MemberFactory, members_for, run_draw

pytestmark = pytest.mark.django_db


def test_a_chain_of_draws_carries_the_jackpot_exactly(event, staff_user):  # R:P1
    destroyer, verifier = members_for(event)
    prizes, jackpots = [], []
    for number, sales in enumerate(["795", "430", "405", "385", "320"], start=1):
        draw = run_draw(
            event.draws.get(number=number), actor=staff_user, sales=sales, destroyer=destroyer, verifier=verifier
        )
        prizes.append(draw.draw_prize)
        jackpots.append(draw.jackpot_after)
        assert draw.ticket_sales == draw.draw_prize + draw.jackpot_contribution + draw.licensee_share
        assert draw.outcome == DrawOutcome.ROLLOVER
    assert prizes == [Decimal(p) for p in ("159", "86", "81", "77", "64")]
    assert jackpots[-1] == Decimal("700.50")
    event.refresh_from_db()
    assert event.jackpot == Decimal("700.50")
    assert event.draws.get(number=6).state == DrawState.SCHEDULED


def test_money_is_stored_on_the_draw_when_sales_close(draw, staff_user):  # R:P1
    draw = run_draw(draw, actor=staff_user, sales="1000.00", until=DrawState.SALES_CLOSED)
    assert draw.rounding == "cent"
    assert (draw.draw_prize_percent, draw.jackpot_percent, draw.licensee_percent) == (20, 30, 50)
    assert (draw.jackpot_before, draw.jackpot_after) == (Decimal("0"), Decimal("300.00"))


def test_dollar_rounding_applies_per_event(staff_user):  # R:P1
    from tests.factories import event_with_draw

    event = event_with_draw(actor=staff_user, rounding="dollar")
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="1234.50", until=DrawState.SALES_CLOSED)
    assert (draw.draw_prize, draw.jackpot_contribution, draw.licensee_share) == (
        Decimal("246.00"),
        Decimal("370.00"),
        Decimal("618.50"),
    )


# R:D8 the table's forward step into each state, tried from every state it
# does not follow; the inputs are what its form would hold (never reached).
INPUTS = {"ticket_sales": "50", "serial": "9", "envelope_number": 5, "card": "2H", "card_again": "2H"}
FORBIDDEN = [
    (src, dst)
    for src in DrawState.values
    for dst in DrawState.values
    if dst != DrawState.SCHEDULED and dst not in DRAW_TRANSITIONS[src]
]


@pytest.mark.parametrize("from_state, to_state", FORBIDDEN)
def test_every_forbidden_transition_is_refused_and_changes_nothing(event, staff_user, from_state, to_state):  # R:D8
    draw = event.draws.get(number=1)
    if from_state != DrawState.SCHEDULED:
        draw = run_draw(draw, actor=staff_user, until=from_state, envelope=5, card="2H")
    before = Draw.objects.filter(pk=draw.pk).values().get()
    entries = AuditEntry.objects.count()
    with pytest.raises(TransitionNotAllowed) as refused:
        perform_step(step_leading_to(to_state), actor=staff_user, draw=draw, cleaned=INPUTS)
    assert f"draw {draw.number}" in str(refused.value)
    assert Draw.objects.filter(pk=draw.pk).values().get() == before
    assert AuditEntry.objects.count() == entries


def test_the_second_close_of_the_same_draw_is_refused(draw, staff_user):  # R:D8
    draw = run_draw(draw, actor=staff_user, until=DrawState.SALES_CLOSED, sales="200")
    with pytest.raises(TransitionNotAllowed, match="already done"):
        services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="999")
    draw.refresh_from_db()
    assert draw.ticket_sales == Decimal("200.00")


def test_sales_of_the_next_draw_wait_until_the_previous_draw_is_finished(event, staff_user):  # R:T11
    from raffle.models import Draw as DrawModel

    first = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.ANNOUNCED)
    second = DrawModel.objects.create(event=event, number=2, scheduled_at=first.scheduled_at)
    with pytest.raises(TransitionNotAllowed, match="Draw 1 is not finished"):
        services.draw_open_sales(actor=staff_user, draw=second)


def test_the_ace_of_spades_wins_the_jackpot_and_concludes_event_and_licence(event, staff_user):  # R:P4
    run_draw(event.draws.get(number=1), actor=staff_user, sales="795")
    ace = run_draw(event.draws.get(number=2), actor=staff_user, sales="430", card="AS")
    assert ace.outcome == DrawOutcome.JACKPOT_WON
    assert ace.jackpot_awarded == Decimal("238.50") + Decimal("129.00")  # this draw's 30% included
    assert ace.draw_prize == Decimal("86.00")
    event.refresh_from_db()
    event.licence.refresh_from_db()
    assert event.status == EventStatus.CONCLUDED
    assert event.jackpot == 0
    assert event.licence.status == LicenceStatus.CONCLUDED
    assert not event.draws.filter(number=3).exists()
    assert not CardDestruction.objects.filter(draw=ace).exists()


def test_nothing_is_sold_or_drawn_after_the_ace(event, staff_user):  # R:P4
    ace = run_draw(event.draws.get(number=1), actor=staff_user, card="AS")
    later = Draw.objects.create(event=event, number=2, scheduled_at=ace.scheduled_at)
    with pytest.raises(EventConcluded, match="Ace of Spades has been found"):
        services.draw_open_sales(actor=staff_user, draw=later)
    with pytest.raises(RaffleError, match="already has its event|concluded"):
        services.event_setup(actor=staff_user, licence=event.licence, name="again", first_draw_at=ace.scheduled_at)


def test_an_opened_envelope_cannot_be_chosen_again(event, staff_user):  # R:E1
    run_draw(event.draws.get(number=1), actor=staff_user, envelope=7, card="QD")
    draw = run_draw(event.draws.get(number=2), actor=staff_user, until=DrawState.TICKET_DRAWN)
    with pytest.raises(RaffleError, match="Envelope 7 was already opened .Queen of Diamonds."):
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number=7)
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN and draw.envelope is None


def test_a_card_cannot_appear_twice_in_one_deck(event, staff_user):  # R:E1
    run_draw(event.draws.get(number=1), actor=staff_user, envelope=7, card="QD")
    draw = run_draw(event.draws.get(number=2), actor=staff_user, until=DrawState.ENVELOPE_CHOSEN, envelope=8)
    with pytest.raises(RaffleError, match="already found in envelope 7"):
        services.draw_reveal_card(actor=staff_user, draw=draw, card="qd", card_again="qd")
    draw.refresh_from_db()
    assert draw.state == DrawState.ENVELOPE_CHOSEN
    assert not draw.envelope.is_open


@pytest.mark.parametrize("number", [0, 53, "seven", "", -1])
def test_envelopes_outside_1_to_52_are_refused(draw, staff_user, number):
    draw = run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
    with pytest.raises(RaffleError, match="Envelope numbers run from 1 to 52"):
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number=number)


@pytest.mark.parametrize("card", ["1S", "ZZ", "11H", "", "Joker"])
def test_unknown_cards_are_refused(draw, staff_user, card):
    draw = run_draw(draw, actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    with pytest.raises(RaffleError, match="is not a playing card"):
        services.draw_reveal_card(actor=staff_user, draw=draw, card=card, card_again=card)


@pytest.mark.parametrize(
    "written, code", [("10h", "10H"), ("TH", "10H"), ("Q♦", "QD"), ("queen of diamonds", "QD"), ("ace of spades", "AS")]
)
def test_cards_can_be_written_the_way_people_write_them(draw, staff_user, written, code):
    draw = run_draw(draw, actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card=written, card_again=written, ace_confirmed=True)
    assert draw.envelope.card == code


@pytest.mark.parametrize(
    "sales, message",
    [("-10", "cannot be negative"), ("ten dollars", "must be a number"), ("10.001", "fractions of a cent")],
)
def test_bad_sales_are_refused_and_change_nothing(draw, staff_user, sales, message):
    draw = run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    with pytest.raises(DomainError, match=message):
        services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales=sales)
    draw.refresh_from_db()
    assert draw.state == DrawState.SELLING and draw.ticket_sales is None
    draw.event.refresh_from_db()
    assert draw.event.jackpot == 0


def test_a_destruction_verified_by_the_destroyer_is_refused(draw, staff_user):  # R:E3
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    member = MemberFactory(organisation=draw.event.licence.organisation, is_in_charge=True)
    with pytest.raises(RaffleError, match="second person"):
        services.draw_roll_over(
            actor=staff_user,
            draw=draw,
            destroyed_by=member,
            verified_by=member,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )
    assert not CardDestruction.objects.exists()


def test_the_verifier_must_be_a_member_in_charge(draw, staff_user):  # R:E3
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    organisation = draw.event.licence.organisation
    destroyer = MemberFactory(organisation=organisation)
    not_in_charge = MemberFactory(organisation=organisation, is_in_charge=False)
    with pytest.raises(RaffleError, match="not a member in charge"):
        services.draw_roll_over(
            actor=staff_user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=not_in_charge,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )


def test_the_verifier_must_belong_to_the_licensee(draw, staff_user):  # R:E3
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    destroyer = MemberFactory(organisation=draw.event.licence.organisation)
    outsider = MemberFactory(is_in_charge=True)
    with pytest.raises(RaffleError, match="bona fide member of"):
        services.draw_roll_over(
            actor=staff_user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=outsider,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )


def test_a_rollover_logs_the_complete_card_and_both_members(draw, staff_user):  # R:E2 R:E3
    destroyer, verifier = members_for(draw.event)
    draw = run_draw(draw, actor=staff_user, card="7C", destroyer=destroyer, verifier=verifier)
    log = CardDestruction.objects.get(draw=draw)
    assert (log.card, log.method, log.destroyed_by, log.verified_by) == ("7C", "destroyed", destroyer, verifier)
    assert AuditEntry.objects.filter(action="raffle.card.destroy", object_id=str(log.pk)).exists()


def test_the_ace_cannot_be_rolled_over_and_a_non_ace_cannot_win_the_jackpot(event, staff_user):  # R:P4
    draw = run_draw(event.draws.get(number=1), actor=staff_user, card="AS", until=DrawState.CARD_REVEALED)
    destroyer, verifier = members_for(event)
    with pytest.raises(RaffleError, match="award the jackpot"):
        services.draw_roll_over(
            actor=staff_user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=verifier,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )
    other = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.CARD_REVEALED)
    assert other.is_ace


def test_every_step_writes_one_audit_entry(draw, staff_user):
    start = AuditEntry.objects.order_by("-id").values_list("id", flat=True).first()
    run_draw(draw, actor=staff_user)
    # run_draw also creates the signing members (their accounts are audited too): the draw's own steps
    actions = list(
        AuditEntry.objects.filter(id__gt=start, action__startswith="raffle.").values_list("action", flat=True)
    )
    assert actions == [
        "raffle.draw.open_sales",
        "raffle.draw.name_members_in_charge",  # R:L13 named once sales are open, before they close
        "raffle.roll.issue",
        "raffle.roll.return",
        "raffle.draw.close_sales",
        "raffle.draw.announce",
        "raffle.draw.draw_ticket",
        "raffle.draw.choose_envelope",
        "raffle.draw.reveal_card",
        "raffle.card.destroy",
        "raffle.draw.roll_over",
    ]


def test_signatures_work_with_the_login_lockout_switched_on(draw, staff_user, settings):  # R:E3
    """Production runs django-axes, whose backend refuses authenticate() calls
    that carry no request; a card destruction must still be signable."""
    settings.AXES_ENABLED = True
    destroyer, verifier = members_for(draw.event)
    draw = run_draw(draw, actor=staff_user, destroyer=destroyer, verifier=verifier)
    assert draw.state == DrawState.CLOSED
    assert CardDestruction.objects.filter(draw=draw, verified_by=verifier).exists()


def test_the_next_draw_keeps_the_local_hour_across_daylight_saving(staff_user):
    """Ontario leaves daylight saving on 1 November 2026: a Thursday 19:30
    draw on 29 October is followed by one at 19:30 on 5 November, not 18:30."""
    import datetime

    from django.utils import timezone

    from tests.factories import event_with_closed_draws

    first = timezone.make_aware(datetime.datetime(2026, 10, 29, 19, 30))
    event, _ = event_with_closed_draws(["100.00"], actor=staff_user, first_draw_at=first)
    following = timezone.localtime(event.draws.get(number=2).scheduled_at)
    assert (following.date(), following.strftime("%H:%M")) == (datetime.date(2026, 11, 5), "19:30")
