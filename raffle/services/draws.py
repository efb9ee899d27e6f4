"""The draw's steps from the winning ticket on (RULES D8), one service per
step of the table (`raffle.models.draw_steps`): draw the winning ticket,
choose the envelope, reveal the card, then roll the jackpot over or award it.
The first steps are in `draw_sales.py`, the must-go re-draw in `must_go.py`;
each goes through the draw machine (`raffle.services.draw_machine`).
"""

import datetime

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.models import Licence
from licensing.services import licence_conclude
from raffle.cards import ACE_OF_SPADES, card_name_for_reader
from raffle.envelope_taken import opened_envelope_rule
from raffle.errors import RaffleError
from raffle.models import (
    ENVELOPE_COUNT,
    DeckCommitment,
    DeckKind,
    Draw,
    DrawOutcome,
    Envelope,
    Event,
    EventStatus,
    SelectionMethod,
    deck_commitment_hash,
)
from raffle.notifications import winner_notice_after_commit
from raffle.services import draw_machine
from raffle.services.card_entry import typed_card
from raffle.services.destruction import log_card_destruction, log_signature_refusals
from raffle.services.events import draw_mark_if_last
from raffle.services.must_go import must_go_settle
from raffle.services.must_go_settings import check_last_draw_must_go
from raffle.services.pool import (
    claim_at_the_draw,
    draws_by_rng,
    draws_by_supplier,
    normalise_serial,
    paper_ticket,
    pick_rng,
    pool_empty,
    record_selection,
    refuse_envelope_for_absent_holder,
    resolve_envelope,
)
from raffle.services.schedule import amended_draw_time, check_draw_time, schedule_base
from raffle.services.supplier_draw import supplier_winning_ticket


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
    event, draw, step = draw_machine.begin(draw, "draw_ticket")
    check_draw_time(draw)  # R:D9
    check_last_draw_must_go(event, draw)
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
        winner_notice_after_commit(ticket)  # e-mailed once the drawing commits
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
    # R:D9 the draw is held now, when its ticket is drawn (or when the supplier's system drew it).
    now = timezone.now()
    draw.held_at = data.get("drawn_at") or now
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        at=now,
        fields=("winning_serial", "winner_name", "held_at"),
        data={"serial": serial, "winner_name": draw.winner_name, "held_at": draw.held_at, **data},
    )


def _parse_envelope_number(value) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise RaffleError(
            gettext("Envelope numbers run from 1 to 52; %(value)s is not one.") % {"value": repr(value)}
        ) from None
    if not 1 <= number <= ENVELOPE_COUNT:
        raise RaffleError(
            gettext("Envelope numbers run from 1 to 52; there is no envelope %(number)s.") % {"number": number}
        )
    return number


def winners_envelope(*, event: Event, draw: Draw, envelope_number=None) -> tuple[Envelope, str]:
    """R:T9 the winner's envelope, locked: the one picked on the winning
    ticket, or, when that one is open, the event's stated procedure; for roll
    tickets the one the winner chooses (`envelope_number`). Returns it and how
    it was arrived at. Runs inside a step service, the draw locked."""
    requested = None
    if envelope_number is not None:
        requested = _parse_envelope_number(envelope_number)
        taken = Envelope.objects.filter(event=event, number=requested, opened_at__isnull=False).first()
        if taken:  # R:T9 as the Rules of Play and the wizard say it (raffle.envelope_taken)
            raise RaffleError(
                gettext(
                    "Envelope %(requested)s was already opened (%(card)s): under this event's Rules of Play, "
                    "%(opened_envelope_rule)s."
                )
                % {
                    "requested": requested,
                    "card": card_name_for_reader(taken.card),
                    "opened_envelope_rule": opened_envelope_rule(event, picked_on_ticket=False),
                },
                rule="E1",
            )
    number, how = resolve_envelope(event=event, draw=draw, requested=requested)
    envelope = Envelope.objects.select_for_update().get(event=event, number=number)
    if envelope.is_open:
        raise RaffleError(
            gettext("Envelope %(number)s was already opened (%(card)s); choose an envelope that is still sealed.")
            % {"number": number, "card": card_name_for_reader(envelope.card)},
            rule="E1",
        )
    return envelope, how


@transaction.atomic
def draw_choose_envelope(*, actor, draw: Draw, envelope_number=None) -> Draw:
    """The winner's envelope (T9), chosen at the draw (see `winners_envelope`).
    R:T8 a draw awaiting a roll-ticket holder's claim opens no envelope: the
    holder chooses it when they claim (`draw_claim`)."""
    event, draw = draw_machine.lock(draw)
    refuse_envelope_for_absent_holder(draw)
    step = draw_machine.check(event, draw, "choose_envelope")
    draw.envelope, how = winners_envelope(event=event, draw=draw, envelope_number=envelope_number)
    claim_at_the_draw(draw)
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=("envelope",),
        data={"envelope": draw.envelope.number, "how": how},
    )


