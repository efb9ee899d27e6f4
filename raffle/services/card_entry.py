"""The card read out of the envelope, as it is recorded (RULES E3, P4): typed
twice, like the paper serial, so one slip of the finger is caught before
anything is written; and the Ace of Spades only with a confirmation that says
what recording it does next (the jackpot awarded, the event and the licence
ended), so a mistyped `AS` never awards the jackpot."""

from django.utils.translation import gettext as _

from core.money import format_money_here
from raffle.cards import ACE_OF_SPADES, card_name_for_reader, parse_card
from raffle.errors import RaffleError
from raffle.models import Draw, Event


def ace_consequences(*, event: Event, draw: Draw) -> str:
    """What recording the Ace of Spades does next, in the volunteer's words."""
    return _(
        "Recording the Ace of Spades awards the jackpot of %(jackpot)s and the draw prize of %(prize)s to "
        "ticket %(serial)s, and ends the event and licence %(licence)s: nothing more is sold or drawn under it."
    ) % {
        "jackpot": format_money_here(draw.jackpot_after or 0),
        "prize": format_money_here(draw.draw_prize or 0),
        "serial": draw.winning_serial,
        "licence": event.licence.number,
    }


def typed_card(*, event: Event, draw: Draw, card: str, card_again: str | None, ace_confirmed: bool) -> str:
    """R:E3 the card typed twice, both the same card; R:P4 the Ace of Spades
    confirmed. Returns the card's code; refuses (nothing written) otherwise."""
    code = parse_card(card)
    again = parse_card(card_again) if card_again not in (None, "") else None
    if again is None:
        raise RaffleError(_("Type the card twice: once in each box, reading it again from the card itself."), rule="E3")
    if again != code:
        raise RaffleError(
            _(
                "The two cards typed do not match (%(first)s, then %(second)s). Nothing was recorded: "
                "look at the card again and type it twice."
            )
            % {"first": card_name_for_reader(code), "second": card_name_for_reader(again)},
            rule="E3",
        )
    if code == ACE_OF_SPADES and not ace_confirmed:
        raise RaffleError(
            _(
                "The card typed is the Ace of Spades. %(next)s Tick the confirmation if the card shown is the "
                "Ace of Spades."
            )
            % {"next": ace_consequences(event=event, draw=draw)},
            rule="P4",
        )
    return code
