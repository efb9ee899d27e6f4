"""A draw is held at its advertised date and time, never before (RULES D9):
the wizard, the admin's step page and the imports all refuse an early winning
ticket, and every draw keeps when it was actually held."""

import datetime
import zoneinfo

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.urls import reverse

from core import roles
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState
from raffle.reports.ledger import ImportRefused
from raffle.services.supplier_formats import ImportRefused as SupplierImportRefused
from tests.factories import (
    LicenceFactory,
    UserFactory,
    clock_at,
    event_with_draw,
    run_draw,
    user_with_role,
)
from tests.supplier_files import four_sales, result_file, sales_file, supplier_event

pytestmark = pytest.mark.django_db

HALL = zoneinfo.ZoneInfo(settings.TIME_ZONE)
NOV_30 = datetime.datetime(2026, 11, 30, 19, 0, tzinfo=HALL)
DEC_4 = datetime.datetime(2026, 12, 4, 19, 0, tzinfo=HALL)


@pytest.fixture
def weekly(staff_user):
    """Weekly draws advertised for Friday December 4, 11 and 18 at 7 pm."""
    licence = LicenceFactory(issued_on=datetime.date(2026, 11, 1), expires_on=datetime.date(2027, 10, 31))
    return event_with_draw(actor=staff_user, licence=licence, first_draw_at=DEC_4)


def _announced_on_nov_30(event, staff_user) -> Draw:
    with clock_at(NOV_30):
        return run_draw(event.draws.get(number=1), actor=staff_user, sales="500.00", until=DrawState.ANNOUNCED)


def test_on_nov_30_the_wizard_refuses_to_draw_dec_4s_ticket_and_says_when_it_may(weekly, staff_user, client):  # R:D9
    draw = _announced_on_nov_30(weekly, staff_user)
    volunteer = user_with_role(roles.DRAW_STAFF)
    serial = draw.tickets.order_by("seq").first().serial
    with clock_at(NOV_30):
        client.force_login(volunteer)
        response = client.post(
            reverse("draw_night", args=[draw.pk]),
            {"expected_state": DrawState.ANNOUNCED, "serial": serial, "serial_again": serial},
        )
    assert response.status_code == 400
    page = response.content.decode()
    assert "advertised for Friday 4 December 2026 at 19:00" in page
    assert "may be drawn from then on" in page
    draw.refresh_from_db()
    assert draw.state == DrawState.ANNOUNCED and draw.held_at is None and draw.winning_serial == ""

    # On the night, at seven, the same ticket is drawn and the draw is held then.
    with clock_at(DEC_4 + datetime.timedelta(minutes=2)):
        client.force_login(volunteer)  # signed in on the night
        response = client.post(
            reverse("draw_night", args=[draw.pk]),
            {"expected_state": DrawState.ANNOUNCED, "serial": serial, "serial_again": serial},
        )
    assert response.status_code == 302, response.content.decode()[-3000:]
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN
    assert DEC_4 + datetime.timedelta(minutes=2) <= draw.held_at < DEC_4 + datetime.timedelta(minutes=5)


def test_sales_may_close_before_the_advertised_time(weekly, staff_user):  # R:D9
    draw = _announced_on_nov_30(weekly, staff_user)
    assert draw.state == DrawState.ANNOUNCED and draw.sales_closed_at < DEC_4


def test_the_admins_step_page_refuses_the_early_ticket_too(weekly, staff_user, client):  # R:D9
    draw = _announced_on_nov_30(weekly, staff_user)
    serial = draw.tickets.order_by("seq").first().serial
    with clock_at(NOV_30):
        client.force_login(UserFactory(is_staff=True, is_superuser=True))
        response = client.post(
            reverse("admin:raffle_draw_step", args=[draw.pk]), {"serial": serial, "serial_again": serial}, follow=True
        )
    errors = [str(m) for m in response.context["messages"] if m.level_tag == "error"]
    assert errors and "advertised for Friday 4 December 2026 at 19:00" in errors[0]
    assert Draw.objects.get(pk=draw.pk).state == DrawState.ANNOUNCED


