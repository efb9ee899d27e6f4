"""An event may fix its last draw (RULES P7): `setup_event --last-draw N`.
That draw is the must-go final draw, and no draw is scheduled after it."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from core.models import AuditEntry
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Event, MustGoPayout, MustGoReason
from raffle.rules_of_play import draw_schedule, rules_of_play
from raffle.services.draws import schedule_next_draw
from tests.factories import members_for, run_draw_on_its_night

pytestmark = pytest.mark.django_db


def _setup(*extra, starts=None):
    starts = starts or timezone.localdate() - datetime.timedelta(days=15)
    out = StringIO()
    call_command(
        "setup_event",
        *("--licence", "RAF-LAST-1", "--organisation", "Kinsmen of Owen Sound", "--authority", "municipality"),
        *("--authority-name", "City of Owen Sound", "--channel", "paper-stub", "--prize-board", "50000"),
        *("--ticket-price", "5", "--starts", f"{starts:%Y-%m-%d}", "--draw-time", "00:05"),
        *("--rules-approved-on", f"{starts - datetime.timedelta(days=5):%Y-%m-%d}"),
        *("--rules-approval-reference", "OS-RP-9"),
        *("--purpose", "relief_of_poverty", "--active-since", "2019-03-01"),
        *("--non-profit-evidence", "Letters patent 1", "--location-evidence", "1 Main St, Owen Sound ON"),
        *("--activity-evidence", "Annual reports 2019-2025"),
        *extra,
        stdout=out,
    )
    return out.getvalue()


def test_the_fixed_last_draw_is_the_must_go_draw_and_nothing_comes_after_it(staff_user):  # R:P7
    """Three weekly draws, the last fixed at set-up. Draws 1 and 2 roll over;
    draw 3 is scheduled already the must-go final draw, and cannot roll over."""
    output = _setup("--last-draw", "3", "--must-go-payout", "first_ticket")
    event = Event.objects.get(licence__number="RAF-LAST-1")
    assert event.last_draw_number == 3 and event.must_go_payout == MustGoPayout.FIRST_TICKET
    assert "Last draw:    draw 3, the must-go final draw" in output
    assert len(draw_schedule(event)) == 3  # the Rules of Play list three draws, not a year of them
    text = " ".join(p for s in rules_of_play(event)["sections"] for p in s.paragraphs)
    assert "Draw 3 is the last draw of this lottery: it is the must-go final draw" in text
    members = members_for(event)
    for number in (1, 2):
        draw = Draw.objects.get(event=event, number=number)
        assert not draw.must_go
        run_draw_on_its_night(draw, actor=staff_user, destroyer=members[0], verifier=members[1])
    last = Draw.objects.get(event=event, number=3)
    assert last.must_go and last.must_go_reason == MustGoReason.LAST_DRAW
    entry = AuditEntry.objects.get(action="raffle.draw.set_must_go")
    assert entry.data["fixed_last_draw"] is True and entry.data["number"] == 3
    # A non-ace card sends the last draw back for another ticket; it never rolls over.
    last = run_draw_on_its_night(last, actor=staff_user, card="9S", until=DrawState.CLOSED)
    assert last.state == DrawState.CARD_REVEALED and last.next_step.name == "must_go_redraw"
    with pytest.raises(RaffleError, match="Draw 3 is the event's last draw") as refused:
        schedule_next_draw(event=event, after=last)
    assert refused.value.rule == "P7" and not Draw.objects.filter(event=event, number=4).exists()


def test_a_last_draw_of_one_makes_the_first_draw_must_go_at_set_up():  # R:P7
    _setup("--last-draw", "1")
    draw = Draw.objects.get(event__licence__number="RAF-LAST-1")
    assert draw.must_go and draw.must_go_reason == MustGoReason.LAST_DRAW


def test_a_last_draw_after_the_licence_expires_is_refused_and_nothing_is_made():  # R:P7
    with pytest.raises(CommandError, match="Draw 60 would be held on .* after licence RAF-LAST-1 expires"):
        _setup("--last-draw", "60")
    assert not Event.objects.exists()


def test_the_exit_strategy_of_a_fixed_last_draw_cannot_be_removed(staff_user):  # R:P7 R:R4
    _setup("--last-draw", "2", starts=timezone.localdate() + datetime.timedelta(days=3))
    event = Event.objects.get()
    with pytest.raises(RaffleError, match="Draw 2 is the event's fixed last draw"):
        services.event_update_rules(actor=staff_user, event=event, must_go_payout="")
    with pytest.raises(RaffleError, match="either shared by the holders"):
        services.event_update_rules(actor=staff_user, event=event, must_go_payout=MustGoPayout.FINAL_WINNER)
    assert Event.objects.get().must_go_payout == MustGoPayout.SHARE_NON_ACE
