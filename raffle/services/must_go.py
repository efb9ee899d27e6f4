"""The exit strategy (RULES P7): the must-go final draw.

Used for the last scheduled draw (or the event's fixed last draw), the
licence's expiry or the prize board ceiling. Winning tickets keep being drawn
and envelopes opened until the Ace of Spades is revealed; each re-draw is
logged. When no valid ticket is left before the ace, the lowest sealed
envelopes are opened in order until it is (`draw_must_go_open_next`). The
holders are paid as the Rules of Play state (`Event.must_go_payout`,
`must_go_payouts`); the event is concluded by `draw_award_jackpot`, which
calls `must_go_settle`. Each holder is then paid their own share by their own
payment (`raffle.services.treasury.prize_payment_record`).
"""

from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import ZERO, share_equally
from raffle.cards import card_name
from raffle.errors import RaffleError
from raffle.models import (
    MUST_GO_SETTABLE,
    Draw,
    DrawState,
    Envelope,
    Event,
    MustGoPayout,
    MustGoReason,
    MustGoTicket,
    SelectionMethod,
)
from raffle.services import draw_machine
from raffle.services.destruction import log_card_destruction, log_signature_refusals
from raffle.services.pool import current_selection, draws_by_rng, paper_ticket, pick_rng, record_selection


@transaction.atomic
def draw_set_must_go(*, actor, draw, reason: str):
    """Make this draw the must-go final draw. Allowed until its winning ticket
    is drawn, and only when the Rules of Play state the exit strategy."""
    event, draw = draw_machine.lock(draw)
    if event.is_concluded:
        raise RaffleError(
            gettext("%(event)s is concluded; there is no draw left to run.") % {"event": event}, rule="P4"
        )
    if reason not in MustGoReason.values:
        raise RaffleError(
            gettext("Say why this is the final draw: the last scheduled draw, the licence's expiry or the prize board.")
        )
    if draw.must_go:
        raise RaffleError(gettext("Draw %(number)s is already the must-go final draw.") % {"number": draw.number})
    if draw.state not in MUST_GO_SETTABLE:
        raise RaffleError(
            gettext(
                "Draw %(number)s's winning ticket is already drawn; a draw becomes the must-go final draw "
                "before its ticket is drawn."
            )
            % {"number": draw.number},
            rule="P7",
        )
    if not event.must_go_payout:  # R:P7 the Rules of Play must say how holders are paid.
        raise RaffleError(
            gettext(
                "The Rules of Play do not state the exit strategy (how the holders of the final draw are "
                "paid); a must-go draw cannot run without it."
            ),
            rule="P7",
        )
    if event.draws.filter(number__gt=draw.number).exclude(state=DrawState.SCHEDULED).exists():
        raise RaffleError(gettext("A later draw than draw %(number)s has already started.") % {"number": draw.number})
    draw.must_go = True
    draw.must_go_reason = reason
    draw.save(update_fields=["must_go", "must_go_reason"])
    # The must-go draw is the last: drop the later draws scheduled but never started.
    event.draws.filter(number__gt=draw.number, state=DrawState.SCHEDULED).delete()
    audit_record(
        actor=actor,
        action="raffle.draw.set_must_go",
        obj=draw,
        data={"event": event.pk, "number": draw.number, "reason": reason, "payout": event.must_go_payout},
    )
    return draw


def draw_mark_if_last(*, actor, event: Event, draw: Draw) -> Draw:
    """R:P7 the event's fixed last draw is the must-go final draw from the
    moment it is scheduled (at set-up for draw 1, or when the draw before it
    rolls over). Runs inside the caller's transaction."""
    if event.last_draw_number != draw.number or draw.must_go:
        return draw
    draw.must_go, draw.must_go_reason = True, MustGoReason.LAST_DRAW
    draw.save(update_fields=["must_go", "must_go_reason"])
    audit_record(
        actor=actor,
        action="raffle.draw.set_must_go",
        obj=draw,
        data={
            "event": event.pk,
            "number": draw.number,
            "reason": MustGoReason.LAST_DRAW,
            "payout": event.must_go_payout,
            "fixed_last_draw": True,
        },
    )
    return draw


def _record_ticket(*, draw, sequence: int) -> MustGoTicket:
    envelope = draw.envelope
    return MustGoTicket.objects.create(
        draw=draw,
        sequence=sequence,
        winning_serial=draw.winning_serial,
        winner_name=draw.winner_name,
        envelope=envelope,
        card=envelope.card,
        recorded_at=timezone.now(),
    )


