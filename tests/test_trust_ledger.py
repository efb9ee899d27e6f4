"""The trust account's ledger (running balance), deductions that are not
cheques, the guard that keeps the jackpot and unpaid prizes in the account,
the reconciliation statuses, and bank statements matched line by line
(RULES L10, L12, P5)."""

import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from core.audit import audit_verify
from licensing.errors import LicensingError
from licensing.models import Expense, ExpenseCategory, ExpenseKind, ExpenseMethod, PaymentMethod
from licensing.services import (
    StatementRefused,
    approved_use_add,
    bank_statement_import,
    deduction_record,
    deposit_record,
    expense_record,
    interest_record,
    trust_position,
)
from raffle.models import PrizeKind
from raffle.reports.reconciliation import draw_reconciliation
from raffle.reports.trust_ledger import ledger_entries, statement_reconciliation
from raffle.services import deposit_cover_draws, prize_payment_record
from tests.factories import event_with_closed_draws, trust_account_for

SALES = ["795.00", "430.00", "405.00", "385.00"]


@pytest.fixture
def closed(treasurer):
    return event_with_closed_draws(SALES, actor=treasurer)


def _day(draw, days=0):
    return timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=days)


def _deposit_all(event, draws, treasurer, account):
    for d in draws:
        deposit = deposit_record(
            actor=treasurer, account=account, slip_number=f"S{d.number}", deposited_on=_day(d, 1), amount=d.ticket_sales
        )
        deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={d: d.ticket_sales})


def _pay_draw_prize(draw, treasurer, cheque, days=2):
    return prize_payment_record(
        actor=treasurer,
        draw=draw,
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference=cheque,
        paid_on=_day(draw, days),
        payee="A winner",
    )


@pytest.fixture
def season(closed, treasurer):
    """Four draws deposited, two draw prizes paid by cheque, a printing cheque,
    a bank charge and interest."""
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    _deposit_all(event, draws, treasurer, account)
    _pay_draw_prize(draws[0], treasurer, "1001")
    _pay_draw_prize(draws[1], treasurer, "1002")
    expense_record(
        actor=treasurer,
        licence=event.licence,
        kind=ExpenseKind.EXPENSE,
        category=ExpenseCategory.PRINTING,
        paid_on=_day(draws[1], 3),
        amount="120.00",
        payee="Ticket Printers Ltd",
        description="Ticket rolls",
        reference="1003",
    )
    deduction_record(
        actor=treasurer,
        licence=event.licence,
        category=ExpenseCategory.BANK_CHARGE,
        paid_on=_day(draws[2], 4),
        amount="4.95",
        payee="Kawartha Credit Union",
        description="Monthly account fee",
        evidence_reference="Statement line: SERVICE CHARGE",
    )
    interest_record(
        actor=treasurer, account=account, credited_on=_day(draws[3], 2), amount="0.37", evidence_reference="Statement"
    )
    return event, draws, account


def test_ledger_keeps_a_running_balance_of_every_movement(season):  # R:L10
    event, draws, _ = season
    entries = ledger_entries(event.licence)
    assert [e.kind for e in entries].count("deposit") == 4
    assert {e.kind for e in entries} == {"deposit", "prize", "expense", "deduction", "interest"}
    total = (
        Decimal("2015.00")
        - Decimal("159.00")
        - Decimal("86.00")
        - Decimal("120.00")
        - Decimal("4.95")
        + Decimal("0.37")
    )
    assert entries[-1].balance == total == Decimal("1645.42")
    running = Decimal(0)
    for entry in entries:
        running += entry.amount
        assert entry.balance == running
    assert [e.on for e in entries] == sorted(e.on for e in entries)


def test_a_deduction_is_only_a_bank_processing_or_supplier_fee_with_its_evidence(closed, treasurer):  # R:L12
    event, draws = closed
    common = dict(actor=treasurer, licence=event.licence, paid_on=_day(draws[0]), amount="12.00", payee="Bank")
    with pytest.raises(LicensingError, match="Only bank charges, card-processing fees and supplier fees"):
        deduction_record(category=ExpenseCategory.PRINTING, description="Posters", evidence_reference="x", **common)
    with pytest.raises(LicensingError, match="Name the evidence"):
        deduction_record(category=ExpenseCategory.BANK_CHARGE, description="Fee", evidence_reference=" ", **common)
    fee = deduction_record(
        category=ExpenseCategory.PROCESSING_FEE,
        description="Card fees of draw 1",
        evidence_reference="Settlement 2026-0001",
        **common,
    )
    assert fee.method == ExpenseMethod.DEDUCTION and fee.kind == ExpenseKind.EXPENSE
    assert Expense.objects.filter(licence=event.licence).count() == 1
    # The database refuses a deduction of another kind, or without evidence, whatever the code does.
    for category, evidence in ((ExpenseCategory.ADVERTISING, "x"), (ExpenseCategory.BANK_CHARGE, "")):
        with pytest.raises(IntegrityError), transaction.atomic():
            Expense.objects.create(
                licence=event.licence,
                kind=ExpenseKind.EXPENSE,
                category=category,
                method=ExpenseMethod.DEDUCTION,
                paid_on=_day(draws[0]),
                amount="5.00",
                payee="x",
                description="x",
                reference="x",
                evidence_reference=evidence,
                recorded_by=treasurer,
            )
    assert audit_verify().intact


