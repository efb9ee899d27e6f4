"""The final report (R2) as data, issuable however the licence ended (R5):
the Ace found, a must-go draw, expiry or cancellation."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import OuterRef, Prefetch
from django.utils import timezone

from core.money import ZERO
from licensing.models import (
    ApprovedUse,
    Deposit,
    DonatedPrize,
    Expense,
    ExpenseCategory,
    ExpenseKind,
    Licence,
)
from licensing.terms import licence_expires_on
from raffle.charts import ChartPoint, sales_and_jackpot_svg
from raffle.models import DepositCoverage, Event, PrizePayment, UnclaimedPrize
from raffle.reports import registers
from raffle.reports.builders.common import (
    ComplianceRow,
    SlipCopy,
    Totals,
    compliance_rows,
    members_in_charge,
    registrar_notifications,
    seed_source_text,
    slip_copies,
    totals_of,
)
from raffle.reports.builders.draw_lines import DrawLine, closed_draws, draw_lines
from raffle.reports.builders.four_draw import period_fee, period_prize_board
from raffle.reports.builders.periods import DRAWS_PER_PERIOD, final_report_due, licence_end, period_of, report_day
from raffle.reports.reconciliation import DrawReconciliation, draw_reconciliation
from raffle.reports.trust_ledger import StatementReconciliation, ledger_entries, statement_reconciliation


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
    deposits: list[SlipCopy]
    reconciliation: list[DrawReconciliation]
    compliance_register: bool
    compliance_issues: list[str]
    video_register: bool
    chart_svg: str
    last_draw_on: datetime.date | None
    due_on: datetime.date | None
    end_reason: str = ""
    seed: Decimal = ZERO
    seed_source: str = ""
    interest: Decimal = ZERO
    must_go_shares: Decimal = ZERO
    expense_categories: list[tuple[str, Decimal]] = field(default_factory=list)
    fees_paid: Decimal = ZERO
    unclaimed_held: list[UnclaimedPrize] = field(default_factory=list)
    ledger_balance: Decimal = ZERO
    statement: StatementReconciliation | None = None
    compliance: list[ComplianceRow] = field(default_factory=list)
    signers: list = field(default_factory=list)
    audit_head: str = ""  # the audit chain's head when issued (#15 prints it)
    generated_at: datetime.datetime = field(default_factory=timezone.now)

    @property
    def is_final(self) -> bool:
        return bool(self.end_reason)

    @property
    def gross_receipts(self) -> Decimal:
        """R:R2 ticket sales; donated prizes are shown apart and not deducted."""
        return self.totals.ticket_sales

    @property
    def prizes_total(self) -> Decimal:
        return self.totals.draw_prizes + self.jackpot_awarded - self.forfeited_prizes

    @property
    def unclaimed_total(self) -> Decimal:
        return sum((u.amount for u in self.unclaimed_held), ZERO)

    @property
    def fees_unpaid(self) -> Decimal:
        return self.fee_total - self.fees_paid

    @property
    def net_proceeds(self) -> Decimal:
        """R:L9 R:P6 gross receipts, with the seed (its own line, so the prizes it
        paid do not make the proceeds negative) and the interest earned, less
        prizes, the jackpot still held, expenses and the licence fees."""
        return (
            self.gross_receipts
            + self.seed
            + self.interest
            - self.prizes_total
            - self.jackpot_held
            - self.expenses_total
            - self.fee_total
        )

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


def _fees(event: Event, draws) -> list[PeriodFee]:
    fees = []
    for period in sorted({period_of(d.number) for d in draws}):
        totals = totals_of([d for d in draws if period_of(d.number) == period])
        fees.append(PeriodFee(period, period_prize_board(event, period, totals), period_fee(event, period, totals)))
    return fees


def _unclaimed(event: Event, payments, unclaimed) -> tuple[Decimal, list[UnclaimedPrize]]:
    """R:P5 prizes nobody claimed: the total added to the gross proceeds
    (forfeited), and those still held in trust (not paid, not yet added).
    `payments` and `unclaimed`: the licence's, with their draw."""
    paid = {(p.draw_id, p.kind, p.must_go_ticket_id) for p in payments if p.draw.event_id == event.pk}
    unclaimed = [u for u in unclaimed if u.draw.event_id == event.pk]
    forfeited = sum((u.amount for u in unclaimed if u.added_to_proceeds_on is not None), ZERO)
    held = [
        u
        for u in unclaimed
        if u.added_to_proceeds_on is None
        and (u.draw_id, u.kind, u.must_go_ticket_id) not in paid  # R:P7 a must-go holder's own share
    ]
    return forfeited, held


