"""Reads behind the sales pages: a fixed number of queries, aggregates only."""

from django.db.models import Count, Q, Sum

from raffle.models import Draw, Envelope, Sale


def draw_sales_summary(draw: Draw) -> dict:
    """Valid and void sales, tickets and money of one draw (aggregates)."""
    valid, void = Q(voided_at__isnull=True), Q(voided_at__isnull=False)
    return Sale.objects.filter(draw=draw).aggregate(
        sales=Count("id", filter=valid), tickets=Sum("ticket_count", filter=valid),
        amount=Sum("amount", filter=valid), void_sales=Count("id", filter=void),
        void_tickets=Sum("ticket_count", filter=void),
    )


def recent_sales(draw: Draw, limit: int = 20):
    return Sale.objects.filter(draw=draw).select_related("tier").order_by("-sold_at", "-id")[:limit]


def sealed_envelope_numbers(draw: Draw) -> list[int]:
    return list(Envelope.objects.filter(event_id=draw.event_id, opened_at__isnull=True)
                .order_by("number").values_list("number", flat=True))


def sale_with_tickets(sale_id: int) -> tuple[Sale, list[str]]:
    sale = Sale.objects.select_related("draw__event__licence__organisation", "tier", "sold_by").get(pk=sale_id)
    return sale, list(sale.tickets.order_by("seq").values_list("serial", flat=True))
