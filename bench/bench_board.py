"""Server time of the public envelope board (issue #4: < 50 ms for an event
with 52 draws and 1,000,000 tickets), against a baseline measured in the same
run: the board of a fresh event (one draw, no envelope opened, no tickets).
The big event's selling draw holds BENCH_TICKETS (default 1,000,000) real
tickets, issued on a roll and returned through the sales service.

Runs on PostgreSQL in a throw-away database (BENCH_DATABASE_NAME, default
bench_board) created and dropped by Django's test machinery. Time is measured
around the full request through the middleware with Django's test client
(no network), median and 95th percentile of many requests.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres .venv/bin/python bench/bench_board.py

Exit status 1 over the limit only with BENCH_STRICT=1 (a shared machine's load
can pass it while the baseline does too).
"""

import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ["TEST_DATABASE_NAME"] = os.environ.get("BENCH_DATABASE_NAME", "bench_board")

import django  # noqa: E402

django.setup()

from django.db import connection, reset_queries  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "300"))
TICKETS = int(os.environ.get("BENCH_TICKETS", "1000000"))
LIMIT_MS = 50.0


def measure(client: Client, url: str) -> dict:
    for _ in range(20):  # warm up: templates compiled, connection open
        assert client.get(url).status_code == 200
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        client.get(url)
    times.sort()
    return {"median": statistics.median(times), "p95": times[int(len(times) * 0.95) - 1], "queries": len(queries)}


def sell_a_million(event, actor) -> int:
    """The selling draw's rolls come back with TICKETS sold (1 for $5)."""
    from raffle import services
    from raffle.models import DrawState, Ticket

    draw = event.draws.get(state=DrawState.SELLING)
    first = 10_000_000  # above the serials the closed draws used
    roll = services.roll_issue(
        actor=actor, draw=draw, seller_name="Night rolls", first_serial=first, last_serial=first + TICKETS - 1
    )
    services.roll_return(actor=actor, roll=roll, first_unsold=first + TICKETS, tier_counts={1: TICKETS})
    return Ticket.objects.filter(licence_id=event.licence_id).count()


def build(n_closed: int):
    import datetime

    from django.utils import timezone

    from raffle.cards import ACE_OF_SPADES, DECK
    from raffle.models import DrawState
    from tests.factories import LicenceFactory, UserFactory, event_with_draw, members_for, run_draw

    actor = UserFactory()
    # A licence that outlasts 52 weekly draws (so no draw before the last is the
    # must-go draw, P7) with a prize board the season's prizes stay under (L3).
    licence = LicenceFactory(expires_on=timezone.localdate() + datetime.timedelta(days=400), prize_board="100000000.00")
    event = event_with_draw(actor=actor, licence=licence)
    destroyer, verifier = members_for(event)
    cards = [c for c in DECK if c != ACE_OF_SPADES]
    for number in range(1, n_closed + 1):
        run_draw(
            event.draws.get(number=number),
            actor=actor,
            sales=f"{1000 + 37 * number}.25",
            card=cards[number - 1],
            destroyer=destroyer,
            verifier=verifier,
        )
    if n_closed:
        run_draw(event.draws.get(number=n_closed + 1), actor=actor, until=DrawState.SELLING)
    return event


def main():
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        fresh = build(0)
        full = build(51)  # draws 1-51 closed (51 envelopes opened), draw 52 selling
        from raffle.models import Draw

        assert Draw.objects.filter(event=full).count() == 52
        start = time.perf_counter()
        tickets = sell_a_million(full, full.licence.organisation.members.first().user)
        ticket_note = f"{tickets:,} tickets in the event, issued in {time.perf_counter() - start:.1f} s"
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        client = Client()
        reset_queries()
        base = measure(client, f"/board/{fresh.pk}/")
        big = measure(client, f"/board/{full.pk}/")
        print(
            f"board, fresh event (1 draw, 0 opened)  baseline: median {base['median']:.2f} ms, "
            f"p95 {base['p95']:.2f} ms, {base['queries']} queries"
        )
        print(
            f"board, 52 draws, 51 envelopes opened          : median {big['median']:.2f} ms, "
            f"p95 {big['p95']:.2f} ms, {big['queries']} queries"
        )
        print(
            f"ratio 52 draws / baseline: {big['median'] / base['median']:.2f}x; "
            f"limit {LIMIT_MS:.0f} ms: {'OK' if big['p95'] < LIMIT_MS else 'OVER'} ({ticket_note}; "
            f"{REQUESTS} requests each)"
        )
        # A limit missed on a busy machine is reported, not fatal, unless BENCH_STRICT=1.
        return 0 if big["p95"] < LIMIT_MS or not os.environ.get("BENCH_STRICT") else 1
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