@log_signature_refusals
@transaction.atomic
def draw_must_go_redraw(
    *,
    actor,
    draw,
    destroyed_by,
    verified_by,
    destroyer_password: str,
    verifier_password: str,
    serial: str = "",
    serial_again: str | None = None,
    winner_name: str = "",
):
    """R:P7 the card is not the ace: log its destruction (E3), keep the
    ticket and its envelope in the draw's record, and draw the next winning
    ticket exactly as the winning-ticket step does: a valid ticket sold for
    this draw and not drawn in it before, picked by the RNG (electronic and
    online, D5) or drawn from the container and its serial typed twice (paper,
    D2). The draw goes back to "winning ticket drawn"; the next envelope is
    the one that ticket picked, or the event's procedure when it is open (T9)."""
    event, draw = draw_machine.lock(draw)
    if draw.must_go and draw.state == DrawState.CARD_REVEALED and draw.is_ace:
        raise RaffleError(
            gettext("This card is the Ace of Spades: award the jackpot; the must-go draw is over."), rule="P7"
        )
    step = draw_machine.check(event, draw, "must_go_redraw")
    previous = current_selection(draw)
    drawn = set(draw.winner_selections.values_list("ticket_id", flat=True))
    by_rng = draws_by_rng(draw)
    if not by_rng:
        ticket, picks = paper_ticket(draw=draw, serial=serial, serial_again=serial_again), []
        method = SelectionMethod.CONTAINER
        if ticket.pk in drawn:
            raise RaffleError(
                gettext(
                    "Ticket %(serial)s was already drawn in this draw; a drawn ticket stays out of the drum. "
                    "Draw another ticket."
                )
                % {"serial": ticket.serial},
                rule="P7",
            )
    envelope = Envelope.objects.select_for_update().get(pk=draw.envelope_id)
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
    if by_rng:  # R:D5 the RNG draws only once the card's destruction is signed
        ticket, picks = pick_rng(draw=draw, exclude=drawn)
        method = SelectionMethod.RNG
    earlier = _record_ticket(draw=draw, sequence=draw.must_go_tickets.count() + 1)
    if previous is not None:
        previous.superseded_at = timezone.now()
        previous.superseded_reason = (
            f"must-go re-draw: envelope {envelope.number} held the {card_name(envelope.card)}, not the Ace of Spades"
        )[:200]
        previous.save(update_fields=["superseded_at", "superseded_reason"])
    selection = record_selection(actor=actor, draw=draw, ticket=ticket, method=method, picks=picks)
    draw.winning_serial = ticket.serial
    draw.winner_name = (ticket.sale.purchaser_name or (winner_name or "").strip())[:150]
    draw.envelope = None
    draw.envelope_chosen_at = None
    draw.card_revealed_at = None
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=("winning_serial", "winner_name", "envelope", "envelope_chosen_at", "card_revealed_at"),
        data={
            "previous_serial": earlier.winning_serial,
            "previous_envelope": envelope.number,
            "previous_card": envelope.card,
            "redraw": earlier.sequence,
            "serial": ticket.serial,
            "winner_name": draw.winner_name,
            "method": method,
            "seq": ticket.seq,
            "pool_size": selection.pool_size,
            "pool_max_seq": selection.pool_max_seq,
            "rng_picks": picks,
            "attempt": selection.attempt,
        },
    )


def _payout_rule(rule: str) -> str:
    if rule not in MustGoPayout.values:
        raise RaffleError(
            gettext("The Rules of Play do not state how the holders of the final draw are paid."), rule="P7"
        )
    return rule


