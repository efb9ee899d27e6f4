"""Property tests of the prize board with a seed (RULES L3, L9, P6): for any
sequence of draws with any seed, the prizes plus the seed never pass the
prize board, and every period's fee is the rate times that period's prize
board (its draws' 20% and 30%, and the seed in the period it was added)."""

import datetime
from decimal import ROUND_DOWN, Decimal

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from core.money import Rounding, prizes_of
from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, Event
from raffle.reports.builders import final_report, four_draw_report
from raffle.reports.ledger import ImportRefused
from tests.factories import LicenceFactory, event_with_draw, sell_tickets

pytestmark = pytest.mark.django_db
D = Decimal
CARDS = ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH"]
SLOW = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


def cents(low: int, high: int):
    return st.integers(low, high).map(lambda c: (D(c) / 100).quantize(D("0.01")))


def _expected_fee(rate: Decimal, prize_board: Decimal) -> Decimal:
    """R:L9 the rate times the period's prize board, rounded down to the cent (worked out here, not by the code)."""
    return (prize_board * rate / 100).quantize(D("0.01"), rounding=ROUND_DOWN)


@SLOW
@given(
    board=cents(100_00, 5_000_00),
    seed_share=st.integers(0, 100),
    rate=st.sampled_from([D("0.00"), D("1.00"), D("2.50"), D("3.00")]),
    rounding=st.sampled_from([Rounding.CENT, Rounding.DOLLAR]),
    sales=st.lists(cents(0, 4_000_00), min_size=1, max_size=12),
)
def test_any_draws_with_any_seed_keep_prizes_plus_seed_within_the_board_and_fees_at_the_rate(
    staff_user, board, seed_share, rate, rounding, sales
):  # R:L3 R:L9 R:P6
    """Draw after draw is closed through the live close (the history import's
    path); a draw whose sales would pass the board is refused and not
    recorded, and the next one is tried."""
    seed = (board * seed_share / 100).quantize(D("0.01"), rounding=ROUND_DOWN)
    with transaction.atomic():
        today = timezone.localdate()
        licence = LicenceFactory(
            prize_board=board, fee_rate_percent=rate, issued_on=today - datetime.timedelta(weeks=20)
        )
        event = event_with_draw(
            actor=staff_user,
            licence=licence,
            seed_jackpot=str(seed),
            rounding=rounding,
            first_draw_at=timezone.now() - datetime.timedelta(weeks=13),  # R:D9 the rows are held after it
        )
        recorded = []
        for amount in sales:
            number = len(recorded) + 1
            row = f"{number},{today - datetime.timedelta(weeks=13 - number)},{amount},{number},{CARDS[number - 1]}"
            fits = seed + sum(prizes_of(a, rounding=rounding) for a in recorded) + prizes_of(amount, rounding=rounding)
            try:
                services.history_import(
                    actor=staff_user, licence=licence, text=f"draw_number,draw_date,ticket_sales,envelope,card\n{row}\n"
                )
            except ImportRefused as refused:
                assert fits > board and "prize board" in str(refused)  # refused only past the board
                continue
            assert fits <= board
            recorded.append(amount)
        event = Event.objects.get(pk=event.pk)
        draws = list(Draw.objects.filter(event=event, ticket_sales__isnull=False).order_by("number"))
        prizes = sum((d.draw_prize + d.jackpot_contribution for d in draws), D("0"))
        assert seed + prizes <= board  # R:L3 R:P6
        assert services.prizes_committed(event) == seed + prizes
        for fee in final_report(event).fees:  # R:L9 every period's fee
            period_draws = [d for d in draws if (d.number - 1) // 4 + 1 == fee.period]
            period_board = sum((d.draw_prize + d.jackpot_contribution for d in period_draws), D("0"))
            period_board += seed if fee.period == 1 else 0
            assert fee.prize_board == period_board
            assert fee.fee == _expected_fee(rate, period_board)
            if len(period_draws) == 4:
                assert four_draw_report(event, fee.period).fee == fee.fee
        transaction.set_rollback(True)


@SLOW
@given(
    board=cents(200_00, 2_000_00),
    seed_share=st.integers(0, 100),
    # One sale per attempt: n sales of the "3 for $10" tier (a stub sale, or a device's import).
    sales=st.lists(st.integers(1, 60).map(lambda n: D(10 * n)), min_size=1, max_size=8),
    channel=st.sampled_from([SalesChannel.PAPER_STUB, SalesChannel.ELECTRONIC]),
)
def test_any_sales_on_a_live_draw_with_any_seed_stop_at_the_board(
    staff_user, board, seed_share, sales, channel
):  # R:L3 R:P6
    """Ticket after ticket on a selling draw: every sale that fits is recorded,
    every sale that would carry the prizes plus the seed past the board is
    refused, and the draw's sales never pass it."""
    seed = (board * seed_share / 100).quantize(D("0.01"), rounding=ROUND_DOWN)
    with transaction.atomic():
        licence = LicenceFactory(prize_board=board, sales_channel=channel)
        event = event_with_draw(
            actor=staff_user,
            licence=licence,
            seed_jackpot=str(seed),
            first_draw_at=timezone.now() + datetime.timedelta(hours=1),
        )
        draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
        sold = D("0")
        for amount in sales:
            fits = seed + prizes_of(sold + amount) <= board
            try:
                sell_tickets(draw, actor=staff_user, sales=amount)
            except RaffleError as refused:
                assert not fits and refused.rule == "L3"
                continue
            assert fits
            sold += amount
        assert Draw.objects.get(pk=draw.pk).sales_amount == sold
        assert seed + prizes_of(sold) <= board
        transaction.set_rollback(True)
