"""Template context shared by every page."""

from core import roles


def user_roles(request) -> dict:
    """`roles`: the role names of the signed-in user, so the navigation offers
    only the pages that user may open (superusers: every role)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"roles": set()}
    if user.is_superuser:
        return {"roles": set(roles.ALL_ROLES)}
    return {"roles": roles.user_roles(user)}
