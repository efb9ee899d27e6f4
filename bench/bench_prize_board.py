"""How much the prize board guard (RULES L3) adds to a ticket sale or a
sales close, and what the dashboard forecast costs, against a baseline
measured in the same run: re-reading the event with its licence (what every
sale does anyway).

    TEST_DATABASE_NAME=bench_issue8 .venv/bin/python bench/bench_prize_board.py

Uses a throw-away PostgreSQL database (DATABASE_URL's server), created and
dropped by the script. Prints microseconds per call and the ratio to the
baseline.
"""

import datetime
import os
import sys
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("TEST_DATABASE_NAME", "bench_prize_board")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

REPEAT = 300


def per_call_us(work) -> float:
    for _ in range(20):
        work()
    start = time.perf_counter()
    for _ in range(REPEAT):
        work()
    return (time.perf_counter() - start) / REPEAT * 1e6


def build(closed_draws: int):
    from core.money import split_sales
    from raffle.models import Draw, DrawState, Event
    from tests.factories import LicenceFactory, event_with_draw

    event = event_with_draw(
        licence=LicenceFactory(prize_board=Decimal("5000000")),
        first_draw_at=timezone.now() - datetime.timedelta(weeks=closed_draws),
    )
    Draw.objects.filter(event=event).delete()
    jackpot, rows = Decimal("0"), []
    for n in range(1, closed_draws + 1):
        split = split_sales(Decimal(1000 + 37 * n))
        rows.append(
            Draw(
                event=event,
                number=n,
                state=DrawState.CLOSED,
                scheduled_at=event.first_draw_at + datetime.timedelta(weeks=n - 1),
                ticket_sales=split.sales,
                draw_prize=split.draw_prize,
                jackpot_contribution=split.jackpot_contribution,
                licensee_share=split.licensee_share,
                jackpot_before=jackpot,
                jackpot_after=jackpot + split.jackpot_contribution,
            )
        )
        jackpot += split.jackpot_contribution
    rows.append(
        Draw(
            event=event,
            number=closed_draws + 1,
            state=DrawState.SELLING,
            scheduled_at=event.first_draw_at + datetime.timedelta(weeks=closed_draws),
        )
    )
    Draw.objects.bulk_create(rows)
    return Event.objects.select_related("licence").get(pk=event.pk)


def main():
    from raffle.models import Event
    from raffle.selectors import prize_board_forecast
    from raffle.services.prize_board import prize_board_check

    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        print(f"prize board guard, {REPEAT} calls each, PostgreSQL")
        print(
            f"{'closed draws':>12}  {'baseline µs':>11}  {'check µs':>9}  {'ratio':>5}  "
            f"{'forecast µs':>11}  {'ratio':>5}"
        )
        for closed in (1, 12, 51):
            event = build(closed)
            baseline = per_call_us(lambda event=event: Event.objects.select_related("licence").get(pk=event.pk))
            check = per_call_us(lambda event=event: prize_board_check(event=event, extra_sales="1234.00"))
            forecast = per_call_us(lambda event=event: prize_board_forecast(event))
            print(
                f"{closed:>12}  {baseline:>11.0f}  {check:>9.0f}  {check / baseline:>5.2f}  "
                f"{forecast:>11.0f}  {forecast / baseline:>5.2f}"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
