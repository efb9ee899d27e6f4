"""R:L12 each draw's ticket sales against the deposits that hold them.

Each draw has one status that says what it means: `not yet due` (its deposit
time has not run out and the sales are not all in), `deposited` (exactly its
sales, in time), `short`, `over`, `late`, `not deposited` (nothing, and the
time has run out), or `nothing to deposit` (no sales).

Flags: `not deposited` (nothing yet), `short` (less than the sales), `over`
(more than the sales), `late` (a deposit later than the account's allowance
after the draw). Deposits whose parts do not add up to the slip are flagged
`unallocated`: the trust account takes lottery money only, so every dollar on
a slip must belong to a draw or to the seed jackpot (P6). A draw whose registered supplier deposited its
sales net of fees counts those fees (deductions with the settlement as
evidence) with the deposit.
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import OuterRef, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.money import ZERO
from licensing.models import Deposit, Licence, TrustAccount
from raffle.models import DepositCoverage, Draw, Event, SupplierSettlement

# The one-word statuses and flags, translated where a page shows them
# (`{% translate line.status %}`); the reports and CSV keep these words.
STATUS_WORDS = (
    gettext_noop("not deposited"),
    gettext_noop("short"),
    gettext_noop("over"),
    gettext_noop("late"),
    gettext_noop("nothing to deposit"),
    gettext_noop("deposited before import"),
    gettext_noop("not yet due"),
    gettext_noop("deposited"),
)


@dataclass
class DrawReconciliation:
    draw: Draw
    sales: Decimal
    deposited: Decimal
    slips: list[str]
    last_deposit_on: datetime.date | None
    due_by: datetime.date
    flags: list[str] = field(default_factory=list)
    deducted: Decimal = ZERO  # fees the supplier kept, recorded as deductions (L12)

    @property
    def difference(self) -> Decimal:
        return self.sales - self.deposited - self.deducted

    @property
    def ok(self) -> bool:
        return not self.flags

    @property
    def status(self) -> str:
        """One word for the page and the reports; the worst flag when there is one."""
        if self.flags:
            return self.flags[0]
        if self.sales == 0 and not self.slips:
            return "nothing to deposit"
        if self.draw.is_imported and not self.slips:
            return "deposited before import"
        if self.deposited + self.deducted < self.sales:  # not flagged yet: the deposit time has not run out
            return "not yet due"
        return "deposited"


@dataclass
class DepositAllocation:
    deposit: Deposit
    allocated: Decimal  # to draws and to the seed
    seed: Decimal = ZERO  # R:P6 the part that is the seed jackpot

    @property
    def unallocated(self) -> Decimal:
        return self.deposit.amount - self.allocated


def trust_account_of(event: Event) -> TrustAccount | None:
    """The licence's trust account: read with the event when the event came
    from `selectors.event_list()` (one query less on every treasurer's page)."""
    licence = event.licence
    if Licence.trust_account.is_cached(licence):
        return getattr(licence, "trust_account", None)  # None cached: the licence has none yet
    return TrustAccount.objects.filter(licence_id=event.licence_id).first()


# R:L12 each draw's deposits, read with the draw (`closed_draws`): the amount
# the slips give it, their numbers and the last one's date.
DEPOSIT_COLUMNS = ("deposited_total", "deposit_slips", "last_deposit_on")


def deposit_columns() -> dict:
    """The annotations of DEPOSIT_COLUMNS on a queryset of draws."""
    cover = DepositCoverage.objects.filter(draw=OuterRef("pk")).order_by()
    return {
        "deposited_total": Subquery(cover.values("draw").annotate(total=Sum("amount")).values("total")[:1]),
        "deposit_slips": ArraySubquery(cover.order_by("deposit__slip_number").values("deposit__slip_number")),
        "last_deposit_on": Subquery(cover.order_by("-deposit__deposited_on").values("deposit__deposited_on")[:1]),
    }


def _coverage_of(draws) -> dict[int, tuple[Decimal, list[str], datetime.date | None]]:
    """{draw id: (deposited, slips, last deposit day)} of the draws some slip
    covers: from the draws' deposit columns when `closed_draws` read them,
    else from the coverage rows (one query)."""
    if draws and all(all(name in d.__dict__ for name in DEPOSIT_COLUMNS) for d in draws):
        return {
            d.pk: (d.deposited_total or ZERO, list(d.deposit_slips), d.last_deposit_on)
            for d in draws
            if d.deposit_slips
        }
    rows: dict[int, list[DepositCoverage]] = {}
    for row in DepositCoverage.objects.filter(draw__in=[d.pk for d in draws]).select_related("deposit"):
        rows.setdefault(row.draw_id, []).append(row)
    return {
        pk: (
            sum((r.amount for r in covered), ZERO),
            sorted(r.deposit.slip_number for r in covered),
            max(r.deposit.deposited_on for r in covered),
        )
        for pk, covered in rows.items()
    }


def _settlement_fees(draws) -> dict[int, Decimal]:
    """R:L12 the supplier's fees, deducted before its deposit, count with it:
    read with the draws when `closed_draws` selected them, else one query."""
    if draws and all(Draw.supplier_settlement.is_cached(d) for d in draws):
        settlements = [d.supplier_settlement for d in draws if hasattr(d, "supplier_settlement")]
    else:
        settlements = SupplierSettlement.objects.filter(draw__in=[d.pk for d in draws])
    return {s.draw_id: s.processing_fees + s.supplier_fees for s in settlements}


def draw_reconciliation(
    event: Event, *, draws=None, today: datetime.date | None = None, account=...
) -> list[DrawReconciliation]:
    """One line per draw whose sales are closed; three queries whatever the
    size (`draws` and `account`, when the page has read them, save them; draws
    from `closed_draws` carry their deposits and settlement, saving the rest)."""
    today = today or timezone.localdate()
    account = trust_account_of(event) if account is ... else account
    allowance = datetime.timedelta(days=account.deposit_within_days if account else 3)
    if draws is None:
        draws = Draw.objects.filter(event=event, ticket_sales__isnull=False).order_by("number")
    draws = [d for d in draws if d.ticket_sales is not None]
    covered = _coverage_of(draws)
    fees = _settlement_fees(draws)
    lines = []
    for draw in draws:
        deposited, rows, last = covered.get(draw.pk, (ZERO, [], None))  # rows: the slips holding its sales
        deducted = fees.get(draw.pk, ZERO)
        draw_day = timezone.localdate(draw.scheduled_at)
        due_by = draw_day + allowance
        line = DrawReconciliation(
            draw=draw,
            sales=draw.ticket_sales,
            deposited=deposited,
            deducted=deducted,
            slips=rows,
            last_deposit_on=last,
            due_by=due_by,
        )
        if draw.is_imported and not rows:
            pass  # history brought from another system: deposited before the move
        elif not rows:
            if draw.ticket_sales > 0 and today > due_by:
                line.flags.append("not deposited")
        elif deposited + deducted < draw.ticket_sales and today > due_by:
            line.flags.append("short")
        elif deposited + deducted > draw.ticket_sales:
            line.flags.append("over")
        if last and last > due_by:
            line.flags.append("late")
        lines.append(line)
    return lines


def deposit_allocations(event: Event) -> list[DepositAllocation]:
    """Each slip with what is given to draws and (R:P6) to the seed jackpot:
    the seed's deposit is lottery money, not flagged as unallocated."""
    deposits = (
        Deposit.objects.filter(account__licence_id=event.licence_id)
        .annotate(allocated=Sum("coverage__amount"))
        .select_related("seed_part")
        .order_by("deposited_on", "slip_number")
    )
    allocations = []
    for d in deposits:
        seed = d.seed_part.amount if hasattr(d, "seed_part") else ZERO
        allocations.append(DepositAllocation(deposit=d, allocated=(d.allocated or ZERO) + seed, seed=seed))
    return allocations
