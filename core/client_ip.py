"""The client's real address, for the sign-in lockout (django-axes, through
`AXES_CLIENT_IP_CALLABLE`), the sign-in log and the per-address limits.

Behind `DJANGO_TRUSTED_PROXY_COUNT` reverse proxies, each proxy appends the
address it received the request from to `X-Forwarded-For` (nginx's
`$proxy_add_x_forwarded_for`), so the client is the Nth address from the
right; anything further left was written by the client and is not believed.
A request with fewer addresses than trusted proxies did not come through them:
the connection's own address (`REMOTE_ADDR`) is used. With no proxy trusted,
the header is ignored entirely (docs/deploy.md)."""

import ipaddress

from django.conf import settings


def _address(value: str) -> str | None:
    value = value.strip()
    if value.startswith("[") and "]" in value:  # [v6]:port
        value = value[1 : value.index("]")]
    elif value.count(":") == 1:  # v4:port
        value = value.split(":", 1)[0]
    try:
        return str(ipaddress.ip_address(value))
    except ValueError:
        return None


def client_address(request) -> str:
    remote = _address(request.META.get("REMOTE_ADDR", "")) or ""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if proxies < 1:
        return remote
    header = request.META.get(settings.TRUSTED_PROXY_HEADER, "")
    hops = [hop for hop in header.split(",") if hop.strip()]
    if len(hops) < proxies:
        return remote
    return _address(hops[-proxies]) or remote
