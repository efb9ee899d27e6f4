"""An approved amendment is the licence's figure from its effective day
everywhere the organisation looks: the draws' dates follow an amended draw
schedule, the licence list shows the amended expiry and channel, and the
video deadlines follow the channel each draw sold on (RULES L3, L5, L8, D4, D9)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from licensing import services as licensing_services
from licensing.models import AmendmentKind, SalesChannel
from raffle.errors import RaffleError
from raffle.models import Draw
from raffle.reports.deadlines import event_deadlines
from tests.factories import LicenceFactory, event_with_closed_draws, event_with_draw, run_draw, user_with_role

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)
LETTER = {"signed_by": ["Ana Roy"], "letterhead_note": "Signed letter on letterhead, binder tab 3"}


def _amend(licence, kind, *, requested, effective, **figures):
    return licensing_services.licence_amend(
        actor=None,
        licence=licence,
        kind=kind,
        notice_given_on=requested,
        effective_on=effective,
        today=requested,
        **LETTER,
        **figures,
    )


def _approve(amendment, on):
    return licensing_services.licence_amendment_approve(
        actor=None, amendment=amendment, approved_on=on, reference="AGCO-AM-9", today=on
    )


def _hall_hour(draw):
    return timezone.localtime(draw.scheduled_at).time()


def test_an_amended_schedule_moves_the_draws_from_its_effective_day(treasurer):  # R:L3 R:D9
    """The Legion's weekly draws: draw 1 in five days. The hall is booked that
    night, so the AGCO approves a schedule with draw 1 a day later and draw 2
    eight days after it, effective in three days. Until approval nothing moves;
    then draw 1 moves at the hall's usual hour, and draw 2 is put on the board
    on its amended day when draw 1 closes."""
    licence = LicenceFactory(issued_on=TODAY - 40 * DAY)
    event = event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + 5 * DAY)
    draw = event.draws.get(number=1)
    hour = _hall_hour(draw)
    schedule = [(TODAY + 6 * DAY, "5000"), (TODAY + 14 * DAY, "5000")]
    amendment = _amend(
        licence, AmendmentKind.SCHEDULE, requested=TODAY - 20 * DAY, effective=TODAY + 3 * DAY, schedule=schedule
    )
    assert Draw.objects.get(pk=draw.pk).scheduled_at == draw.scheduled_at  # requested: nothing changes

    _approve(amendment, TODAY)
    moved = Draw.objects.get(pk=draw.pk)
    assert timezone.localdate(moved.scheduled_at) == TODAY + 6 * DAY and _hall_hour(moved) == hour
    entry = AuditEntry.objects.get(action="raffle.draw.reschedule")
    assert entry.data["amendment"] == amendment.pk and entry.data["approval_reference"] == "AGCO-AM-9"

    closed = run_draw(moved, actor=treasurer)
    second = event.draws.get(number=2)
    assert timezone.localdate(second.scheduled_at) == TODAY + 14 * DAY  # not a week after draw 1
    assert _hall_hour(second) == hour and closed.number == 1


def test_a_draw_before_the_effective_day_keeps_its_date(treasurer):  # R:L3 R:D9
    """Draw 1 is tomorrow, before the amendment takes effect: it is held under
    the schedule in force tomorrow, whatever the amended one says."""
    licence = LicenceFactory(issued_on=TODAY - 40 * DAY)
    event = event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + DAY)
    draw = event.draws.get(number=1)
    schedule = [(TODAY + 4 * DAY, "5000"), (TODAY + 11 * DAY, "5000")]
    _approve(
        _amend(
            licence, AmendmentKind.SCHEDULE, requested=TODAY - 20 * DAY, effective=TODAY + 3 * DAY, schedule=schedule
        ),
        TODAY,
    )
    assert Draw.objects.get(pk=draw.pk).scheduled_at == draw.scheduled_at
    assert not AuditEntry.objects.filter(action="raffle.draw.reschedule").exists()


def test_an_amended_schedule_that_would_move_a_draw_into_the_past_is_not_approved(treasurer):  # R:D9
    """The approval is recorded late: the amended day of draw 1 has passed, so
    the approval is refused with the draw named, and nothing changes."""
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY)
    event = event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + DAY)
    draw = event.draws.get(number=1)
    amendment = _amend(
        licence,
        AmendmentKind.SCHEDULE,
        requested=TODAY - 30 * DAY,
        effective=TODAY - 3 * DAY,
        schedule=[(TODAY - DAY, "5000")],
    )
    with pytest.raises(RaffleError, match="moves draw 1 to .* which has passed"):
        _approve(amendment, TODAY - 5 * DAY)
    amendment.refresh_from_db()
    assert amendment.status == "requested"
    assert Draw.objects.get(pk=draw.pk).scheduled_at == draw.scheduled_at


def test_an_amended_schedule_past_the_licence_expiry_is_refused():  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 40 * DAY, expires_on=TODAY + 30 * DAY)
    with pytest.raises(Exception, match="after the licence expires"):
        _amend(
            licence,
            AmendmentKind.SCHEDULE,
            requested=TODAY - 20 * DAY,
            effective=TODAY + 3 * DAY,
            schedule=[(TODAY + 10 * DAY, "5000"), (TODAY + 40 * DAY, "5000")],
        )


def test_the_licence_list_shows_the_amended_expiry_and_channel(client):  # R:L8 R:L5
    """The licensing officer's list shows each licence as it stands today: an
    extension in force, and a later one approved but not yet effective."""
    licence = LicenceFactory(
        number="RAF-AMEND-1",
        issued_on=TODAY - 90 * DAY,
        expires_on=TODAY + 20 * DAY,
        sales_channel=SalesChannel.PAPER_ROLL,
    )
    _approve(
        _amend(
            licence,
            AmendmentKind.DATES,
            requested=TODAY - 60 * DAY,
            effective=TODAY - 30 * DAY,
            new_expires_on=TODAY + 50 * DAY,
        ),
        TODAY - 40 * DAY,
    )
    _approve(
        _amend(
            licence,
            AmendmentKind.CHANNEL,
            requested=TODAY - 60 * DAY,
            effective=TODAY - 10 * DAY,
            to_channel=SalesChannel.ELECTRONIC,
        ),
        TODAY - 40 * DAY,
    )
    later = _amend(
        licence,
        AmendmentKind.DATES,
        requested=TODAY - 5 * DAY,
        effective=TODAY + 10 * DAY,
        new_expires_on=TODAY + 80 * DAY,
    )
    _approve(later, TODAY)
    client.force_login(user_with_role(roles.AUDITOR))
    page = client.get(reverse("application_list")).content.decode()
    row = page[page.index("RAF-AMEND-1") :].split("</tr>")[0]
    assert f"{TODAY + 50 * DAY:%Y-%m-%d}" in row  # the expiry in force today
    assert f"amended; granted {TODAY + 20 * DAY:%Y-%m-%d}" in row
    assert f"from an approved amendment: {TODAY + 80 * DAY:%Y-%m-%d}" in row  # the last day, once effective
    assert "Electronic" in row and "amended; granted Paper" in row


def test_video_deletion_deadlines_follow_the_channel_each_draw_sold_on(treasurer):  # R:D4 R:L5
    """Three paper draws were held; the AGCO approved electronic in-person sales
    from the day after draw 1. Draw 1 was filmed and its video may be deleted
    30 days on; draws 2 and 3 sold electronically, were not filmed, and have no
    such deadline (their tickets still do)."""
    event, draws = event_with_closed_draws(["100.00", "100.00", "100.00"], actor=treasurer)
    licence = event.licence
    first_day = timezone.localdate(draws[0].scheduled_at)
    _approve(
        _amend(
            licence,
            AmendmentKind.CHANNEL,
            requested=first_day - 14 * DAY,
            effective=first_day + DAY,
            to_channel=SalesChannel.ELECTRONIC,
        ),
        first_day - 10 * DAY,
    )
    deadlines = event_deadlines(event)
    videos = [d.what for d in deadlines if d.kind == "video"]
    assert videos == ["Draw 1: the draw video may be deleted from today"]
    assert len([d for d in deadlines if d.kind == "tickets"]) == 3
