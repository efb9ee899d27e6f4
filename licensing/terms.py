"""A licence's figures on a given day (RULES L3, L5): the granted figures with
every APPROVED amendment whose effective date has come applied in order. A
requested amendment, or one not yet effective, changes nothing. The prize board
guard, the forecast and the Rules of Play read the licence through here."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from licensing.models import AmendmentKind, AmendmentStatus, Licence, LicenceAmendment, PlannedDraw, SalesChannel


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


def licence_prize_board_on(licence: Licence, day: datetime.date) -> Decimal:
    """R:L3 the prize board in force on `day`: one indexed read."""
    amended = (
        amendments_in_force(licence, day)
        .filter(kind=AmendmentKind.PRIZE_BOARD)
        .order_by("-effective_on", "-approved_on", "-pk")
        .values_list("new_prize_board", flat=True)
        .first()
    )
    return licence.prize_board if amended is None else amended


def licence_sales_plan_on(licence: Licence, day: datetime.date) -> dict[int, Decimal] | None:
    """R:L3 the approved sales plan in force on `day`, {draw number: maximum
    sales}: the latest approved schedule amendment in force, else the
    application's plan; None when the licence has no plan (an AGCO licence
    granted without one). Two indexed reads at most."""
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
