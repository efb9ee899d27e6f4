"""Four-draw periods, the day a draw counts for, how a licence ended, and
which four-draw report each expense belongs to (RULES R1, R2, R5, D9).

A period k holds draws 4k-3 to 4k. Its report is due 7 calendar days after
its last draw (R1); the final report 30 days after the last draw (R2).
"""

import datetime
from bisect import bisect_left

from django.utils import timezone

DRAWS_PER_PERIOD = 4
FOUR_DRAW_DUE_DAYS = 7  # R:R1
FINAL_DUE_DAYS = 30  # R:R2


def period_of(draw_number: int) -> int:
    return (draw_number - 1) // DRAWS_PER_PERIOD + 1


def period_numbers(period: int) -> range:
    return range(DRAWS_PER_PERIOD * period - 3, DRAWS_PER_PERIOD * period + 1)


def held_at(draw) -> datetime.datetime | None:
    """R:D9 when the draw was held (None while it is not)."""
    return draw.held_at or draw.ticket_drawn_at


def report_day(draw) -> datetime.date:
    """The day a draw counts for in the reports' dates and deadlines: the day
    it was held, else (not held yet) the day it is advertised for."""
    return timezone.localdate(held_at(draw) or draw.scheduled_at)


def expense_period(paid_on: datetime.date, period_ends: list[datetime.date], *, last_is_final: bool) -> int | None:
    """R:R5 the four-draw report an expense belongs to: the first period whose
    last draw is on or after the day it was paid. Expenses before draw 1 go in
    period 1's report; expenses between two periods in the next period's;
    after the last period of a licence that has ended, in that last report.
    None: paid after the last finished period of a running event, so it goes
    in the next report, not yet written. `period_ends` holds each period's last
    draw day, in period order."""
    if not period_ends:
        return None
    index = bisect_left(period_ends, paid_on)
    if index < len(period_ends):
        return index + 1
    return len(period_ends) if last_is_final else None


def licence_ended_on(event, *, today: datetime.date | None = None) -> datetime.date | None:
    """R:R5 the day the licence ended: the Ace found, the cancellation (or the
    licensing authority's conclusion), the expiry; None while it runs."""
    from licensing.models import LicenceStatus
    from licensing.terms import licence_expires_on

    licence = event.licence
    if event.is_concluded and event.concluded_at:
        return timezone.localdate(event.concluded_at)
    if licence.status != LicenceStatus.ACTIVE and licence.concluded_at:
        return timezone.localdate(licence.concluded_at)
    today = today or timezone.localdate()
    expires_on = licence_expires_on(licence, today)  # R:L8 the expiry in force, amendments included: one read
    return expires_on if today > expires_on else None


def final_report_due(event, last_draw_day: datetime.date | None, *, today=None) -> datetime.date | None:
    """R:R5 R:R2 every licence that ends owes its final report: 30 days after
    its last draw, or, when it ended before any draw was held, 30 days after
    the day it ended (cancelled or expired); None while it runs."""
    if not licence_end(event, today=today):
        return None
    start = last_draw_day or licence_ended_on(event, today=today) or event.licence.issued_on
    return start + datetime.timedelta(days=FINAL_DUE_DAYS)


def licence_end(event, *, today: datetime.date | None = None, expires_on: datetime.date | None = None) -> str:
    """R:R5 how the licence ended, in words; empty while it runs.
    `expires_on`: the expiry in force today, when the caller has read it."""
    from licensing.models import LicenceStatus
    from licensing.terms import licence_expires_on

    licence = event.licence
    if event.is_concluded:
        return "the Ace of Spades was found"
    if licence.status == LicenceStatus.CANCELLED:
        return "the licence was cancelled"
    if licence.status == LicenceStatus.CONCLUDED:
        return "the licence was concluded"
    today = today or timezone.localdate()
    expires_on = expires_on or licence_expires_on(licence, today)  # R:L8 by the expiry in force, amendments included
    return f"the licence expired on {expires_on:%Y-%m-%d}" if today > expires_on else ""
