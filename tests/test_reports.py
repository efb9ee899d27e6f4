"""The four-draw report (R1), the final report (R2), the fee (L9), the due
dates, issued reports kept with their SHA-256, and the deadlines feed."""

import datetime
import hashlib
import io
from decimal import Decimal

import pytest
from django.utils import timezone

from core.pdf import pdf_text
from licensing.models import ExpenseKind, FeeCollection, IssuedReport, PaymentMethod, ReportKind
from licensing.services import (
    approved_use_add,
    deposit_record,
    donated_prize_record,
    expense_record,
    licence_fee,
    report_file_intact,
    report_issue,
)
from raffle.errors import RaffleError
from raffle.models import Draw, PrizeKind
from raffle.reports.builders import available_periods, final_report, four_draw_report
from raffle.reports.deadlines import deadlines_ics, event_deadlines
from raffle.reports.render import final_csv, final_pdf, four_draw_csv, four_draw_pdf
from raffle.services import deposit_cover_draws, prize_payment_record, registrar_notification_record
from tests.factories import event_with_closed_draws, run_draw_on_its_night, trust_account_for

SALES = ["795.00", "430.00", "405.00", "385.00"]


@pytest.fixture
def closed(treasurer):
    event, draws = event_with_closed_draws(SALES, actor=treasurer)
    Draw.objects.filter(pk=draws[0].pk).update(winner_name="A. MacLeod")
    return event, [Draw.objects.get(pk=d.pk) for d in draws]


def test_fee_of_a_known_period_is_one_percent_of_its_prize_board_rounded_down(closed):  # R:L9
    event, _ = closed
    report = four_draw_report(event, 1)
    assert [line.draw.draw_prize for line in report.lines] == [Decimal(x) for x in ("159", "86", "81", "77")]
    assert [line.draw.jackpot_contribution for line in report.lines] == [
        Decimal(x) for x in ("238.50", "129.00", "121.50", "115.50")
    ]
    assert report.totals.draw_prizes == Decimal("403.00")
    assert report.totals.jackpot_contributions == Decimal("604.50")
    assert report.totals.prize_board == Decimal("1007.50")
    assert report.fee == Decimal("10.07")  # 10.075 rounded down to the cent
    assert licence_fee(prize_board=Decimal("1007.50"), rate_percent=Decimal("3")) == Decimal("30.22")


def test_four_draw_report_is_due_seven_days_after_its_fourth_draw(closed):  # R:R1
    event, draws = closed
    report = four_draw_report(event, 1)
    assert report.due_on == timezone.localdate(draws[3].scheduled_at) + datetime.timedelta(days=7)


def test_period_not_over_has_no_report_yet(treasurer):  # R:R1
    event, _ = event_with_closed_draws(["100.00", "100.00"], actor=treasurer)
    assert available_periods(event) == []
    with pytest.raises(RaffleError, match="not over"):
        four_draw_report(event, 1)


def test_fee_collected_at_the_end_is_not_payable_with_the_period_report(closed):  # R:L9
    event, _ = closed
    event.licence.fee_collection = FeeCollection.AT_END
    event.licence.save(update_fields=["fee_collection"])
    event.refresh_from_db()
    report = four_draw_report(event, 1)
    assert report.fee == Decimal("10.07") and report.fee_payable_now == 0


def test_four_draw_pdf_text_holds_the_known_figures(closed, treasurer):  # R:R1
    event, draws = closed
    account = trust_account_for(event, actor=treasurer)
    deposit = deposit_record(
        actor=treasurer,
        account=account,
        slip_number="DS-0001",
        deposited_on=timezone.localdate(draws[0].scheduled_at),
        amount="795.00",
    )
    deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={draws[0]: "795.00"})
    prize_payment_record(
        actor=treasurer,
        draw=draws[0],
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference="CHQ 1001",
        paid_on=timezone.localdate(draws[0].scheduled_at),
        payee="A. MacLeod",
    )
    report = four_draw_report(event, 1)
    text = " ".join(pdf_text(four_draw_pdf(report)).split())  # words wrapped in narrow cells
    for figure in (
        "795.00",
        "430.00",
        "405.00",
        "385.00",
        "159.00",
        "238.50",
        "115.50",
        "1,007.50",
        "10.07",
        "DS-0001",
        "CHQ 1001",
        "A. MacLeod",
        "Dana Destroyer",
        "Vic Verifier",
        report.due_on.isoformat(),
        "not deposited",
        "Four-draw report 1",
    ):
        assert figure in text, figure
    pages = text.count("Page ")
    assert pages >= 1
    assert text.count(f"Licence {event.licence.number}") >= pages  # on every page
    assert text.count(event.licence.organisation.name) >= pages


