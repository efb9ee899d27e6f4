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

A visitor who brings no session, no pending message and no query string (a
phone or a projector reloading) sees the very page every such visitor of
that language sees, but for the switch's token: that whole page is kept too,
with a mark where the token goes, and each request puts its own visitor's
token there (`get_token`, which also sets that visitor's CSRF cookie).
"""

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
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


# Where the visitor's own CSRF token goes in the kept page (letters only: HTML escaping leaves it as it is).
TOKEN_MARK = "csrftokenofthisvisitorgoeshere"


@never_cache
def public_board(request, event_id: int):
    if settings.BOARD_CACHE_SECONDS and _sees_the_shared_page(request):
        page = _shared_page(request, event_id)
        return HttpResponse(page.replace(TOKEN_MARK, get_token(request)))
    shown = board_shown(event_id, fresh=request.user.is_authenticated)
    if shown is None:
        raise Http404("No such raffle.")
    return render(request, "raffle/board.html", shown)


def _sees_the_shared_page(request) -> bool:
    """A visitor whose page is the same as every other such visitor's, token aside."""
    cookies = request.COOKIES
    return not request.GET and settings.SESSION_COOKIE_NAME not in cookies and "messages" not in cookies


def _shared_page(request, event_id: int) -> str:
    """The whole board page of a visitor without a session, in the current
    language, with TOKEN_MARK for the token: made again whenever the kept
    board it shows is no longer the kept board (expired, or refreshed by staff)."""
    shown = board_shown(event_id)
    if shown is None:
        raise Http404("No such raffle.")
    key = _shared_page_key(event_id)
    kept = cache.get(key)
    if kept is None or kept["board_html"] != shown["board_html"]:
        page = render_to_string("raffle/board.html", {**shown, "csrf_token": TOKEN_MARK}, request=request)
        kept = {"board_html": shown["board_html"], "page": page}
        cache.set(key, kept, settings.BOARD_CACHE_SECONDS)
    return kept["page"]


def _shared_page_key(event_id: int) -> str:
    return f"public-board-page:{event_id}:{get_language() or settings.LANGUAGE_CODE}"


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
