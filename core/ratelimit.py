"""A fixed-window limit on how often one client address may do something,
kept in Django's cache (`CACHES`; shared by every worker when the cache is
shared, see docs/deploy.md)."""

from django.core.cache import cache


def client_address(request) -> str:
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def allow(request, *, scope: str, limit: int, window_seconds: int) -> bool:
    """True while this address has done `scope` fewer than `limit` times in
    the current window; the window starts with its first use."""
    key = f"ratelimit:{scope}:{client_address(request)}"
    if cache.add(key, 1, timeout=window_seconds):
        return True
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: a new window
        cache.add(key, 1, timeout=window_seconds)
        return True
    return count <= limit
