"""Reads behind the draw-night screens."""

from dataclasses import dataclass
from decimal import Decimal

from core.money import split_sales
from raffle.models import Draw


def draws_for_night():
    """Draws with what every draw-night screen shows (event, licence, envelope)."""
    return Draw.objects.select_related(
        "event__licence__organisation", "envelope", "member_in_charge", "second_member_in_charge"
    )


@dataclass(frozen=True)
class SalesReconciliation:
    """What closing a draw's sales would fix, read from its tickets (P1, T7,
    T11): nothing is written. `split` is None while no valid ticket is sold."""

    valid_tickets: int
    void_tickets: int
    sales: Decimal
    split: object  # core.money.Split | None
    jackpot_before: Decimal
    jackpot_after: Decimal | None


def draw_sales_reconciliation(draw: Draw) -> SalesReconciliation:
    """R:P1 the figures the close-sales screen shows before anything is fixed:
    the draw's valid and void tickets and the total of its valid sales (its
    running totals, as `pool_fix` reads them), the 20/30/50 split by the
    event's rounding and the jackpot after."""
    totals = Draw.objects.values("tickets_valid", "tickets_void", "sales_amount").get(pk=draw.pk)
    valid, void, sales = totals["tickets_valid"], totals["tickets_void"], totals["sales_amount"]
    split = split_sales(sales, rounding=draw.event.rounding) if valid else None
    jackpot = draw.event.jackpot
    return SalesReconciliation(
        valid_tickets=valid,
        void_tickets=void,
        sales=sales,
        split=split,
        jackpot_before=jackpot,
        jackpot_after=jackpot + split.jackpot_contribution if split else None,
    )


def winning_sale(draw: Draw):
    """The sale behind the draw's current winning ticket (its purchaser's name,
    contact and envelope pick), or None (an imported draw, or none drawn yet)."""
    from raffle.models import WinnerSelection

    selection = (
        WinnerSelection.objects.filter(draw=draw, superseded_at__isnull=True).select_related("ticket__sale").first()
    )
    return selection.ticket.sale if selection else None


def draw_drawings(draw: Draw) -> list:
    """R:T8 every winning ticket drawn for the draw, in order: when, the end of
    its claim time, the claim (holder, ID seen, checked by) or why another
    ticket was drawn in its place."""
    from raffle.models import WinnerSelection

    return list(WinnerSelection.objects.filter(draw=draw).select_related("ticket").order_by("attempt"))