def test_four_draw_csv_has_one_row_per_draw_and_the_fee(closed):  # R:R1
    event, _ = closed
    text = four_draw_csv(four_draw_report(event, 1))
    lines = text.strip().splitlines()
    assert lines[0].startswith("licence,organisation,draw_number,draw_date,ticket_sales")
    assert len(lines) == 1 + 4 + 9  # the draws, then the labelled totals (#14 added four; #15 the audit anchor)
    assert ",fee_1.00_percent,,10.07," in text and ",prize_board,,1007.50," in text
    assert ",audit_anchor,Audit anchor " in text  # the organisation's audit chain head (R:E3)


def test_csv_cells_cannot_carry_a_formula(treasurer):
    event, draws = event_with_closed_draws(["100.00"] * 4, actor=treasurer)
    Draw.objects.filter(pk=draws[0].pk).update(winner_name='=HYPERLINK("http://x")')
    text = four_draw_csv(four_draw_report(event, 1))
    assert "'=HYPERLINK" in text


def test_final_report_shows_the_financial_report_winners_and_donated_prizes(treasurer):  # R:R2 R:D6
    event, draws = event_with_closed_draws(SALES, actor=treasurer)
    ace = Draw.objects.get(event=event, number=5)
    run_draw_on_its_night(ace, actor=treasurer, sales="500.00", card="AS")
    event.refresh_from_db()
    licence = event.licence
    day = timezone.localdate(ace.scheduled_at)
    hospice = approved_use_add(
        actor=treasurer, licence=licence, description="Palliative care beds", approved_on=licence.issued_on
    )
    expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.EXPENSE,
        paid_on=day,
        amount="120.00",
        payee="Ticket Printers Ltd",
        description="Ticket printing",
        reference="CHQ 12",
    )
    expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.PROCEEDS_USE,
        paid_on=day,
        amount="600.00",
        payee="Medical Supply Co",
        description="Two beds",
        reference="CHQ 13",
        approved_use=hospice,
    )
    donated_prize_record(
        actor=treasurer, licence=licence, description="Hockey tickets", donor="Attack", value="250.00", received_on=day
    )
    # The Registrar issues register (#5, R:D6) is on this system: the report lists its entries.
    registrar_notification_record(
        actor=treasurer,
        event=event,
        occurred_on=day,
        kind="deck_or_envelope",
        description="Envelope 12 found unsealed",
        method="email",
        notified_at=timezone.now(),
    )
    report = final_report(event)
    assert report.compliance_register
    assert report.compliance_issues == [f"Problem with the deck or envelopes on {day:%Y-%m-%d}"]
    gross = Decimal("2515.00")
    prizes = Decimal("403.00") + Decimal("100.00") + report.jackpot_awarded
    assert report.jackpot_awarded == Decimal("754.50")  # 604.50 + 150.00
    assert report.gross_receipts == gross
    assert report.prizes_total == prizes
    # R:L9 the licence fees are deducted from net proceeds (#14): 1% of 1,007.50 and of 250.00.
    assert report.fee_total == Decimal("10.07") + Decimal("2.50")
    assert report.net_proceeds == gross - prizes - Decimal("120.00") - report.fee_total
    assert report.net_unspent == report.net_proceeds - Decimal("600.00")
    assert report.donated_total == Decimal("250.00")  # shown, not deducted
    assert report.due_on == day + datetime.timedelta(days=30)
    text = " ".join(pdf_text(final_pdf(report)).split())
    for figure in (
        "2,515.00",
        "754.50",
        "Palliative care beds",
        "Hockey tickets",
        "250.00",
        "Ticket printing",
        report.due_on.isoformat(),
        "Draws and winners",
        "Compliance issues register",
        f"Problem with the deck or envelopes on {day:%Y-%m-%d}",
    ):
        assert figure in text, figure
    csv = final_csv(report)
    assert f"net_proceeds,{report.net_proceeds}" in csv
    assert "donated_prizes_not_deducted,250.00" in csv
    assert "<svg" in report.chart_svg and "Draw 5" in report.chart_svg
    assert "No register on this system" not in text and "No issue was notified" not in text


