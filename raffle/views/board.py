"""The public envelope board: no login, one stable address per event
(`/board/<event_id>/`), for the projector in the hall and for phones.

It reads only figures stored on the event, its envelopes and its open draws
(three queries, whatever the number of draws or tickets) and refreshes itself
with a small script that can be paused; without JavaScript it is an ordinary
page the reader reloads.

The board itself (everything but the site's header) is the same for every
reader of one language, so it is kept rendered for `BOARD_CACHE_SECONDS`
(#15: sixteen visitors reloading it must not slow a seller): a visitor's
request then costs no query and no rendering of the 52 envelopes, and an
opened envelope or a new jackpot shows within those seconds. The header is
rendered for each request, because it carries the language switch's CSRF
token and the signed-in user's links. A signed-in user (the draw staff
checking the projector) always reads the figures afresh, and refreshes the
copy the visitors get.
"""

from django.conf import settings
from django.core.cache import cache
from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
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
    shown = board_shown(event_id, fresh=request.user.is_authenticated)
    if shown is None:
        raise Http404("No such raffle.")
    return render(request, "raffle/board.html", shown)


def board_shown(event_id: int, *, fresh: bool = False) -> dict | None:
    """The board of this event as rendered HTML in the current language, and
    the event's name for the page's title: from the copy kept for
    `BOARD_CACHE_SECONDS` unless `fresh` or none is kept; None when there is
    no such event."""
    seconds = settings.BOARD_CACHE_SECONDS
    key = f"public-board:{event_id}:{get_language() or settings.LANGUAGE_CODE}"
    shown = cache.get(key) if seconds and not fresh else None
    if shown is None:
        board = selectors.public_board(event_id)
        if board is None:
            return None
        context = {
            **board,
            "connex": CONNEX_ONTARIO,
            "rules_url": rules_of_play_url(board["event"]),
            "refresh_seconds": getattr(settings, "BOARD_REFRESH_SECONDS", 20),
        }
        shown = {"event_name": board["event"].name, "board_html": render_to_string("raffle/board_body.html", context)}
        if seconds:
            cache.set(key, shown, seconds)
    return shown