def _latest_statement(licence: Licence, entries) -> StatementReconciliation | None:
    from licensing.models import BankStatement

    statement = (
        BankStatement.objects.filter(account__licence=licence)
        .select_related("account")
        .order_by("-last_day", "-pk")
        .first()
    )
    return statement_reconciliation(statement, entries=entries) if statement else None


def final_report(event: Event, *, today: datetime.date | None = None) -> FinalReport:
    """R:R2 the financial report of the whole event. Each kind of record is
    read once and shared by the draw lines, the ledger, the reconciliation
    and the totals, so the report costs the same number of queries whatever
    the season's size."""
    licence = event.licence
    draws = closed_draws(event)
    payments = list(PrizePayment.objects.filter(draw__event__licence=licence).select_related("draw"))
    unclaimed = list(UnclaimedPrize.objects.filter(draw__event__licence=licence).select_related("draw"))
    lines = draw_lines(draws, payments=payments, unclaimed=unclaimed)
    expires_on = licence_expires_on(licence, today or timezone.localdate())  # R:L8 read once
    end_reason = licence_end(event, today=today, expires_on=expires_on)
    if event.is_concluded and draws and draws[-1].must_go:
        end_reason = "the Ace of Spades was found in the must-go draw"
    forfeited, unclaimed_held = _unclaimed(event, payments, unclaimed)
    expenses = list(Expense.objects.filter(licence=licence).select_related("approved_use"))
    deposits = Deposit.objects.filter(account__licence=licence).select_related("seed_part")
    if connection.vendor == "postgresql":  # R:L12 the draws each slip covers, read with it
        covered = DepositCoverage.objects.filter(deposit=OuterRef("pk")).order_by("draw__number")
        deposits = deposits.annotate(covered_draw_numbers=ArraySubquery(covered.values("draw__number")))
    else:  # SQLite (the demo): one more query
        deposits = deposits.prefetch_related(Prefetch("coverage", DepositCoverage.objects.select_related("draw")))
    deposits = list(deposits.order_by("deposited_on", "slip_number"))
    notifications = registrar_notifications(event)
    running = [e for e in expenses if e.kind == ExpenseKind.EXPENSE and e.category != ExpenseCategory.LICENCE_FEE]
    categories = {label: ZERO for value, label in ExpenseCategory.choices if value != ExpenseCategory.LICENCE_FEE}
    for e in running:
        categories[e.get_category_display()] += e.amount
    uses = [
        UseOfProceeds(use=u, spent=sum((e.amount for e in expenses if e.approved_use_id == u.pk), ZERO))
        for u in ApprovedUse.objects.filter(licence=licence)
    ]
    donated = list(DonatedPrize.objects.filter(licence=licence))
    fees = _fees(event, draws)
    last_day = report_day(draws[-1]) if draws else None
    entries = ledger_entries(licence, payments=payments, expenses=expenses, deposits=deposits)
    return FinalReport(
        licence=licence,
        event=event,
        lines=lines,
        totals=totals_of(draws, lines),
        jackpot_awarded=sum((d.jackpot_awarded or ZERO for d in draws), ZERO),
        forfeited_prizes=forfeited,
        jackpot_held=ZERO if event.is_concluded else event.jackpot,
        expenses=expenses,
        expenses_total=sum((e.amount for e in running), ZERO),
        uses=uses,
        uses_total=sum((u.spent for u in uses), ZERO),
        donated=donated,
        donated_total=sum((p.value for p in donated), ZERO),
        fees=fees,
        fee_total=sum((f.fee for f in fees), ZERO),
        deposits=slip_copies(deposits),
        reconciliation=draw_reconciliation(event, draws=draws),
        compliance_register=registers.compliance_register_available(),
        compliance_issues=[str(n) for n in sorted(notifications, key=lambda n: n.pk)],  # R:D6
        video_register=registers.video_register_available(),
        chart_svg=sales_and_jackpot_svg([ChartPoint(d.number, d.ticket_sales, d.jackpot_after) for d in draws]),
        last_draw_on=last_day,
        due_on=final_report_due(event, last_day, today=today, expires_on=expires_on),  # R:R2 R:R5
        end_reason=end_reason,
        seed=event.seed_jackpot,
        seed_source=seed_source_text(event),
        interest=sum((e.amount for e in entries if e.kind == "interest"), ZERO),  # the ledger's interest credits
        must_go_shares=sum((line.must_go_shares for line in lines), ZERO),
        expense_categories=list(categories.items()),
        fees_paid=sum((e.amount for e in expenses if e.category == ExpenseCategory.LICENCE_FEE), ZERO),
        unclaimed_held=unclaimed_held,
        ledger_balance=entries[-1].balance if entries else ZERO,
        statement=_latest_statement(licence, entries),
        compliance=compliance_rows(event, notifications),
        signers=members_in_charge(licence),
    )
