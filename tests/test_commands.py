from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from core.audit import audit_verify
from licensing.models import Licence
from raffle.management.commands.load_demo import DEMO_LICENCE
from raffle.models import Draw, DrawState, Event

pytestmark = pytest.mark.django_db


ELIGIBLE = [
    "--purpose",
    "relief_of_poverty",
    "--active-since",
    "2019-03-01",
    "--non-profit-evidence",
    "Letters patent 1234567",
    "--location-evidence",
    "12 King St, Kingston ON",
    "--activity-evidence",
    "Annual reports 2019-2025",
]


def _setup(*extra):
    out = StringIO()
    call_command(
        "setup_event",
        "--licence",
        "AGCO-RAF-2026-001",
        "--organisation",
        "Trillium Food Bank",
        "--authority",
        "agco",
        "--authority-name",
        "AGCO",
        "--channel",
        "electronic",
        "--prize-board",
        "250000",
        "--ticket-price",
        "5",
        "--starts",
        "2026-12-10",
        *ELIGIBLE,
        *extra,
        stdout=out,
    )
    return out.getvalue()


def test_setup_event_makes_the_organisation_licence_event_and_envelopes():
    output = _setup("--rounding", "dollar")
    event = Event.objects.get(licence__number="AGCO-RAF-2026-001")
    assert event.envelopes.count() == 52
    assert event.rounding == "dollar"
    assert event.draws.get().state == DrawState.SCHEDULED
    assert "Trillium Food Bank (new)" in output
    assert "prize board $250,000.00" in output
    assert "52 sealed" in output


def test_setup_event_refuses_a_municipal_licence_over_50000_in_plain_words():  # R:L2
    with pytest.raises(CommandError, match="at most \\$50,000"):
        call_command(
            "setup_event",
            "--licence",
            "M-9",
            "--organisation",
            "X",
            "--authority",
            "municipality",
            "--authority-name",
            "Town of Y",
            "--channel",
            "paper-roll",
            "--prize-board",
            "60000",
            "--ticket-price",
            "5",
            stdout=StringIO(),
        )
    assert not Licence.objects.exists()


def test_setup_event_refuses_a_bad_price_and_changes_nothing():
    with pytest.raises(CommandError, match="must be a number"):
        call_command(
            "setup_event",
            "--licence",
            "A-1",
            "--organisation",
            "X",
            "--authority",
            "agco",
            "--authority-name",
            "AGCO",
            "--channel",
            "online",
            "--prize-board",
            "60000",
            "--ticket-price",
            "five",
            *ELIGIBLE,
            stdout=StringIO(),
        )
    assert not Licence.objects.exists()


def test_setup_event_refuses_an_organisation_without_eligibility_evidence():  # R:L1
    with pytest.raises(CommandError, match="no eligibility assessment"):
        call_command(
            "setup_event",
            "--licence",
            "A-2",
            "--organisation",
            "New Club",
            "--authority",
            "agco",
            "--authority-name",
            "AGCO",
            "--channel",
            "electronic",
            "--prize-board",
            "60000",
            "--ticket-price",
            "5",
            stdout=StringIO(),
        )
    assert not Licence.objects.exists()


def test_load_demo_is_mid_raffle_with_an_intact_audit_trail():
    out = StringIO()
    call_command("load_demo", stdout=out)
    event = Event.objects.get(licence__number=DEMO_LICENCE)
    assert Draw.objects.filter(event=event, state=DrawState.CLOSED).count() == 12
    assert Draw.objects.get(event=event, number=13).state == DrawState.SELLING
    assert event.envelopes.filter(opened_at__isnull=False).count() == 12
    assert event.jackpot == sum(d.jackpot_contribution for d in event.draws.filter(state=DrawState.CLOSED))
    assert "treasurer" in out.getvalue() and "catch-the-ace-demo" in out.getvalue()
    assert audit_verify().intact
    call_command("load_demo", stdout=StringIO())  # idempotent
    assert Event.objects.count() == 2  # and the gift shop's electronic raffle (tests/test_demo.py)


def test_check_is_clean_and_no_migration_is_missing():
    call_command("check", fail_level="WARNING")
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())
