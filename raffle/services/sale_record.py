"""What every sale shares, on every channel: the selling draw locked, the
bingo hall's attestation (T12), price tiers, the purchaser and envelope
checks, the rows written in bulk (`record_sales`) and their audit entry.
Used by the sale services (`tickets.py`) and the roll and book returns
(`rolls.py`)."""

import datetime
from dataclasses import dataclass, field

from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from core.audit import audit_record
from core.money import ZERO
from licensing.models import LicenceAmendment, SalesChannel
from raffle.errors import EventConcluded, RaffleError
from raffle.models import (
    Draw,
    DrawState,
    Envelope,
    Event,
    EventStatus,
    PriceTier,
    Sale,
    Ticket,
    TicketRoll,
)
from raffle.selectors.sales import valid_sales_total
from raffle.services.prize_board import prize_board_check

# The most serials one roll, book or import may carry.
MAX_BATCH = 2_000_000


@dataclass
class SaleLine:
    """One sale to record: `units` of the tier selling `tier_quantity` tickets."""

    tier_quantity: int
    units: int = 1
    serials: list[str] | None = None  # paper: the printed serials; electronic: generated
    purchaser_name: str = ""
    purchaser_contact: str = ""
    envelope_pick: int | None = None
    device: str = ""
    roll: TicketRoll | None = None
    sold_at: datetime.datetime | None = None
    extra: dict = field(default_factory=dict)


def lock_selling_draw(draw: Draw) -> Draw:
    """Lock and re-read the event, then the draw (the order every draw service
    uses): the prize board guard reads the event's committed prizes (L3)."""
    event = Event.objects.select_for_update().select_related("licence").get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    draw.event = event
    if draw.event.status == EventStatus.CONCLUDED:  # R:P4
        raise EventConcluded(f"{draw.event} is concluded; nothing more can be sold under this licence.", rule="P4")
    if draw.state != DrawState.SELLING:  # R:T4
        when = "are not open yet" if draw.state == DrawState.SCHEDULED else "are closed"
        raise RaffleError(
            f"Sales for draw {draw.number} {when}; a ticket is sold only for a draw whose sales are open.", rule="T4"
        )
    return draw


def refuse_before_amendment(draw: Draw, pending: LicenceAmendment) -> None:
    raise RaffleError(
        f"Draw {draw.number} is on {timezone.localdate(draw.scheduled_at):%Y-%m-%d}, before the amendment to "
        f"{pending.get_to_channel_display().lower()} takes effect on {pending.effective_on:%Y-%m-%d}; sell "
        f"its tickets as {pending.get_from_channel_display().lower()}.",
        rule="L5",
    )


def check_bingo_sale(draw: Draw, *, channel: str, place: str = "") -> dict:
    """R:T12 a bingo revenue model event sells stub tickets only, inside its
    bingo hall only. Returns what the sale's audit entry records of it."""
    event = draw.event
    if not event.is_bingo:
        return {}
    hall = event.draw_place.strip()
    if channel != SalesChannel.PAPER_STUB:
        raise RaffleError(
            f"{event} is a bingo revenue model event: it sells stub tickets only, inside "
            f"{hall}; {SalesChannel(channel).label.lower()} cannot be sold for it.",
            rule="T12",
        )
    if place.strip() and " ".join(place.split()).casefold() != " ".join(hall.split()).casefold():
        raise RaffleError(
            f"{event} is a bingo revenue model event: its tickets are sold inside {hall} only, not at {place.strip()}.",
            rule="T12",
        )
    return {"place": hall}


def whole_number(value, what: str) -> int:
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        raise RaffleError(f"{what} must be a whole number, not {value!r}.") from None
    if number < 1:
        raise RaffleError(f"{what} must be at least 1.")
    return number


def price_tiers(draw: Draw) -> dict[int, PriceTier]:
    return {t.quantity: t for t in PriceTier.objects.filter(event_id=draw.event_id)}


def price_tier(tiers: dict[int, PriceTier], quantity) -> PriceTier:
    # R:T1 a sale is priced only by the event's advertised price tiers.
    quantity = whole_number(quantity, "The number of tickets in the price tier")
    if quantity not in tiers:
        offers = ", ".join(str(t) for t in tiers.values())
        raise RaffleError(f"There is no price for {quantity} ticket(s); this event sells {offers}.", rule="T1")
    return tiers[quantity]


def _sealed_envelopes(draw: Draw) -> set[int]:
    return set(Envelope.objects.filter(event_id=draw.event_id, opened_at__isnull=True).values_list("number", flat=True))


def _check_purchaser(line: SaleLine, sealed: set[int]) -> None:
    # R:T9 stub and electronic tickets carry the purchaser and the envelope picked.
    if not line.purchaser_name.strip() or not line.purchaser_contact.strip():
        raise RaffleError(
            "Enter the purchaser's name and a phone number or e-mail: the ticket carries "
            "them so the winner can be reached.",
            rule="T9",
        )
    if line.envelope_pick is None or str(line.envelope_pick).strip() == "":
        raise RaffleError("Ask the purchaser which sealed envelope they pick.", rule="T9")
    pick = whole_number(line.envelope_pick, "The envelope picked")
    if pick not in sealed:
        if 1 <= pick <= 52:
            raise RaffleError(
                f"Envelope {pick} is already open; the purchaser must pick one that is still sealed.", rule="T9"
            )
        raise RaffleError(f"Envelope numbers run from 1 to 52; there is no envelope {pick}.", rule="T9")
    line.envelope_pick = pick