def test_other_withdrawals_stay_cheques(closed, treasurer):  # R:L12
    event, draws = closed
    with pytest.raises(LicensingError, match="recorded as a deduction"):
        expense_record(
            actor=treasurer,
            licence=event.licence,
            kind=ExpenseKind.EXPENSE,
            paid_on=_day(draws[0]),
            amount="50.00",
            payee="Printer",
            description="Tickets",
            reference="x",
            method=PaymentMethod.ELECTRONIC,
        )


def test_spending_that_leaves_less_than_the_jackpot_and_unpaid_prizes_is_refused(season, treasurer):  # R:L10 R:P5
    event, draws, _ = season
    licence = event.licence
    position = trust_position(licence)
    assert position.balance == Decimal("1645.42")
    assert position.jackpot == event.jackpot == Decimal("604.50")
    assert position.unpaid_prizes == Decimal("81.00") + Decimal("77.00")  # draws 3 and 4 not paid yet
    spendable = Decimal("1645.42") - Decimal("604.50") - Decimal("158.00")
    assert position.spendable == spendable == Decimal("882.92")
    use = approved_use_add(actor=treasurer, licence=licence, description="Hospice beds", approved_on=licence.issued_on)
    common = dict(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.PROCEEDS_USE,
        paid_on=_day(draws[3], 3),
        payee="Hospice",
        description="Beds",
        approved_use=use,
    )
    before = Expense.objects.count()
    with pytest.raises(LicensingError, match=r"less than the \$762.50 it holds for the players.*At most \$882.92"):
        expense_record(amount="882.93", reference="1010", **common)
    assert Expense.objects.count() == before
    expense_record(amount="882.92", reference="1011", **common)
    assert trust_position(licence).spendable == 0
    with pytest.raises(LicensingError, match="holds for the players"):
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.EXPENSE,
            paid_on=_day(draws[3], 3),
            amount="0.01",
            payee="Printer",
            description="Posters",
            reference="1012",
        )


def test_reconciliation_statuses_say_what_they_mean(treasurer):  # R:L12
    event, draws = event_with_closed_draws(["100.00"] * 5, actor=treasurer)
    account = trust_account_for(event, actor=treasurer, deposit_within_days=3)
    plan = {1: ("100.00", 1), 2: ("90.00", 1), 3: ("110.00", 1), 4: ("100.00", 9)}
    for number, (amount, days) in plan.items():
        d = draws[number - 1]
        deposit = deposit_record(
            actor=treasurer, account=account, slip_number=f"S{number}", deposited_on=_day(d, days), amount=amount
        )
        deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={d: amount})
    late_enough = _day(draws[4], 10)
    statuses = {line.draw.number: line.status for line in draw_reconciliation(event, today=late_enough)}
    assert statuses == {1: "deposited", 2: "short", 3: "over", 4: "late", 5: "not deposited"}
    # On the day of draw 5, its deposit is not due yet, and draw 2's partial deposit can still be completed.
    early = {line.draw.number: line.status for line in draw_reconciliation(event, today=_day(draws[4]))}
    assert early[5] == "not yet due" and early[1] == "deposited"
    early = {line.draw.number: line.status for line in draw_reconciliation(event, today=_day(draws[1], 2))}
    assert early[2] == "not yet due"


STATEMENT_HEADER = "Date,Description,Amount,Balance\n"


def _statement(rows) -> str:
    balance, lines = Decimal(0), []
    for day, text, amount in rows:
        balance += Decimal(amount)
        lines.append(f"{day:%Y-%m-%d},{text},{amount},{balance}")
    return STATEMENT_HEADER + "\n".join(lines) + "\n"


def _bank_rows(draws, *, with_charge=True, with_interest=True):
    rows = [(_day(d, 1), f"DEPOSIT BRANCH {d.number}", str(d.ticket_sales)) for d in draws[:3]]  # draw 4's: in transit
    rows += [(_day(draws[0], 5), "CHEQUE 1001", "-159.00")]  # 1002 and 1003: outstanding
    if with_charge:
        rows += [(_day(draws[2], 4), "SERVICE CHARGE", "-4.95")]
    if with_interest:
        rows += [(_day(draws[3], 2), "INTEREST", "0.37")]
    return sorted(rows, key=lambda r: r[0])


