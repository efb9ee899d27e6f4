"""Seed (guaranteed minimum) jackpots: RULES P6, with the prize board (L3)
and its fee (L9) they count in."""

import datetime
from decimal import Decimal
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from core.models import AuditEntry
from licensing.models import Licence
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Event, Sale, TicketRoll
from tests.factories import LicenceFactory, event_with_draw, name_members_in_charge, sell_tickets

pytestmark = pytest.mark.django_db
D = Decimal


def _setup_event(*extra, licence="MUN-2026-017", prize_board="50000"):
    """The treasurer sets the raffle up from the command line, as the operator guide says."""
    out = StringIO()
    today = timezone.localdate()
    call_command(
        "setup_event",
        "--licence",
        licence,
        "--organisation",
        "Owen Sound Legion Branch 6",
        "--authority",
        "municipality",
        "--authority-name",
        "City of Owen Sound",
        "--channel",
        "paper-roll",
        "--prize-board",
        prize_board,
        "--ticket-price",
        "5",
        "--starts",
        (today + datetime.timedelta(days=1)).isoformat(),
        "--rules-approved-on",  # R:R4 the authority approved the Rules of Play before the first sale
        today.isoformat(),
        "--rules-approval-reference",
        "City of Owen Sound, letter LL-2026-017",
        "--purpose",
        "community",
        "--active-since",
        "2015-01-01",
        "--non-profit-evidence",
        "Letters patent 1234567",
        "--location-evidence",
        "1450 1st Ave W, Owen Sound ON",
        "--activity-evidence",
        "Annual reports 2015-2025",
        *extra,
        stdout=out,
    )
    return out.getvalue()


def test_a_seed_of_10000_on_a_50000_municipal_licence_fills_the_board_with_the_sales(staff_user):  # R:P6 R:L3
    """The Legion seeds its jackpot with $10,000 of its own money on a $50,000
    municipal licence. Draw 1 sells until the prizes plus the seed reach
    $50,000 ($80,000 of tickets: $40,000 of prizes); the next $5 ticket is
    refused with a message that names the prize board, and nothing is sold."""
    output = _setup_event("--seed-jackpot", "10000", "--seed-source", "organisation")
    assert "Seed:         $10,000.00 from the organisation's own funds, counted in the prize board" in output
    event = Event.objects.get(licence__number="MUN-2026-017")
    assert event.jackpot == event.seed_jackpot == D("10000.00") and event.seed_source == "organisation"
    assert event.licence.prize_board == D("50000.00") and event.licence.fee_rate_percent == D("3.00")
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    sell_tickets(draw, actor=staff_user, sales="80000")  # a roll of 16,000 tickets sold and returned
    assert services.prizes_committed(event) == D("10000.00")  # the seed, before any draw closes
    sales = Sale.objects.count()
    with pytest.raises(RaffleError) as refused:
        sell_tickets(draw, actor=staff_user, sales="5")
    assert refused.value.rule == "L3"
    message = str(refused.value)
    assert "would bring the prizes to $50,002.50, past licence MUN-2026-017's prize board of $50,000.00" in message
    assert "the seed jackpot of $10,000.00 included" in message
    assert Sale.objects.count() == sales
    # The seller hands the refused roll back unsold (L13: no roll out when sales close).
    unsold = TicketRoll.objects.get(draw=draw, returned_at__isnull=True)
    services.roll_return(actor=staff_user, roll=unsold, first_unsold=unsold.first_serial, tier_counts={})
    name_members_in_charge(draw, actor=staff_user)  # R:L13 before its sales close
    # What was sold fits exactly: sales close, and the prizes plus the seed are the whole board.
    closed = services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="80000")
    assert closed.state == DrawState.SALES_CLOSED and closed.jackpot_after == D("34000.00")
    assert services.prizes_committed(Event.objects.get(pk=event.pk)) == D("50000.00")


def test_set_up_refuses_a_seed_that_does_not_fit_the_prize_board_and_makes_nothing():  # R:P6 R:L3
    """A $60,000 seed cannot fit a $50,000 prize board: nothing is made, not even the licence."""
    with pytest.raises(CommandError, match=r"does not fit in licence MUN-2026-018's prize board of \$50,000.00"):
        _setup_event(
            "--seed-jackpot",
            "60000",
            "--letter-of-credit",
            "SLC-1",
            "--credit-issuer",
            "Meridian Credit Union",
            "--credit-expires",
            "2099-01-01",
            licence="MUN-2026-018",
        )
    assert not Licence.objects.filter(number="MUN-2026-018").exists()


