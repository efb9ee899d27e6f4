"""One ticket sale, against the physical limit measured in the same run.

1. One electronic sale of one ticket through `services.ticket_sell` (its own
   transaction: the checks, the sale, the ticket, the running totals and the
   audit entry) versus the same rows written by hand-written SQL in one
   transaction (UPDATE the draw's totals, INSERT the sale, the ticket and an
   audit row after the chain's advisory lock): goal within 4x.
2. The 500,001st sale of a draw versus the first: a second draw is loaded
   with BENCH_SALES (default 500,000) sales and their tickets by SQL (with its
   running totals), then sales alternate between the empty draw and the full
   one: goal within 1.2x.

Run:  .venv/bin/python bench/bench_sales.py [--sales N] [--repeat K]
Exit status 1 on a missed goal only with BENCH_STRICT=1 (a shared machine's
load can miss it).
Uses its own PostgreSQL database (BENCH_DATABASE_NAME, default bench_sales),
dropped and recreated each run, on the server of DATABASE_URL (default local).
"""

import argparse
import os
import secrets
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from common import django_on_a_fresh_database, selling_draw  # noqa: E402


def _median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sales", type=int, default=int(os.environ.get("BENCH_SALES", "500000")))
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()

    django_on_a_fresh_database("bench_sales")

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.test.utils import CaptureQueriesContext

    from core.audit_chain import LOCK_CLASS
    from core.models import AuditEntry
    from licensing.models import Organisation, SalesChannel
    from raffle import services
    from raffle.models import Draw, Sale

    admin = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-password-123")

    def new_draw(name: str) -> Draw:
        org = Organisation.objects.create(name=name, charity_registration_number=f"{name}RR0001", city="Ottawa")
        return selling_draw(actor=admin, organisation=org, number=name, channel=SalesChannel.ELECTRONIC)

    def sell(draw: Draw):
        return services.ticket_sell(
            actor=admin,
            draw=draw,
            tier_quantity=1,
            purchaser_name="Pat Buyer",
            purchaser_contact="613-555-0142",
            envelope_pick=7,
            device="POS-1",
        )

    sql_draw, empty, full = new_draw("SQL"), new_draw("EMPTY"), new_draw("FULL")
    tier, sql_tier = full.event.price_tiers.get(quantity=1), sql_draw.event.price_tiers.get(quantity=1)
    sell(sql_draw)  # an audit entry of a sale to copy the shape of
    template = AuditEntry.objects.filter(action="raffle.ticket.sell").order_by("-pk").first()
    columns = [
        f.column
        for f in AuditEntry._meta.concrete_fields
        if not f.primary_key and f.column not in ("hash", "prev_hash", "seq")
    ]

    def by_sql(_: int) -> None:
        """The same rows as one sale, by hand: totals, sale, ticket, audit entry."""
        with transaction.atomic(), connection.cursor() as c:
            c.execute(
                "UPDATE raffle_draw SET sales_amount = sales_amount + 5, sales_valid = sales_valid + 1, "
                "tickets_valid = tickets_valid + 1 WHERE id = %s AND state = 'selling' "
                "RETURNING tickets_valid + tickets_void",
                [sql_draw.pk],
            )
            seq = c.fetchone()[0]
            c.execute(
                "INSERT INTO raffle_sale (licence_id, draw_id, channel, tier_id, units, ticket_count, amount, "
                "purchaser_name, purchaser_contact, purchaser_address, supplier_order, envelope_pick, device, "
                "sold_by_id, sold_at, void_reason, print_count, first_seq) VALUES (%s, %s, 'electronic', %s, 1, 1, 5, "
                "'Pat Buyer', '613-555-0142', '', '', 7, 'POS-1', %s, now(), '', 0, %s) RETURNING id",
                [sql_draw.event.licence_id, sql_draw.pk, sql_tier.pk, admin.pk, seq],
            )
            sale_id = c.fetchone()[0]
            c.execute(
                "INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) "
                "VALUES (%s, %s, %s, %s, %s, false)",
                [sql_draw.event.licence_id, sql_draw.pk, sale_id, f"S-{seq:07d}", seq],
            )
            # The organisation's chain (core.audit_chain): its lock, its head, the next position.
            c.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, template.chain % 2**31])
            c.execute(
                "SELECT seq, hash FROM core_auditentry WHERE chain = %s ORDER BY seq DESC LIMIT 1", [template.chain]
            )
            head_seq, prev = c.fetchone()
            c.execute(
                f"INSERT INTO core_auditentry ({', '.join(columns)}, seq, prev_hash, hash) "
                f"SELECT {', '.join(columns)}, %s, %s, %s FROM core_auditentry WHERE id = %s",
                [head_seq + 1, prev, secrets.token_hex(32), template.pk],
            )

    # Load the full draw: N sales of one ticket and their tickets, by SQL, with its totals.
    n = args.sales
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as c:
        # Set-up, not measured: the rows are consistent by construction, so the
        # per-row foreign key and trigger checks are skipped for the load.
        c.execute("SET LOCAL session_replication_role = replica")
        c.execute(
            "INSERT INTO raffle_sale (licence_id, draw_id, channel, tier_id, units, ticket_count, amount, "
            "purchaser_name, purchaser_contact, purchaser_address, supplier_order, envelope_pick, device, sold_at, "
            "void_reason, print_count, first_seq) SELECT %s, %s, 'electronic', %s, 1, 1, 5, 'Buyer ' || g, "
            "'613-555-0142', '', '', 1 + g %% 52, 'POS-1', now(), '', 0, g FROM generate_series(1, %s) g",
            [full.event.licence_id, full.pk, tier.pk, n],
        )
        c.execute(
            "INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) "
            "SELECT licence_id, draw_id, id, 'L-' || first_seq, first_seq, false FROM raffle_sale WHERE draw_id = %s",
            [full.pk],
        )
        c.execute(
            "UPDATE raffle_draw SET sales_amount = 5 * %s, sales_valid = %s, tickets_valid = %s WHERE id = %s",
            [n, n, n, full.pk],
        )
    with connection.cursor() as c:
        c.execute("ANALYZE")
    load_s = time.perf_counter() - start
    # Serials of the electronic sales continue from the loaded ones: E001-0500001 on.

    for _ in range(20):  # warm-up: connection, caches, templates of the queries
        sell(empty)
        sell(full)
        by_sql(0)

    service_t, sql_t, full_t = [], [], []
    for _ in range(args.repeat):
        for fn, bucket in ((lambda: sell(empty), service_t), (lambda: by_sql(0), sql_t), (lambda: sell(full), full_t)):
            t = time.perf_counter()
            fn()
            bucket.append(time.perf_counter() - t)
    with CaptureQueriesContext(connection) as queries:
        sell(empty)
    statements = len(queries)

    load = os.getloadavg()
    print(f"Sale benchmarks, PostgreSQL {connection.pg_version // 10000}, load average {load[0]:.2f}")
    svc, sql, big = _median_ms(service_t), _median_ms(sql_t), _median_ms(full_t)
    ok1 = svc <= 4 * sql
    ok2 = big <= 1.2 * svc
    print(
        f"1. one sale through the service {svc:.2f} ms ({statements} statements) vs the same rows by "
        f"hand-written SQL {sql:.2f} ms = {svc / sql:.2f}x (goal <= 4x): {'OK' if ok1 else 'OVER'}"
    )
    print(
        f"2. sale {n + args.repeat + 21:,} of a draw {big:.2f} ms vs sales 21-{args.repeat + 20} of an empty draw "
        f"{svc:.2f} ms = {big / svc:.2f}x (goal <= 1.2x): {'OK' if ok2 else 'OVER'}"
    )
    print(
        f"   medians of {args.repeat} each, taking turns; {n:,} sales loaded by SQL in {load_s:.1f} s; "
        f"totals {Sale.objects.filter(draw=full).count():,} sales in the full draw"
    )
    # A goal missed on a busy machine is reported, not fatal, unless BENCH_STRICT=1.
    return 0 if (ok1 and ok2) or not os.environ.get("BENCH_STRICT") else 1


if __name__ == "__main__":
    sys.exit(main())
