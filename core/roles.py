"""The five roles, as Django groups, and the model permissions each holds.

Groups are (re)synchronised after every `migrate`, so a new model's
permissions reach the roles without a hand-written data migration.
Who may open which page is the matrix in docs/roles.md: a table that
`page_matrix()` reads, that `role_required` views declare (`allowed_roles`)
and that tests/test_url_matrix.py proves against every URL of the project.
"""

import re
from pathlib import Path

from django.apps import apps as global_apps
from django.db import connection

from core.prepared import prepared_cursor

SELLER = "seller"
DRAW_STAFF = "draw staff"
TREASURER = "treasurer"
AUDITOR = "auditor"
ADMINISTRATOR = "administrator"
ALL_ROLES = [SELLER, DRAW_STAFF, TREASURER, AUDITOR, ADMINISTRATOR]

OUR_APPS = ["core", "licensing", "raffle"]

# Roles that use the records (the Django admin): everyone but the seller.
STAFF_ROLES = [DRAW_STAFF, TREASURER, AUDITOR, ADMINISTRATOR]

# Roles whose holders must be bona fide members of the charity: draw staff
# destroy and verify cards (R:E3) and run the lottery (R:L13); treasurers are
# the trust account's signing officers (R:L12) and file the reports (R:L13).
MEMBER_ROLES = [DRAW_STAFF, TREASURER]

# What each role may do to records outside our apps: the administrator
# manages users, resets a lost authenticator and unlocks a locked-out login;
# the auditor may see who holds which role. Permission codenames by app.
EXTRA_PERMISSIONS = {
    ADMINISTRATOR: {
        "auth": {"view_user", "add_user", "change_user", "view_group"},
        "otp_totp": {"view_totpdevice", "delete_totpdevice"},
        "axes": {"view_accessattempt", "delete_accessattempt", "view_accesslog", "view_accessfailurelog"},
    },
    AUDITOR: {"auth": {"view_user", "view_group"}},
}


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
    if role == DRAW_STAFF and app_label == "raffle" and model_name == "draw":
        wanted.add("change_draw")  # DrawAdmin: "change" means "may run the draw's steps"
    return wanted


def sync_role_groups(using: str = "default", **kwargs) -> None:
    Group = global_apps.get_model("auth", "Group")
    Permission = global_apps.get_model("auth", "Permission")
    extra_apps = {app for extra in EXTRA_PERMISSIONS.values() for app in extra}
    perms = list(
        Permission.objects.using(using)
        .filter(content_type__app_label__in=[*OUR_APPS, *extra_apps])
        .select_related("content_type")
    )
    for role in ALL_ROLES:
        group, _ = Group.objects.using(using).get_or_create(name=role)
        extra = EXTRA_PERMISSIONS.get(role, {})
        group.permissions.set(
            [
                p
                for p in perms
                if (
                    p.content_type.app_label in OUR_APPS
                    and p.codename in _wanted_codenames(role, p.content_type.model, p.content_type.app_label)
                )
                or p.codename in extra.get(p.content_type.app_label, ())
            ]
        )


# The names of a user's groups, `{user}` the user's id: read afresh by `user_roles` (one statement
# planned once per connection), and with the user itself at the start of each request (core.auth_backend, #18).
GROUP_NAMES_OF = (
    "SELECT g.name FROM auth_group g JOIN auth_user_groups ug ON ug.group_id = g.id WHERE ug.user_id = {user}"
)
GROUP_NAMES_SQL = GROUP_NAMES_OF.format(user="%s")


def _group_names(user) -> list[str]:
    """The names of `user`'s groups, as `user.groups.values_list("name", flat=True)`."""
    if connection.vendor != "postgresql":
        return list(user.groups.values_list("name", flat=True))
    with prepared_cursor() as cursor:
        cursor.execute(GROUP_NAMES_SQL, [user.pk])
        return [name for (name,) in cursor.fetchall()]


def user_roles(user, organisation=None) -> set[str]:
    """The roles `user` holds in `organisation` (their memberships there,
    licensing.Membership), or, without one, in any organisation: their role
    groups, which licensing.services.memberships keeps in step with the
    memberships."""
    if not user.is_authenticated:
        return set()
    if organisation is None:
        return {name for name in _group_names(user) if name in ALL_ROLES}
    rows = global_apps.get_model("licensing", "Membership").objects.filter(user=user, organisation=organisation)
    return set(rows.values_list("role", flat=True))


# The attribute on a request's user holding its group names, read with the
# user at the start of the request (core.auth_backend): the role check of
# every staff page (`role_required`) reads no statement of its own.
GROUPS_READ_WITH_USER = "group_names_read_with_user"


