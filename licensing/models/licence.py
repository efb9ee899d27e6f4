"""Lottery licences and the authorities that issue them (RULES L2, L5, L8)."""

from decimal import Decimal

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models.organisation import Organisation

# RULES L2: a municipality or First Nation licenses paper events up to this
# prize board; the AGCO licenses everything larger and every electronic event.
LOCAL_AUTHORITY_PRIZE_BOARD_CAP = Decimal("50000.00")


class AuthorityKind(models.TextChoices):
    MUNICIPALITY = "municipality", gettext_lazy("Municipality")
    FIRST_NATION = "first_nation", gettext_lazy("First Nation")
    AGCO = "agco", gettext_lazy("AGCO")


class SalesChannel(models.TextChoices):
    PAPER_ROLL = "paper_roll", gettext_lazy("Paper roll tickets")
    PAPER_STUB = "paper_stub", gettext_lazy("Paper stub tickets")
    ELECTRONIC = "electronic", gettext_lazy("Electronic in-person")
    ONLINE = "online", gettext_lazy("Online")

    @classmethod
    def paper(cls) -> list[str]:
        return [cls.PAPER_ROLL, cls.PAPER_STUB]


class FeeCollection(models.TextChoices):
    """R:L9 when the licence fee is paid, as the licence says."""

    EACH_REPORT = "each_report", gettext_lazy("With each four-draw report")
    AT_END = "at_end", gettext_lazy("At the end, with the final report")


class LicenceStatus(models.TextChoices):
    ACTIVE = "active", gettext_lazy("Active")
    CONCLUDED = "concluded", gettext_lazy("Concluded")
    CANCELLED = "cancelled", gettext_lazy("Cancelled")


class Licence(models.Model):
    number = models.CharField(max_length=40, unique=True)
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="licences")
    authority_kind = models.CharField(max_length=20, choices=AuthorityKind.choices)
    authority_name = models.CharField(max_length=150, help_text=gettext_lazy("e.g. City of Owen Sound, or AGCO."))
    sales_channel = models.CharField(max_length=20, choices=SalesChannel.choices)
    prize_board = models.DecimalField(
        max_digits=12, decimal_places=2, help_text=gettext_lazy("The most the event may award in prizes.")
    )
    fee_rate_percent = models.DecimalField(
        max_digits=4,
        decimal_places=2,
        help_text=gettext_lazy("Licence fee as a percent of the prize board (AGCO electronic 1%, municipal up to 3%)."),
    )
    fee_collection = models.CharField(
        max_length=20,
        choices=FeeCollection.choices,
        default=FeeCollection.EACH_REPORT,
        help_text=gettext_lazy("When the fee is paid: with each four-draw report or at the end (L9)."),
    )
    issued_on = models.DateField()
    expires_on = models.DateField()
    status = models.CharField(max_length=20, choices=LicenceStatus.choices, default=LicenceStatus.ACTIVE)
    concluded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # R:D5 electronic and online raffles run on an AGCO-registered supplier's system.
    supplier_name = models.CharField(
        max_length=150,
        blank=True,
        help_text=gettext_lazy("The AGCO-registered gaming supplier of the electronic raffle system."),
    )
    supplier_registration_number = models.CharField(
        max_length=40, blank=True, help_text=gettext_lazy("The supplier's AGCO registration number.")
    )
    supplier_system_name = models.CharField(
        max_length=150, blank=True, help_text=gettext_lazy("The electronic raffle system.")
    )
    supplier_system_version = models.CharField(max_length=40, blank=True)
    system_approval_reference = models.CharField(
        max_length=120,
        blank=True,
        help_text=gettext_lazy(
            "The approval that allows this software's own RNG draw and electronic deck (D5, E4); "
            "without it the electronic draw takes the supplier's result."
        ),
    )
    system_approval_on = models.DateField(null=True, blank=True, help_text=gettext_lazy("The date of that approval."))

    class Meta:
        ordering = ["-issued_on", "number"]
        constraints = [
            models.CheckConstraint(condition=Q(prize_board__gt=0), name="licence_prize_board_positive"),
            models.CheckConstraint(
                condition=Q(fee_rate_percent__gte=0, fee_rate_percent__lte=3),
                name="licence_fee_rate_0_to_3_percent",
            ),
            models.CheckConstraint(
                condition=Q(expires_on__gt=models.F("issued_on")), name="licence_expires_after_issue"
            ),
            models.CheckConstraint(condition=Q(status__in=LicenceStatus.values), name="licence_status_valid"),
            models.CheckConstraint(
                condition=Q(authority_kind__in=AuthorityKind.values), name="licence_authority_valid"
            ),
            models.CheckConstraint(condition=Q(sales_channel__in=SalesChannel.values), name="licence_channel_valid"),
            models.CheckConstraint(
                condition=Q(system_approval_reference="", system_approval_on__isnull=True)
                | (~Q(system_approval_reference="") & Q(system_approval_on__isnull=False)),
                name="licence_system_approval_has_reference_and_date",
                violation_error_message="Record the approval's reference and its date, or neither.",
            ),
            # R:L2 a municipal or First Nation licence: paper only, prize board <= $50,000.
            models.CheckConstraint(
                condition=Q(authority_kind=AuthorityKind.AGCO)
                | Q(
                    sales_channel__in=SalesChannel.paper(),
                    prize_board__lte=LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
                ),
                name="licence_local_authority_paper_up_to_50000",
                violation_error_message=(
                    "A municipality or First Nation may license paper raffles with a prize board "
                    "of at most $50,000; anything else is licensed by the AGCO."
                ),
            ),
        ]

    def __str__(self) -> str:
        return gettext("Licence %(number)s") % {"number": self.number}

    @property
    def is_paper(self) -> bool:
        return self.sales_channel in SalesChannel.paper()

    @property
    def has_system_approval(self) -> bool:
        """R:D5 R:E4 the licence records the approval that allows this
        software's own RNG draw and electronic deck."""
        return bool(self.system_approval_reference and self.system_approval_on)

    @property
    def supplier_recorded(self) -> bool:
        return all(
            (
                self.supplier_name.strip(),
                self.supplier_registration_number.strip(),
                self.supplier_system_name.strip(),
                self.supplier_system_version.strip(),
            )
        )

    @property
    def supplier_label(self) -> str:
        """`System 4.2 of Supplier Inc. (AGCO registration 12345)`, or ''."""
        if not self.supplier_recorded:
            return ""
        return (
            f"{self.supplier_system_name} {self.supplier_system_version} of {self.supplier_name} "
            f"(AGCO registration {self.supplier_registration_number})"
        )
