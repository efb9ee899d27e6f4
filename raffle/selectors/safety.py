"""The dashboard's safety warning (RULES L4): when the jackpot forecast for
the next draw reaches the next threshold of the organisation's safety and
security plan, the measures set for it must be in place by then."""

from decimal import Decimal

from core.money import average_amount
from licensing.services import safety_threshold_warning
from raffle.models import Draw, Event
from raffle.selectors.prize_board import FORECAST_RECENT_DRAWS, recent_closed


def jackpot_forecast(event: Event, draws: list[Draw] | None = None) -> Decimal:
    """The jackpot at the next draw: today's plus the recent draws' average
    allocation (`draws`: every draw of the event, when already read)."""
    if draws is None:
        recent = list(
            Draw.objects.filter(event=event, ticket_sales__isnull=False)
            .order_by("-number")
            .values_list("jackpot_contribution", flat=True)[:FORECAST_RECENT_DRAWS]
        )
    else:
        recent = [d.jackpot_contribution for d in recent_closed(draws)]
    return event.jackpot + average_amount(recent)


def safety_warning(event: Event, draws: list[Draw] | None = None) -> dict | None:
    if event.is_concluded:
        return None
    forecast = jackpot_forecast(event, draws)
    return safety_threshold_warning(event.licence.organisation, jackpot=event.jackpot, forecast=forecast)
