"""Template context shared by every page."""

import functools

from django.urls import resolve, reverse
from django.utils.translation import gettext_lazy as _

from core import roles

# The areas the navigation bar offers, each shown only to the roles its view
# lets in (`role_required(...)`, which tests/test_url_matrix.py proves equal
# to docs/roles.md): a link never leads to a 403.
NAV_PAGES = [
    ("application_list", _("Licensing")),
    ("treasury_home", _("Treasury")),
    ("audit_trail", _("Audit trail")),
]


@functools.cache
def _page(url_name: str) -> tuple[str, frozenset[str]]:
    path = reverse(url_name)
    return path, frozenset(getattr(resolve(path).func, "allowed_roles", ()))


def nav_links(user_roles: set[str], path: str = "") -> list[dict]:
    links = []
    for url_name, label in NAV_PAGES:
        url, allowed = _page(url_name)
        if user_roles & allowed:
            links.append({"url": url, "label": label, "current": path.startswith(url)})
    return links


def user_roles(request) -> dict:
    """`roles`: the role names of the signed-in user (superusers: every role);
    `nav_links`: the areas of the navigation bar those roles may open."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        held = set()
    elif user.is_superuser:
        held = set(roles.ALL_ROLES)
    else:
        held = getattr(request, "role_names", None)  # read by core.roles.role_required for this request
        if held is None:
            held = roles.request_user_roles(user)
    return {"roles": held, "nav_links": nav_links(held, request.path)}
