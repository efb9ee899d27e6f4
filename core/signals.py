"""Access and permission changes in the audit trail (RULES D7).

Sign-ins, sign-outs, failed sign-ins, and every change to who holds which
group or permission (a user's groups, a user's own permissions, a group's
permissions, the staff and superuser flags) are appended to the same
hash-chained trail as business events. A failed sign-in records the username
typed and the address, never the password.

The role groups are re-synchronised from code after every `migrate`
(`core.roles.sync_role_groups`); those changes are the code's, reviewed in
version control, and are not recorded (`suppress_permission_audit`).
"""

import contextvars
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db import transaction
from django.db.models.signals import m2m_changed, post_save, pre_save

from core.audit import audit_record
from core.client_ip import client_address

_suppressed = contextvars.ContextVar("permission_audit_suppressed", default=False)
# Who is acting in the current request, for permission changes made through a
# form (the admin) whose signals carry no user. Set by `core.middleware`.
current_actor = contextvars.ContextVar("audit_current_actor", default=None)
# Record pages viewed during the session (core.middleware), written with the sign-out.
VIEWED_SESSION_KEY = "_audit_viewed"


@contextmanager
def suppress_permission_audit():
    token = _suppressed.set(True)
    try:
        yield
    finally:
        _suppressed.reset(token)


def _client(request) -> dict:  # R:D7 the real client address (core.client_ip), not the proxy's
    if request is None:
        return {}
    return {"ip": client_address(request), "user_agent": request.META.get("HTTP_USER_AGENT", "")[:200]}


def _record(**kwargs) -> None:
    with transaction.atomic():
        audit_record(**kwargs)


def on_logged_in(sender, request, user, **kwargs):
    _record(actor=user, action="core.user.login", obj=user, data=_client(request))  # R:D7


def on_logged_out(sender, request, user, **kwargs):
    if user is None:
        return
    session = getattr(request, "session", {}) if request is not None else {}
    _record(
        actor=user,
        action="core.user.logout",
        obj=user,
        data={
            **_client(request),
            "login_at": session.get("_audit_login_at"),
            "viewed": session.get(VIEWED_SESSION_KEY, []),
        },
    )  # R:D7 how long, and what was viewed


def on_login_failed(sender, credentials, request=None, **kwargs):
    username = str(credentials.get("username", ""))[:150]  # the cleansed dict: no password
    _record(actor=None, action="core.user.login_failed", data={"username": username, **_client(request)})


_M2M_ACTIONS = {"post_add": "added", "post_remove": "removed", "post_clear": "cleared"}


def _labels(model, pks) -> list[str]:
    if model is Permission:
        rows = Permission.objects.filter(pk__in=pks).select_related("content_type")
        return sorted(f"{p.content_type.app_label}.{p.codename}" for p in rows)
    if model is Group:
        return sorted(Group.objects.filter(pk__in=pks).values_list("name", flat=True))
    return sorted(str(pk) for pk in pks)


def _pre_clear(sender, instance, action, reverse, model, **kwargs):
    # Remember what a clear() removes, so the entry can name it.
    if action == "pre_clear":
        field = _field_for(sender, instance, reverse)
        if field:
            instance._audit_cleared = list(getattr(instance, field).values_list("pk", flat=True))


def _field_for(sender, instance, reverse) -> str | None:
    User = get_user_model()
    if sender is User.groups.through:
        return "user_set" if reverse else "groups"
    if sender is User.user_permissions.through:
        return "user_set" if reverse else "user_permissions"
    if sender is Group.permissions.through:
        return "group_set" if reverse else "permissions"
    return None


def on_m2m_changed(sender, instance, action, reverse, model, pk_set, **kwargs):
    User = get_user_model()
    if sender not in (User.groups.through, User.user_permissions.through, Group.permissions.through):
        return
    if action == "pre_clear":
        return _pre_clear(sender, instance, action, reverse, model)
    if action not in _M2M_ACTIONS or _suppressed.get():
        return
    pks = pk_set if action != "post_clear" else set(getattr(instance, "_audit_cleared", []))
    if not pks:
        return
    relation = {
        User.groups.through: "groups",
        User.user_permissions.through: "permissions",
        Group.permissions.through: "permissions",
    }[sender]
    _record(
        actor=current_actor.get(),
        action=f"core.{type(instance).__name__.lower()}.{relation}_changed",
        obj=instance,
        data={"change": _M2M_ACTIONS[action], "reverse": reverse, "items": _labels(model, pks)},
    )  # R:D7


_FLAGS = ("is_staff", "is_superuser", "is_active")


def on_user_pre_save(sender, instance, update_fields=None, **kwargs):
    if instance.pk is None or (update_fields is not None and not set(update_fields) & set(_FLAGS)):
        instance._audit_flags = None
        return
    instance._audit_flags = sender.objects.filter(pk=instance.pk).values(*_FLAGS).first()


def on_user_post_save(sender, instance, created, update_fields=None, **kwargs):
    if _suppressed.get():
        return
    before = getattr(instance, "_audit_flags", None)
    now = {flag: getattr(instance, flag) for flag in _FLAGS}
    if created:
        _record(actor=current_actor.get(), action="core.user.create", obj=instance, data=now)
        return
    if before is None:
        return
    changed = {flag: {"from": before[flag], "to": now[flag]} for flag in _FLAGS if before[flag] != now[flag]}
    if changed:
        _record(actor=current_actor.get(), action="core.user.flags_changed", obj=instance, data=changed)  # R:D7


def on_session_login_time(sender, request, user, **kwargs):
    if request is not None and hasattr(request, "session"):
        from django.utils import timezone

        request.session["_audit_login_at"] = timezone.now().isoformat()


def connect() -> None:
    User = get_user_model()
    user_logged_in.connect(on_logged_in, dispatch_uid="core.audit.login")
    user_logged_in.connect(on_session_login_time, dispatch_uid="core.audit.login_time")
    user_logged_out.connect(on_logged_out, dispatch_uid="core.audit.logout")
    user_login_failed.connect(on_login_failed, dispatch_uid="core.audit.login_failed")
    m2m_changed.connect(on_m2m_changed, dispatch_uid="core.audit.m2m")
    pre_save.connect(on_user_pre_save, sender=User, dispatch_uid="core.audit.user_pre")
    post_save.connect(on_user_post_save, sender=User, dispatch_uid="core.audit.user_post")
