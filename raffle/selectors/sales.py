"""Reads behind the sales pages: a fixed number of queries, aggregates only."""

from decimal import Decimal

from django.db.models import Count, Q, Sum

from core.money import ZERO
from raffle.models import Draw, Envelope, Sale


def valid_sales_total(draw: Draw) -> Decimal:
    """R:P1 the total of a draw's valid sales (voids excluded), summed here
    only: what its sales close on, and what the prize board counts (L3)."""
    return Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(s=Sum("amount"))["s"] or ZERO


def draw_sales_summary(draw: Draw) -> dict:
    """Valid and void sales, tickets and money of one draw (aggregates)."""
    valid, void = Q(voided_at__isnull=True), Q(voided_at__isnull=False)
    return Sale.objects.filter(draw=draw).aggregate(
        sales=Count("id", filter=valid),
        tickets=Sum("ticket_count", filter=valid),
        amount=Sum("amount", filter=valid),
        void_sales=Count("id", filter=void),
        void_tickets=Sum("ticket_count", filter=void),
    )


def recent_sales(draw: Draw, limit: int = 20):
    return Sale.objects.filter(draw=draw).select_related("tier").order_by("-sold_at", "-id")[:limit]


def sealed_envelope_numbers(draw: Draw) -> list[int]:
    return list(
        Envelope.objects.filter(event_id=draw.event_id, opened_at__isnull=True)
        .order_by("number")
        .values_list("number", flat=True)
    )


def sale_with_tickets(sale_id: int) -> tuple[Sale, list[str]]:
    sale = Sale.objects.select_related("draw__event__licence__organisation", "tier", "sold_by").get(pk=sale_id)
    return sale, list(sale.tickets.order_by("seq").values_list("serial", flat=True))


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


def draw_ticket_log_rows(draw: Draw):
    """R:T7 every ticket in play for a draw with its characteristics, in seq
    order, streamed from the (draw, seq) index in chunks (a million rows fit)."""
    from raffle.models import Ticket

    return (
        Ticket.objects.filter(draw=draw)
        .order_by("seq")
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


def draw_rolls(draw: Draw):
    """The rolls and books issued for a draw, with what each sold (aggregates)."""
    from raffle.models import TicketRoll

    valid = Q(sales__voided_at__isnull=True)
    return (
        TicketRoll.objects.filter(draw=draw)
        .order_by("first_serial")
        .annotate(sold_tickets=Sum("sales__ticket_count", filter=valid), sold_amount=Sum("sales__amount", filter=valid))
    )
