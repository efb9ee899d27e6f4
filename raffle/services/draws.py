"""The draw's steps (RULES D8), one service per transition.

Each service: lock the event then the draw (always in that order, so two
services never deadlock), re-read them, check the transition against
`DRAW_TRANSITIONS`, write with `update_fields`, append the audit entry. A
second request for a step that was just done finds the draw already moved on
and is refused: two staff on two laptops cannot both succeed.
"""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone

from core.audit import audit_record
from core.money import DRAW_PRIZE_PERCENT, JACKPOT_PERCENT, LICENSEE_PERCENT, parse_amount, split_sales
from licensing.models import Licence, LicenceStatus
from licensing.services import licence_conclude
from raffle.cards import ACE_OF_SPADES, card_name, parse_card
from raffle.errors import EventConcluded, RaffleError, TransitionNotAllowed
from raffle.models import (
    DRAW_TRANSITIONS,
    ENVELOPE_COUNT,
    MUST_GO_TRANSITIONS,
    DeckCommitment,
    DeckKind,
    Draw,
    DrawOutcome,
    DrawState,
    Envelope,
    Event,
    EventStatus,
    SelectionMethod,
    deck_commitment_hash,
)
from raffle.services.destruction import log_card_destruction, log_signature_refusals
from raffle.services.events import event_check_ready_to_sell
from raffle.services.pool import (
    draws_by_rng,
    draws_by_supplier,
    normalise_serial,
    paper_ticket,
    pick_rng,
    pool_empty,
    pool_fix,
    record_selection,
    resolve_envelope,
)
from raffle.services.prize_board import prize_board_check
from raffle.services.supplier_draw import supplier_winning_ticket

# What staff call each step, for messages.
STEP_NAMES = {
    DrawState.SELLING: "open ticket sales",
    DrawState.SALES_CLOSED: "close ticket sales",
    DrawState.ANNOUNCED: "announce the sales, draw prize and jackpot",
    DrawState.TICKET_DRAWN: "draw the winning ticket",
    DrawState.ENVELOPE_CHOSEN: "choose the envelope",
    DrawState.CARD_REVEALED: "reveal the card",
    DrawState.CLOSED: "close the draw",
}
_ORDER = list(DRAW_TRANSITIONS)


def _lock(draw: Draw) -> tuple[Event, Draw]:
    """Lock and re-read the event and the draw, in that order."""
    event = Event.objects.select_for_update().get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    draw.event = event
    return event, draw


def _check_step(event: Event, draw: Draw, to_state: str, *, must_go_redraw: bool = False) -> None:
    if event.status == EventStatus.CONCLUDED:  # R:P4
        raise EventConcluded(
            f"{event} is concluded: the Ace of Spades has been found, so nothing more can be "
            "sold or drawn under this licence.",
            rule="P4",
        )
    # R:P7 the must-go move back is made only by the re-draw service (which logs
    # the card's destruction first), and the re-draw makes no other move.
    must_go_pending = draw.must_go and draw.state == DrawState.CARD_REVEALED and not draw.is_ace
    is_move_back = to_state in MUST_GO_TRANSITIONS.get(draw.state, set())
    if is_move_back != must_go_redraw or (must_go_pending and not draw.can_transition_to(to_state)):
        if must_go_pending:
            raise TransitionNotAllowed(
                f"Draw {draw.number} is the must-go final draw and the card is not the Ace of Spades: log "
                "the card's destruction and draw another winning ticket.",
                rule="P7",
            )
        raise TransitionNotAllowed(
            f"Cannot draw another winning ticket for draw {draw.number}: only a must-go final draw whose "
            f"card is not the ace does that (the draw is at “{draw.get_state_display().lower()}”).",
            rule="P7",
        )
    if draw.can_transition_to(to_state):
        return
    current = draw.get_state_display().lower()
    if _ORDER.index(draw.state) >= _ORDER.index(to_state):
        raise TransitionNotAllowed(
            f"Cannot {STEP_NAMES[to_state]} for draw {draw.number}: that step is already done "
            f"(the draw is at “{current}”).",
            rule="D8",
        )
    next_states = DRAW_TRANSITIONS[draw.state]
    next_step = STEP_NAMES[next(iter(next_states))] if next_states else "nothing"
    raise TransitionNotAllowed(
        f"Cannot {STEP_NAMES[to_state]} for draw {draw.number} yet: the draw is at “{current}”, "
        f"so the next step is to {next_step}.",
        rule="D8",
    )


