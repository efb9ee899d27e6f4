"""Supplier import benchmark (#17): importing 1,000,000 ticket rows of one
draw from a supplier's sales file (`supplier_draw_import`: the bulk path COPYs
the file into a temporary table, checks it set-based and writes the sales and
tickets with INSERT ... SELECT, T3 by the unique constraint) against the
physical limit measured in the same run on the same server: a raw PostgreSQL
COPY of the same file into a table of the same columns without indexes or
constraints. Goal: within 3x. Then the floor of any import into these
tables: the same sale and ticket rows it wrote, COPYed as they are into the
real tables (indexes, constraints, triggers) and committed. `--row-by-row`
also imports the same file into another licence's draw through the row-by-row
path, for the comparison.

Run:  .venv/bin/python bench/bench_supplier_import.py [--tickets N]
Uses its own PostgreSQL database (BENCH_DATABASE_NAME, default bench_supplier),
dropped and recreated each run, on the server of DATABASE_URL (default local).
"""

import argparse
import datetime
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _prepare_database(name: str) -> None:
    import psycopg

    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = base.rsplit("/", 1)[0] + "/" + name


def sales_csv(n: int, draw_at: datetime.datetime) -> bytes:
    """n ticket rows: orders of one ticket at 1 for $5 and of three at 3 for
    $10 ($3.34 + $3.33 + $3.33), about 1 in 50 refunded, 100,000 purchasers."""
    start = draw_at - datetime.timedelta(days=6)
    lines = [
        "order_id,ticket_number,sold_at,price_tier,amount,purchaser_name,purchaser_address,"
        "purchaser_phone,purchaser_email,envelope_pick,status"
    ]
    ticket, order = 0, 0
    while ticket < n:
        order += 1
        three = order % 4 == 0 and ticket + 3 <= n
        person = order % 100_000
        sold = (start + datetime.timedelta(seconds=order % 500_000)).isoformat()
        status = "refunded" if order % 50 == 0 else "sold"
        for amount in ("3.34", "3.33", "3.33") if three else ("5.00",):
            ticket += 1
            lines.append(
                f"W{order},{ticket + 10_000_000},{sold},{3 if three else 1},{amount},Buyer {person},"
                f'"{person} King Street, Kingston",519-555-{person % 10_000:04d},b{person}@example.org,'
                f"{person % 52 + 1},{status}"
            )
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickets", type=int, default=1_000_000)
    parser.add_argument(
        "--row-by-row",
        action="store_true",
        help="also import the same file into a second draw through the row-by-row path (the path before the bulk "
        "one, still taken by a file the bulk path cannot vouch for), for the comparison",
    )
    args = parser.parse_args()
    n = args.tickets

    _prepare_database(os.environ.get("BENCH_DATABASE_NAME", "bench_supplier"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection, transaction
    from django.utils import timezone

    from licensing.models import Licence, Organisation, SalesChannel
    from raffle import services
    from raffle.models import Sale, Ticket
    from raffle.services.supplier_formats import SupplierFile

    call_command("migrate", verbosity=0)
    admin = get_user_model().objects.create_superuser("bench", "bench@example.org", "bench-password-123")
    org = Organisation.objects.create(name="Bench Charity", charity_registration_number="1RR0001", city="Ottawa")
    licence = Licence.objects.create(
        number="BENCH-ONLINE",
        organisation=org,
        authority_kind="agco",
        authority_name="AGCO",
        sales_channel=SalesChannel.ONLINE,
        prize_board="100000000.00",
        fee_rate_percent="1.00",
        issued_on=timezone.localdate() - datetime.timedelta(days=30),
        expires_on=timezone.localdate() + datetime.timedelta(days=300),
        supplier_name="Bench Supplier Inc.",
        supplier_registration_number="GS-1",
        supplier_system_name="BenchRaffle",
        supplier_system_version="1.0",
    )
    event = services.event_setup(
        actor=admin,
        licence=licence,
        name="Bench",
        price_tiers=[(1, "5.00"), (3, "10.00")],
        first_draw_at=timezone.now() - datetime.timedelta(hours=1),
        rules_approved_on=timezone.localdate(),  # R:R4 before the first sale
        rules_approval_reference="RP-BENCH",
    )
    draw = services.draw_open_sales(actor=admin, draw=event.draws.get(number=1))
    content = sales_csv(n, draw.scheduled_at)
    print(
        f"Supplier import benchmark, {n:,} ticket rows ({len(content) / 1e6:.0f} MB), PostgreSQL "
        f"{connection.pg_version // 10000}"
    )

    # Baseline: the same bytes COPYed into a bare table of the same columns.
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE bare_sales (order_id text, ticket_number text, sold_at timestamptz, price_tier int, "
            "amount numeric(12,2), purchaser_name text, purchaser_address text, purchaser_phone text, "
            "purchaser_email text, envelope_pick int, status text)"
        )

    def raw_copy():
        with transaction.atomic(), connection.cursor() as cursor:
            with cursor.copy("COPY bare_sales FROM STDIN WITH (FORMAT csv, HEADER true)") as copy:
                for start in range(0, len(content), 8 << 20):
                    copy.write(content[start : start + (8 << 20)])

    start = time.perf_counter()
    raw_copy()
    copy_s = time.perf_counter() - start

    start = time.perf_counter()
    summary = services.supplier_draw_import(
        actor=admin, draw=draw, sales=SupplierFile(name="sales.csv", content=content)
    )
    import_s = time.perf_counter() - start
    assert Ticket.objects.filter(draw=draw).count() == n
    print(
        f"raw COPY into a bare table: {copy_s:.2f} s; supplier_draw_import: {import_s:.2f} s "
        f"= {import_s / copy_s:.2f}x COPY (goal <= 3x), load average {os.getloadavg()[0]:.2f}"
    )
    print(
        f"   {summary.tickets_sold:,} tickets sold, {summary.tickets_void:,} refunded, "
        f"{Sale.objects.filter(draw=draw).count():,} sales, ${summary.amount_sold:,.2f}"
    )

    def second_draw(number):
        """Draw 1 of another licence like the first, selling."""
        other = services.event_setup(
            actor=admin,
            licence=Licence.objects.create(
                **{
                    f.name: getattr(licence, f.name)
                    for f in Licence._meta.concrete_fields
                    if f.name not in ("id", "number")
                },
                number=number,
            ),
            name=number,
            price_tiers=[(1, "5.00"), (3, "10.00")],
            first_draw_at=draw.scheduled_at,
            rules_approved_on=timezone.localdate(),
            rules_approval_reference="RP-BENCH",
        )
        return services.draw_open_sales(actor=admin, draw=other.draws.get(number=1))

    # The floor: the same sale and ticket rows the import wrote, COPYed as they
    # are (re-keyed to another licence's draw) into the real tables, with their
    # indexes, constraints and triggers, and committed.
    floor = second_draw("BENCH-FLOOR")
    sales_copy, tickets_copy, floor_s = floor_rows(connection, transaction, draw, floor)
    print(
        f"   the same {sales_copy:,} sale rows and {tickets_copy:,} ticket rows COPYed into the real tables: "
        f"{floor_s:.2f} s = {floor_s / copy_s:.2f}x COPY (the floor of any import keeping those tables)"
    )

    if args.row_by_row:
        from raffle.services import supplier_import

        supplier_import.bulk_sales_import = lambda **kwargs: None  # as if the bulk path could not vouch
        second = second_draw("BENCH-ONLINE-2")
        start = time.perf_counter()
        services.supplier_draw_import(actor=admin, draw=second, sales=SupplierFile(name="sales.csv", content=content))
        rows_s = time.perf_counter() - start
        print(f"   row by row, same file, another licence: {rows_s:.2f} s = {rows_s / copy_s:.2f}x COPY")


def floor_rows(connection, transaction, draw, other):
    """COPY the draw's sale and ticket rows out, then into `other`'s draw:
    (sales, tickets, seconds to COPY them in and commit)."""
    from raffle.models import PriceTier

    tiers = {t.quantity: t.pk for t in PriceTier.objects.filter(event_id=other.event_id)}
    tier_case = " ".join(
        f"WHEN {t.pk} THEN {tiers[t.quantity]}" for t in PriceTier.objects.filter(event_id=draw.event_id)
    )
    with connection.cursor() as cursor:
        cursor.execute("SELECT max(id) FROM raffle_sale")
        sale_offset = cursor.fetchone()[0]
        cursor.execute("SELECT column_name FROM information_schema.columns WHERE table_name = 'raffle_sale'")
        columns = [c for (c,) in cursor.fetchall()]
        keyed = {
            "id": f"id + {sale_offset}",
            "licence_id": str(other.event.licence_id),
            "draw_id": str(other.pk),
            "tier_id": f"CASE tier_id {tier_case} END",
        }
        sales_out = f"SELECT {', '.join(keyed.get(c, c) for c in columns)} FROM raffle_sale WHERE draw_id = {draw.pk}"
        tickets_out = (
            f"SELECT {other.event.licence_id}, {other.pk}, sale_id + {sale_offset}, serial, "
            f"seq, is_void FROM raffle_ticket WHERE draw_id = {draw.pk}"
        )
        out = {}
        for name, query in (("sales", sales_out), ("tickets", tickets_out)):
            with cursor.copy(f"COPY ({query}) TO STDOUT") as copy:
                out[name] = b"".join(bytes(block) for block in copy)
    start = time.perf_counter()
    with transaction.atomic(), connection.cursor() as cursor:
        for table, cols, data in (
            ("raffle_sale", ", ".join(columns), out["sales"]),
            ("raffle_ticket", "licence_id, draw_id, sale_id, serial, seq, is_void", out["tickets"]),  # id: (draw, seq)
        ):
            with cursor.copy(f"COPY {table} ({cols}) FROM STDIN") as copy:
                for at in range(0, len(data), 8 << 20):
                    copy.write(data[at : at + (8 << 20)])
    return out["sales"].count(b"\n"), out["tickets"].count(b"\n"), time.perf_counter() - start


if __name__ == "__main__":
    main()
