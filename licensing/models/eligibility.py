"""Whether an organisation may hold a lottery licence at all (RULES L1), with
the evidence the licensing officer will ask for."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models.organisation import Organisation

# R:L1 at least one year of charitable activity before applying.
MIN_CHARITABLE_ACTIVITY_DAYS = 365


class CharitablePurpose(models.TextChoices):
    RELIEF_OF_POVERTY = "relief_of_poverty", gettext_lazy("Relieving poverty")
    EDUCATION = "education", gettext_lazy("Advancing education")
    RELIGION = "religion", gettext_lazy("Advancing religion")
    COMMUNITY = "community", gettext_lazy("Benefiting the community")
    PRIVATE_INTEREST = "private_interest", gettext_lazy("Serving members' private interests (not eligible)")

    @classmethod
    def eligible(cls) -> list[str]:
        return [cls.RELIEF_OF_POVERTY, cls.EDUCATION, cls.RELIGION, cls.COMMUNITY]


class Eligibility(models.Model):
    """The L1 assessment of one organisation. Each condition carries the
    evidence it rests on (a letters-patent number, a CRA letter, an address,
    annual reports...)."""

    organisation = models.OneToOneField(Organisation, on_delete=models.PROTECT, related_name="eligibility")
    is_non_profit = models.BooleanField(default=False)
    non_profit_evidence = models.CharField(
        max_length=300, blank=True, help_text=gettext_lazy("e.g. letters patent no. 1234567, CRA registration letter.")
    )
    located_in_ontario = models.BooleanField(default=False)
    location_evidence = models.CharField(
        max_length=300, blank=True, help_text=gettext_lazy("e.g. head office address, property tax bill.")
    )
    charitable_activity_since = models.DateField(
        null=True, blank=True, help_text=gettext_lazy("When the organisation began its charitable work.")
    )
    activity_evidence = models.CharField(
        max_length=300, blank=True, help_text=gettext_lazy("e.g. annual reports 2024 and 2025, financial statements.")
    )
    purpose = models.CharField(max_length=30, choices=CharitablePurpose.choices, blank=True)
    purpose_description = models.TextField(
        blank=True, help_text=gettext_lazy("What the organisation does, in its own words (its objects).")
    )
    assessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    assessed_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "eligibility assessments"
        constraints = [
            models.CheckConstraint(
                condition=Q(purpose="") | Q(purpose__in=CharitablePurpose.values),
                name="eligibility_purpose_valid",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Eligibility of %(organisation)s") % {"organisation": self.organisation}

    def problems(self, today: datetime.date | None = None) -> list[str]:
        """What stands between the organisation and a licence, in plain words;
        empty when it is eligible (R:L1)."""
        today = today or timezone.localdate()
        found = []
        if not self.is_non_profit or not self.non_profit_evidence.strip():
            found.append(gettext("it must be a non-profit organisation, with evidence (e.g. letters patent)"))
        if not self.located_in_ontario or not self.location_evidence.strip():
            found.append(gettext("it must be located in Ontario, with evidence (e.g. its head office address)"))
        if self.charitable_activity_since is None or not self.activity_evidence.strip():
            found.append(gettext("it needs at least one year of charitable activity, with evidence"))
        elif (today - self.charitable_activity_since).days < MIN_CHARITABLE_ACTIVITY_DAYS:
            ready = self.charitable_activity_since + datetime.timedelta(days=MIN_CHARITABLE_ACTIVITY_DAYS)
            found.append(
                gettext("it needs at least one year of charitable activity (it will have one on %(day)s)")
                % {"day": f"{ready:%Y-%m-%d}"}
            )
        if self.purpose == CharitablePurpose.PRIVATE_INTEREST:
            found.append(gettext("a group serving its members' private interests is not eligible"))
        elif self.purpose not in CharitablePurpose.eligible():
            found.append(
                gettext(
                    "its purpose must be relieving poverty, advancing education or religion, or benefiting the "
                    "community"
                )
            )
        return found

    def is_eligible(self, today: datetime.date | None = None) -> bool:
        return not self.problems(today)