def test_a_sponsor_guarantee_over_10000_is_set_up_with_its_whole_letter_of_credit():  # R:P6
    """A credit union sponsors a $25,000 guaranteed jackpot on an AGCO-sized
    board; its irrevocable standby letter of credit runs 45 days past the licence."""
    expires = timezone.localdate() + datetime.timedelta(days=1 + 365 + 45)
    output = _setup_event(
        "--seed-jackpot",
        "25000",
        "--seed-source",
        "sponsor",
        "--letter-of-credit",
        "SLC-2026-0042",
        "--credit-issuer",
        "Meridian Credit Union",
        "--credit-expires",
        expires.isoformat(),
    )
    event = Event.objects.get(licence__number="MUN-2026-017")
    assert (event.seed_jackpot, event.seed_source) == (D("25000.00"), "sponsor")
    assert (event.seed_letter_of_credit, event.seed_credit_issuer, event.seed_credit_expires_on) == (
        "SLC-2026-0042",
        "Meridian Credit Union",
        expires,
    )
    assert "from a sponsor" in output and "letter of credit SLC-2026-0042 from Meridian Credit Union" in output
    setup = AuditEntry.objects.get(action="raffle.event.setup")
    assert setup.data["seed_source"] == "sponsor" and setup.data["seed_credit_issuer"] == "Meridian Credit Union"


def test_a_letter_of_credit_expiring_less_than_45_days_after_the_licence_is_refused():  # R:P6
    licence = LicenceFactory()
    with pytest.raises(RaffleError, match="at least 45 days past the licence's expiry") as refused:
        event_with_draw(
            licence=licence,
            seed_jackpot="25000",
            seed_letter_of_credit="SLC-7",
            seed_credit_issuer="Libro Credit Union",
            seed_credit_expires_on=licence.expires_on + datetime.timedelta(days=44),
        )
    assert refused.value.rule == "P6"
    assert not Event.objects.filter(licence=licence).exists()
    event = event_with_draw(
        licence=licence,
        seed_jackpot="25000",
        seed_letter_of_credit="SLC-7",
        seed_credit_issuer="Libro Credit Union",
        seed_credit_expires_on=licence.expires_on + datetime.timedelta(days=45),
    )
    assert event.seed_credit_issuer == "Libro Credit Union"


def test_a_seed_up_to_10000_starts_the_jackpot_of_a_new_licence(staff_user):  # R:P6
    event = event_with_draw(actor=staff_user, seed_jackpot="10000.00")
    assert event.jackpot == event.seed_jackpot == D("10000.00")


def test_a_seed_over_10000_without_a_letter_of_credit_is_refused_and_nothing_is_made(staff_user):  # R:P6
    licence = LicenceFactory()
    with pytest.raises(RaffleError, match="standby letter of credit"):
        event_with_draw(actor=staff_user, licence=licence, seed_jackpot="10000.01")
    with pytest.raises(RaffleError, match="its reference, its issuer and its expiry"):
        event_with_draw(actor=staff_user, licence=licence, seed_jackpot="25000", seed_letter_of_credit="SLC-9")
    assert not Event.objects.filter(licence=licence).exists()


def test_a_letter_of_credit_is_recorded_whole_or_not_at_all(staff_user):  # R:P6
    licence = LicenceFactory()
    with pytest.raises(RaffleError, match="Record the whole letter of credit"):
        event_with_draw(actor=staff_user, licence=licence, seed_jackpot="5000", seed_credit_issuer="Libro")
    assert not Event.objects.filter(licence=licence).exists()


def test_the_seed_cannot_be_changed_after_set_up(staff_user):  # R:P6
    event = event_with_draw(actor=staff_user)
    with pytest.raises(RaffleError, match="already has its event"):
        services.event_setup(
            actor=staff_user,
            licence=event.licence,
            name="again",
            first_draw_at=event.first_draw_at,
            seed_jackpot="5000",
        )


def test_an_imported_draw_that_would_carry_prizes_plus_seed_past_the_board_is_refused(staff_user):  # R:P6 R:L3
    """A draw brought in from another system closes on its recorded total:
    with a $10,000 seed on a $50,000 board it may carry at most $80,000.03
    (the cents of each part are rounded down)."""
    licence = LicenceFactory(prize_board=D("50000.00"))
    event = event_with_draw(actor=staff_user, licence=licence, seed_jackpot="10000")
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    Draw.objects.filter(pk=draw.pk).update(is_imported=True)
    with pytest.raises(
        RaffleError, match=r"past licence .*'s prize board of \$50,000.00.*at most \$80,000.03 in sales"
    ):
        services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="80000.10")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SELLING
    assert services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="80000").jackpot_after == D("34000.00")
