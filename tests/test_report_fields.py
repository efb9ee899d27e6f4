"""Every field the four-draw and final reports must carry, read from the PDF
text and the CSV, on one season: a seed, a voided ticket, a postponed draw, a must-go draw with
two shares, an expense before draw 1 and one between periods, a bank charge
and a prize cheque the bank has not cleared (RULES R1, R2, R5, L9, L13, T11,
P5, P6, P7, D4, D6, D10). A property test: every expense lands in exactly one
four-draw report."""

import datetime
import io
from csv import DictReader
from decimal import Decimal

import pytest
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from core.pdf import pdf_text
from licensing.models import ExpenseCategory, ExpenseKind, LicenceStatus, PaymentMethod
from licensing.services import (
    bank_statement_import,
    deduction_record,
    deposit_record,
    expense_record,
    interest_record,
    licence_cancel,
)
from raffle import services
from raffle.models import Draw, DrawState, MustGoPayout, MustGoReason, NotificationMethod, PrizeKind, Sale, Ticket
from raffle.reports.builders import (
    available_periods,
    expense_period,
    expenses_of_period,
    final_report,
    four_draw_report,
    reportable_period_ends,
)
from raffle.reports.render import final_csv, final_pdf, four_draw_csv, four_draw_pdf
from tests.factories import (
    SIGNATURES,
    LicenceFactory,
    MemberFactory,
    clock_at,
    event_with_closed_draws,
    event_with_draw,
    members_for,
    run_draw,
    run_draw_on_its_night,
    trust_account_for,
)

SALES = ["795.00", "430.00", "405.00", "385.00", "300.00"]
DAYS = datetime.timedelta(days=1)


def _day(draw, days=0):
    return timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=days)


def _text(pdf: bytes) -> str:
    return " ".join(pdf_text(pdf).split())


def _must_go_with_two_shares(draw, actor, members):
    """Draw 6 is the must-go final draw: the first ticket opens a non-ace, the second finds the Ace."""
    draw = services.draw_set_must_go(actor=actor, draw=draw, reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=actor, sales="200.00", until=DrawState.ANNOUNCED)
    first, second = Ticket.objects.filter(draw=draw).order_by("seq").values_list("serial", flat=True)[:2]
    draw = services.draw_record_winning_ticket(
        actor=actor, draw=draw, serial=first, serial_again=first, winner_name="Ann"
    )
    draw = services.draw_choose_envelope(actor=actor, draw=draw, envelope_number=20)
    draw = services.draw_reveal_card(actor=actor, draw=draw, card="9D", card_again="9D")
    destroyer, verifier = members
    draw = services.draw_must_go_redraw(
        actor=actor,
        draw=draw,
        destroyed_by=destroyer,
        verified_by=verifier,
        **SIGNATURES,
        serial=second,
        serial_again=second,
        winner_name="Bob",
    )
    draw = services.draw_choose_envelope(actor=actor, draw=draw, envelope_number=21)
    draw = services.draw_reveal_card(actor=actor, draw=draw, card="AS", card_again="AS", ace_confirmed=True)
    return services.draw_award_jackpot(actor=actor, draw=draw)


