from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.money import MoneyError, Rounding, parse_amount, split_sales

cents = st.integers(min_value=0, max_value=10**11 - 1).map(lambda c: Decimal(c) / 100)


@given(sales=cents, rounding=st.sampled_from([Rounding.CENT, Rounding.DOLLAR]))
def test_split_always_adds_up_to_the_sales(sales, rounding):  # R:P1
    split = split_sales(sales, rounding=rounding)
    assert split.draw_prize + split.jackpot_contribution + split.licensee_share == split.sales == sales
    assert split.draw_prize <= sales * Decimal("0.20")
    assert split.jackpot_contribution <= sales * Decimal("0.30")
    assert split.licensee_share >= sales * Decimal("0.50")
    for part in (split.draw_prize, split.jackpot_contribution, split.licensee_share):
        assert part >= 0 and part == part.quantize(Decimal("0.01"))
    if rounding == Rounding.DOLLAR:
        assert split.draw_prize == split.draw_prize.to_integral_value()


def test_awkward_sales_round_down_to_the_cent_and_the_licensee_gets_the_rest():  # R:P1
    split = split_sales(Decimal("33.33"))
    assert split.draw_prize == Decimal("6.66")  # 6.666
    assert split.jackpot_contribution == Decimal("9.99")  # 9.999
    assert split.licensee_share == Decimal("16.68")


def test_whole_dollar_rounding_of_the_prizes():  # R:P1
    split = split_sales(Decimal("1234.50"), rounding=Rounding.DOLLAR)
    assert (split.draw_prize, split.jackpot_contribution, split.licensee_share) == (
        Decimal("246.00"),
        Decimal("370.00"),
        Decimal("618.50"),
    )


@pytest.mark.parametrize(
    "value, message",
    [
        ("-5", "cannot be negative"),
        ("abc", "must be a number"),
        ("12.345", "fractions of a cent"),
        ("NaN", "must be a number"),
        ("Infinity", "must be a number"),
        (1.5, "not a float"),
    ],
)
def test_bad_amounts_are_refused_in_plain_words(value, message):
    with pytest.raises(MoneyError, match=message):
        parse_amount(value)


def test_amounts_accept_dollar_signs_and_thousands_separators():
    assert parse_amount(" $1,250.5 ") == Decimal("1250.50")


@pytest.mark.parametrize(
    "typed, english, french",
    [
        ("1,250.50", "1250.50", "1250.50"),
        ("1 250,50 $", "1250.50", "1250.50"),
        ("1\u202f250,50\u00a0$", "1250.50", "1250.50"),  # as French formatting prints it
        ("1250,50", "1250.50", "1250.50"),
        ("1.234.567,89", "1234567.89", "1234567.89"),
        ("12,500,000", "12500000.00", "12500000.00"),
        ("1,250", "1250.00", "1.25"),  # the one ambiguous shape: the reader's language decides
        ("1250.50", "1250.50", "1250.50"),
    ],
)
def test_amounts_read_as_english_and_french_write_them(typed, english, french):  # R:P1 to the cent
    from django.utils import translation

    with translation.override("en"):
        assert parse_amount(typed) == Decimal(english)
    with translation.override("fr"):
        assert parse_amount(typed) == Decimal(french)


@pytest.mark.parametrize("typed", ["1,2.5", "1,25,0", "1.2.3", "12,50.00", "1.250.50,5.0"])
def test_a_separator_that_can_mean_nothing_is_refused_not_dropped(typed):
    """Dropping every comma once turned the French 1250,50 into 125050."""
    with pytest.raises(MoneyError, match="must be a number"):
        parse_amount(typed)
