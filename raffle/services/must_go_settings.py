"""The exit strategy's settings checked when an event is set up or its Rules
of Play change (RULES P7): how a must-go draw pays, a fixed last draw, and
the last draw the licence allows, which cannot roll over."""

import datetime

from django.utils import timezone
from django.utils.translation import gettext

from licensing.models import Licence
from licensing.terms import licence_expires_on, licence_in_force_on
from raffle.errors import RaffleError
from raffle.models import MUST_GO_PAYOUTS_OFFERED, Draw, Event, MustGoPayout


def check_must_go_payout(value: str, *, event: Event | None = None) -> None:
    """R:P7 one of the ways the Rules of Play may choose. A way no longer
    offered stays valid for the events that already state it."""
    if value and value not in MustGoPayout.values:
        raise RaffleError(gettext("Choose how the holders of a must-go final draw are paid."))
    if value and value not in MUST_GO_PAYOUTS_OFFERED and (event is None or event.must_go_payout != value):
        raise RaffleError(
            gettext(
                "The must-go draw's prize is either shared by the holders of the tickets drawn before the "
                "ace, or won by the first ticket drawn while later tickets play for the jackpot only; "
                "choose one of those."
            ),
            rule="P7",
        )
    if not value and event is not None and event.last_draw_number:
        raise RaffleError(
            gettext(
                "Draw %(last_draw_number)s is the event's fixed last draw, a must-go draw: the Rules of "
                "Play must say how its holders are paid."
            )
            % {"last_draw_number": event.last_draw_number},
            rule="P7",
        )


def check_last_draw(*, licence: Licence, number, first_draw_at, interval_days: int, payout: str) -> int | None:
    """R:P7 a fixed last draw: a whole number from 1, a draw the licence
    still covers, and an exit strategy that says how it pays."""
    if number in (None, ""):
        return None
    try:
        number = int(number)
    except (TypeError, ValueError):
        raise RaffleError(
            gettext("The last draw is a draw number, like 40; %(number)s is not one.") % {"number": repr(number)}
        ) from None
    if number < 1:
        raise RaffleError(gettext("The last draw is a draw number from 1 up."))
    if not payout:
        raise RaffleError(
            gettext(
                "Draw %(number)s would be the must-go final draw: the Rules of Play must first say how its "
                "holders are paid (the exit strategy)."
            )
            % {"number": number},
            rule="P7",
        )
    day = timezone.localdate(first_draw_at) + datetime.timedelta(days=interval_days * (number - 1))
    if not licence_in_force_on(licence, day):
        raise RaffleError(
            gettext(
                "Draw %(number)s would be held on %(day)s, after licence %(number2)s expires on "
                "%(licence_expires_on)s; choose an earlier last draw."
            )
            % {
                "number": number,
                "day": format(day, "%Y-%m-%d"),
                "number2": licence.number,
                "licence_expires_on": format(licence_expires_on(licence, day), "%Y-%m-%d"),
            },
            rule="P7",
        )
    return number


def check_last_draw_must_go(event: Event, draw: Draw) -> None:
    """R:P7 the last draw the licence allows cannot roll over: it is run as the
    must-go final draw, which is set before its winning ticket is drawn.
    (Imported draws are history, decided elsewhere.)"""
    if draw.must_go or draw.is_imported:
        return
    next_day = timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=event.draw_interval_days)
    if not licence_in_force_on(event.licence, next_day):  # R:L8 by the expiry in force, amendments included
        expires_on = licence_expires_on(event.licence, next_day)
        raise RaffleError(
            gettext(
                "Draw %(number)s is the last draw before the licence expires on %(expires_on)s, so the Ace "
                "of Spades must be found in it. Make it the must-go final draw (the event's exit strategy "
                "page), then draw the winning ticket."
            )
            % {"number": draw.number, "expires_on": format(expires_on, "%Y-%m-%d")},
            rule="P7",
        )
