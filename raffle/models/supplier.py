"""What an AGCO-registered supplier's electronic raffle system sends back for
a draw (RULES D5): the import of its sales, its winning-ticket selection and
its settlement, net of card-processing and supplier fees (L12).

The sales themselves become ordinary `Sale` and `Ticket` rows (T3 holds across
paper and imported tickets alike); these rows record the files they came
from, with their SHA-256, who imported them and when.
"""

from dataclasses import dataclass

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from licensing.models import Deposit
from raffle.models.draw import Draw
from raffle.models.event import money_field


class SupplierImport(models.Model):
    """One all-or-nothing import of a draw's supplier files."""

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="supplier_imports")
    files = models.JSONField(default=dict, help_text=gettext_lazy("Each file's name and SHA-256, by kind."))
    sales_rows = models.PositiveIntegerField(default=0)
    tickets_sold = models.PositiveIntegerField(default=0)
    tickets_void = models.PositiveIntegerField(default=0)
    sales_amount = money_field(default=0)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    imported_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["draw", "imported_at"]

    def __str__(self) -> str:
        return gettext("Supplier import %(pk)s for %(draw)s") % {"pk": self.pk, "draw": self.draw}


class SupplierResult(models.Model):
    """R:D5 the winning ticket the supplier's system drew, with its RNG
    reference, waiting for the draw-night wizard to record it."""

    draw = models.OneToOneField(Draw, on_delete=models.PROTECT, related_name="supplier_result")
    supplier_import = models.ForeignKey(SupplierImport, on_delete=models.PROTECT, related_name="+")
    winning_ticket_number = models.CharField(max_length=40)
    drawn_at = models.DateTimeField()
    rng_reference = models.CharField(max_length=120)

    def __str__(self) -> str:
        return gettext("%(draw)s: supplier drew %(number)s") % {"draw": self.draw, "number": self.winning_ticket_number}


class SupplierSettlement(models.Model):
    """R:L12 the supplier's settlement of a draw: the gross sales, the fees it
    kept before depositing (card-processing and supplier fees, each a
    deduction of its kind, not a cheque, with this settlement file as its
    evidence) and the net it deposited into the trust account."""

    draw = models.OneToOneField(Draw, on_delete=models.PROTECT, related_name="supplier_settlement")
    supplier_import = models.ForeignKey(SupplierImport, on_delete=models.PROTECT, related_name="+")
    settlement_date = models.DateField()
    gross = money_field()
    processing_fees = money_field()
    supplier_fees = money_field()
    net_deposited = money_field()
    deposit_reference = models.CharField(max_length=40)
    deposit = models.ForeignKey(Deposit, on_delete=models.PROTECT, related_name="+")
    evidence = models.FileField(
        upload_to="settlements/%Y/", help_text=gettext_lazy("The settlement file as the supplier sent it.")
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(gross=F("processing_fees") + F("supplier_fees") + F("net_deposited")),
                name="settlement_gross_is_fees_plus_net",
            ),
            models.CheckConstraint(
                condition=Q(processing_fees__gte=0, supplier_fees__gte=0, net_deposited__gte=0),
                name="settlement_amounts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Settlement of %(draw)s (%(day)s)") % {
            "draw": self.draw,
            "day": f"{self.settlement_date:%Y-%m-%d}",
        }

    @property
    def fees(self):
        return self.processing_fees + self.supplier_fees

    @property
    def deductions(self) -> list["SettlementDeduction"]:
        """The fees as deductions of their kind, for the reports."""
        reference = f"Supplier settlement of draw {self.draw.number} ({self.settlement_date:%Y-%m-%d})"
        return [
            SettlementDeduction(kind, label, self.settlement_date, amount, reference)
            for kind, label, amount in (
                ("processing_fees", "Card-processing fees", self.processing_fees),
                ("supplier_fees", "Electronic raffle supplier fees", self.supplier_fees),
            )
            if amount
        ]


@dataclass(frozen=True)
class SettlementDeduction:
    kind: str
    label: str
    deducted_on: object
    amount: object
    reference: str
