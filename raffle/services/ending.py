"""How a licence ends (RULES R5): the Ace of Spades, expiry, cancellation,
a must-go draw. A cancelled licence stops every later step of every draw and
every sale; a licence that reaches its expiry without the Ace has its draw run
as the must-go final draw (P7); however it ended, the final report is due
(`raffle.reports.deadlines`, `raffle.reports.builders.final`)."""

from django.utils import timezone
from django.utils.translation import gettext

from licensing.models import Licence, LicenceStatus
from licensing.terms import licence_expires_on, licence_is_expired
from raffle.errors import RaffleError


def check_not_cancelled(licence: Licence, what: str) -> None:
    """R:R5 refuse `what` ("draw 3's next step", "this sale") under a cancelled licence."""
    if licence.status == LicenceStatus.CANCELLED:
        ended = f" on {licence.concluded_at:%Y-%m-%d}" if licence.concluded_at else ""
        raise RaffleError(
            gettext(
                "Licence %(number)s was cancelled%(ended)s: %(what)s cannot go ahead under it. The final "
                "report is due within 30 days of the cancellation (the treasurer's reports page)."
            )
            % {"number": licence.number, "ended": ended, "what": what},
            rule="R5",
        )


def check_licence_allows_step(event, draw) -> None:
    """R:R5 every step of a draw: none under a cancelled licence; after the
    licence's expiry without the Ace, only the must-go final draw goes on,
    until the Ace is found (P7)."""
    licence = event.licence
    check_not_cancelled(licence, f"draw {draw.number}'s next step")
    today = timezone.localdate()
    if not draw.must_go and licence_is_expired(licence, today):  # R:L8 by the expiry in force, amendments included
        raise RaffleError(
            gettext(
                "Licence %(number)s expired on %(licence_expires_on)s without the Ace of Spades: draw "
                "%(number2)s can only go on as the must-go final draw, run until the Ace is found. Make it "
                "the must-go final draw (the event's exit strategy page), then carry on."
            )
            % {
                "number": licence.number,
                "licence_expires_on": format(licence_expires_on(licence, today), "%Y-%m-%d"),
                "number2": draw.number,
            },
            rule="R5",
        )
