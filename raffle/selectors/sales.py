"""Reads behind the sales pages: a fixed number of queries, aggregates only."""

import itertools
from decimal import Decimal

from django.db.models import Q, Sum

from licensing.models import SalesChannel
from raffle.models import Draw, Envelope, Sale, Ticket
from raffle.totals import TOTAL_FIELDS


def valid_sales_total(draw: Draw) -> Decimal:
    """R:P1 the total of a draw's valid sales (voids excluded), summed here
    only: what its sales close on, and what the prize board counts (L3). Read
    from the draw's running total (kept by every sale and void;
    `reconcile_draw_totals` proves it against the rows)."""
    return Draw.objects.values_list("sales_amount", flat=True).get(pk=draw.pk)


def draw_sales_summary(draw: Draw) -> dict:
    """Valid and void sales, tickets and money of one draw: its running
    totals, read from the draw (no aggregate over its sales)."""
    draw = Draw.objects.only(*TOTAL_FIELDS).get(pk=draw.pk)
    return {
        "sales": draw.sales_valid,
        "tickets": draw.tickets_valid,
        "amount": draw.sales_amount,
        "void_sales": draw.sales_void,
        "void_tickets": draw.tickets_void,
    }


def recent_sales(draw: Draw, limit: int = 20, sales=None):
    """The draw's latest sales, among `sales` (those the reader may open) when given."""
    return (
        (Sale.objects if sales is None else sales)
        .filter(draw=draw)
        .select_related("tier")
        .order_by("-sold_at", "-id")[:limit]
    )


def sealed_envelope_numbers(draw: Draw) -> list[int]:
    return list(
        Envelope.objects.filter(event_id=draw.event_id, opened_at__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def sale_for_page(sale_id: int) -> Sale:
    return Sale.objects.select_related("draw__event__licence__organisation", "tier", "sold_by").get(pk=sale_id)


def sale_with_tickets(sale_id: int) -> tuple[Sale, list[str]]:
    sale = sale_for_page(sale_id)
    return sale, list(Ticket.objects.of_sale(sale).order_by("pk").values_list("serial", flat=True))


def _split_serial(serial: str) -> tuple[str, int | None, int]:
    """A serial as (prefix, number at its end, width of that number)."""
    digits = len(serial) - len(serial.rstrip("0123456789"))
    if not digits:
        return serial, None, 0
    return serial[:-digits], int(serial[-digits:]), digits


def _follows(previous: str, serial: str) -> bool:
    prefix, number, width = _split_serial(previous)
    next_prefix, next_number, next_width = _split_serial(serial)
    if number is None or next_number != number + 1 or next_prefix != prefix:
        return False
    return width == next_width or not prefix or str(next_number) == serial[len(prefix) :]


def serial_ranges(serials: list[str]) -> list[tuple[str, str, int]]:
    """Consecutive serials as (first, last, count) ranges, in the given order."""
    ranges: list[list] = []
    for serial in serials:
        if ranges and _follows(ranges[-1][1], serial):
            ranges[-1][1] = serial
            ranges[-1][2] += 1
        else:
            ranges.append([serial, serial, 1])
    return [tuple(r) for r in ranges]


# Sales with more tickets than this whose serials were not typed one by one (a
# returned roll's range, generated serials) are shown from their first and
# last serial when those span exactly the sale's tickets.
_LIST_UP_TO = 500


def sale_serial_ranges(sale: Sale) -> list[tuple[str, str, int]]:
    """The sale's serials as ranges, without reading a big sale's every ticket:
    its first and last serial (two primary-key lookups) when they span exactly
    its ticket count."""
    tickets = Ticket.objects.of_sale(sale).order_by("pk").values_list("serial", flat=True)
    if sale.ticket_count > _LIST_UP_TO and sale.channel != SalesChannel.PAPER_STUB:  # serials from a range
        first, last = tickets.first(), tickets.reverse().first()
        prefix, start, _ = _split_serial(first or "")
        last_prefix, end, _ = _split_serial(last or "")
        if start is not None and end is not None and prefix == last_prefix and end - start + 1 == sale.ticket_count:
            return [(first, last, sale.ticket_count)]
    return serial_ranges(list(tickets))


TICKET_LOG_HEADER = [
    "seq",
    "serial",
    "sale",
    "channel",
    "tickets in sale",
    "sale amount",
    "roll",
    "purchaser",
    "envelope picked",
    "device or seller",
    "issued at",
    "void",
    "void reason",
]


def _recorded_in(roll) -> set[int]:
    """The serials of a roll or book recorded as sold: none for a roll before
    its return; a book's stubs sold one by one (a stub draw's few tickets)."""
    from raffle.models import RollKind, Ticket

    if roll.kind != RollKind.BOOK:
        return set()
    serials = Ticket.objects.of_draw(roll.draw_id).values_list("serial", flat=True)
    return {int(s) for s in serials if s.isdigit() and roll.first_serial <= int(s) <= roll.last_serial}


def lost_roll_void_count(roll) -> int:
    """R:T7 how many serials of a roll or book declared lost are void."""
    return roll.size - len(_recorded_in(roll))


def lost_roll_log_rows(draw: Draw):
    """R:T7 the ticket log's rows for the void serials of the draw's rolls and
    books declared lost, after its tickets: no seq, no sale, void, the reason."""
    from raffle.models import TicketRoll

    for roll in TicketRoll.objects.filter(draw=draw, lost_at__isnull=False).order_by("first_serial"):
        reason, recorded = f"roll declared lost: {roll.lost_reason}", _recorded_in(roll)
        for serial in range(roll.first_serial, roll.last_serial + 1):
            if serial not in recorded:
                yield ("", str(serial), "", "", "", "", roll.pk, "", "", roll.seller_name, roll.lost_at, True, reason)


def draw_ticket_log_rows(draw: Draw):
    """R:T7 every ticket in play for a draw with its characteristics, in seq
    order, streamed from the primary key (draw, seq) in chunks (a million rows fit);
    then the void serials of its rolls declared lost."""
    from raffle.models import Ticket

    tickets = (
        Ticket.objects.of_draw(draw.pk)
        .order_by("pk")
        .values_list(
            "seq",
            "serial",
            "sale_id",
            "sale__channel",
            "sale__ticket_count",
            "sale__amount",
            "sale__roll_id",
            "sale__purchaser_name",
            "sale__envelope_pick",
            "sale__device",
            "sale__sold_at",
            "is_void",
            "sale__void_reason",
        )
        .iterator(chunk_size=5000)
    )
    return itertools.chain(tickets, lost_roll_log_rows(draw))


def draw_rolls(draw: Draw):
    """The rolls and books issued for a draw, with what each sold (aggregates)."""
    from raffle.models import TicketRoll

    valid = Q(sales__voided_at__isnull=True)
    return (
        TicketRoll.objects.filter(draw=draw)
        .order_by("first_serial")
        .annotate(sold_tickets=Sum("sales__ticket_count", filter=valid), sold_amount=Sum("sales__amount", filter=valid))
    )
