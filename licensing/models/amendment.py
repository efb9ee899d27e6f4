"""Amendments of a licence's sales channel (RULES L5, L8)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from licensing.models.licence import Licence, SalesChannel

# R:L5 two weeks' written notice before the amendment takes effect.
AMENDMENT_NOTICE_DAYS = 14


class AmendmentStatus(models.TextChoices):
    REQUESTED = "requested", "Requested, awaiting approval"
    APPROVED = "approved", "Approved"


class LicenceAmendment(models.Model):
    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="amendments")
    from_channel = models.CharField(max_length=20, choices=SalesChannel.choices)
    to_channel = models.CharField(max_length=20, choices=SalesChannel.choices)
    notice_given_on = models.DateField(help_text="Day the written notice went to the AGCO.")
    effective_on = models.DateField(help_text="First day of the new channel; draws from then on.")
    status = models.CharField(max_length=20, choices=AmendmentStatus.choices, default=AmendmentStatus.REQUESTED)
    approved_on = models.DateField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["licence", "effective_on"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=AmendmentStatus.values), name="amendment_status_valid"),
            # R:L5 notice comes before the change (the service checks the two weeks).
            models.CheckConstraint(
                condition=Q(effective_on__gt=models.F("notice_given_on")), name="amendment_effective_after_notice"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.licence}: {self.get_from_channel_display()} to {self.get_to_channel_display()}"
