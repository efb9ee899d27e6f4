"""A fixed-window limit on how often one client address may do something,
kept in Django's cache (`CACHES`; shared by every worker when the cache is
shared, see docs/deploy.md)."""

from django.core.cache import cache

from core.client_ip import client_address as real_client_address


def client_address(request) -> str:
    """The client's address as the sign-in lockout sees it: behind the
    reverse proxy, from X-Forwarded-For as `DJANGO_TRUSTED_PROXY_COUNT` says
    (docs/deploy.md), so one visitor's flood does not hold back everyone."""
    return real_client_address(request) or "unknown"


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
