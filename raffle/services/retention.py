"""Purchasers' personal data is kept as long as the records must be (L14:
four years) and no longer: `sales_purge_personal_data` blanks the name,
contact and address of sales made before a date outside that period,
keeping every figure (amounts, tickets, serials, draws) and recording an
audit entry per organisation. Run by `manage.py purge_personal_data`."""

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from raffle.errors import RaffleError
from raffle.models import Sale

RETENTION_YEARS = 4  # R:L14 records are kept at least four years
PERSONAL_FIELDS = ("purchaser_name", "purchaser_contact", "purchaser_address")


@dataclass(frozen=True)
class Purged:
    organisation_id: int
    organisation: str
    sales: int


def retention_start(today: datetime.date) -> datetime.date:
    """The first day whose records must still be kept: four years before today."""
    try:
        return today.replace(year=today.year - RETENTION_YEARS)
    except ValueError:  # 29 February: four years before is 28 February
        return today.replace(year=today.year - RETENTION_YEARS, day=28)


def _with_personal_data(before: datetime.date):
    start = timezone.make_aware(datetime.datetime.combine(before, datetime.time.min))
    has_data = Q()
    for name in PERSONAL_FIELDS:
        has_data |= ~Q(**{name: ""})
    return Sale.objects.filter(sold_at__lt=start).filter(has_data)


def check_before(before: datetime.date, *, today: datetime.date | None = None) -> None:
    keep_from = retention_start(today or timezone.localdate())
    if before > keep_from:  # R:L14
        raise RaffleError(
            gettext(
                "Sales made on or after %(keep_from)s are within the %(RETENTION_YEARS)s-year retention "
                "period; purchasers' details can be removed only from sales before that date, so --before "
                "must be %(keep_from)s or earlier."
            )
            % {"keep_from": format(keep_from, "%Y-%m-%d"), "RETENTION_YEARS": RETENTION_YEARS},
            rule="L14",
        )


def personal_data_to_purge(*, before: datetime.date, organisations, today: datetime.date | None = None) -> list[Purged]:
    """What `sales_purge_personal_data` would blank in `organisations` (a
    queryset or ids), by organisation (nothing is changed)."""
    check_before(before, today=today)
    rows = (
        _with_personal_data(before)
        .filter(licence__organisation__in=organisations)
        .values("licence__organisation_id", "licence__organisation__name")
        .annotate(sales=Count("id"))
        .order_by("licence__organisation__name")
    )
    return [Purged(r["licence__organisation_id"], r["licence__organisation__name"], r["sales"]) for r in rows]


@transaction.atomic
def sales_purge_personal_data(
    *, actor, before: datetime.date, organisations, today: datetime.date | None = None
) -> list[Purged]:
    """R:L14 blank the purchasers' details of the sales of `organisations`
    made before `before` (refused unless that date is outside the retention
    period); one audit entry per organisation, in its own chain."""
    check_before(before, today=today)
    purged = []
    for found in personal_data_to_purge(before=before, organisations=organisations, today=today):
        sales = _with_personal_data(before).filter(licence__organisation_id=found.organisation_id).select_for_update()
        count = Sale.objects.filter(pk__in=list(sales.values_list("pk", flat=True))).update(
            **dict.fromkeys(PERSONAL_FIELDS, "")
        )
        purged.append(Purged(found.organisation_id, found.organisation, count))
        audit_record(
            actor=actor,
            action="raffle.sale.personal_data_purged",
            organisation=found.organisation_id,
            data={
                "before": before.isoformat(),
                "sales": count,
                "fields": list(PERSONAL_FIELDS),
                "retention_years": RETENTION_YEARS,
            },
        )
    return purged
