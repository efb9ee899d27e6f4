"""The register of issues notified to the Registrar (RULES D6)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext, gettext_lazy

from core.models import AppendOnlyModel
from raffle.models.event import Event


class IssueKind(models.TextChoices):
    SYSTEM_OUTAGE = "system_outage", gettext_lazy("System or equipment failure")
    DRAW_IRREGULARITY = "draw_irregularity", gettext_lazy("Irregularity during a draw")
    DECK_OR_ENVELOPE = "deck_or_envelope", gettext_lazy("Problem with the deck or envelopes")
    SALES = "sales", gettext_lazy("Problem with ticket sales")
    SECURITY = "security", gettext_lazy("Security incident or unauthorised access")
    PRIZE = "prize", gettext_lazy("Prize claim or payment problem")
    OTHER = "other", gettext_lazy("Other")


class NotificationMethod(models.TextChoices):
    EMAIL = "email", gettext_lazy("Email")
    PHONE = "phone", gettext_lazy("Telephone")
    PORTAL = "portal", gettext_lazy("Registrar's online portal")
    LETTER = "letter", gettext_lazy("Letter")


class RegistrarNotification(AppendOnlyModel):
    """One issue and how the Registrar was told. Entries are never edited; a
    correction is a new entry that says what it corrects."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="registrar_notifications")
    occurred_on = models.DateField(help_text=gettext_lazy("When the issue happened."))
    kind = models.CharField(max_length=30, choices=IssueKind.choices)
    description = models.TextField()
    method = models.CharField(
        max_length=20, choices=NotificationMethod.choices, help_text=gettext_lazy("How the Registrar was notified.")
    )
    notified_at = models.DateTimeField(help_text=gettext_lazy("When the Registrar was notified."))
    reference = models.CharField(
        max_length=100, blank=True, help_text=gettext_lazy("The Registrar's file or ticket number.")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["-notified_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=IssueKind.values), name="registrar_issue_kind_valid"),
            models.CheckConstraint(condition=Q(method__in=NotificationMethod.values), name="registrar_method_valid"),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s on %(day)s") % {"kind": self.get_kind_display(), "day": f"{self.occurred_on:%Y-%m-%d}"}
