"""Importing a draw from the AGCO-registered supplier (RULES D5, T3, T4, T1,
T9, T11, L12): all or nothing, every refusal naming the file, line and column."""

from decimal import Decimal

import pytest
from django.utils import timezone

from core.models import AuditEntry
from core.pdf import pdf_text
from licensing.services import deposit_record
from raffle import services
from raffle.cards import ACE_OF_SPADES
from raffle.models import (
    Draw,
    Sale,
    SelectionMethod,
    SupplierImport,
    SupplierResult,
    SupplierSettlement,
    Ticket,
    TicketRoll,
    WinnerSelection,
)
from raffle.reports.builders import four_draw_report
from raffle.reports.reconciliation import draw_reconciliation
from raffle.reports.render import four_draw_pdf
from raffle.services.supplier_formats import ImportRefused
from tests.factories import name_members_in_charge, run_draw, trust_account_for
from tests.supplier_files import (
    four_sales,
    result_file,
    sale_row,
    sales_file,
    settlement_file,
    supplier_event,
)

pytestmark = pytest.mark.django_db


def _nothing_changed(draw, audit_before: int):
    assert not Sale.objects.filter(draw=draw).exists()
    assert not Ticket.objects.filter(draw=draw).exists()
    assert not SupplierImport.objects.exists() and not SupplierResult.objects.exists()
    assert not SupplierSettlement.objects.exists()
    assert AuditEntry.objects.count() == audit_before


def _refused(staff_user, draw, **files) -> ImportRefused:
    before = AuditEntry.objects.count()
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, **files)
    _nothing_changed(draw, before)
    return refused.value


def test_sales_import_records_every_ticket_and_the_voids(staff_user):  # R:T11 R:D5
    event, draw = supplier_event(staff_user)
    summary = services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(four_sales(draw)))
    assert (summary.rows, summary.orders, summary.tickets_sold, summary.tickets_void) == (7, 5, 6, 1)
    assert (summary.amount_sold, summary.amount_void) == (Decimal("25.00"), Decimal("5.00"))
    sales = {s.supplier_order: s for s in Sale.objects.filter(draw=draw)}
    assert (sales["A-2"].tier.quantity, sales["A-2"].units, sales["A-2"].amount) == (3, 1, Decimal("10.00"))
    assert sales["A-4"].is_void and "Refunded in the supplier's system" in sales["A-4"].void_reason
    assert sales["A-1"].purchaser_address == "12 King Street, Kingston"  # R:T9
    assert list(Ticket.objects.filter(draw=draw).order_by("seq").values_list("serial", "is_void")) == [
        ("100001", False),
        ("100002", False),
        ("100003", False),
        ("100004", False),
        ("100005", False),
        ("100006", True),
        ("100007", False),
    ]
    entry = AuditEntry.objects.filter(action="raffle.supplier.import").get()
    assert entry.data["tickets_sold"] == 6 and len(entry.data["files"]["sales"]["sha256"]) == 64


def test_dry_run_shows_the_preview_and_changes_nothing(staff_user):
    event, draw = supplier_event(staff_user)
    before = AuditEntry.objects.count()
    summary = services.supplier_draw_import(
        actor=staff_user, draw=draw, sales=sales_file(four_sales(draw)), dry_run=True
    )
    assert (summary.tickets_sold, summary.amount_sold, summary.dry_run) == (6, Decimal("25.00"), True)
    _nothing_changed(draw, before)


def test_missing_column_is_refused_naming_it(staff_user):
    event, draw = supplier_event(staff_user)
    refused = _refused(staff_user, draw, sales=sales_file(four_sales(draw), drop="envelope_pick"))
    assert (refused.file, refused.line, refused.column) == ("sales.csv", 1, "envelope_pick")
    assert str(refused).startswith("sales.csv, line 1, column envelope_pick: the column “envelope_pick” is missing")


def test_ticket_number_of_a_paper_ticket_is_refused(staff_user):  # R:T3
    event, draw = supplier_event(staff_user)
    # A paper stub sold under the same licence (before its amendment to electronic sales).
    tier = event.price_tiers.get(quantity=1)
    paper = Sale.objects.create(
        licence=event.licence,
        draw=draw,
        channel="paper_stub",
        tier=tier,
        ticket_count=1,
        amount=Decimal("5"),
        first_seq=1,
    )
    Ticket.objects.create(licence=event.licence, draw=draw, sale=paper, serial="100005", seq=1)
    rows = four_sales(draw)
    rows[4]["ticket_number"] = "0100005"  # printed leading zeros are the same ticket
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    assert (refused.value.line, refused.value.column, refused.value.rule) == (6, "ticket_number", "T3")
    assert "ticket 100005 is already sold under this licence" in str(refused.value)
    assert Ticket.objects.filter(draw=draw).count() == 1 and not SupplierImport.objects.exists()


