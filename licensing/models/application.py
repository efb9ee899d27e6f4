"""The licence application package (RULES L3, L4, L6, L7): the draw schedule
and sales plan, the document checklist and the dates that follow from them."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from licensing.models.licence import (
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    Licence,
    SalesChannel,
)
from licensing.models.organisation import Organisation

# R:L6 an AGCO application takes at least six weeks.
AGCO_PROCESSING_DAYS = 42


class ApplicantKind(models.TextChoices):
    FIRST_TIME = "first_time", "First-time applicant"
    RETURNING = "returning", "Returning applicant"


class ApplicationStatus(models.TextChoices):
    DRAFT = "draft", "Being prepared"
    SUBMITTED = "submitted", "Submitted"


class DocumentKind(models.TextChoices):
    INCORPORATION = "incorporation", "Letters patent or other incorporation documents"
    OBJECTS = "objects", "Objects and charitable purposes (constitution or by-laws)"
    CHARITY_PROOF = "charity_proof", "Proof of charitable status (CRA registration letter)"
    FINANCIAL_STATEMENTS = "financial_statements", "Financial statements of the last fiscal year"
    PROGRAM_DESCRIPTION = "program_description", "Description of charitable programs and services"
    OFFICERS = "officers", "List of officers and directors"
    MEMBERS_IN_CHARGE = "members_in_charge", "Bona fide members in charge of the lottery (two, 18 or over)"
    TRUST_ACCOUNT = "trust_account", "Lottery trust account details (bank letter)"
    RULES_OF_PLAY = "rules_of_play", "Rules of Play"
    SCHEDULE = "schedule", "Draw schedule and sales plan"
    TICKET_SAMPLE = "ticket_sample", "Sample ticket"
    PREVIOUS_REPORT = "previous_report", "Financial report of the previous licence"
    USE_OF_PROCEEDS = "use_of_proceeds", "Use of proceeds of the previous licence"
    MUNICIPAL_NOTIFICATION = "municipal_notification", "Written notice to the municipality, copied to the AGCO"
    SAFETY_PLAN = "safety_plan", "Safety and security plan"


# R:L7 the checklist: which documents each kind of applicant files.
COMMON_DOCUMENTS = [
    DocumentKind.FINANCIAL_STATEMENTS,
    DocumentKind.OFFICERS,
    DocumentKind.MEMBERS_IN_CHARGE,
    DocumentKind.TRUST_ACCOUNT,
    DocumentKind.RULES_OF_PLAY,
    DocumentKind.SCHEDULE,
    DocumentKind.TICKET_SAMPLE,
]
FIRST_TIME_DOCUMENTS = [
    DocumentKind.INCORPORATION,
    DocumentKind.OBJECTS,
    DocumentKind.CHARITY_PROOF,
    DocumentKind.PROGRAM_DESCRIPTION,
    *COMMON_DOCUMENTS,
]
RETURNING_DOCUMENTS = [*COMMON_DOCUMENTS, DocumentKind.PREVIOUS_REPORT, DocumentKind.USE_OF_PROCEEDS]
# R:L4 over $50,000: the municipality is notified and a safety and security plan filed.
LARGE_PRIZE_BOARD_DOCUMENTS = [DocumentKind.MUNICIPAL_NOTIFICATION, DocumentKind.SAFETY_PLAN]


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
        help_text="The licence granted on this application, once recorded.",
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
        return f"Application of {self.organisation} ({self.get_authority_kind_display()})"

    @property
    def is_large(self) -> bool:
        """R:L4 a prize board over $50,000."""
        return self.prize_board > LOCAL_AUTHORITY_PRIZE_BOARD_CAP

    def required_documents(self) -> list[str]:
        kinds = FIRST_TIME_DOCUMENTS if self.applicant_kind == ApplicantKind.FIRST_TIME else RETURNING_DOCUMENTS
        return [*kinds, *(LARGE_PRIZE_BOARD_DOCUMENTS if self.is_large else [])]

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
        return f"Planned draw {self.number} on {self.draw_on:%Y-%m-%d}"


def _document_path(instance, filename: str) -> str:
    return f"applications/{instance.application_id}/{instance.kind}/{filename}"


class ApplicationDocument(models.Model):
    """A document of the checklist (L7), attached with the file or a note of
    where the paper original is kept."""

    application = models.ForeignKey(Application, on_delete=models.CASCADE, related_name="documents")
    kind = models.CharField(max_length=30, choices=DocumentKind.choices)
    file = models.FileField(upload_to=_document_path, blank=True)
    note = models.CharField(max_length=300, blank=True, help_text="e.g. original in the binder, tab 3.")
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
