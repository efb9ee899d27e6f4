"""Server CPU of one anonymous request to the public pages the load test's
visitors fetch (#15): the envelope board read and rendered on every request
(BOARD_CACHE_SECONDS=0) and kept rendered (=5), in English and in French, and
the Rules of Play PDF (its version remembered, RULES_PDF_VERSION_SECONDS=30),
against `/healthz` (the middleware and nothing else) in the same run.

CPU time of this process (`time.process_time`) per request through every
middleware with Django's test client (no network, no gunicorn), templates
rendered as in production (not the test runner's instrumented rendering),
django-axes on. Runs on PostgreSQL in a throw-away database
(BENCH_DATABASE_NAME, default bench_public_pages).

    .venv/bin/python bench/bench_public_pages.py
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import django_on_a_scratch_database  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "500"))


def measure(client, url: str, **headers) -> tuple[float, int]:
    """CPU milliseconds per request, and the queries of one request."""
    from django.db import connection

    for _ in range(20):  # warm up: templates compiled, connection open, the copy kept
        assert client.get(url, **headers).status_code == 200
    queries = []
    with connection.execute_wrapper(lambda execute, sql, *args: queries.append(sql) or execute(sql, *args)):
        client.get(url, **headers)
    began = time.process_time()
    for _ in range(REQUESTS):
        client.get(url, **headers)
    return (time.process_time() - began) / REQUESTS * 1000, len(queries)


def build():
    from raffle.models import DrawState
    from tests.factories import UserFactory, event_with_draw, run_draw

    actor = UserFactory()
    event = event_with_draw(actor=actor)
    for number in range(1, 4):
        run_draw(event.draws.get(number=number), actor=actor)
    run_draw(event.draws.get(number=4), actor=actor, until=DrawState.SELLING)
    return event


def main():
    django_on_a_scratch_database("bench_public_pages")
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.AXES_ENABLED = True
    settings.RULES_PDF_VERSION_SECONDS = 30
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        event = build()
        client = Client()
        board = f"/board/{event.pk}/"
        rows = [("/healthz (baseline)", *measure(client, "/healthz"))]
        for seconds in (0, 5):
            settings.BOARD_CACHE_SECONDS = seconds
            cache.clear()
            rows.append((f"board, BOARD_CACHE_SECONDS={seconds}", *measure(client, board)))
            rows.append(
                (
                    f"board in French, BOARD_CACHE_SECONDS={seconds}",
                    *measure(client, board, HTTP_ACCEPT_LANGUAGE="fr-CA"),
                )
            )
        rows.append(("Rules of Play PDF", *measure(client, f"/events/{event.pk}/rules.pdf")))
        base = rows[0][1]
        print(f"| request (anonymous, {REQUESTS} each) | CPU ms per request | x /healthz | queries |")
        print("|---|---|---|---|")
        for name, cpu, queries in rows:
            print(f"| {name} | {cpu:.2f} | {cpu / base:.1f}x | {queries} |")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        return 0
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
