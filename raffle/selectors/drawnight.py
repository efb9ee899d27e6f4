"""Reads behind the draw-night screens."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone

from core.money import split_sales
from raffle.models import Draw, DrawState


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


@dataclass(frozen=True)
class RollWinnerClaim:
    """R:T8 the current winning roll ticket of a draw and its claim period."""

    serial: str
    drawn_at: datetime.datetime
    claim_by: datetime.datetime
    claimed_at: datetime.datetime | None
    attempt: int
    prize_paid_on: datetime.date | None = None

    @property
    def may_redraw(self) -> bool:
        return self.claimed_at is None and self.prize_paid_on is None and timezone.now() >= self.claim_by


def roll_winner_claim(draw: Draw) -> RollWinnerClaim | None:
    """The claim of a finished roll-ticket draw's winner (roll tickets carry no
    name, so the holder must come forward); None for other draws."""
    from licensing.models import SalesChannel
    from raffle.models import PrizeKind, PrizePayment, WinnerSelection

    if draw.state != DrawState.CLOSED or draw.event.licence.sales_channel != SalesChannel.PAPER_ROLL:
        return None
    selection = WinnerSelection.objects.filter(draw=draw, superseded_at__isnull=True).select_related("ticket").first()
    if selection is None:
        return None
    return RollWinnerClaim(
        serial=selection.ticket.serial,
        drawn_at=selection.selected_at,
        attempt=selection.attempt,
        claim_by=selection.selected_at + datetime.timedelta(days=draw.event.claim_period_days),
        claimed_at=selection.claimed_at,
        prize_paid_on=PrizePayment.objects.filter(draw=draw, kind=PrizeKind.DRAW_PRIZE)
        .values_list("paid_on", flat=True)
        .first(),
    )