@pytest.fixture
def season(treasurer):
    first_draw_at = timezone.now() - datetime.timedelta(days=7 * 6 + 10)
    licence = LicenceFactory(issued_on=timezone.localdate(first_draw_at) - datetime.timedelta(days=30))
    event = event_with_draw(
        actor=treasurer,
        licence=licence,
        first_draw_at=first_draw_at,
        seed_jackpot="500.00",
        must_go_payout=MustGoPayout.SHARE_ALL,
    )
    members = members_for(event)
    MemberFactory(organisation=licence.organisation, full_name="Chris Chair", is_in_charge=True)
    # Draw 1: a sale voided before sales close (T11).
    draw = services.draw_open_sales(actor=treasurer, draw=Draw.objects.get(event=event, number=1))
    from tests.factories import sell_tickets

    sell_tickets(draw, actor=treasurer, sales="10.00")
    voided = Sale.objects.filter(draw=draw).order_by("-pk").first()
    services.sale_void(actor=treasurer, sale=voided, reason="wrong tier entered")
    draws = []
    for number, amount in enumerate(SALES, start=1):
        d = Draw.objects.get(event=event, number=number)
        if number == 3:  # R:D9 postponed a day, two days ahead, with the authority told
            with clock_at(d.scheduled_at - datetime.timedelta(days=2)):
                services.draw_postpone(
                    actor=treasurer,
                    draw=d,
                    new_at=d.scheduled_at + datetime.timedelta(days=1),
                    reason="Hall flooded",
                    notice_to="AGCO lottery licensing",
                    notice_at=timezone.now(),
                    notice_method=NotificationMethod.EMAIL,
                )
            d = Draw.objects.get(pk=d.pk)
        draws.append(run_draw_on_its_night(d, actor=treasurer, sales=amount, destroyer=members[0], verifier=members[1]))
    last = Draw.objects.get(event=event, number=6)
    with clock_at(last.scheduled_at):  # R:D9 held on its night
        draws.append(_must_go_with_two_shares(last, treasurer, members))
    event.refresh_from_db()
    account = trust_account_for(event, actor=treasurer)
    seed = deposit_record(
        actor=treasurer, account=account, slip_number="SEED", deposited_on=licence.issued_on, amount="500.00"
    )
    for d in draws:
        deposit = deposit_record(
            actor=treasurer,
            account=account,
            slip_number=f"DS-{d.number}",
            deposited_on=_day(d, 1),
            amount=d.ticket_sales,
        )
        services.deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={d: d.ticket_sales})
    services.prize_payment_record(
        actor=treasurer,
        draw=draws[0],
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference="1001",
        paid_on=_day(draws[0], 2),
        payee="A. MacLeod",
    )
    services.prize_payment_record(  # not cleared by the bank: outstanding on the statement
        actor=treasurer,
        draw=draws[1],
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference="1002",
        paid_on=_day(draws[1], 2),
        payee="B. Tremblay",
    )
    expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.EXPENSE,
        category=ExpenseCategory.PRINTING,
        paid_on=_day(draws[0], -5),  # before draw 1
        amount="150.00",
        payee="Ticket Printers Ltd",
        description="Ticket rolls",
        reference="1000",
    )
    expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.EXPENSE,
        category=ExpenseCategory.ADVERTISING,
        paid_on=_day(draws[3], 2),  # after period 1's last draw, before period 2's first
        amount="60.00",
        payee="Sound Weekly",
        description="Jackpot advertisement",
        reference="1003",
    )
    fee_1 = four_draw_report(event, 1).fee
    expense_record(
        actor=treasurer,
        licence=licence,
        kind=ExpenseKind.EXPENSE,
        category=ExpenseCategory.LICENCE_FEE,
        fee_period=1,
        paid_on=_day(draws[3], 3),
        amount=fee_1,
        payee="AGCO",
        description="Licence fee, period 1",
        reference="1004",
    )
    deduction_record(
        actor=treasurer,
        licence=licence,
        category=ExpenseCategory.BANK_CHARGE,
        paid_on=_day(draws[2], 4),
        amount="4.95",
        payee="Kawartha Credit Union",
        description="Monthly account fee",
        evidence_reference="Statement line SERVICE CHARGE",
    )
    interest_record(
        actor=treasurer, account=account, credited_on=_day(draws[4], 1), amount="0.42", evidence_reference="Statement"
    )
    services.winners_publication_record(
        actor=treasurer, draw=draws[0], published_on=_day(draws[0], 1), where="trilliumfoodbank.ca/winners"
    )
    services.registrar_notification_record(
        actor=treasurer,
        event=event,
        occurred_on=_day(draws[2]),
        kind="deck_or_envelope",
        description="Envelope 12 found unsealed",
        method="email",
        notified_at=timezone.now(),
        reference="AGCO-77",
    )
    services.video_register(
        actor=treasurer,
        draw=draws[0],
        resolution_lines=1080,
        duration="00:20:00",
        held_by="Vic Verifier",
        location="USB drive 3, office safe",
        shows_ticket_selection=True,
        shows_envelope_selection=True,
        shows_card_reveal=True,
        shows_card_destruction=True,
    )
    rows, balance = [], Decimal(0)
    bank = [(licence.issued_on, "DEPOSIT SEED", "500.00")]
    bank += [(_day(d, 1), f"DEPOSIT {d.number}", str(d.ticket_sales)) for d in draws]
    bank += [(_day(draws[0], 3), "CHEQUE 1001", "-159.00"), (_day(draws[0], -2), "CHEQUE 1000", "-150.00")]
    bank += [(_day(draws[2], 4), "SERVICE CHARGE", "-4.95"), (_day(draws[4], 1), "INTEREST", "0.42")]
    bank += [(_day(draws[3], 4), "CHEQUE 1003", "-60.00"), (_day(draws[3], 5), "CHEQUE 1004", f"-{fee_1}")]
    for day, what, amount in sorted(bank, key=lambda r: r[0]):
        balance += Decimal(amount)
        rows.append(f"{day:%Y-%m-%d},{what},{amount},{balance}")
    bank_statement_import(
        actor=treasurer, account=account, text="Date,Description,Amount,Balance\n" + "\n".join(rows) + "\n"
    )
    assert seed.amount == Decimal("500.00")
    return event, [Draw.objects.get(pk=d.pk) for d in draws], voided


