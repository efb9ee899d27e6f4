"""Changes to people and their credentials in the audit trail (RULES D7, E3).

core.signals records sign-ins, group and permission changes and the
staff/superuser/active flags. This module adds, whoever makes them (a page,
the admin, a command):
- a user's name, username or e-mail changed (from, to);
- a password changed by its owner, set by someone else, or reset without a
  signed-in user (the e-mail link, `changepassword`); never the password;
- an authenticator (django-otp TOTP device) added for someone, its key or
  owner changed, confirmed outside the enrolment page, or removed.
A password hash upgraded at sign-in is not a change and is not recorded.
"""

import contextvars
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models.signals import post_delete, post_save, pre_save
from django_otp.plugins.otp_totp.models import TOTPDevice

from core.audit import audit_record
from core.signals import current_actor

USER_FIELDS = ("username", "first_name", "last_name", "email")
DEVICE_FIELDS = ("user_id", "key", "confirmed")
_enrolling = contextvars.ContextVar("audit_enrolling", default=False)


@contextmanager
def enrolment_recorded_by_caller():
    """The enrolment page records its own entry (core.twofactor)."""
    token = _enrolling.set(True)
    try:
        yield
    finally:
        _enrolling.reset(token)


def _record(**kwargs) -> None:
    with transaction.atomic():
        audit_record(**kwargs)


def _actor():
    actor = current_actor.get()
    return actor if actor is not None and actor.is_authenticated else None


def _snapshot(sender, instance, fields, update_fields):
    if instance.pk is None:
        return None
    if update_fields is not None:
        names = set(update_fields)
        if not any(f in names or f.removesuffix("_id") in names for f in fields):
            return None
    return sender.objects.filter(pk=instance.pk).values(*fields).first()


def on_user_pre_save(sender, instance, update_fields=None, **kwargs):
    instance._audit_account = _snapshot(sender, instance, USER_FIELDS, update_fields)
    # set_password() keeps the new raw password until save(); the hash
    # upgrade at sign-in clears it first, so it is not counted.
    instance._audit_password_set = instance.pk is not None and getattr(instance, "_password", None) is not None


def on_user_post_save(sender, instance, created, **kwargs):
    if created:
        return  # core.signals records the new account
    actor = _actor()
    before = getattr(instance, "_audit_account", None)
    if before:
        changed = {
            f: {"from": before[f], "to": getattr(instance, f)} for f in USER_FIELDS if before[f] != getattr(instance, f)
        }
        if changed:
            _record(actor=actor, action="core.user.change", obj=instance, data=changed)  # R:D7
    if getattr(instance, "_audit_password_set", False):
        instance._audit_password_set = False
        if actor is None:
            action, how = "core.user.password_reset", "reset without a signed-in user (e-mail link or command)"
        elif actor.pk == instance.pk:
            action, how = "core.user.password_changed", "changed by its owner"
        else:
            action, how = "core.user.password_set", f"set by {actor.get_username()}"
        _record(actor=actor, action=action, obj=instance, data={"how": how})  # R:D7


def on_device_pre_save(sender, instance, update_fields=None, **kwargs):
    instance._audit_device = _snapshot(sender, instance, DEVICE_FIELDS, update_fields)


def _device_data(device, **extra) -> dict:
    return {"device": device.persistent_id, "owner": device.user.get_username(), "confirmed": device.confirmed, **extra}


def on_device_post_save(sender, instance, created, **kwargs):
    actor = _actor()
    owner = instance.user
    by_other = actor is not None and actor.pk != instance.user_id
    if created:
        if instance.confirmed or by_other or actor is None:
            _record(actor=actor, action="core.two_factor.device_add", obj=owner, data=_device_data(instance))
        return
    before = getattr(instance, "_audit_device", None)
    if not before:
        return
    changed = [f for f in DEVICE_FIELDS if before[f] != getattr(instance, f)]
    if not changed or (changed == ["confirmed"] and _enrolling.get()):
        return
    _record(
        actor=actor,
        action="core.two_factor.device_change",
        obj=owner,
        data=_device_data(instance, changed=[f.removesuffix("_id") for f in changed]),
    )  # R:D7 another person's authenticator cannot be set up unseen


def on_device_delete(sender, instance, **kwargs):
    _record(actor=_actor(), action="core.two_factor.device_remove", obj=instance.user, data=_device_data(instance))


def connect() -> None:
    User = get_user_model()
    pre_save.connect(on_user_pre_save, sender=User, dispatch_uid="core.audit.account_pre")
    post_save.connect(on_user_post_save, sender=User, dispatch_uid="core.audit.account_post")
    pre_save.connect(on_device_pre_save, sender=TOTPDevice, dispatch_uid="core.audit.device_pre")
    post_save.connect(on_device_post_save, sender=TOTPDevice, dispatch_uid="core.audit.device_post")
    post_delete.connect(on_device_delete, sender=TOTPDevice, dispatch_uid="core.audit.device_delete")
