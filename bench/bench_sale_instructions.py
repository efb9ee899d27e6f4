"""Instructions the application executes for one sale POST of the staff sales
page (#18), against `/healthz` in the same run, counted by valgrind's
callgrind: the same count on a quiet machine and on a loaded one, where the
seconds of `bench_sale_request.py` and the load test move by a quarter from
one run to the next.

What is counted: the Django process, user space (the interpreter, Django,
psycopg's C code and libpq), every middleware, through Django's test client
(as `bench_sale_request.py`, whose request it sends); not PostgreSQL, not the
kernel. Each figure is (a run with N requests) minus (a run with none), the
setup, the imports and the warm-up counted in both, divided by N. The
collector's state is frozen after the warm-up, as the served application
freezes it (`core.runtime`).

    .venv/bin/python bench/bench_sale_instructions.py            # N = 200
    BENCH_REQUESTS=400 .venv/bin/python bench/bench_sale_instructions.py

Needs valgrind (Debian: `apt-get install valgrind`); without it, says so and
counts nothing. Throw-away database (BENCH_DATABASE_NAME, default
bench_sale_instructions); about a minute per run under valgrind, four runs,
two at a time.
"""

import gc
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import django_on_a_scratch_database, signed_in_seller  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "200"))
WARM_UP = 40
DB_DEFAULT = "bench_sale_instructions"


def child(kind: str, count: int) -> None:
    """Inside valgrind: a fresh seller and draw, the warm-up, then `count` requests of `kind`."""
    django_on_a_scratch_database(DB_DEFAULT)
    from django.db import connection

    connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=True)
    sale, healthz = signed_in_seller()
    request = sale if kind == "sale" else healthz
    for i in range(WARM_UP):
        request(i)
    gc.collect()
    gc.freeze()
    for i in range(count):
        request(WARM_UP + i)


def counted(kind: str, count: int, out_dir: str) -> int:
    """Instructions of one child run under callgrind."""
    result = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out_dir}/callgrind.{kind}.{count}",
            sys.executable,
            __file__,
            "--child",
            kind,
            str(count),
        ],
        env={**os.environ, "PYTHONHASHSEED": "0"},  # the same dictionaries' layout in every run
        capture_output=True,
        text=True,
        check=True,
    )
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def per_request(kind: str, out_dir: str) -> float:
    with ThreadPoolExecutor(2) as pool:  # the two runs at once: valgrind uses one core each
        empty, full = pool.map(lambda n: counted(kind, n, out_dir), (0, REQUESTS))
    return (full - empty) / REQUESTS


def main() -> int:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind): nothing counted")
        return 0
    # the database made and migrated once outside valgrind, kept by the children (keepdb)
    subprocess.run([sys.executable, __file__, "--child", "healthz", "0"], check=True)
    try:
        with tempfile.TemporaryDirectory() as out_dir:
            base = per_request("healthz", out_dir)
            sale = per_request("sale", out_dir)
    finally:
        django_on_a_scratch_database(DB_DEFAULT)
        from django.db import connection

        creation = connection.creation
        creation._destroy_test_db(creation._get_test_db_name(), verbosity=0)
    print(f"| request ({REQUESTS} each, callgrind) | instructions | x /healthz |")
    print("|---|---|---|")
    print(f"| /healthz (baseline) | {base:,.0f} | 1.0x |")
    print(f"| sale POST, one ticket | {sale:,.0f} | {sale / base:.2f}x |")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2], int(sys.argv[3]))
        sys.exit(0)
    sys.exit(main())
