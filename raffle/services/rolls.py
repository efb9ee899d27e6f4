"""Paper rolls and books of tickets: issued to a named seller with a serial
range, returned with the unsold part, the sold serials recorded per draw
(RULES T7, L13; sellers are never paid commission, T2)."""

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from core.audit import audit_record
from licensing.models import SalesChannel
from raffle.errors import EventConcluded, RaffleError
from raffle.models import (
    Draw,
    DrawState,
    Event,
    EventStatus,
    RollKind,
    Sale,
    Ticket,
    TicketRoll,
)
from raffle.selectors.sales import lost_roll_void_count
from raffle.services import draw_machine
from raffle.services.ending import check_not_cancelled
from raffle.services.pool import draw_sales_channel
from raffle.services.sale_path import (
    MAX_BATCH,
    MAX_SERIAL,
    SaleLine,
    check_selling,
    prepare_sales,
    price_tier,
    price_tiers,
    selling_draw,
    whole_number,
)
from raffle.services.sale_record import check_bingo_sale
from raffle.services.sale_write import write_sales


def _check_serial_range(first, last) -> tuple[int, int]:
    first = whole_number(first, "The first serial", at_most=MAX_SERIAL)
    last = whole_number(last, "The last serial", at_most=MAX_SERIAL)
    if last < first:
        raise RaffleError(
            gettext("The range %(first)s–%(last)s runs backwards; the last serial must be the higher one.")
            % {"first": first, "last": last}
        )
    if last - first + 1 > MAX_BATCH:
        raise RaffleError(
            gettext("A roll holds at most %(MAX_BATCH)s tickets.") % {"MAX_BATCH": format(MAX_BATCH, ",")}
        )
    return first, last


# pg_advisory_xact_lock(int, int): this class id and the licence; "SERI". The
# tickets' trigger takes it shared before it looks for a typed serial inside a
# roll's range (migration 0027); a roll is issued holding it alone.
SERIALS_LOCK_CLASS = 0x53455249