def request_user_roles(user) -> set[str]:
    """The roles the request's signed-in user held when the request began
    (their role groups, read with the user), as `user_roles(user)` then.
    For the role check and the navigation of each request; whatever must see
    a change made during the request (an edit of one's own roles) reads
    `user_roles`."""
    names = getattr(user, GROUPS_READ_WITH_USER, None)
    if names is None:
        return user_roles(user)
    return {name for name in names if name in ALL_ROLES}


def user_has_role(user, *roles: str, organisation=None) -> bool:
    """Whether `user` holds one of `roles` (in `organisation` when given).
    A superuser passes (the deploy check core.W020 warns about any)."""
    if not user.is_authenticated:
        return False
    if user.is_superuser:
        return True
    return bool(user_roles(user, organisation) & set(roles))


def role_required(*roles: str):
    """View decorator: anonymous visitors go to the login page; signed-in users
    holding none of `roles` in any organisation get 403. Which organisation's
    records the view then reaches is the view's scoped queryset (core.scope):
    another organisation's record is a 404. Superusers pass."""
    from functools import wraps

    from django.contrib.auth.views import redirect_to_login
    from django.core.exceptions import PermissionDenied

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            held = set(ALL_ROLES) if request.user.is_superuser else request_user_roles(request.user)
            request.role_names = held  # read once: the navigation (core.context_processors) shows the same
            if not held & set(roles):
                raise PermissionDenied
            request.acting_roles = roles  # core.scope.own: records of the organisations where they hold one
            return view(request, *args, **kwargs)

        wrapped.allowed_roles = roles
        return wrapped

    return decorator


# --- The page matrix (docs/roles.md) -------------------------------------

MATRIX_DOC = Path(__file__).resolve().parent.parent / "docs" / "roles.md"
ANONYMOUS = "anonymous"
MATRIX_COLUMNS = [ANONYMOUS, *ALL_ROLES]
# What a GET of the page gives each visitor.
ALLOWED = "yes"  # the page is shown (2xx, or a redirect that is not to sign in)
FORBIDDEN = "403"  # signed in, but not this person's job
LOGIN = "login"  # sent to a sign-in page first
NOT_FOUND = "404"  # exists only for objects this role may see
METHOD = "405"  # POST only (e.g. sign out)
OUTCOMES = {ALLOWED, FORBIDDEN, LOGIN, NOT_FOUND, METHOD}

_MATRIX_START, _MATRIX_END = "<!-- matrix:start -->", "<!-- matrix:end -->"


def page_matrix(path: Path = MATRIX_DOC) -> dict[str, dict[str, str]]:
    """The table of docs/roles.md as {url name pattern: {visitor: outcome}}.

    Rows keep the document's order; a pattern may end in `*` to cover a family
    of admin pages. The first matching row wins (see `matrix_row`)."""
    text = path.read_text(encoding="utf-8")
    try:
        body = text.split(_MATRIX_START, 1)[1].split(_MATRIX_END, 1)[0]
    except IndexError:
        raise ValueError(f"{path} has no {_MATRIX_START} ... {_MATRIX_END} table") from None
    rows = [line.strip() for line in body.splitlines() if line.strip().startswith("|")]
    header = [cell.strip().strip("`").lower() for cell in rows[0].strip("|").split("|")]
    if header[1 : 1 + len(MATRIX_COLUMNS)] != MATRIX_COLUMNS:
        raise ValueError(f"matrix columns must be: page, {', '.join(MATRIX_COLUMNS)} (got {header})")
    matrix: dict[str, dict[str, str]] = {}
    for line in rows[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        name = cells[0].strip("`")
        outcomes = dict(zip(MATRIX_COLUMNS, (c.lower() for c in cells[1 : 1 + len(MATRIX_COLUMNS)]), strict=False))
        bad = {v for v in outcomes.values() if v not in OUTCOMES}
        if bad or len(outcomes) != len(MATRIX_COLUMNS):
            raise ValueError(f"matrix row {name!r}: outcomes must be one of {sorted(OUTCOMES)}")
        if name in matrix:
            raise ValueError(f"matrix row {name!r} appears twice")
        matrix[name] = outcomes
    return matrix


def _pattern_regex(pattern: str) -> re.Pattern:
    return re.compile("^" + re.escape(pattern).replace(r"\*", ".*") + "$")


def matrix_row(matrix: dict[str, dict[str, str]], url_name: str) -> str | None:
    """The row of the matrix that governs `url_name`: its exact entry, else the
    first `*` pattern that matches it; None when the page has no entry."""
    if url_name in matrix:
        return url_name
    for pattern in matrix:
        if "*" in pattern and _pattern_regex(pattern).match(url_name):
            return pattern
    return None
