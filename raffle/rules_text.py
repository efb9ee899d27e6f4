"""The sentences of the Rules of Play that each follow one setting, in the
reader's language (#16), with the figures and dates written the way that
language writes them: `raffle.rules_of_play` puts them in order."""

import datetime

from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from core.money import format_money_in
from raffle.models import Event, MustGoPayout, SeedSource

# R:P7 how the draw prize goes when the final draw runs out of tickets before
# the ace (`raffle.services.must_go.must_go_payouts` with ace_found=False).
RUN_OUT_DRAW_PRIZE = {
    MustGoPayout.SHARE_NON_ACE: gettext_lazy("the draw prize is shared equally by the same holders"),
    MustGoPayout.SHARE_ALL: gettext_lazy("the draw prize is shared equally by the same holders"),
    MustGoPayout.FIRST_TICKET: gettext_lazy("the draw prize goes to the holder of the first ticket drawn"),
    MustGoPayout.FINAL_WINNER: gettext_lazy("the draw prize goes to the holder of the last ticket drawn"),
}

# Dates as each language writes them (Django's `date` format codes); English
# keeps the wording the Rules of Play had before they were translated.
DATE_FORMATS = {
    "en": {"day": "F j, Y", "weekday": "l F j, Y", "time": "H:i"},
    "fr": {"day": "j F Y", "weekday": "l j F Y", "time": r"G \h i"},
}


def reader_language() -> str:
    return "fr" if (get_language() or "en").startswith("fr") else "en"


def money(amount) -> str:
    """$1,234.50, or 1 234,50 $ in French (core.money, as the `money` filter)."""
    return format_money_in(amount, reader_language())


def _format(value, kind: str) -> str:
    """French writes the first of the month `1er` (1er décembre 2026)."""
    language = reader_language()
    pattern = DATE_FORMATS[language][kind]
    if language == "fr" and value.day == 1:
        pattern = pattern.replace("j ", r"j\e\r ")
    return format_date(value, pattern)


def day(value: datetime.date) -> str:
    """December 10, 2026; 10 décembre 2026."""
    return _format(value, "day")


def when(at: datetime.datetime) -> str:
    """Thursday December 10, 2026 at 19:30; jeudi 10 décembre 2026 à 19 h 30."""
    local = timezone.localtime(at)
    formats = DATE_FORMATS[reader_language()]
    return _("%(day)s at %(time)s") % {
        "day": _format(local, "weekday"),
        "time": format_date(local, formats["time"]),
    }


def postponement_text(authority_name: str, draw_place: str) -> str:
    """R:D9 the postponement procedure as the system keeps it (`draw_postpone`)."""
    if draw_place:
        posted = _("on the public envelope board and at %(place)s") % {"place": draw_place}
    else:
        posted = _("on the public envelope board")
    return _(
        "No winning ticket is drawn before the date and time advertised here. If a draw cannot be held then, "
        "it is postponed to a later date and time, and only before its winning ticket is drawn: %(authority)s "
        "is told first (who was told, when and how is recorded), and the new date and time and the reason are "
        "posted %(posted)s. Tickets bought for a postponed draw stay in it. The later draws keep their dates "
        "unless the notice says they move with it."
    ) % {"authority": authority_name, "posted": posted}


def purchase_limits_text(event: Event) -> list[str]:
    """Who may buy, and how many: checked at every sale and import."""
    text = [
        _(
            "Members of %(organisation)s's board, the volunteers who run the draws, the staff of the electronic "
            "raffle supplier, and the members of their households may not buy tickets."
        )
        % {"organisation": event.licence.organisation.name}
    ]
    if event.max_tickets_per_person:
        text.append(
            ngettext(
                "One person (the same name and phone or e-mail) may buy at most %(count)s ticket for a draw, "
                "on every sales channel together.",
                "One person (the same name and phone or e-mail) may buy at most %(count)s tickets for a draw, "
                "on every sales channel together.",
                event.max_tickets_per_person,
            )
            % {"count": event.max_tickets_per_person}
        )
    return text


def electronic_system_text(licence, *, paper_deck: bool) -> list[str]:
    """R:D5 R:E4 who runs the electronic sales and draws: the AGCO-registered
    supplier's system, named with its registration; this software's own RNG
    and electronic deck only under the approval the licence records."""
    if licence.supplier_recorded:
        supplier = _(
            "Electronic tickets are sold and the winning tickets drawn on %(system)s version %(version)s, the "
            "electronic raffle system of %(supplier)s, a gaming supplier registered with the AGCO (registration "
            "%(registration)s), following that system's draw process."
        ) % {
            "system": licence.supplier_system_name,
            "version": licence.supplier_system_version,
            "supplier": licence.supplier_name,
            "registration": licence.supplier_registration_number,
        }
    else:
        supplier = _(
            "NOT YET STATED: the AGCO-registered supplier of the electronic raffle system and its registration "
            "number. Record them on the licence before the first sale."
        )
    if licence.has_system_approval:
        draw = _(
            "Under approval %(reference)s of %(day)s, the winning ticket is drawn among the draw's valid "
            "tickets with a cryptographic random number generator, and every draw's inputs and outcome are logged."
        ) % {"reference": licence.system_approval_reference, "day": day(licence.system_approval_on)}
    else:
        draw = _(
            "The winning ticket is the one that system draws with its cryptographic random number generator; "
            "%(organisation)s records the system's result and its reference for every draw."
        ) % {"organisation": licence.organisation.name}
    text = [supplier, draw]
    if not paper_deck and licence.has_system_approval:  # R:E4
        text.append(
            _(
                "The deck is electronic: the 52 cards were shuffled and a commitment to every envelope published "
                "before the first sale, so anyone can check that no card was moved."
            )
        )
    return text


def seed_text(event: Event) -> list[str]:
    """R:P6 the seed (guaranteed minimum) jackpot as set up: how much, from
    whom, its letter of credit, and that it counts in the prize board."""
    if not event.seed_jackpot:
        return []
    if event.seed_source == SeedSource.SPONSOR:
        source = _("a sponsor")
    else:
        source = _("%(organisation)s's own funds") % {"organisation": event.licence.organisation.name}
    text = _(
        "The progressive jackpot starts at %(seed)s, a seed from %(source)s; the seed counts in the licence's "
        "prize board."
    ) % {"seed": money(event.seed_jackpot), "source": source}
    if event.seed_letter_of_credit:
        text += " " + _(
            "It is guaranteed by irrevocable standby letter of credit %(letter)s from %(issuer)s, in force "
            "until %(day)s."
        ) % {
            "letter": event.seed_letter_of_credit,
            "issuer": event.seed_credit_issuer,
            "day": day(event.seed_credit_expires_on),
        }
    return [text]
