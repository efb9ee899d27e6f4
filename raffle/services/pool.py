"""A draw's ticket pool: fixed when sales close (T7), drawn from (D5, D2),
emptied after the draw (T4) with the destruction date of its tickets (T6).

Helpers for the draw-step services in `raffle.services.draws` and
`raffle.services.winner`; they run inside those services' transactions, with
the event and the draw already locked.
"""

import datetime
import secrets

from django.utils import timezone
from django.utils.translation import gettext

from licensing.models import AmendmentKind, AmendmentStatus, LicenceAmendment, SalesChannel
from licensing.terms import approved_amendments, licence_channel_on, licence_draw_place_on
from raffle.envelope_taken import opened_envelope_rule
from raffle.errors import RaffleError
from raffle.models import (
    DESTRUCTION_DELAY_DAYS,
    Draw,
    DrawPool,
    DrawState,
    Envelope,
    EnvelopeTakenProcedure,
    Event,
    Ticket,
    WinnerSelection,
)

# Rejection sampling retries before falling back to an indexed OFFSET pick;
# only reached when most of a draw's tickets are void.
_MAX_RNG_TRIES = 64


def pending_amendment(draw: Draw) -> LicenceAmendment | None:
    """R:L5 an approved amendment of the licence's channel that does not yet
    apply to this draw: it takes effect for draws on or after its effective day."""
    if (read := approved_amendments(draw.event.licence)) is not None:  # read once by the sale (#18)
        return read.first_after(AmendmentKind.CHANNEL, timezone.localdate(draw.scheduled_at))
    return (
        LicenceAmendment.objects.filter(
            licence_id=draw.event.licence_id,
            kind=AmendmentKind.CHANNEL,
            status=AmendmentStatus.APPROVED,
            effective_on__gt=timezone.localdate(draw.scheduled_at),
        )
        .order_by("effective_on")
        .first()
    )


def draw_sales_channel(draw: Draw) -> str:
    """R:L5 the channel a draw sells on: the one in force on its day, so a
    draw before an approved amendment's effective day keeps the channel it
    replaced and the draws from that day sell on the new one."""
    return licence_channel_on(draw.event.licence, timezone.localdate(draw.scheduled_at))


def draw_place_of(draw: Draw) -> str:
    """R:L5 where the draw is held: an approved draw-place amendment's place
    from its effective day, else the event's own."""
    return licence_draw_place_on(draw.event.licence, timezone.localdate(draw.scheduled_at)) or draw.event.draw_place


def is_electronic_draw(draw: Draw) -> bool:
    """Sold electronically or online (by the channel the draw sold on, so a
    paper draw held before an amendment to electronic sales takes effect is
    still drawn from its container, L5)."""
    return draw_sales_channel(draw) in (SalesChannel.ELECTRONIC, SalesChannel.ONLINE)


def draws_by_rng(draw: Draw) -> bool:
    """R:D5 this software's own RNG draws an electronic or online draw only
    where the licence records the approval that allows it; paper is drawn
    from a container (D3)."""
    return is_electronic_draw(draw) and draw.event.licence.has_system_approval


def draws_by_supplier(draw: Draw) -> bool:
    """R:D5 an electronic or online draw without that approval takes the
    winning ticket the AGCO-registered supplier's system drew."""
    return is_electronic_draw(draw) and not draw.event.licence.has_system_approval


def pool_fix(*, draw: Draw, figures) -> DrawPool:
    """R:T7 store the draw's pool as sales close: the counts and the valid
    sales total of `figures` (`draw_sales.close_sales_figures`, which refuses
    an empty pool or a container count that differs), with the sequence range
    the RNG draws from and the first and last serials (aggregates, never a
    Python loop over a million rows)."""
    max_seq = draw.last_seq  # the draw's running totals: its seq is dense from 1
    ends = dict(Ticket.objects.at(draw.pk, [1, max_seq]).values_list("seq", "serial"))
    return DrawPool.objects.create(
        draw=draw,
        valid_tickets=figures.valid_tickets,
        void_tickets=figures.void_tickets,
        max_seq=max_seq,
        sales_total=figures.sales,
        first_serial=ends.get(1, ""),
        last_serial=ends.get(max_seq, ""),
        container_count=figures.container_count,
    )


