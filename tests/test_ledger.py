"""The draw ledger export and the history import (RULES P1, P4, E1)."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from core import roles
from licensing.models import LicenceStatus
from raffle.models import Draw, DrawState, Envelope
from raffle.reports.ledger import LEDGER_COLUMNS, ImportRefused
from raffle.services import history_import
from tests.factories import (
    LicenceFactory,
    acting_as,
    event_with_closed_draws,
    event_with_draw,
    run_draw,
    user_with_role,
)

HEADER = "draw_number,draw_date,ticket_sales,envelope,card"
# A running raffle moves in: its licence was issued before the draws it imports (L3).
MOVED_IN = datetime.date(2025, 12, 1)
# R:D9 the raffle moved in was set up on the date of its first draw, as its records say.
JAN_8 = timezone.make_aware(datetime.datetime(2026, 1, 8, 19, 0))


@pytest.fixture
def actor(db):
    return user_with_role(roles.TREASURER, username="treasurer")


def _export(licence_number: str) -> str:
    out = io.StringIO()
    call_command("export_ledger", "--licence", licence_number, "--as", "treasurer", stdout=out)
    return out.getvalue()


def test_export_has_exactly_the_ledger_columns(actor):
    event, draws = event_with_closed_draws(["795.00", "430.00"], actor=actor)
    text = _export(event.licence.number)
    lines = text.splitlines()
    assert lines[0] == (
        "draw_number,draw_date,ticket_sales,draw_prize,jackpot_contribution,licensee_share,"
        "jackpot_before,jackpot_after,envelope,card,outcome"
    )
    assert LEDGER_COLUMNS == lines[0].split(",")
    d = draws[0]
    assert lines[1] == (
        f"1,{timezone.localdate(d.scheduled_at).isoformat()},795.00,159.00,238.50,397.50,0.00,238.50,{d.envelope.number},{d.envelope.card},rollover"
    )
    assert lines[2].endswith(
        f",430.00,86.00,129.00,215.00,238.50,367.50,{draws[1].envelope.number},{draws[1].envelope.card},rollover"
    )


def test_export_then_import_reproduces_the_ledger_exactly(actor, tmp_path):  # R:P1
    source, _ = event_with_closed_draws(
        ["795.00", "430.00", "405.00", "385.00", "1234.55"], actor=actor, seed_jackpot="500.00"
    )
    exported = _export(source.licence.number)
    # The same raffle moving in: its licence, its seed (P6) and its first draw's time.
    target = event_with_draw(
        actor=actor,
        licence=LicenceFactory(issued_on=source.licence.issued_on),
        first_draw_at=source.first_draw_at,
        seed_jackpot="500.00",
    )
    path = tmp_path / "ledger.csv"
    path.write_text(exported)
    call_command("import_history", *acting_as(), "--licence", target.licence.number, str(path), stdout=io.StringIO())
    assert _export(target.licence.number) == exported
    imported = list(Draw.objects.filter(event=target, state=DrawState.CLOSED))
    assert len(imported) == 5 and all(d.is_imported for d in imported)
    target.refresh_from_db()
    source.refresh_from_db()
    assert target.jackpot == source.jackpot
    # The draw after them runs normally with the live services.
    following = Draw.objects.get(event=target, number=6)
    assert following.state == DrawState.SCHEDULED
    run_draw(following, actor=actor, sales="100.00")
    following.refresh_from_db()
    assert following.jackpot_before == source.jackpot and following.state == DrawState.CLOSED


def test_dry_run_changes_nothing(actor):
    event = event_with_draw(actor=actor, licence=LicenceFactory(issued_on=MOVED_IN))
    plan = history_import(
        actor=actor, licence=event.licence, dry_run=True, text=f"{HEADER}\n1,2026-01-08,795.00,7,QD\n"
    )
    assert plan.rows[0].draw_prize == Decimal("159.00") and not plan.imported
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()


@pytest.mark.parametrize(
    "body, reason",
    [
        ("draw_number,draw_date,ticket_sales,card\n1,2026-01-08,10.00,QD\n", "header: missing column(s) envelope"),
        (
            f"{HEADER}\n1,2026-01-08,10.00,7,QD\n1,2026-01-15,10.00,8,KD\n",
            "row 3 (draw 1): draw number 1 appears twice",
        ),
        (
            f"{HEADER}\n1,2026-01-08,10.00,7,QD\n2,2026-01-15,10.00,8,QD\n",
            "row 3 (draw 2): the Queen of Diamonds (QD) appears twice",
        ),
        (f"{HEADER}\n1,2026-01-08,-10.00,7,QD\n", "row 2 (draw 1): ticket_sales cannot be negative"),
        (
            f"{HEADER}\n1,2026-01-08,10.00,7,QD\n2,2026-01-15,10.00,7,KD\n",
            "row 3 (draw 2): envelope 7 was already opened",
        ),
        (f"{HEADER}\n1,2026-01-08,10.00,7,AS\n2,2026-01-15,10.00,8,KD\n", "the Ace of Spades ends the event"),
        (f"{HEADER}\n1,2026-01-08,10.00,7,ZZ\n", "row 2 (draw 1): 'ZZ' is not a playing card"),
        (f"{HEADER}\n1,2026-01-08,10.00,7,QD\n3,2026-01-15,10.00,8,KD\n", "expected draw 2"),
    ],
)
def test_malformed_import_is_refused_whole_naming_row_and_reason(actor, tmp_path, body, reason):  # R:E1
    event = event_with_draw(actor=actor, licence=LicenceFactory(issued_on=MOVED_IN))
    path = tmp_path / "history.csv"
    path.write_text(body)
    with pytest.raises(CommandError) as error:
        call_command("import_history", *acting_as(), "--licence", event.licence.number, str(path), stdout=io.StringIO())
    assert reason in str(error.value)
    assert "nothing was changed" in str(error.value)
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()
    assert not Envelope.objects.filter(event=event, opened_at__isnull=False).exists()


def test_published_figures_that_differ_are_reported_and_refused(actor):
    event = event_with_draw(actor=actor, licence=LicenceFactory(issued_on=MOVED_IN), first_draw_at=JAN_8)
    text = (
        "draw_number,draw_date,ticket_sales,envelope,card,draw_prize,jackpot_after\n"
        "1,2026-01-08,795.00,7,QD,159.00,238.50\n2,2026-01-15,430.00,8,KD,86.00,368.00\n"
    )
    with pytest.raises(ImportRefused) as error:
        history_import(actor=actor, licence=event.licence, text=text)
    assert error.value.problems[0] == (
        "row 3 (draw 2): published jackpot_after 368.00 but the computed figure is 367.50"
    )
    plan = history_import(actor=actor, licence=event.licence, text=text, accept_mismatches=True)
    assert plan.imported and Draw.objects.get(event=event, number=2).jackpot_after == Decimal("367.50")


def test_imported_ace_of_spades_concludes_the_event_and_licence(actor):  # R:P4
    event = event_with_draw(
        actor=actor, licence=LicenceFactory(issued_on=MOVED_IN), first_draw_at=JAN_8, seed_jackpot="1000.00"
    )
    history_import(
        actor=actor,
        licence=event.licence,
        opening_jackpot="1000.00",
        text=f"{HEADER}\n1,2026-01-08,100.00,7,QD\n2,2026-01-15,200.00,8,AS\n",
    )
    event.refresh_from_db()
    event.licence.refresh_from_db()
    ace = Draw.objects.get(event=event, number=2)
    assert event.is_concluded and event.licence.status == LicenceStatus.CONCLUDED
    assert ace.outcome == "jackpot_won" and ace.jackpot_awarded == Decimal("1090.00")
    assert not Draw.objects.filter(event=event, number=3).exists()
