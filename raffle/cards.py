"""The 52 cards of a standard deck and the short codes used everywhere:
rank then suit, `AS` for the Ace of Spades, `QD` for the queen of diamonds,
`10H` for the ten of hearts."""

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext as _

from raffle.errors import RaffleError

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
# English in the records (the destruction log, the audit trail); translated
# only where a reader sees them (`card_name_for_reader`).
RANK_NAMES = {
    "A": gettext_noop("Ace"),
    "J": gettext_noop("Jack"),
    "Q": gettext_noop("Queen"),
    "K": gettext_noop("King"),
}
SUIT_NAMES = {
    "S": gettext_noop("Spades"),
    "H": gettext_noop("Hearts"),
    "D": gettext_noop("Diamonds"),
    "C": gettext_noop("Clubs"),
}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}

ACE_OF_SPADES = "AS"
DECK = [rank + suit for suit in SUITS for rank in RANKS]


def card_name(code: str) -> str:
    rank, suit = code[:-1], code[-1]
    return f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"


def card_name_for_reader(code: str) -> str:
    """The card's name in the reader's language, for public pages."""
    rank, suit = code[:-1], code[-1]
    return _("%(rank)s of %(suit)s") % {"rank": _(RANK_NAMES.get(rank, rank)), "suit": _(SUIT_NAMES[suit])}


CARD_CHOICES = [(code, card_name(code)) for code in DECK]


def card_symbol(code: str) -> str:
    return f"{code[:-1]}{SUIT_SYMBOLS[code[-1]]}"


def parse_card(text: str) -> str:
    """Accept `QD`, `qd`, `10h`, `TH`, `Q♦` or `queen of diamonds`; return the code."""
    raw = (text or "").strip()
    value = raw.upper().replace(" ", "")
    for suit, symbol in SUIT_SYMBOLS.items():
        value = value.replace(symbol, suit)
    if "OF" in value:
        rank_word, _, suit_word = value.partition("OF")
        ranks = {name.upper(): rank for rank, name in RANK_NAMES.items()}
        words = {
            "TWO": "2",
            "THREE": "3",
            "FOUR": "4",
            "FIVE": "5",
            "SIX": "6",
            "SEVEN": "7",
            "EIGHT": "8",
            "NINE": "9",
            "TEN": "10",
        }
        suits = {name.upper(): suit for suit, name in SUIT_NAMES.items()}
        rank = ranks.get(rank_word) or words.get(rank_word) or rank_word
        suit = suits.get(suit_word) or suits.get(suit_word + "S", "")
        value = rank + suit
    if value[:1] == "T":
        value = "10" + value[1:]
    if value not in DECK:
        raise RaffleError(
            gettext(
                "%(raw)s is not a playing card. Write the rank then the suit, for example QD for the Queen "
                "of Diamonds or AS for the Ace of Spades."
            )
            % {"raw": repr(raw)}
        )
    return value
