"""The event dashboard for staff: where the raffle stands, what is due next,
and sales and jackpot draw by draw as a server-drawn SVG chart."""

from django.shortcuts import render
from django.utils import timezone
from django.utils.safestring import mark_safe

from core import roles
from core.scope import own
from raffle import selectors
from raffle.charts import ChartPoint, sales_and_jackpot_svg
from raffle.reports.deadlines import event_deadlines
from raffle.selectors.safety import safety_warning

UPCOMING_DEADLINES = 6  # past-due ones are always shown, then the next few


def _deadlines(event, draws) -> list[dict]:
    """What must not be missed, from the one deadline list the treasurer's
    pages and calendar feed use (`raffle.reports.deadlines`): everything past
    due and not done, then the next few. `draws`: the event's draws, read once."""
    today = timezone.localdate()
    pending = [d for d in event_deadlines(event, today=today, closed=draws) if not d.done]
    overdue = [d for d in pending if d.on < today and d.status(today) == "overdue"]
    upcoming = [d for d in pending if d.on >= today][:UPCOMING_DEADLINES]
    return [{"when": d.on, "what": d.what, "overdue": d in overdue, "rule": d.rule} for d in overdue + upcoming]


@roles.role_required(roles.DRAW_STAFF, roles.TREASURER, roles.AUDITOR, roles.ADMINISTRATOR)
def event_dashboard(request, event_id: int):
    event = own(request, selectors.event_list(), pk=event_id)
    data = selectors.event_dashboard(event)
    draws = data["draws"]
    points = [ChartPoint(d.number, d.ticket_sales, d.jackpot_after) for d in draws if d.ticket_sales is not None]
    return render(
        request,
        "raffle/dashboard.html",
        {
            "event": event,
            **data,
            "chart": mark_safe(sales_and_jackpot_svg(points)) if points else "",  # built with escape()
            "deadlines": _deadlines(event, draws),
            "forecast": selectors.prize_board_forecast(event, draws),
            "safety": safety_warning(event, draws),
            "missing_videos": list(selectors.draws_needing_video(event).only("number", "scheduled_at")),
            "can_run_draws": roles.user_has_role(
                request.user, roles.DRAW_STAFF, roles.ADMINISTRATOR, organisation=event.licence.organisation_id
            ),
        },
    )
