"""Pages. Views parse input, call one service or selector, and render."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import render

from core.scope import own
from raffle import selectors


def home(request):
    return render(request, "raffle/home.html", {"events": selectors.event_list()})


@login_required
def event_detail(request, event_id: int):
    event = own(request, selectors.event_list(), pk=event_id)
    return render(
        request,
        "raffle/event_detail.html",
        {
            "event": event,
            "summary": selectors.event_summary(event),
            "current": selectors.current_draw(event),
            "draws": selectors.draw_history(event),
            "envelopes": selectors.envelope_board(event),
        },
    )
