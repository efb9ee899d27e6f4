"""Requests for an audited financial statement (RULES R3): the Registrar may
ask for one, and it is due within 120 days of the request."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models.licence import Licence

AUDITED_STATEMENT_DUE_DAYS = 120  # R:R3


class AuditedStatementRequest(models.Model):
    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="audited_statement_requests")
    requested_on = models.DateField(help_text=gettext_lazy("The date of the Registrar's written request."))
    requested_by = models.CharField(max_length=150, help_text=gettext_lazy("Who asked, e.g. the AGCO Registrar."))
    reference = models.CharField(max_length=100, blank=True, help_text=gettext_lazy("The request's reference, if any."))
    delivered_on = models.DateField(null=True, blank=True)
    audited_by = models.CharField(
        max_length=150, blank=True, help_text=gettext_lazy("The public accountant who audited it.")
    )
    delivery_reference = models.CharField(max_length=100, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-requested_on"]
        constraints = [
            models.CheckConstraint(
                condition=Q(delivered_on__isnull=True) | Q(delivered_on__gte=F("requested_on")),
                name="audited_statement_delivered_after_request",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Audited statement for licence %(number)s, requested %(day)s") % {
            "number": self.licence.number,
            "day": self.requested_on,
        }

    @property
    def due_on(self) -> datetime.date:
        return self.requested_on + datetime.timedelta(days=AUDITED_STATEMENT_DUE_DAYS)
