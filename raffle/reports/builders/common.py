"""What both reports share: the split's totals, copies of slips and cheques
to annex, the members who sign, and the Registrar issues as rows
(RULES L9, L13, R1, R2, D6)."""

import base64
import pathlib
from dataclasses import dataclass
from decimal import Decimal

from core.money import ZERO
from licensing.models import BonaFideMember
from raffle.models import RegistrarNotification

IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


@dataclass
class Totals:
    ticket_sales: Decimal = ZERO
    draw_prizes: Decimal = ZERO
    jackpot_contributions: Decimal = ZERO
    licensee_shares: Decimal = ZERO
    tickets_sold: int = 0
    void_count: int = 0

    @property
    def prize_board(self) -> Decimal:
        """R:L9 the prizes the draws created: 20% draw prizes + 30% jackpot allocations."""
        return self.draw_prizes + self.jackpot_contributions


def totals_of(draws, lines=()) -> Totals:
    t = Totals()
    for d in draws:
        t.ticket_sales += d.ticket_sales or ZERO
        t.draw_prizes += d.draw_prize or ZERO
        t.jackpot_contributions += d.jackpot_contribution or ZERO
        t.licensee_shares += d.licensee_share or ZERO
    for line in lines:
        t.tickets_sold += line.tickets_sold or 0
        t.void_count += line.void_count or 0
    return t


def image_uri(file_field) -> str:
    """A scan as a data: URI for the PDF (no network or disk fetch from a
    report); empty when there is none, it is not an image, or it is missing."""
    if not file_field:
        return ""
    kind = IMAGE_TYPES.get(pathlib.PurePath(file_field.name).suffix.lower())
    if not kind:
        return ""
    try:
        with file_field.open("rb") as handle:
            return f"data:{kind};base64,{base64.b64encode(handle.read()).decode()}"
    except OSError:
        return ""  # the file is missing from storage: the report says so


@dataclass
class SlipCopy:
    """A deposit slip for the reports: its scan inline when it is an image (R2)."""

    deposit: object
    image_uri: str = ""

    @property
    def has_scan(self) -> bool:
        return bool(self.deposit.slip_scan)

    @property
    def draws_covered(self) -> str:
        """The draw numbers whose sales this slip holds (L12), from the prefetched coverage."""
        return ", ".join(str(cover.draw.number) for cover in self.deposit.coverage.all())


def slip_copies(deposits) -> list[SlipCopy]:
    return [SlipCopy(deposit=d, image_uri=image_uri(d.slip_scan)) for d in deposits]


@dataclass
class ChequeCopy:
    """A prize or expense cheque with its scan, for the four-draw report's annex (R1)."""

    what: str
    reference: str
    paid_on: object
    payee: str
    amount: Decimal
    image_uri: str = ""
    has_scan: bool = False


def cheque_copies(payments, expenses) -> list[ChequeCopy]:
    copies = [
        ChequeCopy(
            f"{p.get_kind_display()} of draw {p.draw.number}",
            p.reference,
            p.paid_on,
            p.payee,
            p.amount,
            image_uri(p.cheque_image),
            bool(p.cheque_image),
        )
        for p in payments
        if p.method == "cheque"
    ]
    copies += [
        ChequeCopy(
            e.description, e.reference, e.paid_on, e.payee, e.amount, image_uri(e.cheque_image), bool(e.cheque_image)
        )
        for e in expenses
        if e.method == "cheque"
    ]
    return copies


def members_in_charge(licence) -> list[BonaFideMember]:
    """R:L13 the bona fide members in charge who sign the report (two lines at least, blank when unnamed)."""
    return list(
        BonaFideMember.objects.filter(organisation_id=licence.organisation_id, is_in_charge=True, is_active=True)
        .order_by("full_name")
        .only("full_name")[:2]
    )


@dataclass
class ComplianceRow:
    """R:D6 one issue notified to the Registrar: what, when it happened, when notified, reference."""

    description: str
    kind: str
    occurred_on: object
    notified_at: object
    method: str
    reference: str


def compliance_rows(event) -> list[ComplianceRow]:
    return [
        ComplianceRow(
            n.description, n.get_kind_display(), n.occurred_on, n.notified_at, n.get_method_display(), n.reference
        )
        for n in RegistrarNotification.objects.filter(event=event).order_by("occurred_on", "pk")
    ]
