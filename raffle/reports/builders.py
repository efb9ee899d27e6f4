"""The four-draw report (R1) and the final report (R2) as data.

A four-draw period k holds draws 4k-3 to 4k. Its prize board is what those
draws created, the 20% draw prizes plus the 30% jackpot allocations (L9), and
its fee is the licence's rate of that prize board, rounded by `core.money`.
The report is due 7 calendar days after the period's last draw (R1); the
final report 30 days after the last draw (R2).
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch, Sum
from django.utils import timezone

from core.money import ZERO
from licensing.models import (
    ApprovedUse,
    DonatedPrize,
    Expense,
    ExpenseKind,
    FeeCollection,
    Licence,
)
from licensing.services import licence_fee
from raffle.cards import card_name
from raffle.charts import ChartPoint, sales_and_jackpot_svg
from raffle.errors import RaffleError
from raffle.models import (
    CardDestruction,
    DepositCoverage,
    Draw,
    DrawState,
    Event,
    PrizePayment,
    UnclaimedPrize,
)
from raffle.reports import registers
from raffle.reports.reconciliation import DrawReconciliation, draw_reconciliation
from raffle.reports.slips import SlipCopy, slip_copies

DRAWS_PER_PERIOD = 4
FOUR_DRAW_DUE_DAYS = 7  # R:R1
FINAL_DUE_DAYS = 30  # R:R2


def period_of(draw_number: int) -> int:
    return (draw_number - 1) // DRAWS_PER_PERIOD + 1


def period_numbers(period: int) -> range:
    return range(DRAWS_PER_PERIOD * period - 3, DRAWS_PER_PERIOD * period + 1)


@dataclass
class DrawLine:
    draw: Draw
    date: datetime.date
    card: str
    card_name: str
    destroyed_by: str
    verified_by: str
    destroyed_at: datetime.datetime | None
    video: str
    payments: list[PrizePayment]
    unclaimed: list[UnclaimedPrize]

    @property
    def outcome(self) -> str:
        return self.draw.outcome


@dataclass
class Totals:
    ticket_sales: Decimal = ZERO
    draw_prizes: Decimal = ZERO
    jackpot_contributions: Decimal = ZERO
    licensee_shares: Decimal = ZERO

    @property
    def prize_board(self) -> Decimal:
        """R:L9 the prizes the draws created: 20% draw prizes + 30% jackpot allocations."""
        return self.draw_prizes + self.jackpot_contributions


def _totals(draws) -> Totals:
    t = Totals()
    for d in draws:
        t.ticket_sales += d.ticket_sales or ZERO
        t.draw_prizes += d.draw_prize or ZERO
        t.jackpot_contributions += d.jackpot_contribution or ZERO
        t.licensee_shares += d.licensee_share or ZERO
    return t


def _draw_lines(draws: list[Draw]) -> list[DrawLine]:
    """The per-draw detail in a fixed number of queries."""
    ids = [d.pk for d in draws]
    destructions = {
        c.draw_id: c for c in CardDestruction.objects.filter(draw__in=ids).select_related("destroyed_by", "verified_by")
    }
    payments: dict[int, list] = {}
    for p in PrizePayment.objects.filter(draw__in=ids):
        payments.setdefault(p.draw_id, []).append(p)
    unclaimed: dict[int, list] = {}
    for u in UnclaimedPrize.objects.filter(draw__in=ids).prefetch_related("attempts"):
        unclaimed.setdefault(u.draw_id, []).append(u)
    videos = registers.video_references(draws)
    lines = []
    for d in draws:
        card = d.envelope.card if d.envelope_id and d.envelope.is_open else ""
        destruction = destructions.get(d.pk)
        lines.append(
            DrawLine(
                draw=d,
                date=timezone.localdate(d.scheduled_at),
                card=card,
                card_name=card_name(card) if card else "",
                destroyed_by=destruction.destroyed_by.full_name if destruction else "",
                verified_by=destruction.verified_by.full_name if destruction else "",
                destroyed_at=destruction.destroyed_at if destruction else None,
                video=videos.get(d.pk, ""),
                payments=payments.get(d.pk, []),
                unclaimed=unclaimed.get(d.pk, []),
            )
        )
    return lines


def _draws(event: Event, numbers=None) -> list[Draw]:
    qs = Draw.objects.filter(event=event, state=DrawState.CLOSED).select_related("envelope")
    if numbers is not None:
        qs = qs.filter(number__in=list(numbers))
    return list(qs.order_by("number"))


@dataclass
class FourDrawReport:
    licence: Licence
    event: Event
    period: int
    lines: list[DrawLine]
    totals: Totals
    fee_rate: Decimal
    fee: Decimal
    fee_payable_now: Decimal
    due_on: datetime.date
    is_complete: bool
    reconciliation: list[DrawReconciliation]
    deposits: list[DepositCoverage]
    payments: list[PrizePayment]
    expenses: list[Expense]
    video_register: bool
    generated_at: datetime.datetime = field(default_factory=timezone.now)

    @property
    def first_number(self) -> int:
        return DRAWS_PER_PERIOD * self.period - 3

    @property
    def last_number(self) -> int:
        return DRAWS_PER_PERIOD * self.period

    @property
    def title(self) -> str:
        return f"Four-draw report {self.period}: draws {self.first_number} to {self.last_number}"


def available_periods(event: Event) -> list[int]:
    """Periods that can be reported: all four draws closed, or the event ended inside the period."""
    closed = list(
        Draw.objects.filter(event=event, state=DrawState.CLOSED).order_by("number").values_list("number", flat=True)
    )
    if not closed:
        return []
    last = period_of(closed[-1])
    periods = [p for p in range(1, last + 1) if all(n in closed for n in period_numbers(p))]
    if event.is_concluded and last not in periods:
        periods.append(last)
    return periods


def four_draw_report(event: Event, period: int) -> FourDrawReport:
    """R:R1 the supporting figures of draws 4k-3 to 4k, with the fee (L9)."""
    if period < 1:
        raise RaffleError("Four-draw periods are numbered from 1 (draws 1 to 4).")
    licence = event.licence
    draws = _draws(event, period_numbers(period))
    if not draws:
        raise RaffleError(f"No draw of period {period} (draws {4 * period - 3} to {4 * period}) is closed yet.")
    complete = len(draws) == DRAWS_PER_PERIOD
    if not complete and not event.is_concluded:
        raise RaffleError(
            f"Period {period} is not over: draws {4 * period - 3} to {4 * period} must all be "
            "closed before its report.",
            rule="R1",
        )
    totals = _totals(draws)
    fee = licence_fee(prize_board=totals.prize_board, rate_percent=licence.fee_rate_percent)  # R:L9
    last_day = timezone.localdate(draws[-1].scheduled_at)
    return FourDrawReport(
        licence=licence,
        event=event,
        period=period,
        lines=_draw_lines(draws),
        totals=totals,
        fee_rate=licence.fee_rate_percent,
        fee=fee,
        fee_payable_now=fee if licence.fee_collection == FeeCollection.EACH_REPORT else ZERO,
        due_on=last_day + datetime.timedelta(days=FOUR_DRAW_DUE_DAYS),  # R:R1
        is_complete=complete,
        reconciliation=draw_reconciliation(event, draws=draws),
        deposits=list(
            DepositCoverage.objects.filter(draw__in=draws)
            .select_related("deposit", "draw")
            .order_by("deposit__deposited_on", "deposit__slip_number", "draw__number")
        ),
        payments=list(PrizePayment.objects.filter(draw__in=draws).select_related("draw")),
        expenses=list(
            Expense.objects.filter(
                licence=licence, paid_on__gte=timezone.localdate(draws[0].scheduled_at), paid_on__lte=last_day
            ).select_related("approved_use")
        ),
        video_register=registers.video_register_available(),
    )


@dataclass
class PeriodFee:
    period: int
    prize_board: Decimal
    fee: Decimal

    @property
    def draws(self) -> str:
        return f"{DRAWS_PER_PERIOD * self.period - 3}–{DRAWS_PER_PERIOD * self.period}"


@dataclass
class UseOfProceeds:
    use: ApprovedUse
    spent: Decimal


@dataclass
class FinalReport:
    licence: Licence
    event: Event
    lines: list[DrawLine]
    totals: Totals
    jackpot_awarded: Decimal
    jackpot_held: Decimal
    forfeited_prizes: Decimal
    expenses: list[Expense]
    expenses_total: Decimal
    uses: list[UseOfProceeds]
    uses_total: Decimal
    donated: list[DonatedPrize]
    donated_total: Decimal
    fees: list[PeriodFee]
    fee_total: Decimal
    deposits: list
    reconciliation: list[DrawReconciliation]
    compliance_register: bool
    compliance_issues: list[str]
    video_register: bool
    chart_svg: str
    last_draw_on: datetime.date | None
    due_on: datetime.date | None
    generated_at: datetime.datetime = field(default_factory=timezone.now)

    @property
    def gross_receipts(self) -> Decimal:
        """R:R2 ticket sales; donated prizes are shown apart and not deducted."""
        return self.totals.ticket_sales

    @property
    def prizes_total(self) -> Decimal:
        return self.totals.draw_prizes + self.jackpot_awarded - self.forfeited_prizes

    @property
    def net_proceeds(self) -> Decimal:
        """Gross receipts less prizes, the jackpot still held for a winner (a
        running event's draft only) and expenses."""
        return self.gross_receipts - self.prizes_total - self.jackpot_held - self.expenses_total

    @property
    def net_unspent(self) -> Decimal:
        return self.net_proceeds - self.uses_total

    @property
    def slip_images(self) -> list[SlipCopy]:
        return [copy for copy in self.deposits if copy.image_uri]

    @property
    def slips_scanned_not_image(self) -> list[str]:
        """Scans on file that cannot be inlined (a PDF, say): printed and attached by hand."""
        return [copy.deposit.slip_number for copy in self.deposits if copy.has_scan and not copy.image_uri]

    @property
    def slips_without_scan(self) -> list[str]:
        return [copy.deposit.slip_number for copy in self.deposits if not copy.has_scan]


def final_report(event: Event) -> FinalReport:
    """R:R2 the financial report of the whole event."""
    from licensing.models import Deposit

    licence = event.licence
    draws = _draws(event)
    totals = _totals(draws)
    jackpot_awarded = sum((d.jackpot_awarded or ZERO for d in draws), ZERO)
    forfeited = (
        UnclaimedPrize.objects.filter(draw__event=event, added_to_proceeds_on__isnull=False).aggregate(t=Sum("amount"))[
            "t"
        ]
        or ZERO
    )
    expenses = list(Expense.objects.filter(licence=licence).select_related("approved_use"))
    uses = [
        UseOfProceeds(use=u, spent=sum((e.amount for e in expenses if e.approved_use_id == u.pk), ZERO))
        for u in ApprovedUse.objects.filter(licence=licence)
    ]
    donated = list(DonatedPrize.objects.filter(licence=licence))
    fees = []
    for period in sorted({period_of(d.number) for d in draws}):
        board = _totals([d for d in draws if period_of(d.number) == period]).prize_board
        fees.append(PeriodFee(period, board, licence_fee(prize_board=board, rate_percent=licence.fee_rate_percent)))
    last_day = timezone.localdate(draws[-1].scheduled_at) if draws else None
    return FinalReport(
        licence=licence,
        event=event,
        lines=_draw_lines(draws),
        totals=totals,
        jackpot_awarded=jackpot_awarded,
        forfeited_prizes=forfeited,
        jackpot_held=ZERO if event.is_concluded else event.jackpot,
        expenses=expenses,
        expenses_total=sum((e.amount for e in expenses if e.kind == ExpenseKind.EXPENSE), ZERO),
        uses=uses,
        uses_total=sum((u.spent for u in uses), ZERO),
        donated=donated,
        donated_total=sum((p.value for p in donated), ZERO),
        fees=fees,
        fee_total=sum((f.fee for f in fees), ZERO),
        deposits=slip_copies(
            Deposit.objects.filter(account__licence=licence)
            .order_by("deposited_on", "slip_number")
            .prefetch_related(Prefetch("coverage", DepositCoverage.objects.select_related("draw")))
        ),
        reconciliation=draw_reconciliation(event, draws=draws),
        compliance_register=registers.compliance_register_available(),
        compliance_issues=registers.compliance_issues(event),
        video_register=registers.video_register_available(),
        chart_svg=sales_and_jackpot_svg([ChartPoint(d.number, d.ticket_sales, d.jackpot_after) for d in draws]),
        last_draw_on=last_day,
        due_on=last_day + datetime.timedelta(days=FINAL_DUE_DAYS) if last_day and event.is_concluded else None,
    )
