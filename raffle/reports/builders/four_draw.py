"""The four-draw report (R1) as data: draws 4k-3 to 4k, their detail, the
period's totals and prize board to date, the fee and its payment, the money
in and out with copies annexed, the publication of the winners and the
members who sign. Every expense is in exactly one four-draw report (R5)."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import Prefetch, Sum
from django.utils import timezone
from django.utils.translation import gettext

from core.money import ZERO
from licensing.models import Deposit, Expense, ExpenseCategory, FeeCollection, Licence
from licensing.services import licence_fee
from raffle.errors import RaffleError
from raffle.models import (
    DepositCoverage,
    Draw,
    DrawState,
    Event,
    PrizePayment,
    SettlementDeduction,
    SupplierSettlement,
    WinnersPublication,
)
from raffle.reports import registers
from raffle.reports.builders.common import (
    ChequeCopy,
    SlipCopy,
    Totals,
    cheque_copies,
    members_in_charge,
    seed_source_text,
    slip_copies,
    totals_of,
)
from raffle.reports.builders.draw_lines import DrawLine, closed_draws, draw_lines
from raffle.reports.builders.periods import (
    DRAWS_PER_PERIOD,
    FOUR_DRAW_DUE_DAYS,
    expense_period,
    licence_end,
    period_numbers,
    period_of,
    report_day,
)
from raffle.reports.reconciliation import DrawReconciliation, draw_reconciliation


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
    deductions: list[SettlementDeduction] = field(default_factory=list)
    slips: list[SlipCopy] = field(default_factory=list)
    cheques: list[ChequeCopy] = field(default_factory=list)
    fee_payments: list[Expense] = field(default_factory=list)
    publications: list[WinnersPublication] = field(default_factory=list)
    signers: list = field(default_factory=list)
    seed: Decimal = ZERO  # R:P6 the seed added in this period (period 1), its own line
    seed_source: str = ""
    seed_to_date: Decimal = ZERO  # the seed counted in the prize board used to date
    prize_board_to_date: Decimal = ZERO
    audit_head: str = ""  # the audit chain's head when issued (#15 prints it)
    generated_at: datetime.datetime = field(default_factory=timezone.now)

    @property
    def first_number(self) -> int:
        return DRAWS_PER_PERIOD * self.period - 3

    @property
    def last_number(self) -> int:
        return DRAWS_PER_PERIOD * self.period

    @property
    def title(self) -> str:
        return gettext("Four-draw report %(period)s: draws %(first)s to %(last)s") % {
            "period": self.period,
            "first": self.first_number,
            "last": self.last_number,
        }

    @property
    def prize_board_licence(self) -> Decimal:
        return self.licence.prize_board

    @property
    def period_prize_board(self) -> Decimal:
        """R:L9 the prize board this period created, the fee's base: its prizes and the seed added in it."""
        return self.totals.prize_board + self.seed

    @property
    def prize_board_remaining(self) -> Decimal:
        """R:L3 what the licence's prize board still allows after these draws."""
        return self.licence.prize_board - self.prize_board_to_date

    @property
    def expenses_total(self) -> Decimal:
        return sum((e.amount for e in self.expenses), ZERO)

    @property
    def draws_not_published(self) -> list[int]:
        published = {p.draw_id for p in self.publications}
        return [line.draw.number for line in self.lines if line.draw.pk not in published]

    @property
    def slip_images(self) -> list[SlipCopy]:
        return [s for s in self.slips if s.image_uri]

    @property
    def cheque_images(self) -> list[ChequeCopy]:
        return [c for c in self.cheques if c.image_uri]

    @property
    def cheques_without_scan(self) -> list[str]:
        return [c.reference for c in self.cheques if not c.has_scan]


def reportable_period_ends(event: Event, draws: list[Draw] | None = None) -> tuple[list[datetime.date], bool]:
    """(the last draw day of each reportable period, whether the last is the licence's last report)."""
    draws = draws if draws is not None else closed_draws(event)
    by_period: dict[int, list[Draw]] = {}
    for d in draws:
        by_period.setdefault(period_of(d.number), []).append(d)
    ended = bool(licence_end(event))
    ends = []
    for period in range(1, max(by_period, default=0) + 1):
        members = by_period.get(period, [])
        if len(members) < DRAWS_PER_PERIOD and not (ended and period == max(by_period)):
            break
        ends.append(max(report_day(d) for d in members))
    return ends, ended


def available_periods(event: Event, closed: list[Draw] | None = None) -> list[int]:
    """Periods that can be reported: all four draws closed, or the licence ended inside the period
    (`closed`: the closed draws, when the caller has read them)."""
    ends, _ = reportable_period_ends(event, closed)
    return list(range(1, len(ends) + 1))