def test_ticket_number_printed_on_a_paper_roll_of_the_licence_is_refused(staff_user):  # R:T3
    event, draw = supplier_event(staff_user)
    # A roll of paper tickets issued under the same licence (before its amendment to electronic sales).
    TicketRoll.objects.create(
        licence=event.licence, draw=draw, seller_name="Jo", first_serial=100003, last_serial=100500
    )
    refused = _refused(staff_user, draw, sales=sales_file(four_sales(draw)))
    assert (refused.line, refused.column, refused.rule) == (4, "ticket_number", "T3")
    assert "ticket 100003 is printed on Roll of tickets 100003–100500 (Jo), issued for draw 1" in str(refused)


def test_ticket_number_twice_in_the_file_is_refused(staff_user):  # R:T3
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[6]["ticket_number"] = "100001"
    refused = _refused(staff_user, draw, sales=sales_file(rows))
    assert (refused.line, refused.column, refused.rule) == (8, "ticket_number", "T3")
    assert "also on line 2" in str(refused)


def test_amount_off_the_price_tiers_is_refused(staff_user):  # R:T1
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[0]["amount"] = "4.00"
    refused = _refused(staff_user, draw, sales=sales_file(rows))
    assert (refused.line, refused.column, refused.rule) == (2, "amount", "T1")
    assert "order A-1 pays $4.00 for 1 ticket(s) at the tier 1 for $5.00; the price is $5.00" in str(refused)


def test_tier_the_event_does_not_sell_is_refused(staff_user):  # R:T1
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[4]["price_tier"] = "2"
    refused = _refused(staff_user, draw, sales=sales_file(rows))
    assert (refused.line, refused.column) == (6, "price_tier")


def test_sale_after_the_draw_closed_is_refused(staff_user):  # R:T4
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[6]["sold_at"] = (draw.scheduled_at + timezone.timedelta(minutes=5)).isoformat()
    refused = _refused(staff_user, draw, sales=sales_file(rows))
    assert (refused.line, refused.column, refused.rule) == (8, "sold_at", "T4")
    assert "outside draw 1's sales" in str(refused)


def test_envelope_already_open_and_missing_contact_are_refused(staff_user):  # R:T9
    event, draw = supplier_event(staff_user)
    event.envelopes.filter(number=12).update(card="2H", opened_at=timezone.now())
    refused = _refused(staff_user, draw, sales=sales_file(four_sales(draw)))
    assert (refused.line, refused.column, refused.rule) == (6, "envelope_pick", "T9")
    event.envelopes.filter(number=12).update(card="", opened_at=None)
    rows = four_sales(draw)
    rows[1]["purchaser_phone"] = rows[1]["purchaser_email"] = ""
    refused = _refused(staff_user, draw, sales=sales_file(rows))
    assert (refused.line, refused.column) == (3, "purchaser_phone")


def test_winner_that_is_void_is_refused(staff_user):  # R:T11
    event, draw = supplier_event(staff_user)
    refused = _refused(staff_user, draw, sales=sales_file(four_sales(draw)), result=result_file(draw, "100006"))
    assert (refused.file, refused.line, refused.column, refused.rule) == (
        "result.csv",
        2,
        "winning_ticket_number",
        "T11",
    )
    assert "ticket 100006 is refunded; a void or refunded ticket cannot win" in str(refused)


def test_winner_from_another_draw_is_refused(staff_user):  # R:T4
    event, draw = supplier_event(staff_user)
    run_draw(draw, actor=staff_user, sales="10.00")
    earlier = Ticket.objects.filter(draw=draw).values_list("serial", flat=True).first()
    draw2 = services.draw_open_sales(actor=staff_user, draw=Draw.objects.get(event=event, number=2))
    rows = [sale_row(draw2, "B-1", "200001", minutes=-60)]
    refused = _refused(staff_user, draw2, sales=sales_file(rows), result=result_file(draw2, earlier))
    assert (refused.line, refused.column, refused.rule) == (2, "winning_ticket_number", "T4")
    assert f"ticket {earlier} was sold for draw 1" in str(refused)


