"""The safety and security plan (RULES L4, L7): "control measures that will be
put in place as the progressive prize amount grows". The organisation sets
thresholds (a jackpot and the attendance it expects then) and, for each, its
measures. Every change is a new version; an application and an amendment keep
the version they were filed with."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core.money import format_money_here
from licensing.models.organisation import Organisation


class SafetyPlan(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="safety_plans")
    version = models.PositiveIntegerField()
    venue = models.CharField(max_length=200, help_text=gettext_lazy("Where the draws are held."))
    landlord_consent = models.CharField(
        max_length=300, help_text=gettext_lazy("How the landlord consented to the event.")
    )
    liquor_licence = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("If the venue has a liquor licence: the area where patrons may drink."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["organisation", "-version"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "version"], name="safety_plan_version_once"),
            models.CheckConstraint(condition=Q(version__gte=1), name="safety_plan_version_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Safety and security plan v%(version)s of %(organisation)s") % {
            "version": self.version,
            "organisation": self.organisation,
        }


class SafetyThreshold(models.Model):
    """From this jackpot on, these control measures (the guide's Step 1 and 3)."""

    plan = models.ForeignKey(SafetyPlan, on_delete=models.CASCADE, related_name="thresholds")
    jackpot_from = models.DecimalField(max_digits=12, decimal_places=2)
    expected_attendance = models.PositiveIntegerField()
    volunteers = models.PositiveIntegerField()
    police_security = models.CharField(max_length=500)
    venue_capacity = models.CharField(max_length=500, help_text=gettext_lazy("Venue capacity and the overflow plan."))
    traffic = models.CharField(
        max_length=500, help_text=gettext_lazy("How people get in and out: traffic and patrol plans.")
    )
    cash_handling = models.CharField(
        max_length=500, help_text=gettext_lazy("How ticket money is secured and transported.")
    )
    deposit_timing = models.CharField(
        max_length=500, help_text=gettext_lazy("When the money is deposited into the trust account.")
    )

    class Meta:
        ordering = ["plan", "jackpot_from"]
        constraints = [
            models.UniqueConstraint(fields=["plan", "jackpot_from"], name="safety_threshold_once"),
            models.CheckConstraint(condition=Q(jackpot_from__gte=0), name="safety_threshold_jackpot_not_negative"),
            models.CheckConstraint(condition=Q(expected_attendance__gt=0), name="safety_threshold_attendance_positive"),
        ]

    def __str__(self) -> str:
        return gettext("From %(amount)s") % {"amount": format_money_here(self.jackpot_from)}
