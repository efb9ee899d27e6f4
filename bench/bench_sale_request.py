"""What one sale POST of the staff sales page costs the server (#18): CPU of
the Django process and of its PostgreSQL backend per request, and the
statements it sends, against `/healthz` (the middleware and nothing else) in
the same run.

Through every middleware with Django's test client (no network, no
gunicorn), as a seller would send it: an administrator of the organisation
(a membership, not a superuser), a session that passed two-factor, the form
with its one-time token, the same device every time; each response's
message cookie dropped, as the next page a seller opens would show and drop
it. django-axes on. The backend's CPU is read from /proc (Linux), so run it
on the database's own machine. Throw-away database (BENCH_DATABASE_NAME,
default bench_sale_request).

    .venv/bin/python bench/bench_sale_request.py
    BENCH_PROFILE=/tmp/sale .venv/bin/python bench/bench_sale_request.py   # and where the CPU goes
"""

import contextlib
import cProfile
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import django_on_a_scratch_database, signed_in_seller  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "500"))
# A path prefix: write a cProfile of each measured loop there (PROFILE.0 /healthz, PROFILE.1 the sale).
PROFILE = os.environ.get("BENCH_PROFILE", "")


@contextlib.contextmanager
def profiled(path: str):
    """cProfile the block into `path` (pstats format), or nothing when it is empty."""
    if not path:
        yield
        return
    profile = cProfile.Profile(time.process_time)  # CPU only: not the waits on PostgreSQL
    profile.enable()
    try:
        yield
    finally:
        profile.disable()
        profile.dump_stats(path)


def backend_cpu_reader():
    """A function giving the CPU seconds of this connection's PostgreSQL backend."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    ticks = os.sysconf("SC_CLK_TCK")

    def read() -> float:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / ticks

    return read


def main() -> int:
    django_on_a_scratch_database("bench_sale_request")
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        sale, healthz = signed_in_seller()
        backend_cpu = backend_cpu_reader()
        rows = []
        for name, request in (("/healthz (baseline)", healthz), ("sale POST, one ticket", sale)):
            for i in range(30):  # warm up: templates compiled, statements prepared
                request(i)
            with CaptureQueriesContext(connection) as captured:
                request(99)
            statements = captured.captured_queries
            if os.environ.get("BENCH_SQL"):  # the statements of one request, in order
                for query in statements:
                    print(f"   {query['sql'][:300]}")
            began, began_backend = time.process_time(), backend_cpu()
            with profiled(PROFILE and f"{PROFILE}.{len(rows)}"):
                for i in range(REQUESTS):
                    request(1000 + i)
            django_ms = (time.process_time() - began) / REQUESTS * 1000
            backend_ms = (backend_cpu() - began_backend) / REQUESTS * 1000
            rows.append((name, django_ms, backend_ms, len(statements)))
        base = rows[0][1] + rows[0][2]
        print(f"| request ({REQUESTS} each) | Django CPU ms | PostgreSQL CPU ms | both | x /healthz | statements |")
        print("|---|---|---|---|---|---|")
        for name, django_ms, backend_ms, count in rows:
            both = django_ms + backend_ms
            print(f"| {name} | {django_ms:.2f} | {backend_ms:.2f} | {both:.2f} | {both / base:.1f}x | {count} |")
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")
        return 0
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
