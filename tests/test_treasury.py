"""The trust account, deposits and their reconciliation, prize payments,
unclaimed prizes, approved uses and spending (RULES L10, L11, L12, P3, P5)."""

import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from core.audit import audit_verify
from licensing.errors import LicensingError
from licensing.models import ExpenseKind, PaymentMethod
from licensing.services import (
    approved_use_add,
    deposit_record,
    expense_record,
    trust_account_open,
)
from raffle.errors import RaffleError
from raffle.models import PrizeKind, UnclaimedPrize
from raffle.reports.reconciliation import deposit_allocations, draw_reconciliation
from raffle.services import (
    deposit_cover_draws,
    prize_add_to_proceeds,
    prize_log_contact_attempt,
    prize_mark_unclaimed,
    prize_payment_record,
)
from tests.factories import MemberFactory, event_with_closed_draws, trust_account_for

SALES = ["795.00", "430.00", "405.00", "385.00"]


@pytest.fixture
def closed(treasurer):
    return event_with_closed_draws(SALES, actor=treasurer)


def _day(draw, days=0):
    return timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=days)


def test_trust_account_needs_two_bona_fide_signing_officers(closed, treasurer):  # R:L12
    event, _ = closed
    one = MemberFactory(organisation=event.licence.organisation)
    with pytest.raises(LicensingError, match="at least two"):
        trust_account_open(
            actor=treasurer,
            licence=event.licence,
            bank_name="Bank",
            account_number="1",
            opened_on=event.licence.issued_on,
            signing_officers=[one],
        )
    stranger = MemberFactory()  # another organisation's member
    with pytest.raises(LicensingError, match="not an active bona fide member"):
        trust_account_open(
            actor=treasurer,
            licence=event.licence,
            bank_name="Bank",
            account_number="1",
            opened_on=event.licence.issued_on,
            signing_officers=[one, stranger],
        )


def test_one_trust_account_per_licence(closed, treasurer):  # R:L10
    event, _ = closed
    trust_account_for(event, actor=treasurer)
    with pytest.raises(LicensingError, match="already has its lottery trust account"):
        trust_account_for(event, actor=treasurer)


def test_deposits_matching_sales_reconcile(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    for d in draws:
        deposit = deposit_record(
            actor=treasurer,
            account=account,
            slip_number=f"S{d.number}",
            deposited_on=_day(d, 1),
            amount=d.ticket_sales,
            slip_scan=SimpleUploadedFile("slip.png", b"\x89PNG fake"),
        )
        deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={d: d.ticket_sales})
    lines = draw_reconciliation(event)
    assert [line.flags for line in lines] == [[], [], [], []]
    assert all(a.unallocated == 0 for a in deposit_allocations(event))
    assert audit_verify().intact


def test_unreconciled_deposit_is_flagged_short_over_late_and_missing(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer, deposit_within_days=3)
    short = deposit_record(
        actor=treasurer, account=account, slip_number="A1", deposited_on=_day(draws[0], 1), amount="700.00"
    )
    deposit_cover_draws(actor=treasurer, deposit=short, amounts={draws[0]: "700.00"})
    over = deposit_record(
        actor=treasurer, account=account, slip_number="A2", deposited_on=_day(draws[1], 1), amount="500.00"
    )
    deposit_cover_draws(actor=treasurer, deposit=over, amounts={draws[1]: "500.00"})
    late = deposit_record(
        actor=treasurer, account=account, slip_number="A3", deposited_on=_day(draws[2], 6), amount="450.00"
    )
    deposit_cover_draws(actor=treasurer, deposit=late, amounts={draws[2]: "405.00"})
    flags = {line.draw.number: line.flags for line in draw_reconciliation(event)}
    assert flags == {1: ["short"], 2: ["over"], 3: ["late"], 4: ["not deposited"]}
    unallocated = {a.deposit.slip_number: a.unallocated for a in deposit_allocations(event)}
    assert unallocated["A3"] == Decimal("45.00")


def test_coverage_cannot_exceed_the_slip(closed, treasurer):  # R:L12
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    deposit = deposit_record(
        actor=treasurer, account=account, slip_number="B1", deposited_on=_day(draws[1], 1), amount="1000.00"
    )
    with pytest.raises(RaffleError, match="add up to \\$1,225.00"):
        deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={draws[0]: "795", draws[1]: "430"})
    assert not deposit.coverage.exists()


def test_prize_is_paid_by_cheque_or_transfer_for_the_exact_amount(closed, treasurer):  # R:P3
    event, draws = closed
    payment = prize_payment_record(
        actor=treasurer,
        draw=draws[0],
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.ELECTRONIC,
        reference="ET-88123",
        paid_on=_day(draws[0], 2),
        payee="A. MacLeod",
    )
    assert payment.amount == Decimal("159.00") and payment.currency == "CAD"
    with pytest.raises(RaffleError, match="already paid"):
        prize_payment_record(
            actor=treasurer,
            draw=draws[0],
            kind=PrizeKind.DRAW_PRIZE,
            method=PaymentMethod.CHEQUE,
            reference="100",
            paid_on=_day(draws[0], 2),
            payee="A. MacLeod",
        )
    with pytest.raises(RaffleError, match="cheque or electronic transfer"):
        prize_payment_record(
            actor=treasurer,
            draw=draws[1],
            kind=PrizeKind.DRAW_PRIZE,
            method="cash",
            reference="x",
            paid_on=_day(draws[1], 2),
            payee="B",
        )
    with pytest.raises(RaffleError, match="no jackpot to pay"):  # R:P4
        prize_payment_record(
            actor=treasurer,
            draw=draws[1],
            kind=PrizeKind.JACKPOT,
            method=PaymentMethod.CHEQUE,
            reference="101",
            paid_on=_day(draws[1], 2),
            payee="B",
        )