def _advance(
    *, actor, draw: Draw, to_state: str, stamp: str, action: str, data: dict, fields: tuple[str, ...] = ()
) -> Draw:
    draw.state = to_state
    setattr(draw, stamp, timezone.now())
    draw.save(update_fields=["state", stamp, *fields])
    audit_record(
        actor=actor,
        action=action,
        obj=draw,
        data={"event": draw.event_id, "number": draw.number, "state": to_state, **data},
    )
    return draw


@transaction.atomic
def draw_open_sales(*, actor, draw: Draw, today: datetime.date | None = None) -> Draw:
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.SELLING)
    licence = event.licence
    if licence.status != LicenceStatus.ACTIVE or licence.is_expired(today):
        raise RaffleError(f"Licence {licence.number} is not in force; no tickets may be sold under it.")
    event_check_ready_to_sell(event)  # R:T12
    if draws_by_supplier(draw) and not licence.supplier_recorded:  # R:D5
        raise RaffleError(
            f"Licence {licence.number} sells electronically: record its AGCO-registered supplier (name, "
            "registration number, system name and version) before selling.",
            rule="D5",
        )
    # R:T11 the previous draw finishes before the next draw's sales start.
    unfinished = event.draws.filter(number__lt=draw.number).exclude(state=DrawState.CLOSED).first()
    if unfinished:
        raise TransitionNotAllowed(
            f"Draw {unfinished.number} is not finished yet; finish it before selling for draw {draw.number}.",
            rule="T11",
        )
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.SELLING,
        stamp="sales_opened_at",
        action="raffle.draw.open_sales",
        data={},
    )


@transaction.atomic
def draw_close_sales(*, actor, draw: Draw, ticket_sales=None, container_count=None) -> Draw:
    """Close sales and fix the draw's money for good (P1): the sales total comes
    from the draw's valid tickets (their tier prices; voids excluded), then the
    20/30/50 split by the event's rounding rule and the jackpot before and after.

    `ticket_sales`, when given, is the reconciled cash count: it must equal the
    tickets' total (T11). `container_count` (paper) is the number of tickets
    counted in the container: it must equal the valid tickets sold (T7, L13).
    An imported draw (`is_imported`) has no tickets: its total is `ticket_sales`.
    """
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.SALES_CLOSED)
    counted = None
    if ticket_sales is not None and str(ticket_sales).strip() != "":
        counted = parse_amount(ticket_sales, what="The draw's ticket sales")
    if draw.is_imported:
        if counted is None:
            raise RaffleError("An imported draw needs its ticket sales total.")
        total = counted
    else:
        if container_count is not None and str(container_count).strip() != "":
            try:
                container_count = int(str(container_count).strip())
            except ValueError:
                raise RaffleError("The container count must be a whole number of tickets.") from None
        else:
            container_count = None
        pool = pool_fix(draw=draw, container_count=container_count)
        total = pool.sales_total
        if counted is not None and counted != total:  # R:T11 sales are reconciled before the draw
            raise RaffleError(
                f"The tickets sold for draw {draw.number} add up to ${total:,.2f}, but "
                f"${counted:,.2f} was counted. Find the difference before closing sales.",
                rule="T11",
            )
    split = split_sales(total, rounding=event.rounding)
    prize_board_check(event=event, extra_sales=split.sales)  # R:L3
    draw.ticket_sales = split.sales
    draw.draw_prize = split.draw_prize
    draw.jackpot_contribution = split.jackpot_contribution
    draw.licensee_share = split.licensee_share
    draw.rounding = split.rounding
    draw.draw_prize_percent = DRAW_PRIZE_PERCENT
    draw.jackpot_percent = JACKPOT_PERCENT
    draw.licensee_percent = LICENSEE_PERCENT
    draw.jackpot_before = event.jackpot
    draw.jackpot_after = event.jackpot + split.jackpot_contribution
    event.jackpot = draw.jackpot_after
    event.save(update_fields=["jackpot"])
    money = (
        "ticket_sales",
        "draw_prize",
        "jackpot_contribution",
        "licensee_share",
        "rounding",
        "draw_prize_percent",
        "jackpot_percent",
        "licensee_percent",
        "jackpot_before",
        "jackpot_after",
    )
    pool_data = (
        {}
        if draw.is_imported
        else {
            "valid_tickets": draw.pool.valid_tickets,
            "void_tickets": draw.pool.void_tickets,
            "first_serial": draw.pool.first_serial,
            "last_serial": draw.pool.last_serial,
            "container_count": draw.pool.container_count,
        }
    )
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.SALES_CLOSED,
        stamp="sales_closed_at",
        action="raffle.draw.close_sales",
        fields=money,
        data={**{name: getattr(draw, name) for name in money}, **pool_data},
    )


