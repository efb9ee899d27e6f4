"""Postponing a draw (RULES D9): the reason, the new date and time and the
notice given to the licensing authority are recorded; the public board and
the dashboard show the new time; later draws move with it if the staff say
so; a draw whose winning ticket is drawn cannot be postponed."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.urls import reverse

from core import roles
from core.models import AuditEntry
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawPostponement, DrawState, NotificationMethod
from raffle.reports.builders import four_draw_report
from raffle.reports.render import four_draw_csv
from tests.factories import LicenceFactory, clock_at, event_with_draw, members_for, run_draw, user_with_role

pytestmark = pytest.mark.django_db

HALL = zoneinfo.ZoneInfo(settings.TIME_ZONE)
NOV_30 = datetime.datetime(2026, 11, 30, 19, 0, tzinfo=HALL)
DEC_4 = datetime.datetime(2026, 12, 4, 19, 0, tzinfo=HALL)
DEC_5 = datetime.datetime(2026, 12, 5, 19, 0, tzinfo=HALL)


@pytest.fixture
def weekly(staff_user):
    """Weekly draws advertised for Fridays at 7 pm from December 4."""
    licence = LicenceFactory(issued_on=datetime.date(2026, 11, 1), expires_on=datetime.date(2027, 10, 31))
    return event_with_draw(actor=staff_user, licence=licence, first_draw_at=DEC_4, draw_place="Legion Hall")


def _postpone(draw, actor, new_at, **kwargs):
    kwargs.setdefault("reason", "Snowstorm: the hall is closed by the township")
    kwargs.setdefault("notice_to", "Jane Roe, licensing officer, Township of Elm")
    kwargs.setdefault("notice_at", NOV_30 - datetime.timedelta(hours=2))
    kwargs.setdefault("notice_method", NotificationMethod.PHONE)
    return services.draw_postpone(actor=actor, draw=draw, new_at=new_at, **kwargs)


def test_a_postponed_draw_shows_its_new_time_on_the_public_board_and_the_dashboard(weekly, staff_user, client):  # R:D9
    draw = weekly.draws.get(number=1)
    with clock_at(NOV_30):
        postponement = _postpone(draw, staff_user, DEC_5)
        board = client.get(reverse("public_board", args=[weekly.pk])).content.decode()
        client.force_login(user_with_role(roles.TREASURER))
        dashboard = client.get(reverse("event_dashboard", args=[weekly.pk])).content.decode()
    assert "Sat 5 Dec 2026" in board
    assert "Postponed from Fri 4 Dec 2026" in board and "Snowstorm: the hall is closed" in board
    assert "Postponed from Friday 4 December 2026" in dashboard and "Saturday 5 December 2026" in dashboard
    draw.refresh_from_db()
    assert draw.scheduled_at == DEC_5
    assert (postponement.postponed_from, postponement.notice_method) == (DEC_4, "phone")
    entry = AuditEntry.objects.get(action="raffle.draw.postpone")
    assert entry.data["notice_to"] == "Jane Roe, licensing officer, Township of Elm"
    assert entry.data["reason"].startswith("Snowstorm")


def test_after_a_postponement_the_ticket_waits_for_the_new_time(weekly, staff_user):  # R:D9
    draw = weekly.draws.get(number=1)
    with clock_at(NOV_30):
        _postpone(draw, staff_user, DEC_5)
    with clock_at(DEC_4 + datetime.timedelta(minutes=30)):
        draw = run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
        serial = draw.tickets.order_by("seq").first().serial
        with pytest.raises(RaffleError, match="advertised for Saturday 5 December 2026 at 19:00"):
            services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=serial, serial_again=serial)
    with clock_at(DEC_5):
        draw = run_draw(draw, actor=staff_user)
    assert draw.held_at >= DEC_5


def test_the_reports_give_the_scheduled_the_new_and_the_held_time(weekly, staff_user):  # R:D9
    draw = weekly.draws.get(number=1)
    with clock_at(NOV_30):
        _postpone(draw, staff_user, DEC_5)
    destroyer, verifier = members_for(weekly)
    with clock_at(DEC_5 + datetime.timedelta(minutes=3)):
        run_draw(draw, actor=staff_user, destroyer=destroyer, verifier=verifier)
    for number in (2, 3, 4):
        run_draw(weekly.draws.get(number=number), actor=staff_user, destroyer=destroyer, verifier=verifier)
    report = four_draw_report(weekly, 1)
    line = report.lines[0]
    assert line.scheduled_at == DEC_4 and line.postponed_to == DEC_5 and line.held_at >= DEC_5
    assert line.date == datetime.date(2026, 12, 5)
    header, row = four_draw_csv(report).splitlines()[:2]
    values = dict(zip(header.split(","), row.split(","), strict=False))
    assert values["scheduled_at"] == "2026-12-04 19:00"
    assert values["postponed_to"] == "2026-12-05 19:00"
    assert values["held_at"].startswith("2026-12-05 19:0")


def test_later_draws_keep_their_dates_unless_the_staff_move_them(weekly, staff_user):  # R:D9
    with clock_at(NOV_30):
        _postpone(weekly.draws.get(number=1), staff_user, DEC_5)
    destroyer, verifier = members_for(weekly)
    with clock_at(DEC_5):
        run_draw(weekly.draws.get(number=1), actor=staff_user, destroyer=destroyer, verifier=verifier)
    second = weekly.draws.get(number=2)
    assert second.scheduled_at == DEC_4 + datetime.timedelta(days=7)  # kept: Friday December 11

    with clock_at(DEC_5), pytest.raises(RaffleError, match="not before draw 3's"):
        _postpone(second, staff_user, DEC_4 + datetime.timedelta(days=14), notice_at=DEC_5)
    with clock_at(DEC_5):
        _postpone(second, staff_user, DEC_4 + datetime.timedelta(days=14), notice_at=DEC_5, later_draws_move=True)
    with clock_at(DEC_4 + datetime.timedelta(days=14)):
        run_draw(second, actor=staff_user, destroyer=destroyer, verifier=verifier)
    assert weekly.draws.get(number=3).scheduled_at == DEC_4 + datetime.timedelta(days=21)  # moved a week


def test_a_draw_cannot_be_postponed_once_its_winning_ticket_is_drawn(weekly, staff_user):  # R:D9
    draw = weekly.draws.get(number=1)
    with clock_at(DEC_4):
        draw = run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
        with pytest.raises(RaffleError, match="already drawn") as refused:
            _postpone(draw, staff_user, DEC_5, notice_at=DEC_4)
    assert refused.value.rule == "D9"
    assert Draw.objects.get(pk=draw.pk).scheduled_at == DEC_4
    assert not DrawPostponement.objects.exists()


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"notice_to": ""}, "who was told, when and how"),
        ({"reason": " "}, "Say why the draw is postponed"),
        ({"new_at": DEC_4 - datetime.timedelta(days=1)}, "to a later date and time"),
        ({"new_at": datetime.datetime(2027, 11, 5, 19, 0, tzinfo=HALL), "later_draws_move": True}, "expires on"),
        ({"notice_at": NOV_30 + datetime.timedelta(days=1)}, "in the future"),
    ],
)
def test_a_postponement_without_its_notice_or_to_a_wrong_time_is_refused(weekly, staff_user, changes, message):  # R:D9
    draw = weekly.draws.get(number=1)
    new_at = changes.pop("new_at", DEC_5)
    with clock_at(NOV_30), pytest.raises(RaffleError, match=message):
        _postpone(draw, staff_user, new_at, **changes)
    assert Draw.objects.get(pk=draw.pk).scheduled_at == DEC_4
    assert not DrawPostponement.objects.exists()
    assert not AuditEntry.objects.filter(action="raffle.draw.postpone").exists()


def test_draw_staff_postpone_on_the_page_and_the_auditor_only_reads_it(weekly, client):  # R:D9
    draw = weekly.draws.get(number=1)
    url = reverse("draw_postpone", args=[draw.pk])
    data = {
        "new_at": "2026-12-05T19:00",
        "reason": "Snowstorm",
        "notice_to": "Jane Roe",
        "notice_at": "2026-11-30T17:00",
        "notice_method": "email",
        "later_draws_move": "on",
    }
    with clock_at(NOV_30):
        client.force_login(user_with_role(roles.AUDITOR))
        assert client.get(url).status_code == 200
        assert client.post(url, data).status_code == 403
        client.force_login(user_with_role(roles.DRAW_STAFF))
        response = client.post(url, data)
    assert response.status_code == 302
    postponement = DrawPostponement.objects.get()
    assert postponement.later_draws_move and postponement.notice_method == "email"
    assert Draw.objects.get(pk=draw.pk).scheduled_at == DEC_5
