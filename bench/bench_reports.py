"""Benchmark: the four-draw PDF and the final report PDF of a 52-draw event
with sales of 1,000,000 $5 tickets per draw, against WeasyPrint rendering a
static HTML page of the same size in the same run.

    .venv/bin/python bench/bench_reports.py        (PostgreSQL, DATABASE_URL or the local server)

It builds its own throw-away database (BENCH_DATABASE_NAME, default
bench_reports), fills it through the real import service, and prints the
median and the fastest of several runs, ours and the baseline taking turns.
The target: each report under 1 second.
"""

import io
import os
import pathlib
import statistics
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("TEST_DATABASE_NAME", os.environ.get("BENCH_DATABASE_NAME", "bench_reports"))

DRAWS = 52
TICKETS_PER_DRAW = 1_000_000
TICKET_PRICE = 5
RUNS = 9


def _interleaved(ours, baseline) -> tuple[list[float], list[float], object]:
    """Run ours and the baseline in turn, RUNS times each, so that both see the
    same machine: on a shared host the speed of one core drifts by up to 2x."""
    ours(), baseline()  # warm-up: fonts, templates, imports
    ours_times, baseline_times, result = [], [], None
    for _ in range(RUNS):
        start = time.perf_counter()
        result = ours()
        ours_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        baseline()
        baseline_times.append(time.perf_counter() - start)
    return ours_times, baseline_times, result


def _fill():
    import datetime

    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from licensing.services import deposit_record
    from raffle.cards import ACE_OF_SPADES, DECK
    from raffle.models import Draw, PrizeKind
    from raffle.services import deposit_cover_draws, history_import, prize_payment_record
    from tests.factories import LicenceFactory, event_with_draw, trust_account_for

    user = get_user_model().objects.create_user("bench")
    first = timezone.now() - datetime.timedelta(days=7 * DRAWS + 10)
    licence = LicenceFactory(
        issued_on=timezone.localdate(first) - datetime.timedelta(days=30), prize_board="999999999.00"
    )
    event = event_with_draw(actor=user, licence=licence, first_draw_at=first)
    cards = [c for c in DECK if c != ACE_OF_SPADES][: DRAWS - 1] + [ACE_OF_SPADES]
    sales = TICKETS_PER_DRAW * TICKET_PRICE
    rows = ["draw_number,draw_date,ticket_sales,envelope,card"]
    for n in range(1, DRAWS + 1):
        day = timezone.localdate(first) + datetime.timedelta(days=7 * (n - 1))
        rows.append(f"{n},{day.isoformat()},{sales}.00,{n},{cards[n - 1]}")
    history_import(actor=user, licence=licence, text="\n".join(rows) + "\n")
    account = trust_account_for(event, actor=user)
    for draw in Draw.objects.filter(event=event).order_by("number"):
        day = timezone.localdate(draw.scheduled_at)
        deposit = deposit_record(
            actor=user,
            account=account,
            slip_number=f"S{draw.number:03d}",
            deposited_on=day + datetime.timedelta(days=1),
            amount=draw.ticket_sales,
        )
        deposit_cover_draws(actor=user, deposit=deposit, amounts={draw: draw.ticket_sales})
        prize_payment_record(
            actor=user,
            draw=draw,
            kind=PrizeKind.DRAW_PRIZE,
            method="cheque",
            reference=f"CHQ {1000 + draw.number}",
            paid_on=day,
            payee=f"Winner {draw.number}",
        )
    # Imported draws carry no ticket detail; a run on the system would name each
    # winner and ticket, so the report is given text of that width to lay out.
    for draw in Draw.objects.filter(event=event):
        Draw.objects.filter(pk=draw.pk).update(
            winning_serial=f"A-{draw.number * 19_231:07d}", winner_name=f"Winner {draw.number} Lastname-Longer"
        )
    event.refresh_from_db()
    return event


def main():
    import django

    django.setup()
    from django.db import connection
    from django.template.loader import render_to_string
    from django.test.utils import setup_test_environment
    from pypdf import PdfReader
    from weasyprint import HTML

    from core.runtime import tune_garbage_collector
    from raffle.reports import builders, render

    setup_test_environment()
    tune_garbage_collector()  # as config/wsgi.py does for the server; ours and the baseline alike
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        event = _fill()
        print(
            f"event: {DRAWS} draws, {TICKETS_PER_DRAW:,} tickets x ${TICKET_PRICE} per draw "
            f"(sales ${TICKETS_PER_DRAW * TICKET_PRICE:,}), {DRAWS} deposits, {DRAWS} prize payments; "
            f"median of {RUNS} runs"
        )
        cases = [
            (
                "four-draw report 13 (PDF)",
                lambda: render.four_draw_pdf(builders.four_draw_report(event, 13)),
                lambda: builders.four_draw_report(event, 13),
                "pdf/four_draw_report.html",
            ),
            (
                "final report (PDF)",
                lambda: render.final_pdf(builders.final_report(event)),
                lambda: builders.final_report(event),
                "pdf/final_report.html",
            ),
        ]
        for name, full, build, template in cases:
            report = build()
            footer = f"Licence {event.licence.number} · {event.licence.organisation.name}"
            static_html = render_to_string(template, {"r": report, "footer_left": footer})
            ours, baseline, pdf = _interleaved(
                full, lambda static_html=static_html: HTML(string=static_html).write_pdf()
            )
            pages = len(PdfReader(io.BytesIO(pdf)).pages)
            median = statistics.median(ours)
            print(
                f"{name}: {median:.3f} s (fastest {min(ours):.3f}) | static HTML of the same size through "
                f"WeasyPrint: {statistics.median(baseline):.3f} s (fastest {min(baseline):.3f}) | ratio "
                f"{median / statistics.median(baseline):.2f} | {pages} pages, {len(pdf):,} bytes | "
                f"target < 1 s: {'met' if median < 1 else 'NOT MET'}"
            )
        csv_times, _, _ = _interleaved(lambda: render.final_csv(builders.final_report(event)), lambda: None)
        print(f"final report (CSV): {statistics.median(csv_times):.3f} s")
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
