"""The results published beyond the results page (RULES D10), public like it:
the Atom feed of an event's results (one entry per draw whose winning ticket
is drawn, newest first, each carrying the announcement in English and French)
for a newsroom, a municipality or a feed reader; and the announcement of the
latest draw for the charity's social media and the local paper, ready to copy."""

from django.contrib.syndication.views import Feed
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from core.money import format_money_in
from raffle.models import Event
from raffle.selectors.announcement import event_announcements, latest_drawn_number
from raffle.selectors.results import public_results


def _results_url(request, event_id: int) -> str:
    return request.build_absolute_uri(reverse("public_results", args=[event_id]))


@never_cache
def public_announcement(request, event_id: int):
    event = get_object_or_404(Event.objects.select_related("licence__organisation"), pk=event_id)
    number = latest_drawn_number(event)
    announcements = event_announcements(event, results_url=_results_url(request, event_id), number=number)
    return render(
        request,
        "raffle/results/announcement.html",
        {"event": event, "draw_number": number, "announcements": next(iter(announcements.values()), [])},
    )


class EventResultsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, event_id: int):
        results = public_results(event_id)
        if results is None:
            raise Http404(_("No such raffle."))
        url = _results_url(request, event_id)
        return {**results, "url": url, "announcements": event_announcements(results["event"], results_url=url)}

    def title(self, obj) -> str:
        return _("%(name)s: results") % {"name": obj["event"].name}

    def subtitle(self, obj) -> str:
        return _("Catch the Ace · %(organisation)s · Licence %(number)s") % {
            "organisation": obj["event"].licence.organisation.name,
            "number": obj["event"].licence.number,
        }

    def link(self, obj) -> str:
        return obj["url"]

    def items(self, obj):
        return [(row, obj["url"], obj["announcements"].get(row.draw_id, [])) for row in reversed(obj["rows"])]

    def item_title(self, item) -> str:
        row = item[0]
        return _("Draw %(number)s: ticket %(serial)s wins %(prize)s") % {
            "number": row.number,
            "serial": row.winning_serial,
            "prize": format_money_in(row.draw_prize, get_language() or "en"),
        }

    def item_description(self, item) -> str:
        return "".join(
            f'<div lang="{a.language}">' + "".join(f"<p>{escape(line)}</p>" for line in a.text.splitlines()) + "</div>"
            for a in item[2]
        )

    def item_link(self, item) -> str:
        return f"{item[1]}#draw-{item[0].number}"

    def item_guid(self, item) -> str:
        return self.item_link(item)

    def item_pubdate(self, item):
        return item[0].held_at
