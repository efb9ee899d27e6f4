"""Every staff page and admin list on a big season (issue #18: no staff page
or admin list over 20 queries or 300 ms on a 52-draw season with 100,000
tickets per draw).

Builds, in a throw-away PostgreSQL database, the URL matrix's world (one
record of every kind, tests/test_url_matrix.py) under a licence that lasts the
52 weekly draws, then runs draws 3 to 51 to the end and leaves draw 52
selling, each with about BENCH_TICKETS_PER_DRAW (default 100,000) real tickets issued
on a roll and returned through the sales service. Then, signed in as the
administrator (who may open every page), it requests every page of the
matrix BENCH_REQUESTS times (after one warm-up) with Django's test client,
through the whole middleware, and prints each page's median server time and
query count. Baseline in the same run: `/healthz`, which touches neither the
database nor a template.

    .venv/bin/python bench/bench_pages.py            # BENCH_TICKETS_PER_DRAW=1000 for a quick run

Exit status 1 over a limit only with BENCH_STRICT=1 (a shared machine's load
can push any page over 300 ms).
"""

import os
import pathlib
import statistics
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ["TEST_DATABASE_NAME"] = os.environ.get("BENCH_DATABASE_NAME", "bench_pages")
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

import django  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, override_settings, setup_test_environment  # noqa: E402

TICKETS = int(os.environ.get("BENCH_TICKETS_PER_DRAW", "100000"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "5"))
DRAWS = 52
LIMIT_MS, LIMIT_QUERIES = 300.0, 20
SKIP = {"logout", "admin:logout", "admin:view_on_site"}  # not pages of the season (as tests/test_page_queries.py)


def build_season():
    """The matrix's world (draws 1 and 2 closed) grown to 52 draws, each with
    about TICKETS tickets; draw 52 selling."""
    import datetime

    from django.utils import timezone

    from core import roles
    from raffle.models import DrawState
    from tests.factories import (
        LicenceFactory,
        OrganisationFactory,
        run_draw,
        user_with_role,
        works_for_every_organisation,
    )
    from tests.test_url_matrix import _build_world

    charity = OrganisationFactory(name="Bench Season Lions")
    users = {
        role: user_with_role(role, organisation=charity, username=role.replace(" ", "")) for role in roles.ALL_ROLES
    }
    licence = LicenceFactory(
        organisation=charity,
        expires_on=timezone.localdate() + datetime.timedelta(days=400),
        prize_board="900000000.00",
    )
    world = _build_world(users, name="Bench Season Catch the Ace", licence=licence)
    for role, user in users.items():  # and the other organisations the world's records made, as in the tests
        works_for_every_organisation(user, {role})
    event, staff = world["event"], users[roles.DRAW_STAFF]
    destroyer, verifier = world["members"]
    sales = f"{TICKETS // 3 * 10}.00"  # sold as 3 for $10 (the event's tiers: 1 for $5, 3 for $10)
    started = time.perf_counter()
    for number in range(1, DRAWS + 1):
        draw = event.draws.get(number=number)
        if draw.state == DrawState.CLOSED:
            continue
        until = DrawState.SELLING if number == DRAWS else DrawState.CLOSED
        run_draw(draw, actor=staff, sales=sales, until=until, destroyer=destroyer, verifier=verifier)
        if number % 10 == 0:
            print(f"  draw {number} done, {time.perf_counter() - started:.0f} s", flush=True)
    world["draw"] = event.draws.get(number=DRAWS)
    return world


def time_page(client: Client, url: str) -> tuple[int, float, int, str]:
    response = client.get(url)  # warm-up: templates compiled, caches filled
    times = []
    for _ in range(REQUESTS):
        start = time.perf_counter()
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
        times.append((time.perf_counter() - start) * 1000)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
        if hasattr(response, "streaming_content"):
            b"".join(response.streaming_content)
    kind = response.get("Content-Type", "").split(";")[0]
    return response.status_code, statistics.median(times), len(queries), kind


def main() -> int:
    import logging

    logging.getLogger("django.request").setLevel(logging.CRITICAL)  # the admin's 403s (append-only adds) are pages too
    from core import roles
    from raffle.models import Ticket
    from tests.factories import login_verified
    from tests.test_url_matrix import PAGES, url_for

    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        with override_settings(REQUIRE_2FA_ROLES=[roles.TREASURER, roles.ADMINISTRATOR]):
            start = time.perf_counter()
            world = build_season()
            tickets = Ticket.objects.count()
            print(f"season built in {time.perf_counter() - start:.0f} s: {tickets:,} tickets, {DRAWS} draws")
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")
            client = Client()
            login_verified(client, world["users"][roles.ADMINISTRATOR])
            healthz = time_page(client, "/healthz")[1]
            rows = []
            for page in PAGES:
                if page.key in SKIP:
                    continue
                url = url_for(page, world)
                rows.append((page.key, url, *time_page(client, url)))
        rows.sort(key=lambda row: -row[3])
        # PDF documents are exports, timed against WeasyPrint alone in bench_reports.py;
        # the page limit is for pages and lists (HTML) and CSV exports.
        documents = [r for r in rows if r[5] == "application/pdf"]
        rows = [r for r in rows if r[5] != "application/pdf"]
        over = [r for r in rows if r[3] > LIMIT_MS or r[4] > LIMIT_QUERIES]
        print(f"\nbaseline: GET /healthz median {healthz:.1f} ms")
        print(f"{len(rows)} pages as the administrator, median of {REQUESTS}; the 15 slowest:")
        print("| page | status | median ms | queries |\n|---|---|---:|---:|")
        for key, url, status, median, queries, _kind in rows[:15]:
            print(f"| `{url}` ({key}) | {status} | {median:.1f} | {queries} |")
        print("\nPDF documents (their own baseline in bench_reports.py):")
        for key, url, status, median, queries, _kind in documents:
            print(f"| `{url}` ({key}) | {status} | {median:.1f} | {queries} |")
        worst_q = max(rows, key=lambda r: r[4])
        print(
            f"\nslowest page {rows[0][3]:.1f} ms ({rows[0][3] / healthz:.0f}x /healthz), "
            f"most queries {worst_q[4]} ({worst_q[0]}); "
            f"over {LIMIT_MS:.0f} ms or {LIMIT_QUERIES} queries: {len(over)} "
            f"({', '.join(r[0] for r in over) or 'none'}); load average {os.getloadavg()[0]:.2f}"
        )
        return 1 if over and os.environ.get("BENCH_STRICT") else 0
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
