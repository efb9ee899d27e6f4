"""Money taken from lottery funds before it reaches the trust account, or by
the bank, that is not a cheque: card-processing fees, supplier fees and bank
charges (RULES L12). Each one carries its evidence (the supplier's settlement,
the bank statement), so a treasurer can show why the deposit is short of the
sales by exactly that much.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from licensing.models.licence import Licence

MONEY = {"max_digits": 12, "decimal_places": 2}


class DeductionKind(models.TextChoices):
    PROCESSING_FEES = "processing_fees", "Card-processing fees"
    SUPPLIER_FEES = "supplier_fees", "Electronic raffle supplier fees"
    BANK_CHARGES = "bank_charges", "Bank charges"


class Deduction(models.Model):
    """One deduction of its kind, with the document that proves it."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="deductions")
    kind = models.CharField(max_length=20, choices=DeductionKind.choices)
    deducted_on = models.DateField()
    amount = models.DecimalField(**MONEY)
    reference = models.CharField(max_length=120, help_text="The settlement or statement it was deducted on.")
    evidence = models.FileField(upload_to="deductions/%Y/", help_text="The settlement file or statement.")
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["licence", "deducted_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="deduction_amount_positive"),
            models.CheckConstraint(condition=Q(kind__in=DeductionKind.values), name="deduction_kind_valid"),
            models.CheckConstraint(condition=~Q(evidence=""), name="deduction_has_evidence"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ${self.amount:,.2f} ({self.reference})"
