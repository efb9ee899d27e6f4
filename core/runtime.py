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


def freeze_loaded_objects() -> None:
    """Move what is loaded by now (Django, the apps, their URLs and views) out
    of the collector's sight (gc.freeze): a full collection then walks only
    what requests made. Unfrozen, one took 58 ms here (docs/architecture.md),
    inside whichever request triggered it (the sales page's p99, #18)."""
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 (imports every view module now, not at the first request)
    gc.collect()
    gc.freeze()