def must_go_payouts(
    *, rule: str, draw_prize: Decimal, jackpot: Decimal, holders: int, ace_found: bool = True
) -> list[tuple[Decimal, Decimal]]:
    """R:P7 R:P2 what each holder of the must-go draw gets, in the order
    their tickets were drawn: a list of (draw prize share, jackpot share)
    that adds up to the draw prize and the jackpot exactly. No one is paid
    anything beyond those two prizes.

    `ace_found`: the last holder's envelope held the ace. Otherwise every
    valid ticket was drawn first and the ace came out of the lowest sealed
    envelopes opened in order (the run-out): no holder found it, so the
    jackpot is shared equally by all the holders and every holder counts as a
    holder of a ticket drawn before the ace.

    Shares are to the cent: each holder gets the amount divided and rounded
    down, and the cents left over go one each to the tickets drawn first
    (`core.money.share_equally`), so the same draw always pays the same way.
    """
    if holders < 1:
        raise RaffleError(gettext("A must-go draw pays the holders of the tickets drawn in it; none is recorded."))
    rule = _payout_rule(rule)
    non_ace = holders - 1 if ace_found else holders
    if rule == MustGoPayout.SHARE_ALL or (rule == MustGoPayout.SHARE_NON_ACE and non_ace):
        # The ace holder shares only under SHARE_ALL, or alone found the ace on the first ticket.
        sharing = holders if rule == MustGoPayout.SHARE_ALL else non_ace
        prize = [*share_equally(draw_prize, sharing), *([ZERO] * (holders - sharing))]
    elif rule == MustGoPayout.FIRST_TICKET:
        prize = [draw_prize, *([ZERO] * (holders - 1))]
    else:  # FINAL_WINNER, or SHARE_NON_ACE when the first ticket found the ace: the last ticket drawn
        prize = [*([ZERO] * (holders - 1)), draw_prize]
    if ace_found:
        jackpots = [*([ZERO] * (holders - 1)), jackpot]
    else:
        jackpots = share_equally(jackpot, holders)
    return list(zip(prize, jackpots, strict=True))


@log_signature_refusals
@transaction.atomic
def draw_must_go_open_next(
    *,
    actor,
    draw,
    destroyed_by,
    verified_by,
    destroyer_password: str,
    verifier_password: str,
):
    """R:P7 every valid ticket of the must-go draw has been drawn and the card
    just revealed is not the ace: log its destruction (E3) and open the
    lowest-numbered sealed envelope next, as the Rules of Play say; the card
    in it is then revealed the usual way. The first time, the last holder's
    ticket and envelope join the draw's record (`MustGoTicket`); the
    envelopes opened after it belong to no ticket."""
    event, draw, step = draw_machine.begin(draw, "must_go_open_next")
    envelope = Envelope.objects.select_for_update().get(pk=draw.envelope_id)
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
    fields = ["envelope"]
    if draw.must_go_run_out_at is None:
        _record_ticket(draw=draw, sequence=draw.must_go_tickets.count() + 1)
        draw.must_go_run_out_at = timezone.now()
        fields.append("must_go_run_out_at")
    lowest = Envelope.objects.select_for_update().filter(event=event, opened_at__isnull=True).order_by("number").first()
    if lowest is None:  # 52 envelopes, one ace: only a deck recorded wrongly gets here
        raise RaffleError(
            gettext(
                "Every envelope is open and none held the Ace of Spades: check the deck and the cards "
                "recorded, and notify the licensing authority."
            ),
            rule="E1",
        )
    draw.envelope = lowest
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=tuple(fields),
        data={
            "previous_envelope": envelope.number,
            "previous_card": envelope.card,
            "envelope": lowest.number,
            "how": "no valid ticket left: the lowest sealed envelope (Rules of Play)",
        },
    )


def must_go_settle(*, actor, event, draw) -> list[MustGoTicket]:
    """Record the ace holder's ticket (unless the tickets ran out before the
    ace) and set what every holder of the draw is owed as the Rules of Play
    state. Runs inside `draw_award_jackpot`'s transaction."""
    if draw.state != DrawState.CLOSED or not draw.must_go:
        raise RaffleError(gettext("Only a finished must-go draw is settled."))
    ace_found = draw.must_go_run_out_at is None
    if ace_found:
        _record_ticket(draw=draw, sequence=draw.must_go_tickets.count() + 1)
    tickets = list(draw.must_go_tickets.order_by("sequence"))
    payouts = must_go_payouts(
        rule=event.must_go_payout,
        draw_prize=draw.draw_prize,
        jackpot=draw.jackpot_awarded,
        holders=len(tickets),
        ace_found=ace_found,
    )
    for ticket, (prize_share, jackpot_share) in zip(tickets, payouts, strict=True):
        ticket.draw_prize_share = prize_share
        ticket.jackpot_share = jackpot_share
        ticket.save(update_fields=["draw_prize_share", "jackpot_share"])
    audit_record(
        actor=actor,
        action="raffle.draw.must_go_settle",
        obj=draw,
        data={
            "rule": event.must_go_payout,
            "ace_found_by_ticket": ace_found,
            "ace_envelope": draw.envelope.number,
            "payouts": [
                {
                    "sequence": t.sequence,
                    "serial": t.winning_serial,
                    "card": t.card,
                    "draw_prize_share": t.draw_prize_share,
                    "jackpot_share": t.jackpot_share,
                }
                for t in tickets
            ],
        },
    )
    return tickets