def test_four_draw_report_carries_every_field_per_draw_and_per_period(season):  # R:R1 R:T11 R:D4 R:D10 R:L13 R:L9
    event, draws, voided = season
    report = four_draw_report(event, 1)
    text = _text(four_draw_pdf(report))
    void_serials = list(Ticket.objects.filter(sale=voided).order_by("seq").values_list("serial", flat=True))
    void_serial = void_serials[0]
    line = report.lines[0]
    assert len(void_serials) == voided.ticket_count == 3  # one sale of "3 for $10", voided
    assert line.tickets_sold == draws[0].pool.valid_tickets and line.void_count == 3
    assert line.void_serials == void_serials
    assert report.totals.void_count == 3
    for figure in (
        f"Voided (3): {', '.join(void_serials)}",  # voids: count and serials
        "Sales by price:",
        f"{timezone.localtime(draws[0].scheduled_at):%Y-%m-%d %H:%M}",  # scheduled
        f"{timezone.localtime(draws[0].ticket_drawn_at):%Y-%m-%d %H:%M}",  # held
        "Jackpot before",
        "500.00",  # the seed: draw 1's jackpot before
        "USB drive 3, office safe, kept by Vic Verifier",  # the video's location and keeper
        "Dana Destroyer / Vic Verifier",
        "Prize board used to date (seed $500.00 included)",
        "trilliumfoodbank.ca/winners",  # the winners' publication
        "No publication recorded for draw(s) 2, 3, 4",
        "Ticket rolls",  # the expense before draw 1
        "cheque 1004",  # the fee's payment
        "Chris Chair, bona fide member in charge",
        "Signature:",
        "DS-1",
        "1001",
        "Annex: copies of deposit slips and cheques",
    ):
        assert figure in text, figure
    assert text.count(", bona fide member in charge Signature:") == 2  # R:L13 two members sign
    postponed = draws[2].postponements.get()  # R:D9 the scheduled, the new and the held time
    assert (
        f"{timezone.localtime(postponed.postponed_from):%Y-%m-%d %H:%M} postponed to "
        f"{timezone.localtime(postponed.postponed_to):%Y-%m-%d %H:%M}"
    ) in text
    assert report.lines[2].held_at >= postponed.postponed_to
    assert timezone.localdate(draws[3].scheduled_at) == timezone.localdate(postponed.postponed_from) + 7 * DAYS
    assert "Jackpot advertisement" not in text  # paid after draw 4: period 2's report
    assert "Video of Draw" not in text
    csv = four_draw_csv(report)
    header = csv.splitlines()[0].split(",")
    for column in ("scheduled_at", "held_at", "tickets_sold", "voided_tickets", "voided_serials", "jackpot_before"):
        assert column in header
    assert void_serial in csv
    rows = {row["draw_number"]: row for row in DictReader(io.StringIO(csv))}
    assert rows["3"]["postponed_to"] == f"{timezone.localtime(postponed.postponed_to):%Y-%m-%d %H:%M}"
    assert rows["3"]["scheduled_at"] == f"{timezone.localtime(postponed.postponed_from):%Y-%m-%d %H:%M}"
    assert "\nprize_board_used_to_date," in csv and "\nseed,Test" not in csv
    assert "\nexpense," in csv and "Ticket rolls" in csv


