"""A licence's figures on a given day (RULES L3, L5, L8): the granted figures
with every APPROVED amendment whose effective date has come applied in order.
A requested amendment, or one not yet effective, changes nothing. The prize
board guard, the forecast, the Rules of Play, the sales channel of each draw
and every expiry check read the licence through here, never
`Licence.expires_on` or `Licence.sales_channel` (the figures as granted).

An amendment of the dates takes effect while the licence is in force (its
effective day is on or before both the expiry it replaces and the new one),
so the expiry in force on a day after the last such effective day is the
licence's last day: `licence_last_day`."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import F, OuterRef, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from licensing.models import (
    AmendedDraw,
    AmendmentKind,
    AmendmentStatus,
    Licence,
    LicenceAmendment,
    PlannedDraw,
    SalesChannel,
)


@dataclass
class LicenceTerms:
    prize_board: Decimal
    sales_channel: str
    expires_on: datetime.date
    draw_place: str | None = None  # None: the event's own
    schedule: list[tuple[datetime.date, Decimal]] | None = None  # None: the application's plan
    applied: list[LicenceAmendment] = field(default_factory=list)

    @property
    def channel_label(self) -> str:
        return str(SalesChannel(self.sales_channel).label)


def amendments_in_force(licence: Licence, day: datetime.date):
    return LicenceAmendment.objects.filter(
        licence=licence, status=AmendmentStatus.APPROVED, effective_on__lte=day
    ).order_by("effective_on", "approved_on", "pk")


def licence_terms_on(licence: Licence, day: datetime.date) -> LicenceTerms:
    terms = LicenceTerms(
        prize_board=licence.prize_board, sales_channel=licence.sales_channel, expires_on=licence.expires_on
    )
    for amendment in amendments_in_force(licence, day).prefetch_related("draws"):
        if amendment.kind == AmendmentKind.PRIZE_BOARD:
            terms.prize_board = amendment.new_prize_board
        elif amendment.kind == AmendmentKind.CHANNEL:
            terms.sales_channel = amendment.to_channel
        elif amendment.kind == AmendmentKind.DATES:
            terms.expires_on = amendment.new_expires_on
        elif amendment.kind == AmendmentKind.DRAW_PLACE:
            terms.draw_place = amendment.new_draw_place
        elif amendment.kind == AmendmentKind.SCHEDULE:
            terms.schedule = [(d.draw_on, d.max_sales) for d in amendment.draws.all()]
        terms.applied.append(amendment)
    return terms


class ApprovedAmendments:
    """Every approved amendment of a licence, read in one query, for ONE sale
    (#18): the same answers as `licence_channel_on`, `licence_prize_board_on`,
    `licence_draw_place_on` and `licence_sales_plan_on`, and the next channel
    amendment after a day. `read_amendments_once` attaches it to the licence
    instance a sale read, which lives for that sale's transaction only."""

    def __init__(self, licence: Licence, *, none_approved: bool = False):
        self.licence = licence
        self.amendments = (
            []
            if none_approved
            else list(
                LicenceAmendment.objects.filter(licence=licence, status=AmendmentStatus.APPROVED).order_by(
                    "effective_on", "approved_on", "pk"
                )
            )
        )

    def latest(self, kind: str, day: datetime.date) -> LicenceAmendment | None:
        """The last approved amendment of this kind effective by `day`."""
        found = None
        for amendment in self.amendments:
            if amendment.kind == kind and amendment.effective_on <= day:
                found = amendment
        return found

    def first_after(self, kind: str, day: datetime.date) -> LicenceAmendment | None:
        """The first approved amendment of this kind effective after `day`."""
        return next((a for a in self.amendments if a.kind == kind and a.effective_on > day), None)


def read_amendments_once(licence: Licence, *, none_approved: bool = False) -> Licence:
    """R:L3 R:L5 read the licence's approved amendments once for the sale
    that read this licence instance; the terms below then answer from it.
    `none_approved`: the sale's own read found none (`raffle.services.sale_read`), so none is read."""
    licence._approved_amendments = ApprovedAmendments(licence, none_approved=none_approved)
    return licence


def approved_amendments(licence: Licence) -> ApprovedAmendments | None:
    """The amendments a sale read once (`read_amendments_once`), else None."""
    return getattr(licence, "_approved_amendments", None)


def _latest_in_force(licence: Licence, day: datetime.date, kind: str, field_name: str):
    """The figure of the last approved amendment of this kind effective by `day` (None: none is): one indexed read."""
    if (read := approved_amendments(licence)) is not None:
        amendment = read.latest(kind, day)
        return None if amendment is None else getattr(amendment, field_name)
    return (
        amendments_in_force(licence, day)
        .filter(kind=kind)
        .order_by("-effective_on", "-approved_on", "-pk")
        .values_list(field_name, flat=True)
        .first()
    )


def _latest_in_force_column(day: datetime.date | None, kind: str, field_name: str) -> Subquery:
    """`_latest_in_force` as a subquery on each licence of a queryset (day None: the last approved)."""
    approved = LicenceAmendment.objects.filter(licence=OuterRef("pk"), status=AmendmentStatus.APPROVED, kind=kind)
    if day is not None:
        approved = approved.filter(effective_on__lte=day)
    return Subquery(approved.order_by("-effective_on", "-approved_on", "-pk").values(field_name)[:1])


def licences_with_terms(licences: QuerySet, day: datetime.date) -> QuerySet:
    """R:L5 R:L8 each licence with the figures a list shows, as amended, in the
    same query: `expires_on_in_force` (on `day`), `last_day` (as every approved
    dates amendment makes it, `licence_last_day`) and `channel_in_force` (on `day`)."""
    dates, channel = AmendmentKind.DATES, AmendmentKind.CHANNEL
    return licences.annotate(
        expires_on_in_force=Coalesce(_latest_in_force_column(day, dates, "new_expires_on"), "expires_on"),
        last_day=Coalesce(_latest_in_force_column(None, dates, "new_expires_on"), "expires_on"),
        channel_in_force=Coalesce(_latest_in_force_column(day, channel, "to_channel"), "sales_channel"),
    )


def licence_prize_board_on(licence: Licence, day: datetime.date) -> Decimal:
    """R:L3 the prize board in force on `day`: one indexed read."""
    amended = _latest_in_force(licence, day, AmendmentKind.PRIZE_BOARD, "new_prize_board")
    return licence.prize_board if amended is None else amended


def licence_channel_on(licence: Licence, day: datetime.date) -> str:
    """R:L5 the sales channel in force on `day`: an approved channel amendment
    holds for draws on or after its effective day, not before."""
    amended = _latest_in_force(licence, day, AmendmentKind.CHANNEL, "to_channel")
    return licence.sales_channel if amended is None else amended


class LicenceAmendmentsRead:
    """The licence's approved amendments of its dates and channel, read once,
    for a list of days (a season's deadlines): the same answers as
    `licence_expires_on`, `licence_channel_on` and `licence_last_day`."""

    def __init__(self, licence: Licence):
        self.licence = licence
        self.changes = list(
            LicenceAmendment.objects.filter(
                licence=licence,
                status=AmendmentStatus.APPROVED,
                kind__in=[AmendmentKind.DATES, AmendmentKind.CHANNEL],
            )
            .order_by("effective_on", "approved_on", "pk")
            .values_list("kind", "effective_on", "new_expires_on", "to_channel")
        )

    def _latest(self, kind: str, day: datetime.date, index: int, granted):
        value = granted
        for change in self.changes:
            if change[0] == kind and change[1] <= day:
                value = change[index]
        return value

    def channel_on(self, day: datetime.date) -> str:
        """R:L5 as `licence_channel_on`."""
        return self._latest(AmendmentKind.CHANNEL, day, 3, self.licence.sales_channel)

    def expires_on(self, day: datetime.date) -> datetime.date:
        """R:L8 as `licence_expires_on`."""
        return self._latest(AmendmentKind.DATES, day, 2, self.licence.expires_on)

    def last_day(self) -> datetime.date:
        """R:L8 as `licence_last_day`."""
        return self.expires_on(datetime.date.max)


def licence_draw_place_on(licence: Licence, day: datetime.date) -> str:
    """R:L5 the draw place an approved amendment sets from its effective day ('' : none; the event's own holds)."""
    return _latest_in_force(licence, day, AmendmentKind.DRAW_PLACE, "new_draw_place") or ""


def licence_expires_on(licence: Licence, day: datetime.date) -> datetime.date:
    """R:L8 the expiry in force on `day`: the granted one, or an approved dates amendment's from its effective day."""
    amended = _latest_in_force(licence, day, AmendmentKind.DATES, "new_expires_on")
    return licence.expires_on if amended is None else amended


def licence_in_force_on(licence: Licence, day: datetime.date) -> bool:
    """R:L8 the licence has not expired on `day` (by the expiry in force that day)."""
    return day <= licence_expires_on(licence, day)


def licence_is_expired(licence: Licence, today: datetime.date | None = None) -> bool:
    """R:L8 expired today: an expired licence may not be amended or cancelled, and nothing is sold under it."""
    return not licence_in_force_on(licence, today or timezone.localdate())


def licence_last_day(licence: Licence) -> datetime.date:
    """R:L8 the day the licence expires, as granted and as every approved
    dates amendment makes it (each takes effect while the licence is in force)."""
    return licence_expires_on(licence, datetime.date.max)


def licence_sales_plan_on(licence: Licence, day: datetime.date) -> dict[int, Decimal] | None:
    """R:L3 the approved sales plan in force on `day`, {draw number: maximum
    sales}: the latest approved schedule amendment in force, else the
    application's plan; None when the licence has no plan (an AGCO licence
    granted without one). Two indexed reads at most."""
    if (read := approved_amendments(licence)) is not None:
        amended = read.latest(AmendmentKind.SCHEDULE, day)
    else:
        amended = (
            amendments_in_force(licence, day)
            .filter(kind=AmendmentKind.SCHEDULE)
            .order_by("-effective_on", "-approved_on", "-pk")
            .first()
        )
    if amended is not None:
        return dict(amended.draws.values_list("number", "max_sales"))
    plan = dict(PlannedDraw.objects.filter(application__licence=licence).values_list("number", "max_sales"))
    return plan or None


def licence_amended_draw_day(licence: Licence, number: int, planned_day: datetime.date) -> datetime.date | None:
    """R:L3 R:D9 the day an approved schedule amendment sets for draw `number`,
    which would otherwise be held on `planned_day`: the latest approved
    amendment in force on `planned_day` whose line for the draw falls on or
    after its effective day (a draw held before the effective day keeps the
    schedule it was held under). None: no amendment moves it. One indexed read."""
    return (
        AmendedDraw.objects.filter(
            amendment__licence=licence,
            amendment__status=AmendmentStatus.APPROVED,
            amendment__kind=AmendmentKind.SCHEDULE,
            amendment__effective_on__lte=planned_day,
            number=number,
            draw_on__gte=F("amendment__effective_on"),
        )
        .order_by("-amendment__effective_on", "-amendment__approved_on", "-amendment__pk")
        .values_list("draw_on", flat=True)
        .first()
    )
