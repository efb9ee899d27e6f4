"""The paperwork a four-draw report annexes, recorded from the treasurer's
pages: the cheque paying a prize with its scan, the licence fee's cheque
naming the period it pays, and where and when each draw's winners were
published (RULES R1, P3, L9, D10)."""

import datetime
import io

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from PIL import Image
from pypdf import PdfReader

from core import roles
from core.pdf import pdf_text
from licensing.models import ExpenseCategory
from licensing.services import deposit_record
from raffle import services
from raffle.models import PrizePayment, WinnersPublication
from raffle.reports.builders import four_draw_report
from raffle.reports.render import four_draw_pdf
from tests.factories import UserFactory, event_with_closed_draws, once, trust_account_for

SALES = ["795.00", "430.00", "405.00", "385.00"]


def _user(role, username):
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get(name=role))
    return user


def _day(draw, days=0):
    return timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=days)


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 30), "white").save(buffer, format="PNG")
    return buffer.getvalue()


def _text(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf).split())


def _pay(client, event, draw, *, method, reference):
    """The treasurer pays the draw prize from the prizes page, with a scan of the cheque."""
    return client.post(
        f"/treasury/{event.pk}/prizes/pay/",
        once(
            {
                "draw": draw.pk,
                "kind": "draw_prize",
                "payee": "A. MacLeod",
                "method": method,
                "reference": reference,
                "paid_on": _day(draw, 2),
                "cheque_image": SimpleUploadedFile(f"cheque-{reference}.png", _png()),
            }
        ),
        follow=True,
    )


@pytest.fixture
def season(db):
    """Four draws closed, each draw's sales deposited into the trust account."""
    treasurer = _user(roles.TREASURER, "treasurer")
    event, draws = event_with_closed_draws(SALES, actor=treasurer)
    account = trust_account_for(event, actor=treasurer)
    for d in draws:
        deposit = deposit_record(
            actor=treasurer,
            account=account,
            slip_number=f"DS-{d.number}",
            deposited_on=_day(d, 1),
            amount=d.ticket_sales,
        )
        services.deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={d: d.ticket_sales})
    return event, draws, treasurer


def test_the_prize_cheque_scanned_on_the_prizes_page_is_annexed_to_the_four_draw_report(client, season):  # R:P3 R:R1
    event, draws, treasurer = season
    client.force_login(treasurer)
    response = _pay(client, event, draws[0], method="cheque", reference="1001")
    page = response.content.decode()
    assert "Payment recorded." in page and "1001 (scan on file)" in page
    payment = PrizePayment.objects.get()
    assert payment.cheque_image.read() == _png()
    pdf = four_draw_pdf(four_draw_report(event, 1))
    text = _text(pdf)
    assert "Cheques: 1001 (copy below)" in text
    assert f"Cheque 1001, {_day(draws[0], 2):%Y-%m-%d}, A. MacLeod" in text
    assert len({image.data for p in PdfReader(io.BytesIO(pdf)).pages for image in p.images}) == 1


def test_a_transfer_carries_no_cheque_scan(client, season):  # R:P3
    event, draws, treasurer = season
    client.force_login(treasurer)
    response = _pay(client, event, draws[0], method="electronic", reference="ETR-55")
    assert "A scan of a cheque goes with a payment by cheque" in response.content.decode()
    assert not PrizePayment.objects.exists()


def test_the_licence_fee_paid_from_the_spending_page_is_the_periods_fee_payment(client, season):  # R:L9 R:R1
    event, draws, treasurer = season
    client.force_login(treasurer)
    fee = four_draw_report(event, 1).fee
    assert "Payment of the fee: not recorded yet" in _text(four_draw_pdf(four_draw_report(event, 1)))
    response = client.post(
        f"/treasury/{event.pk}/spending/expense/",
        once(
            {
                "kind": "expense",
                "category": ExpenseCategory.LICENCE_FEE,
                "fee_period": "1",
                "paid_on": _day(draws[3], 3),
                "amount": str(fee),
                "payee": "AGCO",
                "description": "Licence fee, draws 1 to 4",
                "reference": "2001",
            }
        ),
        follow=True,
    )
    page = response.content.decode()
    assert "Payment recorded." in page and "Licence fees: fee of period 1" in page
    report = four_draw_report(event, 1)
    assert [(e.reference, e.amount) for e in report.fee_payments] == [("2001", fee)]
    text = _text(four_draw_pdf(report))
    assert f"Payment of the fee: cheque 2001 of {_day(draws[3], 3):%Y-%m-%d}, ${fee}" in text


def test_a_period_named_on_an_expense_that_is_not_a_fee_is_refused(client, season):  # R:L9
    event, draws, treasurer = season
    client.force_login(treasurer)
    response = client.post(
        f"/treasury/{event.pk}/spending/expense/",
        once(
            {
                "kind": "expense",
                "category": ExpenseCategory.ADVERTISING,
                "fee_period": "1",
                "paid_on": _day(draws[3], 3),
                "amount": "60.00",
                "payee": "Sound Weekly",
                "description": "Jackpot advertisement",
                "reference": "2002",
            }
        ),
        follow=True,
    )
    assert "Only a licence fee pays a four-draw period" in response.content.decode()
    assert not event.licence.expenses.exists()


def test_the_treasurer_records_where_the_winners_were_published_and_the_report_lists_it(client, season):  # R:D10
    event, draws, treasurer = season
    client.force_login(treasurer)
    page = client.get(f"/treasury/{event.pk}/publications/").content.decode()
    assert page.count("Not recorded yet") == 4
    response = client.post(
        f"/treasury/{event.pk}/publications/add/",
        once(draw=draws[0].pk, published_on=_day(draws[0], 1), where="trilliumfoodbank.ca/winners"),
        follow=True,
    )
    page = response.content.decode()
    assert "Publication of the winners recorded." in page
    assert f"{_day(draws[0], 1):%Y-%m-%d}: trilliumfoodbank.ca/winners" in page
    assert page.count("Not recorded yet") == 3
    text = _text(four_draw_pdf(four_draw_report(event, 1)))
    assert f"Draw 1: trilliumfoodbank.ca/winners, {_day(draws[0], 1):%Y-%m-%d}" in text
    assert "No publication recorded for draw(s) 2, 3, 4" in text


def test_winners_cannot_be_published_before_their_draw(client, season):  # R:D10
    event, draws, treasurer = season
    client.force_login(treasurer)
    response = client.post(
        f"/treasury/{event.pk}/publications/add/",
        once(draw=draws[1].pk, published_on=_day(draws[1], -1), where="Community board"),
        follow=True,
    )
    assert "The winners cannot be published before the draw." in response.content.decode()
    assert not WinnersPublication.objects.exists()


def test_the_auditor_reads_the_publications_but_records_none(client, season):
    event, draws, _ = season
    client.force_login(_user(roles.AUDITOR, "auditor"))
    page = client.get(f"/treasury/{event.pk}/publications/").content.decode()
    assert "Publication of the winners" in page and "Record the publication" not in page
    response = client.post(
        f"/treasury/{event.pk}/publications/add/",
        {"draw": draws[0].pk, "published_on": _day(draws[0], 1), "where": "Community board"},
    )
    assert response.status_code == 403
    assert not WinnersPublication.objects.exists()
