"""Seed (guaranteed minimum) jackpots: RULES P6."""

from decimal import Decimal

import pytest

from raffle.errors import RaffleError
from raffle.models import Event
from tests.factories import LicenceFactory, event_with_draw

pytestmark = pytest.mark.django_db


def test_a_seed_up_to_10000_starts_the_jackpot_of_a_new_licence(staff_user):  # R:P6
    event = event_with_draw(actor=staff_user, seed_jackpot="10000.00")
    assert event.jackpot == event.seed_jackpot == Decimal("10000.00")


def test_a_seed_over_10000_without_a_letter_of_credit_is_refused_and_nothing_is_made(staff_user):  # R:P6
    licence = LicenceFactory()
    with pytest.raises(RaffleError, match="standby letter of credit"):
        event_with_draw(actor=staff_user, licence=licence, seed_jackpot="10000.01")
    assert not Event.objects.filter(licence=licence).exists()


def test_a_seed_over_10000_with_its_letter_of_credit_is_recorded(staff_user):  # R:P6
    event = event_with_draw(
        actor=staff_user, seed_jackpot="25000", seed_letter_of_credit="Meridian Credit Union SLC-2026-0042"
    )
    assert event.jackpot == Decimal("25000.00")
    assert event.seed_letter_of_credit == "Meridian Credit Union SLC-2026-0042"


def test_the_seed_cannot_be_changed_after_set_up(staff_user):  # R:P6
    from raffle.services import event_setup

    event = event_with_draw(actor=staff_user)
    with pytest.raises(RaffleError, match="already has its event"):
        event_setup(
            actor=staff_user,
            licence=event.licence,
            name="again",
            first_draw_at=event.first_draw_at,
            seed_jackpot="5000",
        )
