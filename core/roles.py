"""The five roles, as Django groups, and the model permissions each holds.

Groups are (re)synchronised after every `migrate`, so a new model's
permissions reach the roles without a hand-written data migration.
The page-level matrix lives in docs/roles.md.
"""

from django.apps import apps as global_apps

SELLER = "seller"
DRAW_STAFF = "draw staff"
TREASURER = "treasurer"
AUDITOR = "auditor"
ADMINISTRATOR = "administrator"
ALL_ROLES = [SELLER, DRAW_STAFF, TREASURER, AUDITOR, ADMINISTRATOR]

OUR_APPS = ["core", "licensing", "raffle"]


def _wanted_codenames(role: str, model_name: str, app_label: str) -> set[str]:
    """Which permissions of one model a role holds. Views are read-only for
    every role; changes happen through services, guarded by these."""
    view = {f"view_{model_name}"}
    if role in (AUDITOR, TREASURER, DRAW_STAFF, ADMINISTRATOR):
        wanted = set(view)
    else:
        wanted = set()
    if role == ADMINISTRATOR and app_label == "licensing":
        wanted |= {f"add_{model_name}", f"change_{model_name}"}
    return wanted


def sync_role_groups(using: str = "default", **kwargs) -> None:
    Group = global_apps.get_model("auth", "Group")
    Permission = global_apps.get_model("auth", "Permission")
    perms = list(
        Permission.objects.using(using)
        .filter(content_type__app_label__in=OUR_APPS)
        .select_related("content_type")
    )
    for role in ALL_ROLES:
        group, _ = Group.objects.using(using).get_or_create(name=role)
        group.permissions.set(
            [
                p
                for p in perms
                if p.codename
                in _wanted_codenames(role, p.content_type.model, p.content_type.app_label)
            ]
        )


def user_has_role(user, *roles: str) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return user.groups.filter(name__in=roles).exists()


def role_required(*roles: str):
    """View decorator: anonymous visitors go to the login page; signed-in users
    without one of `roles` get 403. Superusers pass."""
    from functools import wraps

    from django.contrib.auth.views import redirect_to_login
    from django.core.exceptions import PermissionDenied

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not user_has_role(request.user, *roles):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        wrapped.allowed_roles = roles
        return wrapped

    return decorator
