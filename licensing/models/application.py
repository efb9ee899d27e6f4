"""The licence application package (RULES L3, L4, L6, L7): the draw schedule
and sales plan, the document checklist and the dates that follow from them."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.checklist import ChecklistItem, DocumentKind, checklist_items
from licensing.models.licence import (
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    Licence,
    SalesChannel,
)
from licensing.models.organisation import Organisation
from licensing.models.safety_plan import SafetyPlan

# R:L6 an AGCO application takes at least six weeks.
AGCO_PROCESSING_DAYS = 42


class ApplicantKind(models.TextChoices):
    FIRST_TIME = "first_time", gettext_lazy("First-time applicant")
    RETURNING = "returning", gettext_lazy("Returning applicant")


class ApplicationStatus(models.TextChoices):
    DRAFT = "draft", gettext_lazy("Being prepared")
    SUBMITTED = "submitted", gettext_lazy("Submitted")


class Application(models.Model):
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="applications")
    applicant_kind = models.CharField(max_length=20, choices=ApplicantKind.choices)
    authority_kind = models.CharField(max_length=20, choices=AuthorityKind.choices)
    authority_name = models.CharField(max_length=150)
    sales_channel = models.CharField(max_length=20, choices=SalesChannel.choices)
    prize_board = models.DecimalField(max_digits=12, decimal_places=2)
    status = models.CharField(max_length=20, choices=ApplicationStatus.choices, default=ApplicationStatus.DRAFT)
    submitted_on = models.DateField(null=True, blank=True)
    licence = models.OneToOneField(
        Licence,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="application",
        help_text=gettext_lazy("The licence granted on this application, once recorded."),
    )
    safety_plan = models.ForeignKey(
        SafetyPlan,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="applications",
        help_text=gettext_lazy("The version of the safety and security plan filed with the application."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(prize_board__gt=0), name="application_prize_board_positive"),
            models.CheckConstraint(condition=Q(status__in=ApplicationStatus.values), name="application_status_valid"),
            models.CheckConstraint(
                condition=Q(status=ApplicationStatus.DRAFT) | Q(submitted_on__isnull=False),
                name="submitted_application_has_date",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Application of %(organisation)s (%(authority)s)") % {
            "organisation": self.organisation,
            "authority": self.get_authority_kind_display(),
        }

    @property
    def is_large(self) -> bool:
        """R:L4 a prize board over $50,000."""
        return self.prize_board > LOCAL_AUTHORITY_PRIZE_BOARD_CAP

    def checklist_items(self) -> list[ChecklistItem]:
        """R:L7 the licensing guide's checklist for this applicant, authority and channel."""
        return checklist_items(
            returning=self.applicant_kind == ApplicantKind.RETURNING,
            authority_kind=self.authority_kind,
            sales_channel=self.sales_channel,
        )

    def required_documents(self) -> list[str]:
        """The checklist items a document is attached to (or a reason given for), in the guide's order."""
        return [item.kind for item in self.checklist_items() if not item.generated]

    def earliest_start(self, today: datetime.date | None = None) -> datetime.date:
        """R:L6 the earliest realistic first draw: six weeks after submission
        for the AGCO; a municipality or First Nation sets no minimum, so the
        day of submission (ask the licensing officer how long they take)."""
        base = self.submitted_on or today or timezone.localdate()
        if self.authority_kind == AuthorityKind.AGCO:
            return base + datetime.timedelta(days=AGCO_PROCESSING_DAYS)
        return base


class PlannedDraw(models.Model):
    """One line of the draw schedule and sales plan (L3): when, and the most
    that will be sold; the prizes follow from the split."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="planned_draws")
    number = models.PositiveIntegerField()
    draw_on = models.DateField()
    max_sales = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["application", "number"]
        constraints = [
            models.UniqueConstraint(fields=["application", "number"], name="planned_draw_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="planned_draw_number_positive"),
            models.CheckConstraint(condition=Q(max_sales__gt=0), name="planned_draw_sales_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Planned draw %(number)s on %(day)s") % {
            "number": self.number,
            "day": f"{self.draw_on:%Y-%m-%d}",
        }


def _document_path(instance, filename: str) -> str:
    return f"applications/{instance.application_id}/{instance.kind}/{filename}"


class ApplicationDocument(models.Model):
    """A document of the checklist (L7), attached with the file or a reason
    (not applicable, or where the paper original is kept)."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=30, choices=DocumentKind.choices)
    file = models.FileField(upload_to=_document_path, blank=True)
    note = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy(
            "Why there is no file, e.g. not registered with the CRA; original in the binder, tab 3."
        ),
    )
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    attached_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["application", "kind"]
        constraints = [
            models.UniqueConstraint(fields=["application", "kind"], name="one_document_per_kind"),
            models.CheckConstraint(condition=~Q(file="") | ~Q(note=""), name="document_has_file_or_note"),
        ]

    def __str__(self) -> str:
        return self.get_kind_display()

    @property
    def filename(self) -> str:
        return self.file.name.rsplit("/", 1)[-1] if self.file else ""


class ApplicationSigner(models.Model):
    """A Licence Application signer: signs the package, initials changes
    before it is submitted and signs every written change after."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="signers")
    name = models.CharField(max_length=150)
    title = models.CharField(max_length=150, help_text=gettext_lazy("e.g. President, Treasurer."))
    date_of_birth = models.DateField(
        null=True, blank=True, help_text=gettext_lazy("Recorded before they sign: signers are 18 or over (L13).")
    )
    position = models.PositiveIntegerField(default=1)

    class Meta:
        ordering = ["application", "position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["application", "name"], name="application_signer_once"),
        ]

    def __str__(self) -> str:
        return f"{self.name}, {self.title}"
