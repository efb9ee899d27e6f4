"""Deploy checks of the audit chain's key and of the database role the
application is served with (`manage.py check --deploy`)."""

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register
from django.db import DatabaseError, connection

from core.audit_chain import MIN_KEY_LENGTH
from core.db_roles import role_ownership


@register(Tags.security, deploy=True)
def check_audit_chain_key(app_configs, **kwargs):
    key = getattr(settings, "AUDIT_CHAIN_KEY", "") or ""
    if not key:
        return [
            Error(
                "AUDIT_CHAIN_KEY is not set: the audit trail cannot be written or verified.",
                hint="Set a long random AUDIT_CHAIN_KEY in the environment, kept outside the database "
                "and its backups (docs/deploy.md).",
                id="core.E001",
            )
        ]
    if len(key) < MIN_KEY_LENGTH:
        return [
            Warning(
                f"AUDIT_CHAIN_KEY is shorter than {MIN_KEY_LENGTH} characters.",
                hint="Use e.g. `python -c 'import secrets; print(secrets.token_urlsafe(48))'`.",
                id="core.W001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_runtime_database_role(app_configs, **kwargs):
    if connection.vendor != "postgresql":
        return []
    try:
        with connection.cursor() as cursor:
            role, superuser, owned = role_ownership(cursor)
    except DatabaseError:
        return []  # no database to ask (e.g. building an image): nothing to say
    if superuser or owned:
        what = "is a superuser" if superuser else f"owns {owned} of its tables"
        return [
            Warning(
                f"The application connects to the database as {role!r}, which {what}: it could disable the "
                "append-only triggers and rewrite the records.",
                hint="Serve with a runtime role (DATABASE_URL) that owns nothing, granted by "
                "`manage.py grant_runtime_role ROLE`; migrate as the owner (MIGRATION_DATABASE_URL).",
                id="core.W002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def check_no_active_superuser(app_configs, **kwargs):
    """Nobody runs the raffle as a superuser: a superuser passes every role
    check, sees every organisation and may edit the role groups, sign-in logs
    and other people's authenticators. Administrators are ordinary users with
    the administrator role in their organisation (`manage.py add_user`)."""
    from django.contrib.auth import get_user_model

    try:
        names = list(
            get_user_model()
            .objects.filter(is_superuser=True, is_active=True)
            .order_by("username")
            .values_list("username", flat=True)
        )
    except DatabaseError:
        return []  # no database to ask (e.g. building an image): nothing to say
    if not names:
        return []
    return [
        Warning(
            f"{len(names)} active superuser account(s): {', '.join(names)}.",
            hint="Add administrators with `manage.py add_user USERNAME --organisation NAME --role administrator`, "
            "then take superuser status away (or deactivate the account) in a Django shell (docs/deploy.md).",
            id="core.W020",
        )
    ]
