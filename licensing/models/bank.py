"""What the bank says about the trust account: interest it credits, and the
statements it sends, imported line by line (RULES L10, L12).

Matching a statement's lines to the ledger is a read (`raffle.reports.trust_ledger`):
nothing about a match is stored, so a corrected entry re-matches by itself.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models.treasury import MONEY, TrustAccount


class InterestCredit(models.Model):
    """Interest the bank paid into the trust account: lottery money, reported in the final report (R2)."""

    account = models.ForeignKey(TrustAccount, on_delete=models.PROTECT, related_name="interest_credits")
    credited_on = models.DateField()
    amount = models.DecimalField(**MONEY)
    evidence_reference = models.CharField(
        max_length=120, help_text=gettext_lazy("The statement that shows the credit.")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["account", "credited_on", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="interest_amount_positive"),
            models.CheckConstraint(condition=~Q(evidence_reference=""), name="interest_names_its_statement"),
        ]

    def __str__(self) -> str:
        return gettext("Interest of %(day)s") % {"day": f"{self.credited_on:%Y-%m-%d}"}


class BankStatement(models.Model):
    """One statement of the trust account as the bank exported it (CSV)."""

    account = models.ForeignKey(TrustAccount, on_delete=models.PROTECT, related_name="statements")
    first_day = models.DateField()
    last_day = models.DateField()
    opening_balance = models.DecimalField(max_digits=12, decimal_places=2)
    closing_balance = models.DecimalField(max_digits=12, decimal_places=2)
    file_name = models.CharField(max_length=200, blank=True)
    sha256 = models.CharField(max_length=64)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    imported_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["account", "last_day", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["account", "sha256"], name="bank_statement_imported_once"),
            models.CheckConstraint(condition=Q(last_day__gte=models.F("first_day")), name="statement_days_in_order"),
        ]

    def __str__(self) -> str:
        return gettext("Statement %(first)s to %(last)s") % {
            "first": f"{self.first_day:%Y-%m-%d}",
            "last": f"{self.last_day:%Y-%m-%d}",
        }


class BankStatementLine(models.Model):
    """One line of a statement: date, description, signed amount, running balance."""

    statement = models.ForeignKey(BankStatement, on_delete=models.PROTECT, related_name="lines")
    line_number = models.PositiveIntegerField(help_text=gettext_lazy("Its row in the file, the header being row 1."))
    posted_on = models.DateField()
    description = models.CharField(max_length=300)
    amount = models.DecimalField(
        max_digits=12, decimal_places=2, help_text=gettext_lazy("Credits positive, debits negative.")
    )
    balance = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["statement", "line_number"]
        constraints = [
            models.UniqueConstraint(fields=["statement", "line_number"], name="statement_line_once"),
            models.CheckConstraint(condition=~Q(amount=0), name="statement_line_moves_money"),
        ]

    def __str__(self) -> str:
        return f"{self.posted_on:%Y-%m-%d} {self.description} {self.amount}"
