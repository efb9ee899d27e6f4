"""People the organisation's Rules of Play exclude from buying tickets: board
members, draw volunteers, the supplier's staff and their households."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from licensing.models.organisation import Organisation


class ExclusionReason(models.TextChoices):
    BOARD = "board", gettext_lazy("Board member")
    VOLUNTEER = "volunteer", gettext_lazy("Draw volunteer")
    SUPPLIER_STAFF = "supplier_staff", gettext_lazy("Electronic raffle supplier staff")
    HOUSEHOLD = "household", gettext_lazy("Household of an excluded person")


class ExcludedPerson(models.Model):
    """One excluded person: matched at every sale and import by name, or by
    phone or e-mail when recorded."""

    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="excluded_persons")
    full_name = models.CharField(max_length=150)
    contact = models.CharField(max_length=200, blank=True, help_text=gettext_lazy("Phone or e-mail, when known."))
    reason = models.CharField(max_length=20, choices=ExclusionReason.choices)
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    added_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["organisation", "full_name"]
        constraints = [
            models.CheckConstraint(condition=~Q(full_name=""), name="excluded_person_has_name"),
            models.CheckConstraint(condition=Q(reason__in=ExclusionReason.values), name="exclusion_reason_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.get_reason_display()})"
