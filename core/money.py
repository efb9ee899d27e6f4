"""All money arithmetic: parsing, rounding and the P1 split. # R:P1

Money is `Decimal` to the cent and never `float`. This is the only module that
rounds; everything else asks it.
"""

import re
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal, InvalidOperation

from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from core.errors import DomainError

CENT = Decimal("0.01")
DOLLAR = Decimal("1")
ZERO = Decimal("0.00")

# Catch the Ace split of each draw's ticket sales (RULES P1).
DRAW_PRIZE_PERCENT = Decimal("20")
JACKPOT_PERCENT = Decimal("30")
LICENSEE_PERCENT = Decimal("50")

# The largest amount a field may hold (DecimalField max_digits=12).
MAX_AMOUNT = Decimal("9999999999.99")


class MoneyError(DomainError):
    pass


class Rounding:
    """How the 20% and 30% are rounded; the event's Rules of Play choose."""

    CENT = "cent"
    DOLLAR = "dollar"
    CHOICES = [(CENT, gettext_lazy("Down to the cent")), (DOLLAR, gettext_lazy("Down to the whole dollar"))]

    @classmethod
    def quantum(cls, rule: str) -> Decimal:
        if rule == cls.CENT:
            return CENT
        if rule == cls.DOLLAR:
            return DOLLAR
        raise MoneyError(f"Unknown rounding rule {rule!r}: use 'cent' or 'dollar'.")


def _not_dollars(what) -> str:
    return gettext("%(what)s must be a number of dollars, like 1250 or 1250.50.") % {"what": what}


# Spaces a French amount groups its thousands with ("1 250,50 $"): the space,
# the no-break space and the narrow no-break space.
_GROUP_SPACES = str.maketrans("", "", " \u00a0\u202f")
_THOUSANDS = {",": re.compile(r"^\d{1,3}(,\d{3})+$"), ".": re.compile(r"^\d{1,3}(\.\d{3})+$")}


def plain_digits(text: str, what) -> str:
    """`text` as Decimal reads it: "1,250.50", "1 250,50 $" and "1250,50" are
    1250.50 whatever the language, since none of them can mean anything else.
    The one ambiguous shape, a single comma before three digits ("1,250"), is
    read the way the reader's language writes it: 1250 in English, 1.25 in
    French. A separator anywhere else is refused rather than dropped (dropping
    every comma once turned the French "1250,50" into 125050)."""
    text = text.strip().removeprefix("$").removesuffix("$").translate(_GROUP_SPACES)
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    commas, dots = digits.count(","), digits.count(".")
    if commas and dots:  # the last mark is the decimal one; the other groups thousands
        mark, other = (",", ".") if digits.rfind(",") > digits.rfind(".") else (".", ",")
        head, _, tail = digits.rpartition(mark)
        if not _THOUSANDS[other].match(head):
            raise MoneyError(_not_dollars(what))
        return f"{sign}{head.replace(other, '')}.{tail}"
    if commas or dots:
        mark, count = (",", commas) if commas else (".", dots)
        if _THOUSANDS[mark].match(digits) and (count > 1 or (mark == "," and not _french())):
            return f"{sign}{digits.replace(mark, '')}"  # "1,250", "12,500,000": thousands
        if count > 1:
            raise MoneyError(_not_dollars(what))
        head, _, tail = digits.partition(mark)
        return f"{sign}{head}.{tail}"
    return f"{sign}{digits}"


def _french() -> bool:
    return (translation.get_language() or "").startswith("fr")


def parse_amount(value, *, what: str = gettext_lazy("The amount"), allow_zero: bool = True) -> Decimal:
    """Turn user input into a cent-exact, non-negative Decimal or refuse it.

    Floats are refused outright: a float has already lost the cents.
    """
    if isinstance(value, float):
        raise MoneyError(f"{what} must be given as text or Decimal, not a float.")
    if isinstance(value, str):
        value = plain_digits(value, what)
    try:
        amount = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        raise MoneyError(_not_dollars(what)) from None
    if not amount.is_finite():
        raise MoneyError(_not_dollars(what))
    if amount < 0:
        raise MoneyError(gettext("%(what)s cannot be negative.") % {"what": what})
    if not allow_zero and amount == 0:
        raise MoneyError(gettext("%(what)s must be more than zero.") % {"what": what})
    if amount > MAX_AMOUNT:  # first: quantizing 1e9999 to the cent would overflow
        raise MoneyError(gettext("%(what)s is larger than this system can record.") % {"what": what})
    if amount != amount.quantize(CENT, rounding=ROUND_DOWN):
        raise MoneyError(gettext("%(what)s has fractions of a cent; give it to the cent.") % {"what": what})
    return amount.quantize(CENT)


def percent_of(amount: Decimal, percent: Decimal, *, rounding: str = Rounding.CENT) -> Decimal:
    """`percent`% of `amount`, rounded down to the rule's quantum, in cents."""
    exact = amount * percent / Decimal(100)
    return exact.quantize(Rounding.quantum(rounding), rounding=ROUND_DOWN).quantize(CENT)