@transaction.atomic
def draw_reveal_card(
    *, actor, draw: Draw, card: str = "", card_again: str | None = None, ace_confirmed: bool = False
) -> Draw:
    """Open the chosen envelope and record the card in it. For a paper deck
    the card becomes known only now (E4). A typed card is typed twice, and the
    Ace of Spades confirmed (`card_entry.typed_card`)."""
    event, draw, step = draw_machine.begin(draw, "reveal_card")
    envelope = Envelope.objects.select_for_update().get(pk=draw.envelope_id)
    if event.deck_kind == DeckKind.ELECTRONIC and not (card or "").strip():
        code = envelope.card  # the system opens the electronic envelope itself
    else:
        code = typed_card(event=event, draw=draw, card=card, card_again=card_again, ace_confirmed=ace_confirmed)
    if event.deck_kind == DeckKind.PAPER:
        duplicate = Envelope.objects.filter(event=event, card=code).exclude(pk=envelope.pk).first()
        if duplicate:  # R:E1
            raise RaffleError(
                gettext(
                    "The %(card)s was already found in envelope %(number)s; a deck holds each card once. Check "
                    "the card and type it again."
                )
                % {"card": card_name_for_reader(code), "number": duplicate.number},
                rule="E1",
            )
        envelope.card = code
    elif envelope.card != code:
        # Never name the sealed card in a refusal: that would open the envelope without a draw (E4).
        raise RaffleError(
            gettext(
                "That is not the card the electronic deck holds in envelope %(number)s. Leave the card "
                "empty: the system opens an electronic envelope itself."
            )
            % {"number": envelope.number},
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
        raise RaffleError(
            gettext("The %(card)s is already recorded in this deck.") % {"card": card_name_for_reader(code)}, rule="E1"
        ) from None
    draw.envelope = envelope
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
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
            gettext(
                "Envelope %(number)s's card does not match the commitment published before the first sale: "
                "the electronic deck may have been altered. Do not continue the draw; notify the Registrar "
                "and the auditor."
            )
            % {"number": envelope.number},
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
    event, draw, step = draw_machine.begin(draw, "roll_over")
    envelope = draw.envelope
    if envelope.card == ACE_OF_SPADES:
        raise RaffleError(gettext("This card is the Ace of Spades: award the jackpot instead."), rule="P4")
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
    draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=roll_over_write(draw),
        data={"jackpot_carried": event.jackpot},
    )
    pool_empty(draw=draw)
    schedule_next_draw(event=event, after=draw, actor=actor)
    return draw


def roll_over_write(draw: Draw) -> tuple[str, ...]:
    """Not the ace: the jackpot rolls over (the draw's fields to save).
    Shared by the live draw and the history import."""
    draw.outcome = DrawOutcome.ROLLOVER
    return ("outcome",)


def jackpot_award_write(draw: Draw) -> tuple[str, ...]:
    """The Ace of Spades: the holder wins the draw prize and the whole jackpot
    (this draw's 30% included). Shared by the live draw and the history import."""
    draw.jackpot_awarded = draw.jackpot_after
    draw.outcome = DrawOutcome.JACKPOT_WON
    return ("jackpot_awarded", "outcome")


def event_conclude(*, actor, event: Event, licence: Licence, draw: Draw, reason: str) -> None:
    """R:P4 the Ace of Spades ends the event and the licence (locked by the
    caller); nothing more is sold or drawn. Shared by the live draw and the
    history import."""
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
    licence_conclude(actor=actor, licence=licence, reason=reason)


def schedule_next_draw(*, event: Event, after: Draw, actor=None) -> Draw | None:
    """The draw after `after`, unless it is scheduled already: the draw
    interval after it, or the day an approved schedule amendment sets. R:P7
    none after the event's fixed last draw; that draw is the must-go final draw."""
    if event.draws.filter(number=after.number + 1).exists():
        return None
    if event.last_draw_number and after.number >= event.last_draw_number:
        raise RaffleError(
            gettext(
                "Draw %(last_draw_number)s is the event's last draw, fixed in its Rules of Play: no draw "
                "is scheduled after it, and it is the must-go final draw that ends at the Ace of Spades."
            )
            % {"last_draw_number": event.last_draw_number},
            rule="P7",
        )
    # Days are added to the local time (a zoneinfo datetime adds wall-clock
    # time), so the next draw keeps the hall's hour across daylight saving.
    planned_at = timezone.localtime(schedule_base(after)) + datetime.timedelta(days=event.draw_interval_days)
    draw = Draw.objects.create(
        event=event,
        number=after.number + 1,
        scheduled_at=amended_draw_time(event, after.number + 1, planned_at),  # R:L3 an approved amended schedule
    )
    return draw_mark_if_last(actor=actor, event=event, draw=draw)


@transaction.atomic
def draw_award_jackpot(*, actor, draw: Draw) -> Draw:
    """The Ace of Spades: the holder wins the draw prize and the whole jackpot
    (this draw's 30% included); the event and the licence are concluded (P4)."""
    event, draw, step = draw_machine.begin(draw, "award_jackpot")
    if draw.envelope.card != ACE_OF_SPADES:
        raise RaffleError(
            gettext("The card is the %(card)s, not the Ace of Spades: log its destruction and roll the jackpot over.")
            % {"card": card_name_for_reader(draw.envelope.card)}
        )
    licence = Licence.objects.select_for_update().get(pk=event.licence_id)
    draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=jackpot_award_write(draw),
        data={
            "draw_prize": draw.draw_prize,
            "jackpot_awarded": draw.jackpot_awarded,
            "winning_serial": draw.winning_serial,
        },
    )
    pool_empty(draw=draw)
    event_conclude(
        actor=actor, event=event, licence=licence, draw=draw, reason=f"Ace of Spades found in draw {draw.number}"
    )
    if draw.must_go:
        must_go_settle(actor=actor, event=event, draw=draw)
    return draw