@transaction.atomic
def draw_announce(*, actor, draw: Draw) -> Draw:
    """R:D1 the sales, the draw prize and the jackpot are announced before the draw."""
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.ANNOUNCED)
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.ANNOUNCED,
        stamp="announced_at",
        action="raffle.draw.announce",
        data={"ticket_sales": draw.ticket_sales, "draw_prize": draw.draw_prize, "jackpot": draw.jackpot_after},
    )


@transaction.atomic
def draw_record_winning_ticket(
    *,
    actor,
    draw: Draw,
    serial: str = "",
    serial_again: str | None = None,
    winner_name: str = "",
    rng_reference: str = "",
) -> Draw:
    """R:D2 one winning ticket is selected after sales close; its number is announced.

    Paper: the serial drawn from the container, typed twice, must be a sold,
    valid ticket of this draw. Electronic/online: the RNG draws it (D5); the
    serial arguments are ignored, unless the licence records no approval of
    this software's RNG: then the registered supplier's system drew it, and its
    result file (or the serial typed twice with `rng_reference`) names it. An
    imported draw records the serial as given.
    """
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.TICKET_DRAWN)
    _check_last_draw_must_go(event, draw)
    data = {}
    if draw.is_imported:
        serial = normalise_serial(serial)
        winner_name = (winner_name or "").strip()[:150]
    else:
        if draws_by_rng(draw):
            ticket, picks = pick_rng(draw=draw)
            method = SelectionMethod.RNG
        elif draws_by_supplier(draw):  # R:D5 the registered supplier's system drew it
            pick = supplier_winning_ticket(
                draw=draw, serial=serial, serial_again=serial_again, rng_reference=rng_reference
            )
            ticket, picks, method, rng_reference = pick.ticket, [], SelectionMethod.SUPPLIER, pick.rng_reference
            data = {"rng_reference": rng_reference, "drawn_at": pick.drawn_at}
        else:
            ticket, picks = paper_ticket(draw=draw, serial=serial, serial_again=serial_again), []
            method = SelectionMethod.CONTAINER
        selection = record_selection(
            actor=actor, draw=draw, ticket=ticket, method=method, picks=picks, rng_reference=rng_reference
        )
        serial = ticket.serial
        winner_name = ticket.sale.purchaser_name or (winner_name or "").strip()[:150]
        data = {
            **data,
            "method": method,
            "seq": ticket.seq,
            "pool_size": selection.pool_size,
            "pool_max_seq": selection.pool_max_seq,
            "rng_picks": picks,
            "attempt": selection.attempt,
        }
    draw.winning_serial = serial
    draw.winner_name = winner_name
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.TICKET_DRAWN,
        stamp="ticket_drawn_at",
        action="raffle.draw.draw_ticket",
        fields=("winning_serial", "winner_name"),
        data={"serial": serial, "winner_name": draw.winner_name, **data},
    )


def _check_last_draw_must_go(event: Event, draw: Draw) -> None:
    """R:P7 the last draw the licence allows cannot roll over: it is run as the
    must-go final draw, which is set before its winning ticket is drawn.
    (Imported draws are history, decided elsewhere.)"""
    if draw.must_go or draw.is_imported:
        return
    expires_on = event.licence.expires_on
    if timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=event.draw_interval_days) > expires_on:
        raise RaffleError(
            f"Draw {draw.number} is the last draw before the licence expires on {expires_on:%Y-%m-%d}, so the "
            "Ace of Spades must be found in it. Make it the must-go final draw (the event's exit strategy page), "
            "then draw the winning ticket.",
            rule="P7",
        )