def _lock_licence_serials(licence_id: int) -> None:
    """R:T3 no ticket with a serial of this licence is being written while a
    roll's range is checked and issued (PostgreSQL; SQLite writes one at a time)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [SERIALS_LOCK_CLASS, licence_id % 2**31])


def _check_no_ticket_carries(*, licence_id: int, first: int, last: int) -> None:
    """R:T3 no ticket on the serial index (typed, imported, sold from a book)
    already carries a serial from first to last: a roll of those serials would
    sell them again."""
    taken = Ticket.objects.numbered_between(licence_id=licence_id, first=first, last=last).select_related("draw")
    ticket = taken.order_by().first()
    if ticket is not None:
        raise RaffleError(
            gettext(
                "Ticket %(serial)s is already sold under this licence (draw %(number)s), and serials "
                "%(first)s–%(last)s include it; serials are never reused under a licence."
            )
            % {"serial": ticket.serial, "number": ticket.draw.number, "first": first, "last": last},
            rule="T3",
        )


@transaction.atomic
def roll_issue(
    *, actor, draw: Draw, seller_name: str, first_serial, last_serial, seller=None, kind: str = RollKind.ROLL
) -> TicketRoll:
    """Issue a roll (or a book of stubs) with a serial range to a named seller
    for one draw (T7, L13). Ranges never overlap within a licence (T3)."""
    event = Event.objects.select_for_update().select_related("licence").get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    if event.status == EventStatus.CONCLUDED:  # R:P4
        raise EventConcluded(
            gettext("%(event)s is concluded; no more tickets can be issued.") % {"event": event}, rule="P4"
        )
    check_not_cancelled(event.licence, f"a roll for draw {draw.number}")  # R:R5
    if draw.state not in (DrawState.SCHEDULED, DrawState.SELLING):
        raise RaffleError(
            gettext("Sales for draw %(number)s are closed; issue rolls for a later draw.") % {"number": draw.number},
            rule="T4",
        )
    draw.event = event
    if draw_sales_channel(draw) not in (SalesChannel.PAPER_ROLL, SalesChannel.PAPER_STUB):  # R:L5
        raise RaffleError(
            gettext("Draw %(number)s sells electronically; rolls and books are for paper tickets.")
            % {"number": draw.number},
            rule="L5",
        )
    if not (seller_name or "").strip():
        raise RaffleError(gettext("Name the seller the roll is issued to; every roll is accounted for."), rule="L13")
    if kind not in RollKind.values:
        raise RaffleError(gettext("A roll is a 'roll' or a 'book'."))
    if event.is_bingo and kind != RollKind.BOOK:  # R:T12
        raise RaffleError(
            gettext(
                "%(event)s is a bingo revenue model event: it sells stub tickets only; issue a book of "
                "stubs, not a roll."
            )
            % {"event": event},
            rule="T12",
        )
    first, last = _check_serial_range(first_serial, last_serial)
    _lock_licence_serials(event.licence_id)
    clash = (
        TicketRoll.objects.filter(licence_id=event.licence_id, first_serial__lte=last, last_serial__gte=first)
        .select_related("draw")
        .first()
    )
    if clash:  # R:T3
        raise RaffleError(
            gettext(
                "Serials %(first)s–%(last)s overlap %(clash)s issued for draw %(number)s; serials are "
                "never reused under a licence."
            )
            % {"first": first, "last": last, "clash": clash, "number": clash.draw.number},
            rule="T3",
        )
    _check_no_ticket_carries(licence_id=event.licence_id, first=first, last=last)
    roll = TicketRoll.objects.create(
        licence_id=event.licence_id,
        draw=draw,
        kind=kind,
        seller=seller,
        seller_name=seller_name.strip()[:150],
        first_serial=first,
        last_serial=last,
        issued_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    audit_record(
        actor=actor,
        action="raffle.roll.issue",
        obj=roll,
        data={"draw": draw.number, "kind": kind, "seller": roll.seller_name, "first": first, "last": last},
    )
    return roll


@transaction.atomic
def roll_return(*, actor, roll: TicketRoll, first_unsold, tier_counts: dict) -> list[Sale]:
    """The seller hands back the unsold part of a roll, from `first_unsold`
    on; everything before it was sold, in the tiers counted (e.g. {1: 20, 3: 40}
    is twenty 1-for-$5 and forty 3-for-$10 sales = 140 serials). Records the
    sales and their serials in bulk (COPY on PostgreSQL)."""
    draw = selling_draw(roll.draw, returning=True)
    roll = TicketRoll.objects.select_for_update().get(pk=roll.pk)
    if roll.is_returned:
        raise RaffleError(
            gettext("%(roll)s was already returned on %(returned_at)s.")
            % {"roll": roll, "returned_at": format(timezone.localtime(roll.returned_at), "%Y-%m-%d %H:%M")}
        )
    _check_not_lost(roll)
    first_unsold = whole_number(first_unsold, "The first unsold serial", at_most=MAX_SERIAL + 1)
    if not roll.first_serial <= first_unsold <= roll.last_serial + 1:
        raise RaffleError(
            gettext(
                "Serial %(first_unsold)s is outside %(roll)s; the first unsold serial is between "
                "%(first_serial)s and %(value)s (all sold)."
            )
            % {
                "first_unsold": first_unsold,
                "roll": roll,
                "first_serial": roll.first_serial,
                "value": roll.last_serial + 1,
            },
            rule="T7",
        )
    sold = first_unsold - roll.first_serial
    if roll.kind == RollKind.BOOK:
        return _book_return(
            actor=actor, draw=draw, roll=roll, first_unsold=first_unsold, sold=sold, tier_counts=tier_counts
        )
    tiers = price_tiers(draw)
    lines, next_serial = [], roll.first_serial
    counted = 0
    for quantity, units in sorted((tier_counts or {}).items()):
        units = int(units or 0)
        if units < 0:
            raise RaffleError(gettext("A count of sales cannot be negative."))
        if units == 0:
            continue
        tier = price_tier(tiers, quantity)
        count = tier.quantity * units
        if counted + count > sold:  # refused before a single serial is written out (10^20 would hang)
            counted += count
            break
        lines.append(
            SaleLine(
                tier_quantity=tier.quantity,
                units=units,
                roll=roll,
                device=roll.seller_name,
                # the numbers themselves, not a million strings built before the COPY starts
                serials=range(next_serial, next_serial + count),
            )
        )
        next_serial += count
        counted += count
    # R:T7 R:L13 the roll reconciles: sold serials = the tiers counted.
    if counted != sold:
        raise RaffleError(
            gettext(
                "%(roll)s: serials %(first_serial)s–%(value)s are %(sold)s sold tickets, but the sales "
                "counted add up to %(counted)s. Recount the stubs and the cash."
            )
            % {
                "roll": roll,
                "first_serial": roll.first_serial,
                "value": first_unsold - 1,
                "sold": sold,
                "counted": counted,
            },
            rule="L13",
        )
    check_bingo_sale(draw, channel=SalesChannel.PAPER_ROLL)  # R:T12
    # R:T3 the roll's range overlaps no other roll's (checked at issue, and an
    # exclusion constraint) and no ticket typed before it was issued carries one
    # of its serials (checked at issue; a typed serial inside it is refused since,
    # and a ticket typed before this version is looked for again here). Its
    # tickets are written at their place in it, which the primary key holds once.
    sales = []
    if lines:
        _check_no_ticket_carries(licence_id=roll.licence_id, first=roll.first_serial, last=first_unsold - 1)
        batch = prepare_sales(
            actor=actor,
            draw=draw,
            channel=SalesChannel.PAPER_ROLL,
            lines=lines,
            needs_purchaser=False,
            serials_checked=True,
        )
        roll.first_unsold = first_unsold  # its sold part, written with its first seq (`write_sales`)
        batch.roll_range = roll
        write_sales(batch)
        sales = batch.sales
    roll.first_unsold = first_unsold
    roll.returned_at = timezone.now()
    roll.save(update_fields=["first_unsold", "returned_at"])
    audit_record(
        actor=actor,
        action="raffle.roll.return",
        obj=roll,
        data={
            "draw": draw.number,
            "first_unsold": first_unsold,
            "sold": sold,
            "unsold": roll.last_serial - first_unsold + 1,
            "amount": sum(s.amount for s in sales),
            "tier_counts": {str(k): v for k, v in (tier_counts or {}).items()},
        },
    )
    return sales


def _check_not_lost(roll: TicketRoll) -> None:
    if roll.is_lost:  # R:T7
        raise RaffleError(
            _("%(roll)s was declared lost on %(on)s: its unsold serials are void and it cannot be returned.")
            % {"roll": roll, "on": f"{timezone.localtime(roll.lost_at):%Y-%m-%d %H:%M}"},
            rule="T7",
        )


def rolls_out(draw: Draw) -> list[TicketRoll]:
    """The draw's rolls and books still with their sellers (R:T7 R:L13)."""
    return list(TicketRoll.objects.filter(draw=draw, returned_at__isnull=True, lost_at__isnull=True))


