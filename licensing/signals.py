"""Changes to bona fide members in the audit trail (RULES L13, E3, D7): who
was added, renamed, put in or out of charge, deactivated, or linked to another
sign-in, from, to and by whom, whatever page, admin or command made them. The
destruction log keeps the names as signed (raffle.CardDestruction), so a
rename here never rewrites it; this entry says when and by whom it happened."""

from django.db import transaction
from django.db.models.signals import post_save, pre_save

from core.audit import audit_record
from core.signals import current_actor
from licensing.models import BonaFideMember

FIELDS = ("full_name", "is_in_charge", "is_active", "date_of_birth", "user_id")


def _actor():
    actor = current_actor.get()
    return actor if actor is not None and actor.is_authenticated else None


def on_member_pre_save(sender, instance, update_fields=None, **kwargs):
    instance._audit_before = None
    if instance.pk is not None:
        instance._audit_before = sender.objects.filter(pk=instance.pk).values(*FIELDS).first()


def on_member_post_save(sender, instance, created, **kwargs):
    now = {f: getattr(instance, f) for f in FIELDS}
    if created:
        data, action = now, "licensing.member.create"
    else:
        before = getattr(instance, "_audit_before", None) or {}
        data = {f: {"from": before.get(f), "to": now[f]} for f in FIELDS if before.get(f) != now[f]}
        action = "licensing.member.change"
        if not data:
            return
    with transaction.atomic():
        audit_record(actor=_actor(), action=action, obj=instance, data=data)  # R:L13 R:D7


def connect() -> None:
    pre_save.connect(on_member_pre_save, sender=BonaFideMember, dispatch_uid="licensing.audit.member_pre")
    post_save.connect(on_member_post_save, sender=BonaFideMember, dispatch_uid="licensing.audit.member_post")