def _parse_envelope_number(value) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise RaffleError(f"Envelope numbers run from 1 to 52; {value!r} is not one.") from None
    if not 1 <= number <= ENVELOPE_COUNT:
        raise RaffleError(f"Envelope numbers run from 1 to 52; there is no envelope {number}.")
    return number


@transaction.atomic
def draw_choose_envelope(*, actor, draw: Draw, envelope_number=None) -> Draw:
    """The winner's envelope (T9): the one picked on the winning ticket, or,
    when that one is open, the event's stated procedure; for roll tickets the
    one the winner chooses (`envelope_number`)."""
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.ENVELOPE_CHOSEN)
    requested = None
    if envelope_number is not None:
        requested = _parse_envelope_number(envelope_number)
        taken = Envelope.objects.filter(event=event, number=requested, opened_at__isnull=False).first()
        if taken:
            raise RaffleError(
                f"Envelope {requested} was already opened ({card_name(taken.card)}); "
                "choose an envelope that is still sealed.",
                rule="E1",
            )
    number, how = resolve_envelope(event=event, draw=draw, requested=requested)
    envelope = Envelope.objects.select_for_update().get(event=event, number=number)
    if envelope.is_open:
        raise RaffleError(
            f"Envelope {number} was already opened ({card_name(envelope.card)}); "
            "choose an envelope that is still sealed.",
            rule="E1",
        )
    draw.envelope = envelope
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.ENVELOPE_CHOSEN,
        stamp="envelope_chosen_at",
        action="raffle.draw.choose_envelope",
        fields=("envelope",),
        data={"envelope": number, "how": how},
    )


@transaction.atomic
def draw_reveal_card(*, actor, draw: Draw, card: str) -> Draw:
    """Open the chosen envelope and record the card in it. For a paper deck
    the card becomes known only now (E4)."""
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.CARD_REVEALED)
    envelope = Envelope.objects.select_for_update().get(pk=draw.envelope_id)
    if event.deck_kind == DeckKind.ELECTRONIC and not (card or "").strip():
        code = envelope.card  # the system opens the electronic envelope itself
    else:
        code = parse_card(card)
    if event.deck_kind == DeckKind.PAPER:
        duplicate = Envelope.objects.filter(event=event, card=code).exclude(pk=envelope.pk).first()
        if duplicate:  # R:E1
            raise RaffleError(
                f"The {card_name(code)} was already found in envelope {duplicate.number}; a deck "
                "holds each card once. Check the card and type it again.",
                rule="E1",
            )
        envelope.card = code
    elif envelope.card != code:
        # Never name the sealed card in a refusal: that would open the envelope without a draw (E4).
        raise RaffleError(
            f"That is not the card the electronic deck holds in envelope {envelope.number}. "
            "Leave the card empty: the system opens an electronic envelope itself.",
            rule="E4",
        )
    published = {}
    if event.deck_kind == DeckKind.ELECTRONIC:
        published = _check_commitment(event=event, envelope=envelope)
    envelope.opened_at = timezone.now()
    envelope.opened_in_draw = draw
    try:
        with transaction.atomic():
            envelope.save(update_fields=["card", "opened_at", "opened_in_draw"])
    except IntegrityError:
        raise RaffleError(f"The {card_name(code)} is already recorded in this deck.", rule="E1") from None
    draw.envelope = envelope
    return _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.CARD_REVEALED,
        stamp="card_revealed_at",
        action="raffle.draw.reveal_card",
        data={"envelope": envelope.number, "card": code, "ace": code == ACE_OF_SPADES, **published},
    )