def check_no_roll_out(draw: Draw) -> None:
    """R:T7 R:L13 sales close only once every roll and book of the draw is
    returned or declared lost: every ticket is reconciled."""
    out = rolls_out(draw)
    if out:
        raise RaffleError(
            _(
                "%(rolls)s %(verb)s still out for draw %(number)s. Sales close once every roll and book is returned "
                "or, if it cannot be, declared lost with a reason (its unsold serials then void): the rolls page."
            )
            % {
                "rolls": "; ".join(str(roll) for roll in out),
                "verb": _("is") if len(out) == 1 else _("are"),
                "number": draw.number,
            },
            rule="T7",
        )


@transaction.atomic
def roll_declare_lost(*, actor, roll: TicketRoll, reason: str) -> TicketRoll:
    """R:T7 R:L13 a roll or book that cannot be returned is declared lost,
    with the reason: its unsold serials (all of a roll's, whose sales are
    recorded only at its return; a book's stubs not recorded as sold) are void
    from now on, reported as void on the draw's ticket log, never sold or
    drawn, and never reused (T3: the range stays issued)."""
    event, draw = draw_machine.lock(roll.draw)
    roll = TicketRoll.objects.select_for_update().get(pk=roll.pk)
    reason = (reason or "").strip()
    if roll.is_returned:
        raise RaffleError(
            _("%(roll)s was returned on %(on)s; its unsold serials are already accounted for.")
            % {"roll": roll, "on": f"{timezone.localtime(roll.returned_at):%Y-%m-%d %H:%M}"},
            rule="T7",
        )
    _check_not_lost(roll)
    if not reason:
        raise RaffleError(
            _("Say why %(roll)s cannot be returned (e.g. “lost by the seller at the arena”).") % {"roll": roll},
            rule="T7",
        )
    void = lost_roll_void_count(roll)
    roll.lost_at = timezone.now()
    roll.lost_reason = reason[:300]
    roll.lost_by = actor if getattr(actor, "is_authenticated", False) else None
    roll.save(update_fields=["lost_at", "lost_reason", "lost_by"])
    audit_record(
        actor=actor,
        action="raffle.roll.declare_lost",
        obj=roll,
        data={
            "draw": draw.number,
            "kind": roll.kind,
            "seller": roll.seller_name,
            "first": roll.first_serial,
            "last": roll.last_serial,
            "void_serials": void,
            "reason": roll.lost_reason,
        },
    )
    return roll


