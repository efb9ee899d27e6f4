"""The three reads every signed-in request makes before its view (#18): its
session, its user and its OTP device, each read by Django's (or django-otp's)
own query and by ours, a prepared statement (core.prepared.row_by_pk), taking
turns in one process so that both see the same machine. The baseline is
Django's own read of the same row.

Run:  .venv/bin/python bench/bench_request_reads.py  [--reads N]
Uses its own PostgreSQL database (BENCH_DATABASE_NAME, default bench_reads),
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

from common import django_on_a_fresh_database  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=1000)
    args = parser.parse_args()
    django_on_a_fresh_database("bench_reads")
    from django.contrib.auth import get_user_model
    from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
    from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
    from django_otp.models import Device
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from core.auth_backend import ModelBackend
    from core.sessions import SessionStore
    from core.twofactor import OTPMiddleware

    user = get_user_model().objects.create_user("reader", password=None)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    stored = DjangoSessionStore()
    stored["_auth_user_id"] = str(user.pk)
    stored.create()
    key, user_id, device_id = stored.session_key, str(user.pk), device.persistent_id
    middleware = OTPMiddleware(lambda request: None)
    reads = {
        "session": (lambda: DjangoSessionStore(key).load(), lambda: SessionStore(key).load()),
        "user": (lambda: DjangoModelBackend().get_user(user_id), lambda: ModelBackend().get_user(user_id)),
        "OTP device": (
            lambda: Device.from_persistent_id(device_id),
            lambda: middleware._device_from_persistent_id(device_id),
        ),
    }
    print(f"| read ({args.reads} each, 5 turns) | Django's ms (baseline) | prepared ms | ratio |")
    print("|---|---|---|---|")
    saved = 0.0
    for name, (django_read, prepared_read) in reads.items():
        assert django_read() == prepared_read(), name
        times = {django_read: [], prepared_read: []}
        for _ in range(5):
            for read in (django_read, prepared_read):
                start = time.process_time()
                for _ in range(args.reads):
                    read()
                times[read].append((time.process_time() - start) * 1000 / args.reads)
        ours, theirs = statistics.median(times[prepared_read]), statistics.median(times[django_read])
        saved += theirs - ours
        print(f"| {name} | {theirs:.3f} | {ours:.3f} | {ours / theirs:.2f}x |")
    print(f"CPU of this process per read; {saved:.2f} ms less per signed-in request (load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