def test_the_last_period_has_the_must_go_shares_and_the_expense_between_periods(season):  # R:R1 R:R5 R:P7
    event, draws, _ = season
    assert available_periods(event) == [1, 2]
    report = four_draw_report(event, 2)
    assert not report.is_complete
    text = _text(four_draw_pdf(report))
    assert "Must-go re-draws:" in text and "Ann" in text and "Bob" in text
    shares = [t.draw_prize_share for t in report.lines[-1].must_go]
    assert len(shares) == 2 and sum(shares) == draws[5].draw_prize
    assert f"share ${shares[0]}" in text
    assert "Jackpot advertisement" in text and "Ticket rolls" not in text
    assert "Payment of the fee: not recorded yet" in text


def test_every_expense_is_in_exactly_one_four_draw_report(season):  # R:R5
    event, _, _ = season
    ends, ended = reportable_period_ends(event)
    assert ended and len(ends) == 2
    per_period = [expenses_of_period(event.licence, k, ends, True if k == len(ends) else False) for k in (1, 2)]
    ids = [e.pk for expenses in per_period for e in expenses]
    assert sorted(ids) == sorted(event.licence.expenses.values_list("pk", flat=True))
    assert len(ids) == len(set(ids))


def test_final_report_carries_every_field(season):  # R:R2 R:P5 R:P6 R:L9 R:D6
    event, draws, _ = season
    report = final_report(event)
    assert report.is_final and report.end_reason == "the Ace of Spades was found in the must-go draw"
    gross = sum((d.ticket_sales for d in draws), Decimal(0))
    assert report.gross_receipts == gross
    assert report.seed == Decimal("500.00") and report.interest == Decimal("0.42")
    assert report.must_go_shares == draws[5].must_go_tickets.get(sequence=1).draw_prize_share
    assert report.fees_paid == four_draw_report(event, 1).fee
    assert report.net_proceeds == (
        gross
        + Decimal("500.00")
        + Decimal("0.42")
        - report.prizes_total
        - Decimal("150.00")
        - Decimal("60.00")
        - Decimal("4.95")
        - report.fee_total
    )
    assert report.net_proceeds > 0  # the seed's own line keeps the prizes it paid from making it negative
    assert report.statement is not None and report.statement.balances
    assert [e.reference for e in report.statement.outstanding_cheques] == ["1002"]
    text = _text(final_pdf(report))
    for figure in (
        "The licence ended: the Ace of Spades was found in the must-go draw",
        "ticket(s) sold",
        "Seed jackpot from the organisation's own funds",
        "Interest earned on the trust account",
        "of which must-go shares",
        "Expenses: Printing",
        "Expenses: Advertising",
        "Expenses: Bank charges",
        "Licence fees",
        "Net proceeds",
        "Unclaimed prizes still held in trust",
        "Closing balance of the ledger",
        "the ledger balances to the bank",
        "outstanding cheques 1002",
        "Envelope 12 found unsealed",
        "AGCO-77",
        "Attestation",
        "must-go 1:",
    ):
        assert figure in text, figure
    csv = final_csv(report)
    for label in (
        "seed,500.00",
        "interest_earned,0.42",
        "expenses: Bank charges,4.95",
        "licence_fees,",
        "tickets_sold,",
    ):
        assert label in csv, label
    assert f"net_proceeds,{report.net_proceeds}" in csv


