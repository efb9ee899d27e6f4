"""What both reports share: the split's totals, copies of slips and cheques
to annex, the members who sign, and the Registrar issues as rows
(RULES L9, L13, R1, R2, D6)."""

from dataclasses import dataclass
from decimal import Decimal

from core.money import ZERO
from licensing.models import BonaFideMember
from licensing.services.members import adults_in_charge
from raffle.models import RegistrarNotification
from raffle.reports.slips import SlipCopy, image_uri, slip_copies  # noqa: F401  (the reports' annex)


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


def seed_source_text(event) -> str:
    """R:P6 where the seed came from, for its own line: "the organisation's own funds" or "a sponsor"."""
    if not event.seed_jackpot:
        return ""
    label = str(event.get_seed_source_display())
    return label[0].lower() + label[1:]


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
    """R:L13 the bona fide members in charge who sign the report (two lines at least, blank when unnamed):
    only members in charge whose date of birth shows them 18 or over."""
    return list(adults_in_charge(licence.organisation_id).order_by("full_name").only("full_name")[:2])


@dataclass
class ComplianceRow:
    """R:D6 one issue notified to the Registrar: what, when it happened, when notified, reference."""

    description: str
    kind: str
    occurred_on: object
    notified_at: object
    method: str
    reference: str


def registrar_notifications(event) -> list[RegistrarNotification]:
    """R:D6 the event's issues notified to the Registrar, in the order they happened."""
    return list(RegistrarNotification.objects.filter(event=event).order_by("occurred_on", "pk"))


def compliance_rows(event, notifications=None) -> list[ComplianceRow]:
    """R:D6 one row per notified issue (`notifications`: as `registrar_notifications`, when already read)."""
    return [
        ComplianceRow(
            n.description, n.get_kind_display(), n.occurred_on, n.notified_at, n.get_method_display(), n.reference
        )
        for n in (registrar_notifications(event) if notifications is None else notifications)
    ]
