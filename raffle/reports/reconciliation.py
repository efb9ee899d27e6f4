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

from django.db.models import Sum
from django.utils import timezone

from core.money import ZERO
from licensing.models import Deposit, TrustAccount
from raffle.models import DepositCoverage, Draw, Event, SupplierSettlement


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
    return TrustAccount.objects.filter(licence_id=event.licence_id).first()


def draw_reconciliation(
    event: Event, *, draws=None, today: datetime.date | None = None, account=...
) -> list[DrawReconciliation]:
    """One line per draw whose sales are closed; three queries whatever the
    size (`draws` and `account`, when the page has read them, save two)."""
    today = today or timezone.localdate()
    account = trust_account_of(event) if account is ... else account
    allowance = datetime.timedelta(days=account.deposit_within_days if account else 3)
    if draws is None:
        draws = Draw.objects.filter(event=event, ticket_sales__isnull=False).order_by("number")
    draws = [d for d in draws if d.ticket_sales is not None]
    coverage: dict[int, list[DepositCoverage]] = {}
    for row in DepositCoverage.objects.filter(draw__in=[d.pk for d in draws]).select_related("deposit"):
        coverage.setdefault(row.draw_id, []).append(row)
    # R:L12 the supplier's fees, deducted before its deposit, count with it.
    fees = {
        s.draw_id: s.processing_fees + s.supplier_fees
        for s in SupplierSettlement.objects.filter(draw__in=[d.pk for d in draws])
    }
    lines = []
    for draw in draws:
        rows = coverage.get(draw.pk, [])
        deposited = sum((r.amount for r in rows), ZERO)
        deducted = fees.get(draw.pk, ZERO)
        draw_day = timezone.localdate(draw.scheduled_at)
        due_by = draw_day + allowance
        last = max((r.deposit.deposited_on for r in rows), default=None)
        line = DrawReconciliation(
            draw=draw,
            sales=draw.ticket_sales,
            deposited=deposited,
            deducted=deducted,
            slips=sorted(r.deposit.slip_number for r in rows),
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
