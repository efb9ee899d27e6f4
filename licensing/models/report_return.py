"""A report the licensing officer sent back (RULES R1, R2): who returned
which issued version, when, for what reasons, and by when the corrected
report is due. Kept as recorded (append-only); the corrected report is a new
version of the issued report that replaces the returned one, which is kept."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy

from licensing.models.treasury import IssuedReport


class ReportReturn(models.Model):
    report = models.OneToOneField(IssuedReport, on_delete=models.PROTECT, related_name="return_record")
    returned_on = models.DateField(help_text=gettext_lazy("Day the licensing officer sent the report back."))
    returned_by = models.CharField(max_length=150, help_text=gettext_lazy("The licensing officer and their office."))
    reasons = models.TextField(
        help_text=gettext_lazy("What the officer asked to be corrected or added, in their words.")
    )
    reference = models.CharField(
        max_length=100, blank=True, help_text=gettext_lazy("The officer's letter or e-mail reference.")
    )
    refile_by = models.DateField(
        null=True, blank=True, help_text=gettext_lazy("The day the corrected report is due, if given.")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["report", "returned_on"]
        constraints = [
            models.CheckConstraint(condition=~Q(reasons=""), name="report_return_has_reasons"),
            models.CheckConstraint(condition=~Q(returned_by=""), name="report_return_names_officer"),
            models.CheckConstraint(
                condition=Q(refile_by__isnull=True) | Q(refile_by__gte=models.F("returned_on")),
                name="report_return_refile_after_return",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.report} returned on {self.returned_on:%Y-%m-%d} by {self.returned_by}"