@dataclass(frozen=True)
class Split:
    """One draw's sales divided per P1. The parts always add up to `sales`."""

    sales: Decimal
    draw_prize: Decimal
    jackpot_contribution: Decimal
    licensee_share: Decimal
    rounding: str

    def __post_init__(self):
        total = self.draw_prize + self.jackpot_contribution + self.licensee_share
        if total != self.sales:  # pragma: no cover - guarded by construction
            raise AssertionError(f"split of {self.sales} adds up to {total}")


# Named in a refusal only: translated then, not on every split (#18).
TICKET_SALES = gettext_lazy("Ticket sales")


def split_sales(sales: Decimal, *, rounding: str = Rounding.CENT) -> Split:
    """Split ticket sales 20/30/50. The 20% and 30% are rounded down as the
    Rules of Play say; the licensee's 50% is the remainder, so the three parts
    add up to the sales exactly, whatever the amount."""
    sales = parse_amount(sales, what=TICKET_SALES)
    draw_prize = percent_of(sales, DRAW_PRIZE_PERCENT, rounding=rounding)
    jackpot = percent_of(sales, JACKPOT_PERCENT, rounding=rounding)
    return Split(
        sales=sales,
        draw_prize=draw_prize,
        jackpot_contribution=jackpot,
        licensee_share=sales - draw_prize - jackpot,
        rounding=rounding,
    )


def format_money(amount: Decimal | None) -> str:
    """$1,234.50 for pages and reports; an em dash for no figure yet."""
    if amount is None:
        return "—"
    return f"${amount:,.2f}"


def format_money_in(amount: Decimal | None, language: str) -> str:
    """An amount as it is written in `language`: $1,234.50 in English,
    1 234,50 $ in Canadian French (no-break spaces, so a line never breaks
    inside an amount)."""
    if amount is None or not language.startswith("fr"):
        return format_money(amount)
    return f"{amount:,.2f}".replace(",", "\u00a0").replace(".", ",") + "\u00a0$"


def format_money_here(amount: Decimal | None) -> str:
    """An amount as the reader's language writes it (the active translation,
    as the `money` filter does): for the sentences a page or a refusal shows."""
    return format_money_in(amount, translation.get_language() or "en")


def prizes_of(sales: Decimal, *, rounding: str = Rounding.CENT) -> Decimal:
    """The prizes a draw's sales create: its 20% draw prize plus its 30%
    jackpot allocation, rounded as in `split_sales` (RULES L9 decision)."""
    split = split_sales(sales, rounding=rounding)
    return split.draw_prize + split.jackpot_contribution


def max_sales_for_prizes(prizes: Decimal, *, rounding: str = Rounding.CENT) -> Decimal:
    """The largest sales, to the cent, whose prizes (`prizes_of`) stay within
    `prizes`. Prizes are about half the sales; the rounding down of each part
    can leave a little more room, found by stepping up a cent at a time."""
    if prizes <= 0:
        return ZERO
    sales = (prizes * 2).quantize(CENT, rounding=ROUND_DOWN)
    while sales > 0 and prizes_of(sales, rounding=rounding) > prizes:
        sales -= CENT
    # Whole-dollar rounding leaves at most a few dollars more; bounded loop.
    for _ in range(1000):
        if prizes_of(sales + CENT, rounding=rounding) > prizes:
            break
        sales += CENT
    return sales


def share_equally(amount: Decimal, parts: int) -> list[Decimal]:
    """Divide `amount` into `parts` shares to the cent that add up to it
    exactly: everyone gets the amount divided and rounded down, and the cents
    left over go one each to the first shares (in the order the shares are
    listed, e.g. the order the tickets were drawn)."""
    if parts < 1:
        raise MoneyError("Share an amount among at least one person.")
    cents = int((amount / CENT).to_integral_value(rounding=ROUND_DOWN))
    if Decimal(cents) * CENT != amount:
        raise MoneyError("Only an amount to the cent can be shared.")
    base, left = divmod(cents, parts)
    return [(Decimal(base + (1 if i < left else 0)) * CENT).quantize(CENT) for i in range(parts)]


def percent_used(part: Decimal, whole: Decimal) -> Decimal:
    """`part` as a percentage of `whole`, rounded down to a tenth of a percent
    (for gauges such as the prize board; never used to move money)."""
    if whole <= 0:
        raise MoneyError("The whole must be more than zero.")
    return (part * 100 / whole).quantize(Decimal("0.1"), rounding=ROUND_DOWN)


def average_amount(amounts: list[Decimal]) -> Decimal:
    """The mean of some amounts, rounded down to the cent (for forecasts)."""
    if not amounts:
        return ZERO
    return (sum(amounts, ZERO) / len(amounts)).quantize(CENT, rounding=ROUND_DOWN)
