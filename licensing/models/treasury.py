"""The lottery trust account and what moves through it (RULES L9, L10, L11, L12).

Everything here is about money and the regulator, none of it about draws:
the links from a deposit to the draws it covers, and the prize payments of a
draw, live in `raffle.models.payments` (licensing never imports raffle).
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models.licence import Licence
from licensing.models.organisation import BonaFideMember

MONEY = {"max_digits": 12, "decimal_places": 2}


class TrustAccount(models.Model):
    """R:L10 the separate lottery trust account that holds every dollar of the event."""

    licence = models.OneToOneField(Licence, on_delete=models.PROTECT, related_name="trust_account")
    bank_name = models.CharField(max_length=150)
    branch = models.CharField(max_length=150, blank=True)
    account_number = models.CharField(max_length=40, help_text=gettext_lazy("As printed on the cheques."))
    opened_on = models.DateField()
    deposit_within_days = models.PositiveSmallIntegerField(
        default=3,
        help_text=gettext_lazy(
            "A draw's sales deposited later than this many days after the draw are flagged late (L12)."
        ),
    )
    signing_officers = models.ManyToManyField(BonaFideMember, related_name="trust_accounts_signed")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    def __str__(self) -> str:
        return gettext("Trust account %(bank)s %(number)s") % {"bank": self.bank_name, "number": self.account_number}


class Deposit(models.Model):
    """One deposit slip into the trust account (L12: lottery money only)."""

    account = models.ForeignKey(TrustAccount, on_delete=models.PROTECT, related_name="deposits")
    slip_number = models.CharField(max_length=40)
    deposited_on = models.DateField()
    amount = models.DecimalField(**MONEY)
    slip_scan = models.FileField(
        upload_to="deposit_slips/%Y/",
        blank=True,
        help_text=gettext_lazy("A scan or photo of the stamped deposit slip (R2)."),
    )
    note = models.CharField(max_length=200, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["account", "deposited_on", "slip_number"]
        constraints = [
            models.UniqueConstraint(fields=["account", "slip_number"], name="deposit_slip_once_per_account"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="deposit_amount_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Deposit slip %(number)s") % {"number": self.slip_number}


class ApprovedUse(models.Model):
    """R:L11 a use of net proceeds approved for the licence: listed at
    application, or added by an amendment with its written approval."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="approved_uses")
    description = models.CharField(max_length=200)
    approved_on = models.DateField(help_text=gettext_lazy("The date of the written approval (or of the licence)."))
    is_amendment = models.BooleanField(default=False)
    approval_reference = models.CharField(
        max_length=120, blank=True, help_text=gettext_lazy("The regulator's letter or e-mail approving an amendment.")
    )
    approval_document = models.FileField(upload_to="approvals/%Y/", blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["licence", "approved_on", "description"]
        constraints = [
            models.UniqueConstraint(fields=["licence", "description"], name="approved_use_once_per_licence"),
            models.CheckConstraint(
                condition=Q(is_amendment=False) | ~Q(approval_reference=""),
                name="amendment_has_written_approval",
            ),
        ]

    def __str__(self) -> str:
        return self.description


class ExpenseKind(models.TextChoices):
    EXPENSE = "expense", gettext_lazy("Expense of running the lottery")
    PROCEEDS_USE = "proceeds_use", gettext_lazy("Use of net proceeds")


class PaymentMethod(models.TextChoices):
    """L12 withdrawals from the trust account by cheque; P3 prizes by cheque or e-transfer."""

    CHEQUE = "cheque", gettext_lazy("Cheque")
    ELECTRONIC = "electronic", gettext_lazy("Electronic transfer")


class ExpenseCategory(models.TextChoices):
    """How the final report groups the expenses (R2)."""

    LICENCE_FEE = "licence_fee", gettext_lazy("Licence fees")
    ADVERTISING = "advertising", gettext_lazy("Advertising")
    PRINTING = "printing", gettext_lazy("Printing")
    SUPPLIER_FEE = "supplier_fee", gettext_lazy("Supplier fees")
    PROCESSING_FEE = "processing_fee", gettext_lazy("Card-processing fees")
    BANK_CHARGE = "bank_charge", gettext_lazy("Bank charges")
    OTHER = "other", gettext_lazy("Other")


# R:L12 the only money that may leave the trust account other than by cheque:
# what the bank or a registered supplier deducts itself, each with its evidence.
DEDUCTION_CATEGORIES = (ExpenseCategory.BANK_CHARGE, ExpenseCategory.PROCESSING_FEE, ExpenseCategory.SUPPLIER_FEE)


class ExpenseMethod(models.TextChoices):
    CHEQUE = "cheque", gettext_lazy("Cheque")
    ELECTRONIC = "electronic", gettext_lazy("Electronic transfer")
    DEDUCTION = "deduction", gettext_lazy("Deducted by the bank or supplier")


class Expense(models.Model):
    """Money out of the trust account that is not a prize: expenses paid from
    the licensee's share, and spending of net proceeds on an approved use.
    Paid by cheque (L12), or deducted by the bank or supplier with the
    statement or settlement that shows it (`evidence_reference`)."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="expenses")
    kind = models.CharField(max_length=20, choices=ExpenseKind.choices)
    approved_use = models.ForeignKey(
        ApprovedUse, null=True, blank=True, on_delete=models.PROTECT, related_name="spending"
    )
    paid_on = models.DateField()
    amount = models.DecimalField(**MONEY)
    payee = models.CharField(max_length=150)
    description = models.CharField(max_length=200)
    category = models.CharField(max_length=20, choices=ExpenseCategory.choices, default=ExpenseCategory.OTHER)
    method = models.CharField(max_length=20, choices=ExpenseMethod.choices, default=ExpenseMethod.CHEQUE)
    reference = models.CharField(max_length=60, help_text=gettext_lazy("Cheque number or transfer reference."))
    cheque_image = models.FileField(
        upload_to="cheques/%Y/",
        blank=True,
        help_text=gettext_lazy("A scan of the cheque, annexed to the four-draw report (R1)."),
    )
    evidence_reference = models.CharField(
        max_length=120,
        blank=True,
        help_text=gettext_lazy("The bank statement line or supplier settlement showing a deduction."),
    )
    evidence = models.FileField(upload_to="deductions/%Y/", blank=True)
    fee_period = models.PositiveIntegerField(
        null=True, blank=True, help_text=gettext_lazy("For a licence fee: the four-draw period k it pays (L9).")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["licence", "paid_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(category__in=ExpenseCategory.values), name="expense_category_valid"),
            models.CheckConstraint(
                condition=Q(fee_period__isnull=True) | Q(category=ExpenseCategory.LICENCE_FEE),
                name="only_a_licence_fee_names_its_period",
            ),
            # R:L12 a deduction is a bank charge, processing or supplier fee, and names its evidence.
            models.CheckConstraint(
                condition=~Q(method=ExpenseMethod.DEDUCTION)
                | (
                    Q(kind=ExpenseKind.EXPENSE)
                    & Q(category__in=[c.value for c in DEDUCTION_CATEGORIES])
                    & ~Q(evidence_reference="")
                ),
                name="deduction_is_a_fee_with_evidence",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="expense_amount_positive"),
            models.CheckConstraint(condition=Q(kind__in=ExpenseKind.values), name="expense_kind_valid"),
            # R:L11 spending net proceeds names the approved use it goes to.
            models.CheckConstraint(
                condition=Q(kind=ExpenseKind.EXPENSE) | Q(approved_use__isnull=False),
                name="proceeds_use_names_approved_use",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()}: {self.description}"


class ReportKind(models.TextChoices):
    FOUR_DRAW = "four_draw", gettext_lazy("Four-draw report")
    FINAL = "final", gettext_lazy("Final report")
    LEDGER = "ledger", gettext_lazy("Draw ledger")


class IssuedReport(models.Model):
    """A report as it was generated and sent: the file, its SHA-256, who and when."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="issued_reports")
    kind = models.CharField(max_length=20, choices=ReportKind.choices)
    period = models.PositiveIntegerField(null=True, blank=True, help_text=gettext_lazy("k for draws 4k-3 to 4k."))
    file_format = models.CharField(max_length=4, choices=[("pdf", "PDF"), ("csv", "CSV")])
    file = models.FileField(upload_to="reports/%Y/")
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    fee = models.DecimalField(null=True, blank=True, **MONEY)
    due_on = models.DateField(null=True, blank=True)
    generated_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    generated_at = models.DateTimeField(default=timezone.now)
    # The audit anchor printed on the report (core.audit.chain_head): the
    # organisation's newest audit entry and its hash when it was generated.
    # `verify_audit` checks that the trail still holds it.
    anchor_entry_id = models.BigIntegerField(null=True, blank=True)
    anchor_hash = models.CharField(max_length=64, blank=True)
    anchor_chain = models.PositiveBigIntegerField(null=True, blank=True)
    anchor_seq = models.PositiveBigIntegerField(null=True, blank=True)
    # R:R1 R:R2 a report the licensing officer sent back is corrected and filed
    # again as a new version that replaces it; the returned one is kept as sent.
    version = models.PositiveIntegerField(default=1)
    replaces = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="replaced_by")

    class Meta:
        ordering = ["licence", "-generated_at"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=ReportKind.values), name="report_kind_valid"),
            models.CheckConstraint(
                condition=~Q(kind=ReportKind.FOUR_DRAW) | Q(period__gte=1), name="four_draw_report_has_period"
            ),
            models.UniqueConstraint(
                fields=["licence", "kind", "period", "file_format", "version"],
                nulls_distinct=False,
                name="issued_report_version_once",
            ),
            models.CheckConstraint(
                condition=Q(version=1, replaces__isnull=True) | Q(version__gt=1, replaces__isnull=False),
                name="issued_report_later_version_replaces",
            ),
        ]

    def __str__(self) -> str:
        period = f" {self.period}" if self.period else ""
        version = f", version {self.version}" if self.version > 1 else ""
        return (
            f"{self.get_kind_display()}{period} ({self.file_format.upper()}{version}, "
            f"{self.generated_at:%Y-%m-%d %H:%M})"
        )


class DonatedPrize(models.Model):
    """R:R2 a prize given to the event: shown in the final report at its value
    and NOT deducted from gross receipts."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="donated_prizes")
    description = models.CharField(max_length=200)
    donor = models.CharField(max_length=150)
    value = models.DecimalField(**MONEY, help_text=gettext_lazy("Fair market value."))
    received_on = models.DateField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["licence", "received_on", "pk"]
        constraints = [models.CheckConstraint(condition=Q(value__gt=0), name="donated_prize_value_positive")]

    def __str__(self) -> str:
        return gettext("%(description)s (donated by %(donor)s)") % {
            "description": self.description,
            "donor": self.donor,
        }
