"""Reconcile the draws' running totals with their rows.

Every sale, void and roll return moves the draw's running totals
(`Draw.sales_amount`, `sales_valid`, `sales_void`, `tickets_valid`,
`tickets_void`) in its own transaction, so a sale's checks read them in
constant time. This module recomputes them from the sales and ticket rows (two
grouped aggregates, whatever the number of draws) and names every difference;
`python manage.py reconcile_draw_totals` runs it.
"""

from dataclasses import dataclass

from django.db.models import Count, Max, Q, Sum

from core.money import ZERO
from raffle.models import Draw, Sale, Ticket

TOTAL_FIELDS = ("sales_amount", "sales_valid", "sales_void", "tickets_valid", "tickets_void")


@dataclass(frozen=True)
class TotalsMismatch:
    draw: Draw
    field: str
    stored: object
    from_rows: object

    def __str__(self) -> str:
        return (
            f"{self.draw.event} draw {self.draw.number}: {self.field} is {self.stored} on the draw "
            f"but {self.from_rows} in its rows"
        )


def totals_from_rows(draws) -> dict[int, dict]:
    """The running totals each draw should hold, from its rows; also `max_seq`
    and `tickets`, which the dense numbering makes equal to valid + void."""
    ids = [d.pk for d in draws]
    valid, void = Q(voided_at__isnull=True), Q(voided_at__isnull=False)
    sums = {
        row["draw_id"]: row
        for row in Sale.objects.filter(draw_id__in=ids)
        .values("draw_id")
        .order_by()
        .annotate(
            sales_amount=Sum("amount", filter=valid),
            sales_valid=Count("id", filter=valid),
            sales_void=Count("id", filter=void),
            tickets_valid=Sum("ticket_count", filter=valid),
            tickets_void=Sum("ticket_count", filter=void),
        )
    }
    counts = {
        row["draw_id"]: row
        for row in Ticket.objects.filter(draw_id__in=ids)
        .values("draw_id")
        .order_by()
        .annotate(
            tickets=Count("id"),
            ticket_rows_void=Count("id", filter=Q(is_void=True)),
            max_seq=Max("seq"),
        )
    }
    result = {}
    for pk in ids:
        s, t = sums.get(pk, {}), counts.get(pk, {})
        result[pk] = {
            "sales_amount": s.get("sales_amount") or ZERO,
            "sales_valid": s.get("sales_valid") or 0,
            "sales_void": s.get("sales_void") or 0,
            "tickets_valid": s.get("tickets_valid") or 0,
            "tickets_void": s.get("tickets_void") or 0,
            "ticket_rows_void": t.get("ticket_rows_void") or 0,
            "tickets": t.get("tickets") or 0,
            "max_seq": t.get("max_seq") or 0,
        }
    return result


def totals_mismatches(draws=None) -> list[TotalsMismatch]:
    """Every difference between a draw's running totals and its rows. Imported
    draws carry a recorded total and no rows; they are left out."""
    draws = list((draws if draws is not None else Draw.objects.all()).filter(is_imported=False).select_related("event"))
    rows = totals_from_rows(draws)
    found = []
    for draw in draws:
        expected = rows[draw.pk]
        for name in TOTAL_FIELDS:
            if getattr(draw, name) != expected[name]:
                found.append(TotalsMismatch(draw, name, getattr(draw, name), expected[name]))
        # The ticket rows agree with their sales: as many, numbered densely, voids flagged.
        for name, stored in (
            ("tickets", draw.last_seq),
            ("max_seq", draw.last_seq),
            ("ticket_rows_void", draw.tickets_void),
        ):
            if expected[name] != stored:
                found.append(TotalsMismatch(draw, name, stored, expected[name]))
    return found