def pick_rng(*, draw: Draw, exclude: set[int] = frozenset()) -> tuple[Ticket, list[int]]:
    """R:D5 a uniform pick among the draw's valid tickets with the OS's
    cryptographic RNG (`secrets`). Draws a seq in 1..max_seq and looks it up on
    the primary key (draw, seq); a void or excluded ticket is drawn again (rejection
    sampling keeps the pick uniform). Returns the ticket and every index drawn."""
    pool = draw.pool
    picks = []
    for _ in range(_MAX_RNG_TRIES):
        seq = secrets.randbelow(pool.max_seq) + 1
        picks.append(seq)
        ticket = Ticket.objects.at(draw.pk, [seq]).select_related("sale").first()
        if ticket and not ticket.is_void and ticket.pk not in exclude:
            return ticket, picks
    eligible = Ticket.objects.of_draw(draw.pk).filter(is_void=False).exclude(pk__in=exclude)
    count = eligible.count()
    if count == 0:
        raise RaffleError(
            gettext("Draw %(number)s has no valid ticket left to draw.") % {"number": draw.number}, rule="T8"
        )
    index = secrets.randbelow(count)
    picks.append(-1 - index)  # negative: an index among the eligible tickets in seq order
    return eligible.order_by("pk").select_related("sale")[index], picks


def paper_ticket(*, draw: Draw, serial: str, serial_again: str | None) -> Ticket:
    """R:D2 the serial drawn from the container, typed twice, must be a sold,
    valid ticket of this draw."""
    serial = normalise_serial(serial)
    if serial_again is None or normalise_serial(serial_again) != serial:
        raise RaffleError(
            gettext("The two serial numbers typed do not match; read the ticket again and type its serial twice.")
        )
    ticket = Ticket.objects.with_serial(serial, licence_id=draw.event.licence_id).select_related("sale", "draw").first()
    if ticket is None:
        raise RaffleError(
            gettext("Ticket %(serial)s was never sold under this licence; check the ticket.") % {"serial": serial},
            rule="D2",
        )
    if ticket.draw_id != draw.pk:  # R:T4
        raise RaffleError(
            gettext(
                "Ticket %(serial)s was sold for draw %(number)s; only tickets sold for draw %(number2)s are eligible."
            )
            % {"serial": serial, "number": ticket.draw.number, "number2": draw.number},
            rule="T4",
        )
    if ticket.is_void:  # R:T11
        raise RaffleError(
            gettext("Ticket %(serial)s was voided (%(void_reason)s); a void ticket cannot win. Draw another ticket.")
            % {"serial": serial, "void_reason": ticket.sale.void_reason},
            rule="T11",
        )
    return ticket


def normalise_serial(value) -> str:
    serial = str(value or "").strip().upper()
    if not serial:
        raise RaffleError(gettext("Type the winning ticket's serial number."))
    if len(serial) > 40 or not serial.isascii() or not all(c.isalnum() or c == "-" for c in serial):
        raise RaffleError(
            gettext(
                "“%(serial)s” is not a ticket serial: serials are the letters A to Z, the digits 0 to 9 and dashes."
            )
            % {"serial": serial[:40]}
        )
    if serial.isdigit():
        serial = str(int(serial))  # printed leading zeros do not make another ticket
    return serial


def record_selection(
    *, actor, draw: Draw, ticket: Ticket, method: str, picks: list[int], rng_reference: str = ""
) -> WinnerSelection:
    attempt = draw.winner_selections.count() + 1
    return WinnerSelection.objects.create(
        draw=draw,
        attempt=attempt,
        ticket=ticket,
        method=method,
        pool_size=draw.pool.valid_tickets,
        pool_max_seq=draw.pool.max_seq,
        rng_picks=picks,
        rng_reference=rng_reference if method == "supplier" else "",
        selected_by=actor if getattr(actor, "is_authenticated", False) else None,
    )


