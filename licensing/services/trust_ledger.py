"""Writes of the trust account's ledger beyond deposits and cheques: fees the
bank or a supplier deducts themselves, interest the bank credits, and the
bank's statements imported line by line (RULES L10, L12).

Deductions are allowed only as such: a bank charge, a card-processing fee or
a supplier's settlement fee, each naming the statement or settlement that
shows it. Everything else leaves the account by cheque (`expense_record`).
"""

import csv
import datetime
import hashlib
import io
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import transaction
from django.utils.translation import gettext

from core.audit import audit_record
from core.csvsafe import read_rows as read_csv_rows
from core.money import CENT, MoneyError, parse_amount, plain_digits
from licensing.errors import LicensingError
from licensing.models import (
    DEDUCTION_CATEGORIES,
    BankStatement,
    BankStatementLine,
    Expense,
    ExpenseKind,
    ExpenseMethod,
    InterestCredit,
    Licence,
    TrustAccount,
)


@transaction.atomic
def deduction_record(
    *,
    actor,
    licence: Licence,
    category: str,
    paid_on: datetime.date,
    amount,
    payee: str,
    description: str,
    evidence_reference: str,
    evidence=None,
) -> Expense:
    """R:L12 a fee the bank or a registered supplier took from the account
    (or from a settlement before it reached the account): recorded as an
    expense of the lottery, never as a cheque, with its evidence."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if category not in [c.value for c in DEDUCTION_CATEGORIES]:  # R:L12
        raise LicensingError(
            gettext(
                "Only bank charges, card-processing fees and supplier fees may be recorded as deductions; "
                "every other payment leaves the trust account by cheque."
            ),
            rule="L12",
        )
    amount = parse_amount(amount, what=gettext("The deduction"), allow_zero=False)
    evidence_reference = (evidence_reference or "").strip()
    if not evidence_reference:  # R:L12
        raise LicensingError(
            gettext("Name the evidence of the deduction: the bank statement line or the supplier's settlement report."),
            rule="L12",
        )
    if not (payee or "").strip() or not (description or "").strip():
        raise LicensingError(gettext("Give who took the fee and what it was for."))
    expense = Expense(
        licence=licence,
        kind=ExpenseKind.EXPENSE,
        category=category,
        paid_on=paid_on,
        amount=amount,
        payee=payee.strip()[:150],
        description=description.strip()[:200],
        method=ExpenseMethod.DEDUCTION,
        reference=evidence_reference[:60],
        evidence_reference=evidence_reference[:120],
        recorded_by=actor,
    )
    if evidence:
        expense.evidence = evidence
    expense.save()
    audit_record(
        actor=actor,
        action="licensing.expense.deduction",
        obj=expense,
        data={
            "category": category,
            "amount": amount,
            "paid_on": paid_on,
            "payee": expense.payee,
            "evidence_reference": expense.evidence_reference,
            "evidence": expense.evidence.name if expense.evidence else "",
        },
    )
    return expense


@transaction.atomic
def interest_record(
    *, actor, account: TrustAccount, credited_on: datetime.date, amount, evidence_reference: str
) -> InterestCredit:
    """Interest the bank credited to the trust account (reported in the final report, R2)."""
    account = TrustAccount.objects.select_for_update().get(pk=account.pk)
    amount = parse_amount(amount, what=gettext("The interest"), allow_zero=False)
    evidence_reference = (evidence_reference or "").strip()
    if not evidence_reference:
        raise LicensingError(gettext("Name the bank statement that shows the interest."))
    credit = InterestCredit.objects.create(
        account=account,
        credited_on=credited_on,
        amount=amount,
        evidence_reference=evidence_reference[:120],
        recorded_by=actor,
    )
    audit_record(
        actor=actor,
        action="licensing.interest.record",
        obj=credit,
        data={"credited_on": credited_on, "amount": amount, "evidence_reference": credit.evidence_reference},
    )
    return credit


class StatementRefused(LicensingError):
    """The statement file was not imported; `problems` says why, row by row."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__(
            gettext("The bank statement was not imported: %(problems)s") % {"problems": "; ".join(problems)}
        )


@dataclass
class StatementRow:
    line_number: int
    posted_on: datetime.date
    description: str
    amount: Decimal
    balance: Decimal


DATE_FORMATS = ("%Y-%m-%d", "%m/%d/%Y", "%Y/%m/%d", "%d %b %Y", "%b %d, %Y", "%d-%b-%Y")
HEADER_NAMES = {
    "date": ("date", "posted", "posting date", "transaction date", "date posted"),
    "description": ("description", "details", "transaction", "memo", "narrative"),
    "amount": ("amount", "transaction amount"),
    "debit": ("debit", "debits", "withdrawal", "withdrawals", "withdrawn"),
    "credit": ("credit", "credits", "deposit", "deposits", "deposited"),
    "balance": ("balance", "running balance"),
}


def _parse_date(text: str) -> datetime.date:
    text = text.strip()
    for pattern in DATE_FORMATS:
        try:
            return datetime.datetime.strptime(text, pattern).date()
        except ValueError:
            continue
    raise ValueError(gettext("date %(text)r is not a date (use 2026-12-31 or 12/31/2026)") % {"text": text})


