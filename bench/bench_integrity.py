"""Benchmark: how long the auditor waits for `verify_audit` and `verify_deck`.

Runs against a scratch PostgreSQL database (TEST_DATABASE_NAME, default
bench_issue5) built by the test runner's machinery, then dropped. Prints, per
trail size, the time to read every entry (the baseline: what any check must
at least pay) and the time to recompute the hash chain, plus one deck check.

    TEST_DATABASE_NAME=bench_issue5 .venv/bin/python bench/bench_integrity.py
"""

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("TEST_DATABASE_NAME", "bench_issue5")

import django  # noqa: E402

django.setup()

from django.db import transaction  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main(sizes=(1_000, 10_000, 50_000)):
    from core.audit import audit_record, audit_verify
    from core.models import AuditEntry
    from raffle.services import deck_verify
    from tests.factories import LicenceFactory, event_with_draw

    config = setup_databases(verbosity=0, interactive=False)
    try:
        written = AuditEntry.objects.count()
        print(f"{'entries':>8} {'read all (baseline)':>20} {'verify chain':>14} {'ratio':>6} {'entries/s':>10}")
        for size in sizes:
            with transaction.atomic():
                for i in range(size - written):
                    audit_record(actor=None, action="bench.thing.do", data={"i": i, "amount": "12.50"})
            written = AuditEntry.objects.count()
            baseline = timed(lambda: sum(1 for _ in AuditEntry.objects.order_by("id").iterator(chunk_size=5000)))
            report = None

            def verify():
                nonlocal report
                report = audit_verify()

            seconds = timed(verify)
            assert report.intact and report.entries == written
            print(
                f"{written:>8} {baseline:>19.3f}s {seconds:>13.3f}s {seconds / baseline:>6.1f} "
                f"{written / seconds:>10,.0f}"
            )
        event = event_with_draw(licence=LicenceFactory(), deck_kind="electronic")
        setup = timed(lambda: event_with_draw(licence=LicenceFactory(), deck_kind="paper"))
        setup_electronic = timed(lambda: event_with_draw(licence=LicenceFactory(), deck_kind="electronic"))
        deck = timed(lambda: deck_verify(event=event))
        print(
            f"event_setup paper {setup * 1000:.1f} ms (baseline), electronic with 52 commitments "
            f"{setup_electronic * 1000:.1f} ms; deck_verify of 52 commitments {deck * 1000:.1f} ms"
        )
    finally:
        teardown_databases(config, verbosity=0)


if __name__ == "__main__":
    main()