def _check_commitment(*, event: Event, envelope: Envelope) -> dict:
    """R:E4 before an electronic envelope is opened, its card must still be the
    one committed to at set-up; the salt is published with the reveal."""
    commitment = DeckCommitment.objects.filter(envelope=envelope).first()
    if commitment is None or commitment.commitment != deck_commitment_hash(
        event_id=event.pk, envelope_number=envelope.number, card=envelope.card, salt=commitment.salt
    ):
        raise RaffleError(
            f"Envelope {envelope.number}'s card does not match the commitment published before the "
            "first sale: the electronic deck may have been altered. Do not continue the draw; notify "
            "the Registrar and the auditor.",
            rule="E4",
        )
    return {"salt": commitment.salt, "commitment": commitment.commitment}


@log_signature_refusals
@transaction.atomic
def draw_roll_over(
    *, actor, draw: Draw, destroyed_by, verified_by, destroyer_password: str, verifier_password: str
) -> Draw:
    """Not the ace: log the card's destruction (paper) or deletion (electronic),
    verified by a second member in charge (E2, E3), each with their own
    password; close the draw; the jackpot rolls over into the next draw, which
    is scheduled if it is not yet."""
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.CLOSED)
    envelope = draw.envelope
    if envelope.card == ACE_OF_SPADES:
        raise RaffleError("This card is the Ace of Spades: award the jackpot instead.", rule="P4")
    log_card_destruction(
        actor=actor,
        event=event,
        draw=draw,
        envelope=envelope,
        destroyed_by=destroyed_by,
        verified_by=verified_by,
        destroyer_password=destroyer_password,
        verifier_password=verifier_password,
    )
    draw.outcome = DrawOutcome.ROLLOVER
    _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.CLOSED,
        stamp="closed_at",
        action="raffle.draw.roll_over",
        fields=("outcome",),
        data={"jackpot_carried": event.jackpot},
    )
    pool_empty(draw=draw)
    _schedule_next_draw(event=event, after=draw)
    return draw


def _schedule_next_draw(*, event: Event, after: Draw) -> Draw | None:
    if event.draws.filter(number=after.number + 1).exists():
        return None
    # Days are added to the local time (a zoneinfo datetime adds wall-clock
    # time), so the next draw keeps the hall's hour across daylight saving.
    return Draw.objects.create(
        event=event,
        number=after.number + 1,
        scheduled_at=timezone.localtime(after.scheduled_at) + datetime.timedelta(days=event.draw_interval_days),
    )


@transaction.atomic
def draw_award_jackpot(*, actor, draw: Draw) -> Draw:
    """The Ace of Spades: the holder wins the draw prize and the whole jackpot
    (this draw's 30% included); the event and the licence are concluded (P4)."""
    event, draw = _lock(draw)
    _check_step(event, draw, DrawState.CLOSED)
    if draw.envelope.card != ACE_OF_SPADES:
        raise RaffleError(
            f"The card is the {card_name(draw.envelope.card)}, not the Ace of Spades: "
            "log its destruction and roll the jackpot over."
        )
    licence = Licence.objects.select_for_update().get(pk=event.licence_id)
    draw.jackpot_awarded = draw.jackpot_after
    draw.outcome = DrawOutcome.JACKPOT_WON
    _advance(
        actor=actor,
        draw=draw,
        to_state=DrawState.CLOSED,
        stamp="closed_at",
        action="raffle.draw.award_jackpot",
        fields=("jackpot_awarded", "outcome"),
        data={
            "draw_prize": draw.draw_prize,
            "jackpot_awarded": draw.jackpot_awarded,
            "winning_serial": draw.winning_serial,
        },
    )
    pool_empty(draw=draw)
    # R:P4 the event and the licence end; nothing more is sold or drawn.
    event.jackpot = 0
    event.status = EventStatus.CONCLUDED
    event.concluded_at = timezone.now()
    event.save(update_fields=["jackpot", "status", "concluded_at"])
    audit_record(
        actor=actor,
        action="raffle.event.conclude",
        obj=event,
        data={"draw": draw.number, "jackpot_awarded": draw.jackpot_awarded},
    )
    licence_conclude(actor=actor, licence=licence, reason=f"Ace of Spades found in draw {draw.number}")
    if draw.must_go:
        # Imported here: the must-go services build on this module's helpers.
        from raffle.services.must_go import must_go_settle

        must_go_settle(actor=actor, event=event, draw=draw)
    return draw
