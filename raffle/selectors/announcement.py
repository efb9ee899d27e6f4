"""The announcement of a draw's result for the charity's social media and the
local paper (RULES D10), ready to copy, in English and in French whatever the
reader's language: the winning ticket and its prize, the card found, the
jackpot, the next draw and the ticket prices (T1), the licence, the age limit
and the problem gambling helpline (T10). Winners' names only with consent."""

from dataclasses import dataclass

from django.utils import dateformat, timezone, translation
from django.utils.translation import gettext as _

from core.money import format_money_in
from raffle.cards import ACE_OF_SPADES, card_name_for_reader
from raffle.models import BEFORE_WINNING_TICKET, Draw, Event
from raffle.selectors.results import published_winner

LANGUAGES = (("en", "English"), ("fr", "Français"))
CONNEX_ONTARIO = "1-866-531-2600"  # R:T10
# How a date and time read in each language: "Thursday 10 December 2026, 7:30 p.m.",
# "jeudi 10 décembre 2026, 19 h 30".
WHEN = {"en": "l j F Y, g:i a", "fr": r"l j F Y, G \h i"}


@dataclass(frozen=True)
class Announcement:
    language: str
    name: str
    text: str


def _when(moment, language: str) -> str:
    return dateformat.format(timezone.localtime(moment), WHEN[language])


def _prices(tiers, language: str) -> str:
    return ", ".join(
        _("%(quantity)s for %(price)s") % {"quantity": tier.quantity, "price": format_money_in(tier.price, language)}
        for tier in tiers
    )


def _text(draw: Draw, next_draw_at, tiers, results_url: str, language: str) -> str:
    event = draw.event
    licence = event.licence

    def money(amount):
        return format_money_in(amount, language)

    lines = [
        _("%(organisation)s Catch the Ace, draw %(number)s (%(when)s): the winning ticket is %(serial)s.")
        % {
            "organisation": licence.organisation.name,
            "number": draw.number,
            "when": _when(draw.ticket_drawn_at or draw.scheduled_at, language),
            "serial": draw.winning_serial,
        }
    ]
    if draw.draw_prize is not None:
        lines.append(_("It wins the draw prize of %(prize)s.") % {"prize": money(draw.draw_prize)})
    winner = published_winner(draw)
    if winner:
        lines.append(_("Winner: %(winner)s.") % {"winner": winner})
    envelope = draw.envelope
    if envelope is None or not envelope.is_open:
        lines.append(_("The winner's envelope has not been opened yet."))
    elif envelope.card == ACE_OF_SPADES:
        lines.append(
            _("Envelope %(envelope)s held the Ace of Spades: the jackpot of %(jackpot)s is won!")
            % {"envelope": envelope.number, "jackpot": money(draw.jackpot_awarded or draw.jackpot_after)}
        )
    else:
        lines.append(
            _("Envelope %(envelope)s held the %(card)s, so the jackpot of %(jackpot)s rolls over.")
            % {
                "envelope": envelope.number,
                "card": card_name_for_reader(envelope.card),
                "jackpot": money(draw.jackpot_after),
            }
        )
    if next_draw_at is not None and not event.is_concluded:
        place = f" ({event.draw_place})" if event.draw_place else ""
        sentence = _("Next draw: %(when)s%(place)s. Tickets: %(prices)s.") % {
            "when": _when(next_draw_at, language),
            "place": place,
            "prices": _prices(tiers, language),
        }
        lines.append(sentence.replace(".. ", ". "))  # "7:30 p.m.. Tickets" when no place follows the time
    lines.append(_("Did you win? Check your ticket: %(url)s") % {"url": results_url})
    lines.append(
        _("Licence %(licence)s. You must be 18 or older to play. Problem gambling help: ConnexOntario %(phone)s.")
        % {"licence": licence.number, "phone": CONNEX_ONTARIO}
    )
    return "\n".join(lines)


def _drawn(event: Event):
    return Draw.objects.filter(event=event).exclude(state__in=BEFORE_WINNING_TICKET).exclude(winning_serial="")


def latest_drawn_number(event: Event) -> int | None:
    """The number of the event's latest draw whose winning ticket is drawn."""
    return _drawn(event).order_by("-number").values_list("number", flat=True).first()


def event_announcements(event: Event, *, results_url: str, number: int | None = 0) -> dict[int, list[Announcement]]:
    """The announcement of each drawn draw of `event` (or of draw `number`
    only; None: no draw), in each language, by draw id; three queries however
    many draws."""
    drawn = _drawn(event).select_related("event__licence__organisation", "envelope", "name_consent")
    if number is None:
        return {}
    if number:
        drawn = drawn.filter(number=number)
    scheduled = dict(Draw.objects.filter(event=event).values_list("number", "scheduled_at"))
    tiers = list(event.price_tiers.all())
    announcements = {}
    for draw in drawn:
        announcements[draw.pk] = []
        for language, name in LANGUAGES:
            with translation.override(language):
                text = _text(draw, scheduled.get(draw.number + 1), tiers, results_url, language)
            announcements[draw.pk].append(Announcement(language, name, text))
    return announcements
