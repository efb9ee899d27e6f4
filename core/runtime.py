"""Process-wide tuning, applied where the web server loads the application
(config/wsgi.py) and by the benchmarks that measure what it serves."""

import gc

from django.conf import settings


def tune_garbage_collector() -> None:
    """Let CPython's youngest generation grow to settings.GC_YOUNG_THRESHOLD
    objects before a collection (CPython's default is 700).

    A PDF report allocates about a million short-lived objects. At the default
    the collector made hundreds of passes per final report and took a quarter
    of its time (bench/bench_reports.py, docs/benchmarks.md); at 50,000 it makes
    a few dozen. Memory between passes grows by at most that many objects."""
    _, middle, oldest = gc.get_threshold()
    gc.set_threshold(settings.GC_YOUNG_THRESHOLD, middle, oldest)
