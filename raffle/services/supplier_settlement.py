"""The supplier's settlement file checked against the draw and the trust
account before it is imported (RULES L12): once per draw, its gross equal to
the draw's imported sales, its net on a recorded deposit slip with room left."""

from django.db.models import Sum
from django.utils.translation import gettext

from core.money import ZERO, format_money_here
from licensing.models import Deposit
from raffle.models import DepositCoverage, Draw, Sale, SupplierSettlement
from raffle.services.supplier_formats import ImportRefused
from raffle.services.supplier_parse import ParsedSales, ParsedSettlement


def check_settlement(draw: Draw, settlement: ParsedSettlement, sales: ParsedSales | None) -> Deposit:
    where = {"file": settlement.file, "line": settlement.line}
    if SupplierSettlement.objects.filter(draw=draw).exists():
        raise ImportRefused(
            **where,
            column="",
            problem=gettext("draw %(number)s's settlement is already imported.") % {"number": draw.number},
        )
    before = (
        Sale.objects.filter(draw=draw, voided_at__isnull=True)
        .exclude(supplier_order="")
        .aggregate(s=Sum("amount"))["s"]
        or ZERO
    )
    imported = before + sum((g.amount for g in (sales.valid_groups if sales else [])), ZERO)
    if settlement.gross != imported:  # R:L12
        raise ImportRefused(
            **where,
            column="gross",
            problem=gettext(
                "the settlement's gross is %(gross)s but draw %(number)s's imported sales are %(imported)s."
            )
            % {
                "gross": format_money_here(settlement.gross),
                "number": draw.number,
                "imported": format_money_here(imported),
            },
            rule="L12",
        )
    deposit = (
        Deposit.objects.select_for_update()
        .filter(account__licence_id=draw.event.licence_id, slip_number=settlement.deposit_reference)
        .first()
    )
    if deposit is None:
        raise ImportRefused(
            **where,
            column="deposit_reference",
            problem=gettext(
                "no deposit slip %(deposit_reference)s is recorded in the trust account; record the "
                "supplier's deposit first."
            )
            % {"deposit_reference": settlement.deposit_reference},
            rule="L12",
        )
    allocated = DepositCoverage.objects.filter(deposit=deposit).aggregate(s=Sum("amount"))["s"] or ZERO
    if settlement.net_deposited > deposit.amount - allocated:
        raise ImportRefused(
            **where,
            column="net_deposited",
            problem=gettext(
                "the net %(net_deposited)s is more than what is left of slip %(slip_number)s (%(value)s of %(amount)s)."
            )
            % {
                "net_deposited": format_money_here(settlement.net_deposited),
                "slip_number": deposit.slip_number,
                "value": format_money_here(deposit.amount - allocated),
                "amount": format_money_here(deposit.amount),
            },
            rule="L12",
        )
    return deposit
