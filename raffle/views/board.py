"""The public envelope board: no login, one stable address per event
(`/board/<event_id>/`), for the projector in the hall and for phones.

It reads only figures stored on the event, its envelopes and its open draws
(three queries, whatever the number of draws or tickets) and refreshes itself
with a small script that can be paused; without JavaScript it is an ordinary
page the reader reloads.
"""

from django.conf import settings
from django.http import Http404
from django.shortcuts import render
from django.urls import NoReverseMatch, reverse
from django.views.decorators.cache import never_cache

from raffle import selectors

CONNEX_ONTARIO = "1-866-531-2600"  # R:T10


def rules_of_play_url(event) -> str:
    """The event's Rules of Play page when it exists, else the board's own
    section that says where the Rules of Play are posted."""
    for args in ([event.pk], []):
        try:
            return reverse("rules_of_play", args=args)
        except NoReverseMatch:
            continue
    return "#rules-of-play"


@never_cache
def public_board(request, event_id: int):
    board = selectors.public_board(event_id)
    if board is None:
        raise Http404("No such raffle.")
    event = board["event"]
    return render(
        request,
        "raffle/board.html",
        {
            **board,
            "connex": CONNEX_ONTARIO,
            "rules_url": rules_of_play_url(event),
            "refresh_seconds": getattr(settings, "BOARD_REFRESH_SECONDS", 20),
        },
    )