def test_the_final_report_is_issuable_when_the_licence_ends_without_the_ace(treasurer):  # R:R5 R:R2
    event, draws = event_with_closed_draws(["100.00"] * 5, actor=treasurer)
    assert final_report(event).is_final is False and final_report(event).due_on is None
    expired = final_report(event, today=event.licence.expires_on + datetime.timedelta(days=1))
    assert expired.end_reason.startswith("the licence expired")
    licence_cancel(actor=treasurer, licence=event.licence, reason="Hall closed")
    event.refresh_from_db()
    assert event.licence.status == LicenceStatus.CANCELLED
    report = final_report(event)
    assert report.end_reason == "the licence was cancelled"
    assert report.due_on == _day(draws[-1], 30)
    assert report.jackpot_held == event.jackpot > 0
    text = _text(final_pdf(report))
    assert "The licence ended: the licence was cancelled" in text and "DRAFT" not in text
    assert "Progressive jackpot not won, still held in trust" in text
    assert available_periods(event) == [1, 2]  # the period the licence ended in is reportable
    assert four_draw_report(event, 2).lines[0].draw.number == 5


@given(
    ends=st.lists(st.dates(datetime.date(2026, 1, 1), datetime.date(2027, 12, 31)), min_size=1, max_size=15).map(
        sorted
    ),
    paid=st.lists(st.dates(datetime.date(2025, 6, 1), datetime.date(2028, 6, 1)), max_size=30),
    final=st.booleans(),
)
def test_any_expense_lands_in_exactly_one_report(ends, paid, final):  # R:R5
    for day in paid:
        period = expense_period(day, ends, last_is_final=final)
        # The first report whose last draw is on or after the payment, or the last one once the licence ended.
        on_or_after = [k for k, end in enumerate(ends, 1) if end >= day]
        expected = on_or_after[0] if on_or_after else (len(ends) if final else None)
        assert period == expected
        if period is not None:
            assert 1 <= period <= len(ends)
            assert day <= ends[period - 1] or (final and period == len(ends))
            assert period == 1 or day > ends[period - 2]  # not in the previous report's range
    if final:  # once the licence ended, nothing is left for a report never written
        assert all(expense_period(day, ends, last_is_final=True) is not None for day in paid)


def test_a_postponed_draw_counts_on_its_held_day_and_shows_both(treasurer):  # R:D9
    """The postponement's field (#13) slots in: the reports date the draw by the day it was held."""
    from raffle.reports.builders import held_at, report_day
    from raffle.reports.builders.draw_lines import draw_lines

    event, draws = event_with_closed_draws(["100.00"], actor=treasurer)
    draw = draws[0]
    assert report_day(draw) == timezone.localdate(draw.scheduled_at)
    assert held_at(draw) == draw.ticket_drawn_at  # held when its winning ticket was drawn
    later = draw.scheduled_at + datetime.timedelta(days=2)
    draw.held_at = later  # what a postponement records
    assert report_day(draw) == timezone.localdate(later) and held_at(draw) == later
    line = draw_lines([draw])[0]
    assert line.date == timezone.localdate(later)
    assert not line.postponed  # held late, but no postponement was recorded (tests/test_postponement.py)
    assert expense_period(timezone.localdate(later), [report_day(draw)], last_is_final=False) == 1
