"""The event dashboard for staff: where the raffle stands, what is due next,
and sales and jackpot draw by draw as a server-drawn SVG chart."""

import datetime

from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import mark_safe

from core import roles
from raffle import selectors
from raffle.charts import ChartPoint, sales_and_jackpot_svg
from raffle.models import DrawState

REPORT_EVERY_DRAWS = 4  # R:R1 supporting documents after every fourth draw
REPORT_DAYS_AFTER = 7
FINAL_REPORT_DAYS = 30  # R:R2


def _deadlines(event, draws, current) -> list[dict]:
    """The dates a volunteer treasurer must not miss, soonest first."""
    today = timezone.localdate()
    items = []
    if current is not None and current.state != DrawState.CLOSED:
        items.append({"when": timezone.localdate(current.scheduled_at),
                      "what": f"Draw {current.number}: {current.get_state_display().lower()}"})
    closed = [d for d in draws if d.state == DrawState.CLOSED and d.closed_at]
    fourth = [d for d in closed if d.number % REPORT_EVERY_DRAWS == 0]
    if fourth:
        last = fourth[-1]
        items.append({
            "when": timezone.localdate(last.closed_at) + datetime.timedelta(days=REPORT_DAYS_AFTER),
            "what": f"Supporting documents and licence fee for draws {last.number - 3} to {last.number}",
        })
    if event.is_concluded and event.concluded_at:
        items.append({"when": timezone.localdate(event.concluded_at) + datetime.timedelta(days=FINAL_REPORT_DAYS),
                      "what": "Final financial report to the licensing authority"})
    else:
        items.append({"when": event.licence.expires_on, "what": f"Licence {event.licence.number} expires"})
    for item in items:
        item["overdue"] = item["when"] < today
    return sorted(items, key=lambda item: item["when"])


@roles.role_required(roles.DRAW_STAFF, roles.TREASURER, roles.AUDITOR, roles.ADMINISTRATOR)
def event_dashboard(request, event_id: int):
    event = get_object_or_404(selectors.event_list(), pk=event_id)
    data = selectors.event_dashboard(event)
    draws, current = data["draws"], data["current"]
    points = [ChartPoint(d.number, d.ticket_sales, d.jackpot_after) for d in draws if d.ticket_sales is not None]
    return render(request, "raffle/dashboard.html", {
        "event": event,
        **data,
        "chart": mark_safe(sales_and_jackpot_svg(points)) if points else "",  # built with escape()
        "deadlines": _deadlines(event, draws, current),
        "can_run_draws": roles.user_has_role(request.user, roles.DRAW_STAFF, roles.ADMINISTRATOR),
    })
