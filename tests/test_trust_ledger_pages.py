"""The trust account's ledger page: the treasurer records a deduction and
imports the bank's statement; the page says whether the ledger balances and
lists outstanding cheques and deposits in transit (L10, L12)."""

import datetime

from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from core import roles
from licensing.models import ExpenseMethod, PaymentMethod
from licensing.services import deposit_record
from raffle.models import PrizeKind
from raffle.services import deposit_cover_draws, prize_payment_record
from tests.factories import UserFactory, event_with_closed_draws, once, trust_account_for


def test_treasurer_imports_a_statement_and_sees_the_ledger_balance_to_it(client, db):  # R:L12 R:L10
    treasurer = UserFactory(username="treasurer")
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    event, draws = event_with_closed_draws(["795.00", "430.00"], actor=treasurer)
    account = trust_account_for(event, actor=treasurer)
    day = timezone.localdate(draws[0].scheduled_at)
    deposit = deposit_record(actor=treasurer, account=account, slip_number="S1", deposited_on=day, amount="795.00")
    deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={draws[0]: "795.00"})
    prize_payment_record(
        actor=treasurer,
        draw=draws[0],
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference="1001",
        paid_on=day,
        payee="A. Winner",
    )
    client.force_login(treasurer)
    charge_day = day + datetime.timedelta(days=3)
    response = client.post(
        f"/treasury/{event.pk}/trust-ledger/deduction/",
        once(
            {
                "category": "bank_charge",
                "paid_on": charge_day,
                "amount": "4.95",
                "payee": "Kawartha Credit Union",
                "description": "Monthly fee",
                "evidence_reference": "Statement line SERVICE CHARGE",
                "evidence": SimpleUploadedFile("statement.pdf", b"%PDF-1.4"),
            }
        ),
        follow=True,
    )
    assert "Deduction recorded." in response.content.decode()
    assert event.licence.expenses.get().method == ExpenseMethod.DEDUCTION
    statement = (
        "Date,Description,Amount,Balance\n"
        f"{day:%Y-%m-%d},DEPOSIT,795.00,795.00\n"
        f"{charge_day:%Y-%m-%d},SERVICE CHARGE,-4.95,790.05\n"
    )
    response = client.post(
        f"/treasury/{event.pk}/trust-ledger/statement/",
        once(statement=SimpleUploadedFile("statement.csv", statement.encode())),
        follow=True,
    )
    page = " ".join(response.content.decode().split())
    assert "Statement imported and matched." in page
    assert "the ledger balances to the bank" in page
    assert "cheque 1001 $159.00" in page  # outstanding: the bank has not cashed it
    assert "$790.05" in page and "$631.05" in page  # bank's closing balance; ledger balance after the cheque
    # The auditor reads the page and cannot write.
    auditor = UserFactory(username="auditor")
    auditor.groups.add(Group.objects.get(name=roles.AUDITOR))
    client.force_login(auditor)
    assert client.get(f"/treasury/{event.pk}/trust-ledger/").status_code == 200
    assert client.post(f"/treasury/{event.pk}/trust-ledger/interest/", {}).status_code == 403