def test_ledger_balances_to_an_imported_statement_to_the_cent(season, treasurer):  # R:L12
    event, draws, account = season
    # The statement ends the day after draw 4's deposit was made at the branch but before the bank posted it.
    statement = bank_statement_import(actor=treasurer, account=account, text=_statement(_bank_rows(draws)))
    assert statement.lines.count() == 6 and statement.opening_balance == 0
    rec = statement_reconciliation(statement)
    assert rec.unmatched_lines == []
    assert [e.reference for e in rec.outstanding_cheques] == ["1002", "1003"]
    assert [e.reference for e in rec.deposits_in_transit] == ["S4"]
    assert rec.book_balance == sum(
        (e.amount for e in ledger_entries(event.licence) if e.on <= statement.last_day), Decimal(0)
    )
    assert rec.adjusted_bank_balance == rec.book_balance
    assert rec.balances and rec.difference == 0 and rec.differences == []
    charge = next(m for m in rec.matches if m.line.description == "SERVICE CHARGE")
    assert charge.entry.kind == "deduction"
    cheque = next(m for m in rec.matches if m.line.description == "CHEQUE 1001")
    assert cheque.entry.reference == "1001"
    with pytest.raises(StatementRefused, match="already imported"):
        bank_statement_import(actor=treasurer, account=account, text=_statement(_bank_rows(draws)))
    assert audit_verify().intact


def test_a_statement_that_does_not_balance_shows_each_difference_by_line(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    _deposit_all(event, draws, treasurer, account)
    _pay_draw_prize(draws[0], treasurer, "1001")
    rows = _bank_rows(draws, with_interest=False) + [(_day(draws[3], 3), "NSF ITEM RETURNED", "-25.00")]
    statement = bank_statement_import(
        actor=treasurer, account=account, text=_statement(sorted(rows, key=lambda r: r[0]))
    )
    rec = statement_reconciliation(statement)
    assert not rec.balances
    assert rec.difference == Decimal("-29.95")
    assert [ln.description for ln in rec.unmatched_lines] == ["SERVICE CHARGE", "NSF ITEM RETURNED"]
    assert len(rec.differences) == 2
    assert "line 6 “SERVICE CHARGE” -4.95: not in the ledger" in rec.differences[0]
    assert "“NSF ITEM RETURNED” -25.00: not in the ledger" in rec.differences[1]


def test_statement_as_banks_export_it_newest_first_with_debit_and_credit_columns(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    day = _day(draws[0], 1)
    text = (
        "Date,Description,Withdrawals,Deposits,Balance\n"
        f'{day + datetime.timedelta(days=2):%m/%d/%Y},SERVICE CHARGE,$4.95,,"$1,490.05"\n'
        f'{day:%m/%d/%Y},DEPOSIT,,"$1,495.00","$1,495.00"\n'
    )
    statement = bank_statement_import(actor=treasurer, account=account, text=text, file_name="may.csv")
    lines = list(statement.lines.order_by("posted_on"))
    assert [(ln.amount, ln.balance) for ln in lines] == [
        (Decimal("1495.00"), Decimal("1495.00")),
        (Decimal("-4.95"), Decimal("1490.05")),
    ]
    assert statement.closing_balance == Decimal("1490.05")


def test_a_french_banks_amounts_are_read_to_the_cent_not_a_hundred_times_over(closed, treasurer):  # R:L12
    """A Desjardins-style export writes 1 495,00; dropping the comma read it as 149500."""
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    day = _day(draws[0], 1)
    text = (
        "Date,Description,Withdrawals,Deposits,Balance\n"
        f'{day:%m/%d/%Y},DÉPÔT,,"1\u00a0495,00 $","1\u00a0495,00 $"\n'
        f'{day + datetime.timedelta(days=2):%m/%d/%Y},FRAIS,"4,95",,"1 490,05"\n'
    )
    statement = bank_statement_import(actor=treasurer, account=account, text=text, file_name="mai.csv")
    lines = list(statement.lines.order_by("posted_on"))
    assert [(ln.amount, ln.balance) for ln in lines] == [
        (Decimal("1495.00"), Decimal("1495.00")),
        (Decimal("-4.95"), Decimal("1490.05")),
    ]


def test_a_statement_whose_balances_do_not_chain_is_not_imported(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    day = _day(draws[0], 1)
    text = STATEMENT_HEADER + f"{day},DEPOSIT,795.00,795.00\n{day},CHEQUE 1001,-159.00,600.00\n"
    with pytest.raises(StatementRefused, match="row 3: the balance 600.00 is not 795.00 plus -159.00"):
        bank_statement_import(actor=treasurer, account=account, text=text)
    with pytest.raises(StatementRefused, match="no column for balance"):
        bank_statement_import(actor=treasurer, account=account, text="Date,Description,Amount\n2026-01-01,x,1\n")
    assert not account.statements.exists()
