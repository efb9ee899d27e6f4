"""`import_history` applies the rules of live draws through the same
services (RULES L3, P6, D9): the prize board with the seed, the approved
sales plan, draw dates under the licence, in order and not in the future,
and amounts the system can record. A refused file changes nothing."""

import datetime
import io
from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from core.models import AuditEntry
from raffle.models import Draw, DrawState, Envelope, Event
from raffle.reports.ledger import ImportRefused
from raffle.services import history_import
from tests.factories import LicenceFactory, acting_as, event_with_draw
from tests.test_sales_plan import with_sales_plan

pytestmark = pytest.mark.django_db
D = Decimal
HEADER = "draw_number,draw_date,ticket_sales,envelope,card"
TODAY = timezone.localdate()


def _day(weeks_ago: int) -> str:
    return (TODAY - datetime.timedelta(weeks=weeks_ago)).isoformat()


def _moved_in(user, *, prize_board="50000.00", **kwargs):
    """A raffle licensed 20 weeks ago that moves its records into the system."""
    licence = LicenceFactory(prize_board=D(prize_board), issued_on=TODAY - datetime.timedelta(weeks=20))
    first = timezone.now() - datetime.timedelta(weeks=20)  # R:D9 set up on its first draw's date
    return event_with_draw(actor=user, licence=licence, first_draw_at=first, **kwargs)


def _import_refused(event, text: str, tmp_path, *extra) -> str:
    """Run the command as the treasurer would; it must refuse and change nothing."""
    treasurer = acting_as()  # made first: adding a person is itself an audit entry
    before = (AuditEntry.objects.count(), Event.objects.get(pk=event.pk).jackpot)
    path = tmp_path / "history.csv"
    path.write_text(text)
    with pytest.raises(CommandError) as refused:
        call_command(
            "import_history", *treasurer, "--licence", event.licence.number, str(path), *extra, stdout=io.StringIO()
        )
    assert "nothing was changed" in str(refused.value)
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()
    assert not Envelope.objects.filter(event=event, opened_at__isnull=False).exists()
    assert (AuditEntry.objects.count(), Event.objects.get(pk=event.pk).jackpot) == before
    return str(refused.value)


def test_three_draws_of_ten_billion_under_a_50000_board_are_refused_naming_the_board(staff_user, tmp_path):  # R:L3
    """Someone exports the old spreadsheet with a broken sales column: three
    draws of $9,999,999,999.99 each. The import refuses at the first, naming
    the prize board, and nothing is recorded."""
    event = _moved_in(staff_user)
    rows = [f"{n},{_day(10 - n)},9999999999.99,{n},{card}" for n, card in ((1, "2H"), (2, "3H"), (3, "4H"))]
    message = _import_refused(event, "\n".join([HEADER, *rows]) + "\n", tmp_path)
    assert "row 2 (draw 1): Sales of $9,999,999,999.99 in this draw would bring the prizes to $4,999,999,999.98" in (
        message
    )
    assert f"past licence {event.licence.number}'s prize board of $50,000.00" in message


@pytest.mark.parametrize(
    "sales, reason",
    [
        ("99999999999999.99", "ticket_sales is larger than this system can record"),
        ("1e400", "ticket_sales is larger than this system can record"),
        ("Infinity", "ticket_sales must be a number of dollars"),
        ("12.345", "ticket_sales has fractions of a cent"),
    ],
)
def test_amounts_the_system_cannot_record_are_refused_in_plain_words(staff_user, tmp_path, sales, reason):  # R:L3
    event = _moved_in(staff_user)
    message = _import_refused(event, f"{HEADER}\n1,{_day(3)},{sales},7,QD\n", tmp_path)
    assert f"row 2 (draw 1): {reason}" in message