def _parse_signed(text: str) -> Decimal:
    """'-12.50', '(12.50)', '$1,234.56', '12.50 DR' as a signed Decimal."""
    raw = (text or "").strip().replace("$", "").replace(" ", "")
    if not raw:
        return Decimal(0)
    negative = raw.startswith("-") or (raw.startswith("(") and raw.endswith(")")) or raw.upper().endswith("DR")
    raw = re.sub(r"(?i)^[-(]|[)]$|DR$|CR$", "", raw)
    try:  # "1,234.56" and a French bank's "1 234,56" alike (core.money.plain_digits)
        value = Decimal(plain_digits(raw, gettext("The amount")))
    except (InvalidOperation, MoneyError):
        raise ValueError(gettext("%(text)r is not an amount") % {"text": text}) from None
    if value != value.quantize(CENT):
        raise ValueError(gettext("%(text)r has fractions of a cent") % {"text": text})
    return -value if negative else value


def _columns(header: list[str]) -> dict[str, int]:
    found = {}
    names = [h.strip().lower() for h in header]
    for key, aliases in HEADER_NAMES.items():
        for index, name in enumerate(names):
            if name in aliases:
                found[key] = index
                break
    missing = [k for k in ("date", "description", "balance") if k not in found]
    if "amount" not in found and not ("debit" in found or "credit" in found):
        missing.append(gettext("amount (or debit and credit)"))
    if missing:
        raise StatementRefused([gettext("the header has no column for %(columns)s") % {"columns": ", ".join(missing)}])
    return found


def statement_rows(text: str) -> list[StatementRow]:
    """The rows of a bank's CSV export, oldest first, checked to chain: each
    balance is the one before plus the amount (to the cent)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    rows = [
        r
        for r in read_csv_rows(
            reader,
            lambda line, problem: StatementRefused(
                [gettext("line %(line)s: %(problem)s") % {"line": line, "problem": problem}]
            ),
        )
        if any(cell.strip() for cell in r)
    ]
    if not rows:
        raise StatementRefused([gettext("the file is empty")])
    cols = _columns(rows[0])
    parsed, problems = [], []
    for number, row in enumerate(rows[1:], start=2):
        cells = {key: (row[index] if index < len(row) else "") for key, index in cols.items()}
        try:
            if "amount" in cols:
                amount = _parse_signed(cells["amount"])
            else:
                amount = abs(_parse_signed(cells.get("credit", ""))) - abs(_parse_signed(cells.get("debit", "")))
            parsed.append(
                StatementRow(
                    number,
                    _parse_date(cells["date"]),
                    cells["description"].strip(),
                    amount,
                    _parse_signed(cells["balance"]),
                )
            )
        except ValueError as error:
            problems.append(gettext("row %(line)s: %(problem)s") % {"line": number, "problem": error})
    if problems:
        raise StatementRefused(problems)
    parsed = [r for r in parsed if r.amount != 0]
    if not parsed:
        raise StatementRefused([gettext("the statement has no line that moves money")])
    if parsed[0].posted_on > parsed[-1].posted_on:
        parsed.reverse()  # newest first, as many banks export: read it oldest first
    for before, after in zip(parsed, parsed[1:], strict=False):
        if before.balance + after.amount != after.balance:
            problems.append(
                gettext(
                    "row %(line)s: the balance %(balance)s is not %(before)s plus %(amount)s; the file is not the "
                    "whole statement"
                )
                % {
                    "line": after.line_number,
                    "balance": after.balance,
                    "before": before.balance,
                    "amount": after.amount,
                }
            )
    if problems:
        raise StatementRefused(problems)
    return parsed


@transaction.atomic
def bank_statement_import(*, actor, account: TrustAccount, text: str, file_name: str = "") -> BankStatement:
    """Import a statement of the trust account, all lines or none."""
    account = TrustAccount.objects.select_for_update().get(pk=account.pk)
    digest = hashlib.sha256(text.encode()).hexdigest()
    if BankStatement.objects.filter(account=account, sha256=digest).exists():
        raise StatementRefused([gettext("this statement file is already imported")])
    rows = statement_rows(text)
    statement = BankStatement.objects.create(
        account=account,
        first_day=rows[0].posted_on,
        last_day=rows[-1].posted_on,
        opening_balance=rows[0].balance - rows[0].amount,
        closing_balance=rows[-1].balance,
        file_name=(file_name or "")[:200],
        sha256=digest,
        imported_by=actor,
    )
    BankStatementLine.objects.bulk_create(
        BankStatementLine(
            statement=statement,
            line_number=r.line_number,
            posted_on=r.posted_on,
            description=r.description[:300],
            amount=r.amount,
            balance=r.balance,
        )
        for r in rows
    )
    audit_record(
        actor=actor,
        action="licensing.bank_statement.import",
        obj=statement,
        data={
            "first_day": statement.first_day,
            "last_day": statement.last_day,
            "opening_balance": statement.opening_balance,
            "closing_balance": statement.closing_balance,
            "lines": len(rows),
            "sha256": digest,
        },
    )
    return statement