def test_unclaimed_prize_is_held_six_months_with_attempts_logged(closed, treasurer):  # R:P5
    event, draws = closed
    prize = prize_mark_unclaimed(actor=treasurer, draw=draws[2])
    since = _day(draws[2])
    assert prize.amount == Decimal("81.00")
    assert 181 <= (prize.hold_until - since).days <= 184
    with pytest.raises(RaffleError, match="held in trust for six months"):
        prize_add_to_proceeds(actor=treasurer, prize=prize, today=prize.hold_until - datetime.timedelta(days=1))
    with pytest.raises(RaffleError, match="at least one attempt"):
        prize_add_to_proceeds(actor=treasurer, prize=prize, today=prize.hold_until)
    prize_log_contact_attempt(
        actor=treasurer,
        prize=prize,
        attempted_on=since + datetime.timedelta(days=3),
        means="Telephone",
        outcome="No answer; voicemail left",
    )
    prize = prize_add_to_proceeds(actor=treasurer, prize=prize, today=prize.hold_until)
    assert UnclaimedPrize.objects.get(pk=prize.pk).added_to_proceeds_on == prize.hold_until
    with pytest.raises(RaffleError, match="joined the gross proceeds"):
        prize_payment_record(
            actor=treasurer,
            draw=draws[2],
            kind=PrizeKind.DRAW_PRIZE,
            method=PaymentMethod.CHEQUE,
            reference="9",
            paid_on=prize.hold_until,
            payee="Late",
        )


def test_six_month_date_keeps_the_day_or_takes_the_month_end():  # R:P5
    from raffle.models import add_months

    assert add_months(datetime.date(2026, 1, 15), 6) == datetime.date(2026, 7, 15)
    assert add_months(datetime.date(2026, 8, 31), 6) == datetime.date(2027, 2, 28)


def test_spending_on_an_unapproved_use_is_refused(closed, treasurer):  # R:L11
    event, draws = closed
    licence = event.licence
    with pytest.raises(LicensingError, match="only be spent on an approved use"):
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.PROCEEDS_USE,
            paid_on=_day(draws[3]),
            amount="500.00",
            payee="Hospice",
            description="Beds",
            reference="CHQ 201",
        )
    other = event_with_closed_draws(["10.00"], actor=treasurer)[0]
    foreign = approved_use_add(
        actor=treasurer, licence=other.licence, description="Beds", approved_on=other.licence.issued_on
    )
    with pytest.raises(LicensingError, match="not approved for licence"):
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.PROCEEDS_USE,
            paid_on=_day(draws[3]),
            amount="500.00",
            payee="Hospice",
            description="Beds",
            reference="CHQ 201",
            approved_use=foreign,
        )
    assert not licence.expenses.exists()


def test_a_new_use_needs_written_approval_before_the_money_is_spent(closed, treasurer):  # R:L11
    event, draws = closed
    licence = event.licence
    with pytest.raises(LicensingError, match="written approval"):
        approved_use_add(
            actor=treasurer, licence=licence, description="New van", approved_on=_day(draws[3]), is_amendment=True
        )
    van = approved_use_add(
        actor=treasurer,
        licence=licence,
        description="New van",
        approved_on=_day(draws[3]),
        is_amendment=True,
        approval_reference="AGCO letter 2026-118",
    )
    with pytest.raises(LicensingError, match="before its written approval"):
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.PROCEEDS_USE,
            paid_on=_day(draws[3], -1),
            amount="100.00",
            payee="Dealer",
            description="Deposit on van",
            reference="CHQ 7",
            approved_use=van,
        )
    spent = expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.PROCEEDS_USE,
        paid_on=_day(draws[3], 1),
        amount="100.00",
        payee="Dealer",
        description="Deposit on van",
        reference="CHQ 7",
        approved_use=van,
    )
    assert spent.approved_use == van


def test_withdrawals_from_the_trust_account_are_by_cheque(closed, treasurer):  # R:L12
    event, draws = closed
    with pytest.raises(LicensingError, match="by cheque only"):
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


def test_signing_officers_can_change_but_never_below_two(closed, treasurer):  # R:L12
    from licensing.services import trust_account_set_officers

    event, _ = closed
    account = trust_account_for(event, actor=treasurer)
    org = event.licence.organisation
    new = [MemberFactory(organisation=org, full_name=name) for name in ("Ann New", "Bo New")]
    with pytest.raises(LicensingError, match="at least two"):
        trust_account_set_officers(actor=treasurer, account=account, signing_officers=new[:1])
    trust_account_set_officers(actor=treasurer, account=account, signing_officers=new)
    assert sorted(account.signing_officers.values_list("full_name", flat=True)) == ["Ann New", "Bo New"]