def test_prizes_plus_the_seed_are_counted_across_the_rows_of_the_file(staff_user, tmp_path):  # R:L3 R:P6
    """Seed $10,000 on a $50,000 board: two imported draws of $40,000 bring
    the prizes plus the seed to exactly $50,000; a third draw of $10 in the
    same file passes the board, so the whole file is refused, even as a dry run."""
    event = _moved_in(staff_user, seed_jackpot="10000")
    rows = [f"1,{_day(3)},40000.00,7,QD", f"2,{_day(2)},40000.00,8,KD"]
    text = "\n".join([HEADER, *rows, f"3,{_day(1)},10.00,9,JD"]) + "\n"
    message = _import_refused(event, text, tmp_path, "--dry-run")
    assert "row 4 (draw 3): Sales of $10.00 in this draw would bring the prizes to $50,005.00" in message
    assert "(prizes so far: $50,000.00, the seed jackpot of $10,000.00 included)" in message
    plan = history_import(actor=staff_user, licence=event.licence, text="\n".join([HEADER, *rows]) + "\n")
    assert plan.imported and plan.opening_jackpot == D("10000.00")
    assert Event.objects.get(pk=event.pk).jackpot == D("34000.00")  # the seed and both 30% shares


def test_each_imported_draw_keeps_to_the_approved_sales_plan(staff_user, tmp_path):  # R:L3
    licence = with_sales_plan(LicenceFactory(issued_on=TODAY - datetime.timedelta(weeks=20)), ["2000", "3000"])
    event = event_with_draw(
        actor=staff_user, licence=licence, first_draw_at=timezone.now() - datetime.timedelta(weeks=20)
    )
    text = f"{HEADER}\n1,{_day(2)},2000.00,7,QD\n2,{_day(1)},3000.01,8,KD\n"
    message = _import_refused(event, text, tmp_path)
    assert (
        f"row 3 (draw 2): Sales of $3,000.01 in draw 2 would pass licence {licence.number}'s approved sales plan, "
        "which allows at most $3,000.00 for this draw"
    ) in message


def test_draws_dated_before_the_licence_or_in_the_future_are_refused(staff_user, tmp_path):  # R:L3 R:D9
    """The old system's dates are typed by hand: 2001 and 2099 are refused, both named."""
    event = _moved_in(staff_user)
    text = f"{HEADER}\n1,2001-03-08,100.00,7,QD\n2,{_day(1)},100.00,8,KD\n3,2099-03-08,100.00,9,JD\n"
    message = _import_refused(event, text, tmp_path)
    issued = event.licence.issued_on
    assert f"row 2 (draw 1): its date 2001-03-08 is before licence {event.licence.number} was issued ({issued})" in (
        message
    )
    assert "row 4 (draw 3): its date 2099-03-08 is still to come; only draws already held can be imported" in message


def test_draw_dates_must_increase_after_the_draws_already_recorded(staff_user, tmp_path):  # R:D9
    event = _moved_in(staff_user)
    history_import(actor=staff_user, licence=event.licence, text=f"{HEADER}\n1,{_day(2)},100.00,7,QD\n")
    with pytest.raises(ImportRefused, match=rf"row 2 \(draw 2\): its date {_day(3)} is not after draw 1's"):
        history_import(actor=staff_user, licence=event.licence, text=f"{HEADER}\n2,{_day(3)},100.00,8,KD\n")
    text = f"{HEADER}\n2,{_day(1)},100.00,8,KD\n3,{_day(1)},100.00,9,JD\n"
    with pytest.raises(ImportRefused, match=r"row 3 \(draw 3\): its date .* is not after draw 2's"):
        history_import(actor=staff_user, licence=event.licence, text=text)


def test_an_opening_jackpot_that_is_not_the_seed_is_refused(staff_user, tmp_path):  # R:P6 R:L3
    """The jackpot before draw 1 is the seed, set (and counted in the prize
    board) when the event is set up; the import cannot bring in another."""
    event = _moved_in(staff_user, seed_jackpot="500")
    message = _import_refused(event, f"{HEADER}\n1,{_day(2)},100.00,7,QD\n", tmp_path, "--opening-jackpot", "5000")
    assert "the opening jackpot $5,000.00 is not its seed jackpot, $500.00" in message
    assert "setup_event --seed-jackpot" in message