def _existing_serials(licence_id: int, serials: list[str]) -> list[str]:
    found = []
    for start in range(0, len(serials), 5000):
        found += Ticket.objects.filter(licence_id=licence_id, serial__in=serials[start : start + 5000]).values_list(
            "serial", flat=True
        )[:5]
        if found:
            break
    return found


def _copy_tickets(rows: list[tuple[int, int, int, str, int]]) -> None:
    """Insert (licence, draw, sale, serial, seq) rows: PostgreSQL COPY, or the
    ORM on SQLite (the demo)."""
    if connection.vendor == "postgresql":
        columns = "licence_id, draw_id, sale_id, serial, seq, is_void"
        with connection.cursor() as cursor, cursor.copy(f"COPY raffle_ticket ({columns}) FROM STDIN") as copy:
            for start in range(0, len(rows), 100_000):
                copy.write(
                    "".join(
                        f"{lic}\t{drw}\t{sale}\t{serial}\t{seq}\tf\n"
                        for lic, drw, sale, serial, seq in rows[start : start + 100_000]
                    )
                )
        return
    Ticket.objects.bulk_create(
        [
            Ticket(licence_id=lic, draw_id=drw, sale_id=sale, serial=serial, seq=seq)
            for lic, drw, sale, serial, seq in rows
        ],
        batch_size=2000,
    )


def record_sales(
    *, actor, draw: Draw, channel: str, lines: list[SaleLine], needs_purchaser: bool, serials_checked: bool = False
) -> list[Sale]:
    """Check every line, then write the sales and their tickets. The draw is
    locked. `serials_checked`: the serials come from a roll whose range was
    checked against every other roll of the licence when it was issued."""
    tiers = price_tiers(draw)
    sealed = _sealed_envelopes(draw) if needs_purchaser else set()
    licence_id = draw.event.licence_id
    seq = Ticket.objects.filter(draw=draw).aggregate(m=Max("seq"))["m"] or 0
    sales, serial_lists, total_tickets = [], [], 0
    for line in lines:
        tier = price_tier(tiers, line.tier_quantity)
        units = whole_number(line.units, "The number of sales of this price")
        count = tier.quantity * units
        if needs_purchaser:
            _check_purchaser(line, sealed)
        if line.serials is not None and len(line.serials) != count:
            raise RaffleError(f"{tier} x {units} is {count} ticket(s), but {len(line.serials)} serial(s) were given.")
        total_tickets += count
        if total_tickets > MAX_BATCH:
            raise RaffleError(f"At most {MAX_BATCH:,} tickets can be issued at once; split the batch.")
        sales.append(
            Sale(
                licence_id=licence_id,
                draw=draw,
                channel=channel,
                tier=tier,
                units=units,
                ticket_count=count,
                amount=tier.price * units,
                roll=line.roll,
                purchaser_name=line.purchaser_name.strip()[:150],
                purchaser_contact=line.purchaser_contact.strip()[:200],
                envelope_pick=line.envelope_pick,
                device=line.device.strip()[:60],
                sold_by=actor if getattr(actor, "is_authenticated", False) else None,
                sold_at=line.sold_at or timezone.now(),
            )
        )
        serial_lists.append(line.serials)
    given = [] if serials_checked else [s for serials in serial_lists if serials for s in serials]
    if len(set(given)) != len(given):
        raise RaffleError("The same serial appears twice in this sale; each serial is sold once.", rule="T3")
    taken = _existing_serials(licence_id, given) if given else []
    if taken:  # R:T3
        raise RaffleError(
            f"Ticket {taken[0]} is already sold under this licence; a serial is sold once across all draws.", rule="T3"
        )
    # R:L3 the draw's valid sales so far plus these must keep the prizes within the prize board.
    sold = valid_sales_total(draw)
    prize_board_check(event=draw.event, extra_sales=sold + sum((s.amount for s in sales), ZERO))
    Sale.objects.bulk_create(sales, batch_size=5000)
    rows = []
    for sale, serials in zip(sales, serial_lists, strict=True):
        for i in range(sale.ticket_count):
            seq += 1
            serial = serials[i] if serials else f"E{draw.number:03d}-{seq:07d}"
            rows.append((licence_id, draw.pk, sale.pk, serial, seq))
    try:
        with transaction.atomic():
            _copy_tickets(rows)
    except IntegrityError:  # R:T3 the constraint caught what the check could not see yet
        raise RaffleError(
            "One of these serials was sold at the same moment by someone else; nothing was "
            "recorded. Check the serials and sell again.",
            rule="T3",
        ) from None
    return sales


def audit_sales(*, actor, draw: Draw, sales: list[Sale], action: str, data: dict | None = None) -> None:
    if len(sales) == 1:
        sale = sales[0]
        audit_record(
            actor=actor,
            action=action,
            obj=sale,
            data={
                "draw": draw.number,
                "channel": sale.channel,
                "tickets": sale.ticket_count,
                "amount": sale.amount,
                "envelope_pick": sale.envelope_pick,
                "device": sale.device,
                **(data or {}),
            },
        )
    else:
        audit_record(
            actor=actor,
            action=action,
            obj=draw,
            data={
                "draw": draw.number,
                "sales": len(sales),
                "tickets": sum(s.ticket_count for s in sales),
                "amount": sum(s.amount for s in sales),
                **(data or {}),
            },
        )