def current_selection(draw: Draw) -> WinnerSelection | None:
    return draw.winner_selections.filter(superseded_at__isnull=True).select_related("ticket__sale").first()


def refuse_envelope_for_absent_holder(draw: Draw) -> None:
    """R:T8 no envelope is ever opened for an absent holder: while the draw
    awaits the claim of its winning roll ticket, its holder chooses the
    envelope when they come forward, and nobody else does."""
    if draw.state == DrawState.AWAITING_CLAIM:
        raise RaffleError(
            gettext(
                "Draw %(number)s is awaiting the claim of ticket %(winning_serial)s until %(claim_until)s: "
                "no envelope is opened for a holder who is not here. Record the claim when the holder "
                "comes forward; they choose the envelope then."
            )
            % {
                "number": draw.number,
                "winning_serial": draw.winning_serial,
                "claim_until": format(timezone.localtime(draw.claim_until), "%Y-%m-%d %H:%M"),
            },
            rule="T8",
        )


def claim_at_the_draw(draw: Draw) -> None:
    """R:T8 the holder of a winning roll ticket who chooses the envelope at
    the draw has come forward with it: the claim is recorded then."""
    selection = current_selection(draw)
    if selection is not None and selection.claimed_at is None and draw_sales_channel(draw) == SalesChannel.PAPER_ROLL:
        selection.claimed_at = timezone.now()
        selection.save(update_fields=["claimed_at"])


def resolve_envelope(*, event: Event, draw: Draw, requested: int | None) -> tuple[int, str]:
    """R:T9 the winner's envelope: the one picked on the ticket; when that one
    is already open, the event's stated procedure. Returns the number and how
    it was arrived at."""
    selection = current_selection(draw)
    picked = selection.ticket.sale.envelope_pick if selection else None
    if picked is None:
        if requested is None:
            raise RaffleError(gettext("Type the envelope number the winner chose."))
        return requested, "chosen by the winner"
    sealed = list(
        Envelope.objects.filter(event=event, opened_at__isnull=True).order_by("number").values_list("number", flat=True)
    )
    if picked in sealed:
        if requested is not None and requested != picked:
            raise RaffleError(
                gettext(
                    "The winning ticket picked envelope %(picked)s, which is still sealed; that envelope is "
                    "opened, not %(requested)s."
                )
                % {"picked": picked, "requested": requested},
                rule="T9",
            )
        return picked, "picked on the ticket"
    # R:T9 what the Rules of Play and the wizard say, from the same setting (raffle.envelope_taken)
    procedure, rule = event.envelope_taken_procedure, opened_envelope_rule(event, picked_on_ticket=True)
    how = f"envelope {picked} was open: {rule}"
    if procedure == EnvelopeTakenProcedure.NEXT_HIGHER:
        higher = [n for n in sealed if n > picked]
        return (higher or sealed)[0], how
    if procedure == EnvelopeTakenProcedure.RANDOM:
        return secrets.choice(sealed), how
    if requested is None:
        raise RaffleError(
            gettext(
                "The ticket picked envelope %(picked)s, which is already open: under this event's Rules of "
                "Play, %(rule)s. Type its number."
            )
            % {"picked": picked, "rule": rule},
            rule="T9",
        )
    return requested, how


def pool_empty(*, draw: Draw) -> None:
    """R:T4 after the draw the pool is emptied; R:T6 its non-winning and unsold
    tickets may be destroyed 30 days after the draw; R:T5 winning tickets are
    kept (they are the draw's winner selections)."""
    pool = getattr(draw, "pool", None)
    if pool is None:  # an imported draw carries totals, no tickets
        return
    drawn_on = timezone.localdate(draw.ticket_drawn_at or timezone.now())
    pool.emptied_at = timezone.now()
    pool.destroy_after = drawn_on + datetime.timedelta(days=DESTRUCTION_DELAY_DAYS)
    pool.save(update_fields=["emptied_at", "destroy_after"])
