"""Benchmark: the audit chains' append, the /audit/ page and verify_audit.

1. Audited writes by 4 concurrent workers, each transaction one business row
   plus its audit entry, on 4 organisations' chains (one each) and on ONE
   chain, against the physical limit: the same 4 workers committing one
   durable row each (no audit). The chain's lock serialises only one chain.
2. `/audit/` at 100,000 entries: the page verifies from its checkpoint, so it
   costs about the same at any size (after 100 new entries; and with none).
3. `verify_audit`'s full check against a raw read of the same rows (the
   least any check must pay).

Runs against a scratch PostgreSQL database (TEST_DATABASE_NAME, default
bench_audit_chain) built by the test runner's machinery, then dropped.

    .venv/bin/python bench/bench_audit_chain.py [--writes 300] [--entries 100000]
"""

import argparse
import multiprocessing
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
os.environ.setdefault("TEST_DATABASE_NAME", "bench_audit_chain")

import django  # noqa: E402

django.setup()

from django.db import connection, connections, transaction  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402

WORKERS = 4


def _worker(kind: str, organisation_id: int, writes: int, start, queue) -> None:
    from core.audit import audit_record

    connections.close_all()
    start.wait()
    began = time.perf_counter()
    for i in range(writes):
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO bench_business (note) VALUES (%s)", [f"{kind} {i}"])
            if kind != "baseline":
                audit_record(actor=None, action="bench.thing.do", data={"i": i}, organisation=organisation_id)
    queue.put(time.perf_counter() - began)
    connections.close_all()


def concurrent_writes(kind: str, organisations: list[int], writes: int) -> float:
    """Writes per second for WORKERS processes, each on its organisation."""
    ctx = multiprocessing.get_context("fork")
    start, queue = ctx.Event(), ctx.Queue()
    connections.close_all()
    procs = [ctx.Process(target=_worker, args=(kind, org, writes, start, queue)) for org in organisations]
    for p in procs:
        p.start()
    time.sleep(0.5)
    start.set()
    seconds = max(queue.get() for _ in procs)
    for p in procs:
        p.join()
    return WORKERS * writes / seconds


def fill(entries: int) -> None:
    """Append entries quickly, chained exactly as audit_record does (bulk)."""
    from django.utils import timezone

    from core.audit_chain import GENESIS_HASH, canonical, entry_mac
    from core.models import AuditEntry

    last = AuditEntry.objects.filter(chain=0).order_by("-seq").values_list("seq", "hash").first()
    seq, prev = last if last else (0, GENESIS_HASH)
    batch = []
    for i in range(entries):
        seq += 1
        fields = {
            "chain": 0,
            "seq": seq,
            "prev_hash": prev,
            "at": timezone.now(),
            "actor_id": None,
            "actor_label": "system",
            "action": "bench.thing.do",
            "object_type": "",
            "object_id": "",
            "object_repr": "",
            "data": canonical({"i": i, "amount": "12.50"}),
        }
        prev = entry_mac(**fields)
        batch.append(AuditEntry(hash=prev, **fields))
        if len(batch) == 5000:
            AuditEntry.objects.bulk_create(batch)
            batch = []
    AuditEntry.objects.bulk_create(batch)


def timed(fn, repeat=1) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        fn()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--writes", type=int, default=300, help="transactions per worker")
    parser.add_argument("--entries", type=int, default=100_000)
    args = parser.parse_args()

    from django.contrib.auth.models import Group
    from django.test import Client

    from core import roles
    from core.audit import audit_record, audit_verify
    from core.models import AuditEntry
    from licensing.models import Organisation
    from tests.factories import UserFactory

    setup_test_environment()
    config = setup_databases(verbosity=0, interactive=False)
    try:
        with connection.cursor() as cursor:
            cursor.execute("CREATE TABLE bench_business (id bigserial PRIMARY KEY, note text)")
            cursor.execute("SHOW synchronous_commit")
            durable = cursor.fetchone()[0]
        organisations = [Organisation.objects.create(name=f"Bench charity {i}").pk for i in range(WORKERS)]

        print(f"1. {WORKERS} workers x {args.writes} transactions each (synchronous_commit={durable})")
        baseline = concurrent_writes("baseline", organisations, args.writes)
        four = concurrent_writes("audited", organisations, args.writes)
        one = concurrent_writes("audited", [organisations[0]] * WORKERS, args.writes)
        print(f"   one durable row per commit, no audit (baseline)   {baseline:8.0f} writes/s")
        print(f"   row + audit entry, 4 organisations' chains         {four:8.0f} writes/s ({four / baseline:.2f}x)")
        print(f"   row + audit entry, all on one chain                {one:8.0f} writes/s ({one / baseline:.2f}x)")
        assert audit_verify().intact

        fill(args.entries - AuditEntry.objects.count())
        total = AuditEntry.objects.count()
        columns = ", ".join(
            ["id", "chain", "seq", "prev_hash", "hash", "at", "actor_id", "actor_label", "action"]
            + ["object_type", "object_id", "object_repr", "data"]
        )

        def raw_read():
            with connection.cursor() as cursor:
                cursor.execute(f"SELECT {columns} FROM core_auditentry ORDER BY chain, seq")
                while cursor.fetchmany(5000):
                    pass

        report = None

        def verify():
            nonlocal report
            report = audit_verify()

        raw = timed(raw_read, repeat=3)
        full = timed(verify)
        assert report.intact and report.entries == total
        print(f"3. {total:,} entries: raw read of the rows {raw:.3f} s (baseline); verify_audit in full {full:.3f} s")
        print(f"   ({full / raw:.1f}x the raw read, {total / full:,.0f} entries/s)")

        auditor = UserFactory(username="bench-auditor")
        auditor.groups.add(Group.objects.get(name=roles.AUDITOR))
        client = Client()
        client.force_login(auditor)
        client.get("/audit/")  # warm: templates, the checkpoint

        def page():
            response = client.get("/audit/")
            assert response.status_code == 200 and b"Intact" in response.content

        nothing_new = timed(page, repeat=5)

        def page_after_100():
            with transaction.atomic():
                for i in range(100):
                    audit_record(actor=None, action="bench.thing.do", data={"i": i})
            began = time.perf_counter()
            page()
            return time.perf_counter() - began

        after_new = statistics.median(page_after_100() for _ in range(5))
        print(f"2. /audit/ at {AuditEntry.objects.count():,} entries: {nothing_new * 1000:.0f} ms with nothing new, ")
        print(f"   {after_new * 1000:.0f} ms after 100 new entries (median of 5; the full check above: {full:.2f} s)")
    finally:
        teardown_databases(config, verbosity=0)


if __name__ == "__main__":
    main()