def expenses_of_period(licence: Licence, period: int, ends: list[datetime.date], last_is_final: bool) -> list[Expense]:
    """R:R5 the expenses whose report is period k's, before draw 1 and between periods included."""
    return [
        e
        for e in Expense.objects.filter(licence=licence).select_related("approved_use").order_by("paid_on", "pk")
        if expense_period(e.paid_on, ends, last_is_final=last_is_final) == period
    ]


def prize_board_used(event: Event, up_to_number: int) -> Decimal:
    """R:L3 prizes created by the closed draws up to this one, plus the seed (P6)."""
    sums = Draw.objects.filter(event=event, state=DrawState.CLOSED, number__lte=up_to_number).aggregate(
        prizes=Sum("draw_prize"), jackpot=Sum("jackpot_contribution")
    )
    return (sums["prizes"] or ZERO) + (sums["jackpot"] or ZERO) + event.seed_jackpot


def period_prize_board(event: Event, period: int, totals: Totals) -> Decimal:
    """R:L9 the prize board a period created: its draws' 20% and 30%, and the seed in period 1 (P6)."""
    return totals.prize_board + (event.seed_jackpot if period == 1 else ZERO)


def period_fee(event: Event, period: int, totals: Totals) -> Decimal:
    return licence_fee(
        prize_board=period_prize_board(event, period, totals), rate_percent=event.licence.fee_rate_percent
    )


def four_draw_report(event: Event, period: int) -> FourDrawReport:
    """R:R1 the supporting figures of draws 4k-3 to 4k, with the fee (L9)."""
    if period < 1:
        raise RaffleError(gettext("Four-draw periods are numbered from 1 (draws 1 to 4)."))
    licence = event.licence
    all_draws = closed_draws(event)
    draws = [d for d in all_draws if d.number in period_numbers(period)]
    if not draws:
        raise RaffleError(
            gettext("No draw of period %(period)s (draws %(value)s to %(value2)s) is closed yet.")
            % {"period": period, "value": 4 * period - 3, "value2": 4 * period}
        )
    ends, ended = reportable_period_ends(event, all_draws)
    complete = len(draws) == DRAWS_PER_PERIOD
    if period > len(ends):
        raise RaffleError(
            gettext(
                "Period %(period)s is not over: draws %(value)s to %(value2)s must all be closed before its report."
            )
            % {"period": period, "value": 4 * period - 3, "value2": 4 * period},
            rule="R1",
        )
    lines = draw_lines(draws)
    totals = totals_of(draws, lines)
    fee = period_fee(event, period, totals)  # R:L9
    last_day = ends[period - 1]
    coverage = list(
        DepositCoverage.objects.filter(draw__in=draws)
        .select_related("deposit", "draw")
        .order_by("deposit__deposited_on", "deposit__slip_number", "draw__number")
    )
    deposits = (
        Deposit.objects.filter(pk__in={c.deposit_id for c in coverage})
        .order_by("deposited_on", "slip_number")
        .prefetch_related(Prefetch("coverage", DepositCoverage.objects.select_related("draw")))
    )
    payments = list(PrizePayment.objects.filter(draw__in=draws).select_related("draw", "must_go_ticket"))
    expenses = expenses_of_period(licence, period, ends, ended and period == len(ends))
    return FourDrawReport(
        licence=licence,
        event=event,
        period=period,
        lines=lines,
        totals=totals,
        fee_rate=licence.fee_rate_percent,
        fee=fee,
        fee_payable_now=fee if licence.fee_collection == FeeCollection.EACH_REPORT else ZERO,
        due_on=last_day + datetime.timedelta(days=FOUR_DRAW_DUE_DAYS),  # R:R1
        is_complete=complete,
        reconciliation=draw_reconciliation(event, draws=draws),
        deposits=coverage,
        payments=payments,
        expenses=expenses,
        video_register=registers.video_register_available(),
        # R:L12 fees the supplier kept from these draws' sales, each of its kind, with the settlement as evidence.
        deductions=[
            d
            for s in SupplierSettlement.objects.filter(draw__in=draws).select_related("draw").order_by("draw__number")
            for d in s.deductions
        ],
        slips=slip_copies(deposits),
        cheques=cheque_copies(payments, expenses),
        fee_payments=list(
            Expense.objects.filter(licence=licence, category=ExpenseCategory.LICENCE_FEE, fee_period=period)
        ),
        publications=list(WinnersPublication.objects.filter(draw__in=draws).select_related("draw")),
        signers=members_in_charge(licence),
        seed=period_prize_board(event, period, totals) - totals.prize_board,
        seed_source=seed_source_text(event),
        seed_to_date=event.seed_jackpot,
        prize_board_to_date=prize_board_used(event, draws[-1].number),
    )