def _book_return(*, actor, draw: Draw, roll: TicketRoll, first_unsold: int, sold: int, tier_counts: dict) -> list[Sale]:
    """A book of stubs comes back: its stubs were sold one by one with the
    purchaser's details (T9), so the return records no sale; it checks that
    every stub before the first unsold one was recorded (T7, L13)."""
    if any(int(units or 0) for units in (tier_counts or {}).values()):
        raise RaffleError(
            gettext(
                "Stubs are recorded one sale at a time with the purchaser's details; a returned book only "
                "says where the unsold stubs start."
            ),
            rule="T9",
        )
    draw = Draw.objects.select_for_update().select_related("event").get(pk=draw.pk)
    check_selling(draw)  # under the lock: the stubs recorded are all there are
    serials = [str(n) for n in range(roll.first_serial, first_unsold)]
    recorded = set(Ticket.objects.filter(draw=draw, serial__in=serials).values_list("serial", flat=True))
    missing = [s for s in serials if s not in recorded]
    if missing:  # R:T7 R:L13 every stub sold is accounted for
        shown = ", ".join(missing[:10]) + (" ..." if len(missing) > 10 else "")
        raise RaffleError(
            gettext(
                "%(count)s stub(s) before %(first_unsold)s were not recorded as sales: %(shown)s. Record "
                "them, or give the right first unsold serial."
            )
            % {"count": len(missing), "first_unsold": first_unsold, "shown": shown},
            rule="L13",
        )
    roll.first_unsold = first_unsold
    roll.returned_at = timezone.now()
    roll.save(update_fields=["first_unsold", "returned_at"])
    audit_record(
        actor=actor,
        action="raffle.roll.return",
        obj=roll,
        data={
            "draw": draw.number,
            "kind": roll.kind,
            "first_unsold": first_unsold,
            "sold": sold,
            "unsold": roll.last_serial - first_unsold + 1,
        },
    )
    return []
