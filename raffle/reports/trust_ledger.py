"""The lottery trust account's ledger and its reconciliation to the bank
(RULES L10, L12, P5).

The ledger is every movement the system knows of, in date order, with a
running balance: deposits and interest in; prize payments, cheques and the
fees the bank or a supplier deducted out. A bank statement's lines are matched
one by one to ledger entries (same amount, the entry on or before the line's
date, its reference in the line's text preferred, then the nearest date).
What the ledger has and the bank not yet are the outstanding cheques and the
deposits in transit; what the bank has and the ledger not are the differences,
shown by line.
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext

from core.money import ZERO
from licensing.models import (
    BankStatement,
    BankStatementLine,
    Deposit,
    Expense,
    ExpenseCategory,
    ExpenseKind,
    ExpenseMethod,
    InterestCredit,
    Licence,
    TrustAccount,
)
from licensing.services import TrustPosition
from raffle.models import DrawState, Event, PrizePayment, UnclaimedPrize

MATCH_LOOKBACK_DAYS = 120  # a cheque may take months to be cashed


@dataclass
class LedgerEntry:
    on: datetime.date
    kind: str  # deposit, interest, prize, expense, licence fee, proceeds use, deduction
    description: str
    reference: str
    amount: Decimal  # into the account positive, out negative
    method: str = ""
    balance: Decimal = ZERO
    key: str = ""  # stable identity: "deposit:12"

    @property
    def is_cheque(self) -> bool:
        return self.amount < 0 and self.method == "cheque"

    @property
    def money_in(self) -> Decimal | None:
        return self.amount if self.amount > 0 else None

    @property
    def money_out(self) -> Decimal | None:
        return -self.amount if self.amount < 0 else None


def _expense_kind(expense: Expense) -> str:
    if expense.method == ExpenseMethod.DEDUCTION:
        return "deduction"
    if expense.kind == ExpenseKind.PROCEEDS_USE:
        return "proceeds use"
    if expense.category == ExpenseCategory.LICENCE_FEE:
        return "licence fee"
    return "expense"


def ledger_entries(licence: Licence, *, payments=None, expenses=None, deposits=None) -> list[LedgerEntry]:
    """Every movement of the licence's trust account, oldest first, with the
    running balance. A report that has read the licence's prize payments (with
    their draw), expenses or deposits (with their seed part) passes them, so
    they are not read twice."""
    if deposits is None:
        deposits = Deposit.objects.filter(account__licence=licence).select_related("seed_part")
    if payments is None:
        payments = PrizePayment.objects.filter(draw__event__licence=licence).select_related("draw")
    if expenses is None:
        expenses = Expense.objects.filter(licence=licence)
    entries = [
        LedgerEntry(
            d.deposited_on,
            "deposit",
            (
                gettext("Deposit slip %(number)s (the seed jackpot, P6)")
                if hasattr(d, "seed_part")
                else gettext("Deposit slip %(number)s")
            )
            % {"number": d.slip_number},
            d.slip_number,
            d.amount,
            "deposit",
            key=f"deposit:{d.pk}",
        )
        for d in deposits
    ]
    entries += [
        LedgerEntry(
            i.credited_on, "interest", "Interest", i.evidence_reference, i.amount, "interest", key=f"interest:{i.pk}"
        )
        for i in InterestCredit.objects.filter(account__licence=licence)
    ]
    entries += [
        LedgerEntry(
            p.paid_on,
            "prize",
            f"{p.get_kind_display()} of draw {p.draw.number} to {p.payee}",
            p.reference,
            -p.amount,
            p.method,
            key=f"prize:{p.pk}",
        )
        for p in payments
    ]
    entries += [
        LedgerEntry(
            e.paid_on,
            _expense_kind(e),
            f"{e.description} ({e.payee})",
            e.evidence_reference or e.reference,
            -e.amount,
            e.method,
            key=f"expense:{e.pk}",
        )
        for e in expenses
    ]
    entries.sort(key=lambda e: (e.on, e.amount < 0, e.key))  # money in before money out on a day
    balance = ZERO
    for entry in entries:
        balance += entry.amount
        entry.balance = balance
    return entries


def balance_on(entries: list[LedgerEntry], day: datetime.date) -> Decimal:
    return sum((e.amount for e in entries if e.on <= day), ZERO)


def unpaid_prizes(licence: Licence, *, payments=None) -> Decimal:
    """R:P5 prizes won and not yet paid (held as unclaimed included), less those that joined the proceeds."""
    from raffle.models import Draw

    owed: dict[int, Decimal] = {}
    for draw in Draw.objects.filter(event__licence=licence, state=DrawState.CLOSED).only(
        "pk", "draw_prize", "jackpot_awarded"
    ):
        owed[draw.pk] = (draw.draw_prize or ZERO) + (draw.jackpot_awarded or ZERO)
    if payments is None:
        payments = PrizePayment.objects.filter(draw__event__licence=licence).only("draw_id", "amount")
    for payment in payments:
        owed[payment.draw_id] = owed.get(payment.draw_id, ZERO) - payment.amount
    for prize in UnclaimedPrize.objects.filter(draw__event__licence=licence, added_to_proceeds_on__isnull=False):
        owed[prize.draw_id] = owed.get(prize.draw_id, ZERO) - prize.amount
    return sum((max(v, ZERO) for v in owed.values()), ZERO)


def trust_position(licence: Licence, *, account=..., event=None, entries=None, payments=None) -> TrustPosition | None:
    """What the account holds and what it must keep for the players (registered as licensing's guard).
    The ledger page passes what it has read: the account, the event, the ledger and the prize payments."""
    if account is ...:
        account = TrustAccount.objects.filter(licence=licence).first()
    if account is None:
        return None
    if event is None:
        event = Event.objects.filter(licence=licence).first()
    jackpot = ZERO if event is None or event.is_concluded else event.jackpot
    return TrustPosition(
        balance=sum((e.amount for e in (entries if entries is not None else ledger_entries(licence))), ZERO),
        jackpot=jackpot,
        unpaid_prizes=unpaid_prizes(licence, payments=payments),
    )


@dataclass
class LineMatch:
    line: BankStatementLine
    entry: LedgerEntry | None


@dataclass
class StatementReconciliation:
    statement: BankStatement
    matches: list[LineMatch]
    book_balance: Decimal
    outstanding_cheques: list[LedgerEntry]
    deposits_in_transit: list[LedgerEntry]
    other_outstanding: list[LedgerEntry]  # e-transfers and deductions the bank has not shown yet
    differences: list[str] = field(default_factory=list)

    @property
    def unmatched_lines(self) -> list[BankStatementLine]:
        return [m.line for m in self.matches if m.entry is None]

    @property
    def adjusted_bank_balance(self) -> Decimal:
        """The bank's closing balance plus deposits in transit, less outstanding cheques."""
        pending = self.outstanding_cheques + self.deposits_in_transit + self.other_outstanding
        return self.statement.closing_balance + sum((e.amount for e in pending), ZERO)

    @property
    def difference(self) -> Decimal:
        return self.adjusted_bank_balance - self.book_balance

    @property
    def balances(self) -> bool:
        return self.difference == 0


def _digits(text: str) -> str:
    return "".join(ch for ch in text if ch.isdigit())


def _pick(line: BankStatementLine, candidates: list[LedgerEntry]) -> LedgerEntry | None:
    earliest = line.posted_on - datetime.timedelta(days=MATCH_LOOKBACK_DAYS)
    fits = [e for e in candidates if e.amount == line.amount and earliest <= e.on <= line.posted_on]
    if not fits:
        return None
    text = line.description.lower()
    digits = _digits(line.description)

    def named(entry: LedgerEntry) -> bool:
        ref = entry.reference.strip().lower()
        return bool(ref) and (ref in text or (_digits(ref) and _digits(ref) in digits))

    return min(fits, key=lambda e: (not named(e), (line.posted_on - e.on).days, e.key))


def match_lines(lines: list[BankStatementLine], entries: list[LedgerEntry]) -> dict[int, LedgerEntry]:
    """{line id: ledger entry}, every entry used once, lines taken oldest first."""
    free = list(entries)
    matched = {}
    for line in sorted(lines, key=lambda x: (x.posted_on, x.statement_id, x.line_number)):
        entry = _pick(line, free)
        if entry is not None:
            matched[line.pk] = entry
            free.remove(entry)
    return matched


def statement_reconciliation(
    statement: BankStatement, *, entries=None, lines=None, first=None
) -> StatementReconciliation:
    """R:L12 the ledger against one imported statement, to the cent. A page
    showing every statement passes the ledger, all the account's statement
    lines and its first statement, read once for all of them."""
    account = statement.account
    if entries is None:
        entries = ledger_entries(account.licence)
    all_lines = list(lines) if lines is not None else list(BankStatementLine.objects.filter(statement__account=account))
    matched = match_lines(all_lines, entries)
    cleared = {matched[ln.pk].key for ln in all_lines if ln.pk in matched and ln.posted_on <= statement.last_day}
    pending = [e for e in entries if e.on <= statement.last_day and e.key not in cleared]
    own = [ln for ln in all_lines if ln.statement_id == statement.pk]
    rec = StatementReconciliation(
        statement=statement,
        matches=[LineMatch(ln, matched.get(ln.pk)) for ln in sorted(own, key=lambda x: x.line_number)],
        book_balance=balance_on(entries, statement.last_day),
        outstanding_cheques=[e for e in pending if e.is_cheque],
        deposits_in_transit=[e for e in pending if e.amount > 0],
        other_outstanding=[e for e in pending if e.amount < 0 and not e.is_cheque],
    )
    # Where the difference comes from: bank lines the ledger lacks, up to this statement's end.
    explained = ZERO
    earlier = [ln for ln in all_lines if ln.pk not in matched and ln.posted_on <= statement.last_day]
    for ln in sorted(earlier, key=lambda x: (x.posted_on, x.line_number)):
        explained += ln.amount
        rec.differences.append(
            f"{ln.posted_on:%Y-%m-%d} line {ln.line_number} “{ln.description}” {ln.amount:+,.2f}: not in the ledger"
        )
    if first is None:
        first = BankStatement.objects.filter(account=account).order_by("first_day", "pk").first()
    if first is not None and first.opening_balance:
        explained += first.opening_balance
        rec.differences.append(
            f"opening balance {first.opening_balance:+,.2f} of the statement of {first.first_day:%Y-%m-%d}: "
            "money in the account before the ledger's first entry"
        )
    if explained != rec.difference:
        rec.differences.append(f"{rec.difference - explained:+,.2f} not explained by any line: is a statement missing?")
    return rec