def test_issued_report_is_kept_with_its_sha256_who_and_when(closed, treasurer):  # R:R1
    event, _ = closed
    report = four_draw_report(event, 1)
    pdf = four_draw_pdf(report)
    issued = report_issue(
        actor=treasurer,
        licence=event.licence,
        kind=ReportKind.FOUR_DRAW,
        file_format="pdf",
        content=pdf,
        period=1,
        fee=report.fee,
        due_on=report.due_on,
    )
    issued = IssuedReport.objects.get(pk=issued.pk)
    assert issued.sha256 == hashlib.sha256(pdf).hexdigest()
    assert issued.generated_by == treasurer and issued.generated_at
    assert issued.file.read() == pdf
    assert report_file_intact(issued)
    storage = issued.file.storage
    storage.delete(issued.file.name)
    storage.save(issued.file.name, io.BytesIO(pdf + b"%altered"))
    assert not report_file_intact(IssuedReport.objects.get(pk=issued.pk))


def test_deadlines_list_reports_tickets_videos_and_expiry(closed):  # R:R1 R:T6 R:D4
    event, draws = closed
    deadlines = event_deadlines(event)
    whats = [d.what for d in deadlines]
    assert "Four-draw report 1 (draws 1–4) and its fee" in whats
    report = next(d for d in deadlines if d.kind == "report")
    assert report.on == four_draw_report(event, 1).due_on
    tickets = next(d for d in deadlines if d.what.startswith("Draw 1: unsold"))
    assert tickets.on == timezone.localdate(draws[0].scheduled_at) + datetime.timedelta(days=30)
    assert any(d.kind == "video" for d in deadlines)
    assert deadlines[-1].kind == "licence"
    ics = deadlines_ics(event, deadlines)
    assert ics.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") and ics.endswith("END:VCALENDAR\r\n")
    assert ics.count("BEGIN:VEVENT") == len(deadlines)
    assert all(len(line.encode()) <= 75 for line in ics.split("\r\n"))
    assert f"DTSTART;VALUE=DATE:{report.on:%Y%m%d}" in ics


def test_final_report_carries_a_copy_of_every_scanned_deposit_slip(closed, treasurer):  # R:R2
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image
    from pypdf import PdfReader

    event, draws = closed
    buffer = io.BytesIO()
    Image.new("RGB", (60, 30), "white").save(buffer, format="PNG")
    account = trust_account_for(event, actor=treasurer)
    deposit_record(
        actor=treasurer,
        account=account,
        slip_number="DS-77",
        amount="795.00",
        deposited_on=timezone.localdate(draws[0].scheduled_at),
        slip_scan=SimpleUploadedFile("slip-77.png", buffer.getvalue()),
    )
    deposit_record(
        actor=treasurer,
        account=account,
        slip_number="DS-78",
        amount="430.00",
        deposited_on=timezone.localdate(draws[1].scheduled_at),
    )
    pdf = final_pdf(final_report(event))
    text = " ".join(pdf_text(pdf).split())
    assert "Annex: copies of the deposit slips" in text and "Deposit slip DS-77" in text
    assert "DS-78" in text and "no scan on file, to attach on paper: DS-78" in text
    assert "DS-77 †" in text  # marked as copied in the annex
    images = {image.data for page in PdfReader(io.BytesIO(pdf)).pages for image in page.images}
    assert len(images) == 1  # the one scanned slip, embedded
    assert text.count("Annex: copies of the deposit slips") == 1
    assert PdfReader(io.BytesIO(pdf)).metadata.title == f"Final report · {event.licence.number}"