def test_winner_drawn_before_the_draws_advertised_time_is_refused(staff_user):  # R:D2 R:D9
    event, draw = supplier_event(staff_user)
    refused = _refused(
        staff_user, draw, sales=sales_file(four_sales(draw)), result=result_file(draw, "100001", minutes=-5)
    )
    assert (refused.line, refused.column, refused.rule) == (2, "drawn_at", "D9")


def test_settlement_that_does_not_match_the_sales_is_refused(staff_user, treasurer):  # R:L12
    event, draw = supplier_event(staff_user)
    account = trust_account_for(event, actor=treasurer)
    deposit_record(
        actor=treasurer, account=account, slip_number="SUP-0001", deposited_on=timezone.localdate(), amount="23.60"
    )
    refused = _refused(
        staff_user,
        draw,
        sales=sales_file(four_sales(draw)),
        settlement=settlement_file("30.00", "0.90", "0.50", "28.60"),
    )
    assert (refused.file, refused.line, refused.column, refused.rule) == ("settlement.csv", 2, "gross", "L12")
    assert "the settlement's gross is $30.00 but draw 1's imported sales are $25.00" in str(refused)
    refused = _refused(
        staff_user,
        draw,
        sales=sales_file(four_sales(draw)),
        settlement=settlement_file("25.00", "0.90", "0.50", "23.70"),
    )
    assert (refused.line, refused.column) == (2, "net_deposited")  # fees and net do not add up to the gross
    refused = _refused(
        staff_user,
        draw,
        sales=sales_file(four_sales(draw)),
        settlement=settlement_file("25.00", "0.90", "0.50", "23.60", slip="SUP-9999"),
    )
    assert (refused.line, refused.column) == (2, "deposit_reference")


def test_online_draw_settled_net_of_fees_reconciles_and_reports_the_fees(staff_user, treasurer):  # R:L12 R:D5
    event, draw = supplier_event(staff_user)
    account = trust_account_for(event, actor=treasurer)
    deposit_record(
        actor=treasurer, account=account, slip_number="SUP-0001", deposited_on=timezone.localdate(), amount="23.60"
    )
    services.supplier_draw_import(
        actor=treasurer,
        draw=draw,
        sales=sales_file(four_sales(draw)),
        result=result_file(draw, "100005"),
        settlement=settlement_file("25.00", "0.90", "0.50", "23.60"),
    )
    settlement = SupplierSettlement.objects.get(draw=draw)
    kinds = {d.kind: d.amount for d in settlement.deductions}
    assert kinds == {"processing_fees": Decimal("0.90"), "supplier_fees": Decimal("0.50")}
    assert settlement.evidence.read() == settlement_file("25.00", "0.90", "0.50", "23.60").content
    # The wizard's steps: close from the imported figures, announce, the supplier's winner, envelope, card.
    name_members_in_charge(draw, actor=staff_user)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=staff_user, draw=draw)
    assert draw.ticket_sales == Decimal("25.00")
    draw = services.draw_announce(actor=staff_user, draw=draw)
    draw = services.draw_record_winning_ticket(actor=staff_user, draw=draw)
    selection = WinnerSelection.objects.get(draw=draw)
    assert (draw.winning_serial, selection.method, selection.rng_reference) == (
        "100005",
        SelectionMethod.SUPPLIER,
        "RC-88121",
    )
    draw = services.draw_choose_envelope(actor=staff_user, draw=draw)
    assert draw.envelope.number == 12  # the envelope Ana Ruiz picked
    draw = services.draw_reveal_card(
        actor=staff_user, draw=draw, card=ACE_OF_SPADES, card_again=ACE_OF_SPADES, ace_confirmed=True
    )
    services.draw_award_jackpot(actor=staff_user, draw=draw)
    [line] = draw_reconciliation(event)
    assert (line.deposited, line.deducted, line.difference) == (Decimal("23.60"), Decimal("1.40"), Decimal("0"))
    assert "short" not in line.flags and line.flags == []
    report = four_draw_report(event.__class__.objects.get(pk=event.pk), 1)
    assert [(d.label, d.amount) for d in report.deductions] == [
        ("Card-processing fees", Decimal("0.90")),
        ("Electronic raffle supplier fees", Decimal("0.50")),
    ]
    text = " ".join(pdf_text(four_draw_pdf(report)).split())
    assert "Deductions that are not cheques" in text
    assert "Card-processing fees" in text and "Supplier settlement of draw 1" in text
    flat = text.replace(" ", "")
    assert "RaffleCloud5.1ofNorthernRaffleSystemsInc.(AGCOregistrationAGCO-GS-0042)" in flat  # R:D5
