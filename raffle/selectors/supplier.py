"""Reads behind the pages of a draw run on the registered supplier's system (RULES D5)."""

from dataclasses import dataclass

from raffle.models import Draw, SupplierImport, SupplierResult, SupplierSettlement


@dataclass
class SupplierDrawStatus:
    imports: list[SupplierImport]
    result: SupplierResult | None
    settlement: SupplierSettlement | None


def supplier_draw_status(draw: Draw) -> SupplierDrawStatus:
    """What the supplier's files brought into the draw so far: three queries."""
    return SupplierDrawStatus(
        imports=list(SupplierImport.objects.filter(draw=draw).order_by("imported_at")),
        result=SupplierResult.objects.filter(draw=draw).first(),
        settlement=SupplierSettlement.objects.filter(draw=draw).first(),
    )
