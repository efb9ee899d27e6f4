"""What the benchmarks share."""

import os


def prepare_database(name: str) -> None:
    """Drop and recreate the benchmark's own database on the server of
    DATABASE_URL (default the local one) and point DATABASE_URL at it."""
    import psycopg

    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = base.rsplit("/", 1)[0] + "/" + name


def django_on_a_fresh_database(default_name: str) -> None:
    """Django with the test settings on its own database, BENCH_DATABASE_NAME
    (default `default_name`), dropped, recreated and migrated."""
    prepare_database(os.environ.get("BENCH_DATABASE_NAME", default_name))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def django_on_a_scratch_database(default_name: str) -> None:
    """Django with the test settings, its test database named
    BENCH_DATABASE_NAME (default `default_name`), for benchmarks that build
    it with the test runner's `create_test_db`."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    os.environ["TEST_DATABASE_NAME"] = os.environ.get("BENCH_DATABASE_NAME", default_name)
    import django

    django.setup()


def selling_draw(*, actor, organisation, number: str, channel: str):
    """Draw 1 of a fresh event, selling, under a new AGCO licence `number` of
    `organisation` on `channel`, with a prize board no benchmark reaches."""
    import datetime

    from django.utils import timezone

    from licensing.models import Licence
    from raffle import services

    licence = Licence.objects.create(
        number=number,
        organisation=organisation,
        authority_kind="agco",
        authority_name="AGCO",
        sales_channel=channel,
        prize_board="100000000.00",
        fee_rate_percent="1.00",
        issued_on=timezone.localdate() - datetime.timedelta(days=1),
        expires_on=timezone.localdate() + datetime.timedelta(days=300),
        # R:D5 electronic sales run on a registered supplier's system, recorded on the licence.
        **(
            {}
            if channel.startswith("paper")
            else {
                "supplier_name": "Bench Supplier Inc.",
                "supplier_registration_number": "GS-1",
                "supplier_system_name": "BenchRaffle",
                "supplier_system_version": "1.0",
            }
        ),
    )
    event = services.event_setup(
        actor=actor,
        licence=licence,
        name=number,
        price_tiers=[(1, "5.00"), (3, "10.00")],
        first_draw_at=timezone.now() + datetime.timedelta(days=1),
        rules_approved_on=timezone.localdate(),  # R:R4 before the first sale
        rules_approval_reference="RP-BENCH",
    )
    return services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))
