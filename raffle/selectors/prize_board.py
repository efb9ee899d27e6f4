"""R:L3 the prize board forecast shown on the dashboard."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext

from core.money import ZERO, average_amount, percent_used
from licensing.terms import licence_last_day, licence_prize_board_on
from raffle.models import Draw, Event

# R:L3 the prize board forecast shown on the dashboard.
PRIZE_BOARD_WARNING_PERCENT = Decimal("75")
PRIZE_BOARD_DANGER_PERCENT = Decimal("90")
# The pace of the forecast: the mean prizes of this many latest closed draws
# (Catch the Ace sales grow with the jackpot, so recent draws say most).
FORECAST_RECENT_DRAWS = 3


@dataclass(frozen=True)
class PrizeBoardForecast:
    prize_board: Decimal
    prizes_so_far: Decimal
    percent_used: Decimal
    level: str  # "ok", "warning" (75% or more), "danger" (90% or more), "reached"
    pace: Decimal  # prizes per draw at the recent pace
    draws_left: int  # draws the schedule still holds before the licence expires
    next_draw_number: int
    reach_draw_number: int | None  # the draw whose prizes would pass the board
    reach_date: datetime.date | None
    prizes_at_expiry: Decimal  # at the recent pace, if every scheduled draw is held

    @property
    def headroom(self) -> Decimal:
        return self.prize_board - self.prizes_so_far

    @property
    def must_go_due(self) -> str:
        """R:P7 why the next draw should be the must-go final draw, if it should."""
        if self.level == "reached" or self.reach_draw_number == self.next_draw_number:
            return "prize_board"
        if self.draws_left == 1:
            return "licence_expiry"
        return ""

    @property
    def message(self) -> str:
        if self.must_go_due == "licence_expiry":
            return gettext(
                "Draw %(number)s is the last draw before the licence expires: make it the must-go final draw."
            ) % {"number": self.next_draw_number}
        if self.reach_draw_number is not None and self.reach_draw_number == self.next_draw_number:
            return gettext(
                "At the recent pace the prizes pass the prize board in the next draw, draw %(number)s: make it "
                "the must-go final draw and stop selling at the room left."
            ) % {"number": self.next_draw_number}
        if self.level == "reached":
            return gettext(
                "The prizes have reached the prize board: no more sales can be taken. Run the must-go final draw now."
            )
        if self.reach_draw_number is None:
            return gettext("At the recent pace the prizes stay within the prize board until the licence expires.")
        if self.reach_date:
            text = gettext("At the recent pace the prizes pass the prize board in draw %(number)s (%(day)s).") % {
                "number": self.reach_draw_number,
                "day": f"{self.reach_date:%Y-%m-%d}",
            }
        else:
            text = gettext("At the recent pace the prizes pass the prize board in draw %(number)s.") % {
                "number": self.reach_draw_number
            }
        if self.level != "ok":
            text += " " + gettext(
                "Plan the must-go final draw for the draw before it, and watch each draw's sales against the room left."
            )
        return text


def recent_closed(draws) -> list[Draw]:
    """The latest FORECAST_RECENT_DRAWS draws whose sales are closed, newest
    first, from every draw of the event already read."""
    closed = [d for d in draws if d.ticket_sales is not None]
    return sorted(closed, key=lambda d: d.number, reverse=True)[:FORECAST_RECENT_DRAWS]


def prize_board_forecast(event: Event, draws: list[Draw] | None = None) -> PrizeBoardForecast:
    """From the actual sales so far and the schedule ahead: how much of the
    prize board the prizes use, and in which draw they would pass it.
    `draws`: every draw of the event, when the page has read them (saves three
    queries)."""
    from raffle.services.prize_board import prizes_committed

    licence = event.licence
    board = licence_prize_board_on(licence, timezone.localdate())  # an approved amendment from its date
    if draws is None:
        so_far = prizes_committed(event)
        closed = list(
            Draw.objects.filter(event=event, ticket_sales__isnull=False)
            .order_by("-number")
            .values_list("number", "draw_prize", "jackpot_contribution")[:FORECAST_RECENT_DRAWS]
        )
        last_number = closed[0][0] if closed else 0
        next_draw = Draw.objects.filter(event=event, number=last_number + 1).only("scheduled_at").first()
    else:
        # R:P6 R:L3 as prizes_committed: the seed and the prizes of every draw whose sales are closed.
        so_far = event.seed_jackpot + sum(
            ((d.draw_prize or ZERO) + (d.jackpot_contribution or ZERO) for d in draws if d.ticket_sales is not None),
            ZERO,
        )
        closed = [(d.number, d.draw_prize, d.jackpot_contribution) for d in recent_closed(draws)]
        last_number = closed[0][0] if closed else 0
        next_draw = next((d for d in draws if d.number == last_number + 1), None)
    pace = average_amount([prize + jackpot for _, prize, jackpot in closed])
    interval = datetime.timedelta(days=event.draw_interval_days)
    if next_draw is not None:
        next_date = timezone.localdate(next_draw.scheduled_at)
    else:
        next_date = timezone.localdate(event.first_draw_at) + interval * last_number
    last_day = licence_last_day(licence)  # R:L8 an approved amendment of the dates included
    draws_left = 0 if next_date > last_day else (last_day - next_date) // interval + 1
    if event.is_concluded:
        draws_left = 0
    percent = percent_used(so_far, board)
    reach_number = reach_date = None
    if pace > 0:
        ahead = int((board - so_far) // pace) + 1  # the first draw whose prizes pass the board
        if ahead <= draws_left:
            reach_number = last_number + ahead
            reach_date = next_date + interval * (ahead - 1)
    if so_far >= board:
        level = "reached"
    elif percent >= PRIZE_BOARD_DANGER_PERCENT:
        level = "danger"
    elif percent >= PRIZE_BOARD_WARNING_PERCENT:
        level = "warning"
    else:
        level = "ok"
    return PrizeBoardForecast(
        prize_board=board,
        prizes_so_far=so_far,
        percent_used=percent,
        level=level,
        pace=pace,
        draws_left=draws_left,
        next_draw_number=last_number + 1,
        reach_draw_number=reach_number,
        reach_date=reach_date,
        prizes_at_expiry=so_far + pace * draws_left,
    )
