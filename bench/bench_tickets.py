"""Ticket benchmarks at the scale of a big draw (1,000,000 tickets), each
against a baseline measured in the same run on the same database:

1. issuing 1,000,000 tickets (a night's rolls returned through `roll_return`)
   versus a raw PostgreSQL COPY of the same rows into a bare table (the same
   columns, no index, no constraint: the physical limit; goal: within 4x),
   into the bare table with only the primary key a returned roll's ticket
   enters (the floor of the guarantees kept: one seq per draw; its serial is
   unique by its place in the roll, migration 0027), and into the ticket
   table itself (its indexes, checks and trigger);
2. drawing the winner among 1,000,000 tickets (`pick_rng`, and the paper
   lookup of a typed serial) versus one primary-key lookup (goal: within 5x;
   never ORDER BY random());
3. the ticket admin changelist with 1,000,000 rows: server time and query
   count, unfiltered and searching a serial (goal: under 150 ms, fixed queries).

Run:  .venv/bin/python bench/bench_tickets.py  [--tickets N] [--rounds R]
Uses its own PostgreSQL database (BENCH_DATABASE_NAME, default bench_tickets),
dropped and recreated each run, on the server of DATABASE_URL (default local).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import django_on_a_fresh_database, selling_draw  # noqa: E402


def _timed(fn, repeat=1):
    times = []
    result = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickets", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    n = args.tickets

    os.environ.setdefault("DJANGO_ALLOWED_HOSTS", "testserver")
    django_on_a_fresh_database("bench_tickets")
    import secrets

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from licensing.models import Organisation, SalesChannel
    from raffle import services
    from raffle.models import Sale, Ticket
    from raffle.services.pool import paper_ticket, pick_rng

    admin = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-password-123")
    org = Organisation.objects.create(name="Bench Charity", charity_registration_number="1RR0001", city="Ottawa")

    def event(number):
        return selling_draw(actor=admin, organisation=org, number=number, channel=SalesChannel.PAPER_ROLL)

    print(f"Ticket benchmarks, {n:,} tickets, PostgreSQL {connection.pg_version // 10000}")

    # 1. Baseline: raw COPY of the same rows into the same (empty) table, for
    # one sale of n tickets (its tickets must be its run of seqs, 1 to n).
    base_draw = event("BASELINE")
    with transaction.atomic():
        base_sale = services.roll_return(
            actor=admin,
            roll=services.roll_issue(actor=admin, draw=base_draw, seller_name="B", first_serial=1, last_serial=n),
            first_unsold=n + 1,
            tier_counts={1: n},
        )[0]
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE raffle_ticket CASCADE")  # tickets are never DELETEd (T11 trigger)

    def copy_into(table):
        """COPY the same rows as the issue's tickets into `table`, in one transaction."""
        with transaction.atomic(), connection.cursor() as cursor:
            columns = "licence_id, draw_id, sale_id, serial, seq, is_void, in_roll_range"
            with cursor.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                lic, drw, sale = base_draw.event.licence_id, base_draw.pk, base_sale.pk
                for start in range(0, n, 100_000):
                    copy.write(
                        "".join(
                            f"{lic}\t{drw}\t{sale}\t{i}\t{i}\tf\tt\n"
                            for i in range(start + 1, min(n, start + 100_000) + 1)
                        )
                    )

    copy_s, _ = _timed(lambda: copy_into("raffle_ticket"))
    with connection.cursor() as cursor:
        cursor.execute("TRUNCATE raffle_ticket CASCADE")

    columns = (
        "licence_id bigint, draw_id bigint, sale_id bigint, serial varchar(40), seq integer, is_void boolean, "
        "in_roll_range boolean"
    )
    tables = {
        "bench_bare_ticket": [f"CREATE TABLE bench_bare_ticket (id bigint, {columns})"],
        # The floor of the guarantees kept: the bare table with only the one
        # B-tree a returned roll's ticket enters, one seq per draw (the primary
        # key, migration 0024); its serial is unique by its place in its roll
        # (T3, migration 0027), not on an index of its own.
        "bench_floor_ticket": [
            "CREATE TABLE bench_floor_ticket (id bigint GENERATED ALWAYS AS (draw_id * 4294967296 + seq) STORED "
            f"PRIMARY KEY, {columns})",
        ],
    }

    def copy_into_new(table):
        with connection.cursor() as cursor:
            for statement in tables[table]:
                cursor.execute(statement)
            cursor.execute("CHECKPOINT")  # each measure starts with no dirty pages from the last
        seconds, _ = _timed(lambda: copy_into(table))
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE {table}")
        return seconds

    thirds, ones = divmod(n, 3)

    def issue(draw):
        roll = services.roll_issue(actor=admin, draw=draw, seller_name="Night rolls", first_serial=1, last_serial=n)
        return services.roll_return(actor=admin, roll=roll, first_unsold=n + 1, tier_counts={3: thirds, 1: ones})

    # Each round: the bare table, the floor, then a night's rolls returned
    # into a fresh draw under a fresh licence (as a server that ran earlier
    # raffles holds them), each after a CHECKPOINT; the medians compared.
    rounds = []
    for number in range(1, args.rounds + 1):
        bare_s, floor_s = copy_into_new("bench_bare_ticket"), copy_into_new("bench_floor_ticket")
        draw = event(f"BENCH-{number}")
        with connection.cursor() as cursor:
            cursor.execute("CHECKPOINT")
        issue_s, _ = _timed(lambda draw=draw: issue(draw))
        rounds.append((bare_s, floor_s, issue_s))
        print(
            f"   round {number}: bare {bare_s:.2f} s, floor {floor_s:.2f} s, roll_return {issue_s:.2f} s "
            f"= {issue_s / bare_s:.2f}x bare, {issue_s / floor_s:.2f}x the floor"
        )
    bare_s, floor_s, issue_s = (statistics.median(r[i] for r in rounds) for i in range(3))
    print(
        f"1. issue {n:,} tickets (medians of {len(rounds)} rounds): COPY into a bare table {bare_s:.2f} s; "
        f"roll_return {issue_s:.2f} s = {issue_s / bare_s:.2f}x (goal <= 4x): "
        f"{'OK' if issue_s <= 4 * bare_s else 'OVER'}; COPY into the ticket table {copy_s:.2f} s "
        f"(load average {os.getloadavg()[0]:.2f})"
    )
    print(
        f"   floor: COPY into the bare table with its primary key (one seq per draw) "
        f"{floor_s:.2f} s = {floor_s / bare_s:.2f}x the bare table; roll_return = {issue_s / floor_s:.2f}x the floor"
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE raffle_ticket")

    from tests.factories import clock_at, name_members_in_charge

    draw = name_members_in_charge(draw, actor=admin)  # R:L13 two members in charge before sales close
    close_s, draw = _timed(lambda: services.draw_close_sales(actor=admin, draw=draw))
    print(
        f"   close sales (count and total {draw.pool.valid_tickets:,} tickets): {close_s * 1000:.1f} ms, "
        f"sales ${draw.ticket_sales:,.2f}"
    )

    # 2. Drawing the winner versus one primary-key lookup.
    ids = list(Ticket.objects.at(draw.pk, [1, n]).values_list("pk", flat=True))
    low, high = min(ids), max(ids)
    pk_s, _ = _timed(
        lambda: Ticket.objects.select_related("sale").get(pk=low + secrets.randbelow(high - low + 1)), repeat=300
    )
    rng_s, _ = _timed(lambda: pick_rng(draw=draw), repeat=300)
    serial = str(1 + secrets.randbelow(n))
    typed_s, _ = _timed(lambda: paper_ticket(draw=draw, serial=serial, serial_again=serial), repeat=300)
    with clock_at(draw.scheduled_at):  # R:D9 the winning ticket is drawn at the draw's advertised time
        services.draw_announce(actor=admin, draw=draw)
        step_s, draw = _timed(
            lambda: services.draw_record_winning_ticket(actor=admin, draw=draw, serial=serial, serial_again=serial)
        )
    print(
        f"2. primary-key lookup {pk_s * 1000:.3f} ms (median of 300); RNG pick {rng_s * 1000:.3f} ms "
        f"= {rng_s / pk_s:.2f}x; typed serial lookup {typed_s * 1000:.3f} ms = {typed_s / pk_s:.2f}x "
        f"(goal <= 5x); whole winning-ticket step {step_s * 1000:.1f} ms"
    )

    # 3. The admin changelist.
    client = Client()
    client.force_login(admin)
    for label, url in [
        ("list", "/admin/raffle/ticket/"),
        ("search", f"/admin/raffle/ticket/?q={n // 2}"),
        ("filter void", "/admin/raffle/ticket/?is_void__exact=0"),
    ]:
        client.get(url)  # warm-up
        times, queries = [], 0
        for _ in range(15):
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = client.get(url)
                times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            queries = len(captured)
        print(
            f"3. admin {label}: {statistics.median(times) * 1000:.1f} ms server time (median of 15), "
            f"{queries} queries (goal < 150 ms)"
        )
    print(f"   rows: {Ticket.objects.count():,} tickets, {Sale.objects.count():,} sales")


if __name__ == "__main__":
    main()