def test_three_weekly_draws_cannot_all_be_drawn_on_nov_30(weekly, staff_user):  # R:D9
    """The night of November 30 in the report: draws 1, 2 and 3 drawn in 23
    minutes. Now draw 1 waits for December 4, and draw 2 (opened that night)
    for December 11."""
    draw = _announced_on_nov_30(weekly, staff_user)
    serial = draw.tickets.order_by("seq").first().serial
    with clock_at(NOV_30), pytest.raises(RaffleError, match="advertised for Friday 4 December 2026 at 19:00"):
        services.draw_record_winning_ticket(actor=staff_user, draw=draw, serial=serial, serial_again=serial)
    with clock_at(DEC_4):
        draw = run_draw(draw, actor=staff_user)
        assert draw.state == DrawState.CLOSED
        second = run_draw(weekly.draws.get(number=2), actor=staff_user, sales="200.00", until=DrawState.ANNOUNCED)
        serial = second.tickets.order_by("seq").first().serial
        with pytest.raises(RaffleError, match="advertised for Friday 11 December 2026 at 19:00") as refused:
            services.draw_record_winning_ticket(actor=staff_user, draw=second, serial=serial, serial_again=serial)
    assert refused.value.rule == "D9"
    assert Draw.objects.get(pk=second.pk).state == DrawState.ANNOUNCED
    assert DEC_4 <= draw.held_at < DEC_4 + datetime.timedelta(minutes=5)


def test_a_draw_cannot_be_held_before_its_time_even_behind_the_services(weekly):  # R:D9
    draw = weekly.draws.get(number=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Draw.objects.filter(pk=draw.pk).update(held_at=NOV_30)


def test_import_history_refuses_draws_dated_before_their_advertised_time_or_still_to_come(weekly, staff_user):  # R:D9
    with clock_at(NOV_30):
        with pytest.raises(ImportRefused) as early:
            services.history_import(
                actor=staff_user,
                licence=weekly.licence,
                text="draw_number,draw_date,ticket_sales,envelope,card\n1,2026-11-27,500.00,3,QD\n",
            )
        with pytest.raises(ImportRefused) as future:
            services.history_import(
                actor=staff_user,
                licence=weekly.licence,
                text="draw_number,draw_date,ticket_sales,envelope,card\n"
                "1,2026-12-04,500.00,3,QD\n2,2026-12-11,400.00,4,QH\n3,2026-12-18,300.00,5,QS\n",
            )
    assert "advertised here for Friday 4 December 2026 at 19:00" in str(early.value)
    assert "still to come" in str(future.value)
    assert not Draw.objects.filter(event=weekly, state=DrawState.CLOSED).exists()


def test_an_imported_draw_is_held_when_its_record_says(weekly, staff_user):  # R:D9
    with clock_at(datetime.datetime(2026, 12, 12, 10, 0, tzinfo=HALL)):
        services.history_import(
            actor=staff_user,
            licence=weekly.licence,
            text="draw_number,draw_date,ticket_sales,envelope,card\n1,2026-12-04,500.00,3,QD\n2,2026-12-11,400.00,4,QH\n",
        )
    first, second = weekly.draws.filter(number__in=[1, 2]).order_by("number")
    assert first.held_at == DEC_4
    assert second.held_at == DEC_4 + datetime.timedelta(days=7)


def test_the_suppliers_result_drawn_before_the_advertised_time_is_refused(staff_user):  # R:D9
    event, draw = supplier_event(staff_user)
    with pytest.raises(SupplierImportRefused) as refused:
        services.supplier_draw_import(
            actor=staff_user,
            draw=draw,
            sales=sales_file(four_sales(draw)),
            result=result_file(draw, "100001", minutes=-5),
        )
    assert (refused.value.column, refused.value.rule) == ("drawn_at", "D9")
    assert "advertised for" in refused.value.problem


def test_a_draw_run_on_its_night_is_held_then(staff_user):  # R:D9
    event = event_with_draw(actor=staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user)
    assert draw.held_at >= draw.scheduled_at
    assert draw.held_at == draw.ticket_drawn_at
