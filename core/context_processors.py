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
    held = getattr(request, "role_names", None)  # read by core.roles.role_required for this request
    return {"roles": held if held is not None else roles.user_roles(user)}
