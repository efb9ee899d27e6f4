"""An approved amendment of the licence's dates is the licence's expiry from
its effective day, everywhere the raffle asks whether the licence is in force:
the last draw's must-go, the sales, the event's first draw, the forecast, the
deadlines, the final report and the refusal to amend or cancel an expired
licence (RULES L8, P7, R5, L5)."""

import datetime

import pytest
from django.utils import timezone

from licensing import services as licensing_services
from licensing.errors import LicensingError
from licensing.models import AmendmentKind, Licence, LicenceStatus
from licensing.terms import licence_expires_on, licence_is_expired, licence_last_day
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, MustGoPayout
from raffle.reports.builders import final_report
from raffle.reports.deadlines import event_deadlines
from raffle.selectors import prize_board_forecast
from tests.factories import LicenceFactory, event_with_closed_draws, event_with_draw, run_draw

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)
LETTER = {"signed_by": ["Ana Roy"], "letterhead_note": "Signed letter on letterhead, binder tab 2"}


def _approved_dates(licence, *, new_expires_on, requested, effective):
    """The organisation wrote to the AGCO on `requested`; the AGCO approved the
    new expiry two days later, effective on `effective`."""
    amendment = licensing_services.licence_amend(
        actor=None,
        licence=licence,
        kind=AmendmentKind.DATES,
        new_expires_on=new_expires_on,
        notice_given_on=requested,
        effective_on=effective,
        today=requested,
        **LETTER,
    )
    return licensing_services.licence_amendment_approve(
        actor=None, amendment=amendment, approved_on=requested + 2 * DAY, today=requested + 2 * DAY
    )


def _tonight_draw(licence, actor):
    """Draw 1 of an event whose first draw was an hour ago, its sales announced."""
    event = event_with_draw(
        actor=actor,
        licence=licence,
        first_draw_at=timezone.now() - datetime.timedelta(hours=1),
        must_go_payout=MustGoPayout.SHARE_NON_ACE,
    )
    return run_draw(event.draws.get(number=1), actor=actor, until=DrawState.ANNOUNCED)


def _draw_ticket(draw, actor):
    serial = draw.tickets.order_by("seq").values_list("serial", flat=True).first()
    return services.draw_record_winning_ticket(actor=actor, draw=draw, serial=serial, serial_again=serial)


def test_an_extended_licence_no_longer_forces_tonights_draw_to_go(treasurer):  # R:L8 R:P7
    """The licence as granted ends in three days, so tonight's draw would be the
    last; the AGCO approved an extension that took effect ten days ago."""
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY, expires_on=TODAY + 3 * DAY)
    draw = _tonight_draw(licence, treasurer)
    with pytest.raises(RaffleError, match="last draw before the licence expires on") as refused:
        _draw_ticket(draw, treasurer)
    assert refused.value.rule == "P7"

    _approved_dates(licence, new_expires_on=TODAY + 200 * DAY, requested=TODAY - 30 * DAY, effective=TODAY - 10 * DAY)
    assert Licence.objects.get(pk=licence.pk).expires_on == TODAY + 3 * DAY  # the granted figure is kept
    draw = _draw_ticket(Draw.objects.get(pk=draw.pk), treasurer)
    assert draw.state == DrawState.TICKET_DRAWN and not draw.must_go


def test_a_shortened_licence_forces_the_last_draw_before_its_new_expiry_to_go(treasurer):  # R:L8 R:P7
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY, expires_on=TODAY + 300 * DAY)
    _approved_dates(licence, new_expires_on=TODAY + 3 * DAY, requested=TODAY - 30 * DAY, effective=TODAY - 10 * DAY)
    draw = _tonight_draw(licence, treasurer)
    with pytest.raises(RaffleError, match=f"expires on {TODAY + 3 * DAY:%Y-%m-%d}, so the Ace of Spades must be"):
        _draw_ticket(draw, treasurer)


def test_an_amendment_approved_but_not_yet_effective_leaves_the_expiry_as_it_was(treasurer):  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY, expires_on=TODAY + 20 * DAY)
    _approved_dates(licence, new_expires_on=TODAY + 200 * DAY, requested=TODAY - 4 * DAY, effective=TODAY + 10 * DAY)
    assert licence_expires_on(licence, TODAY) == TODAY + 20 * DAY
    assert licence_expires_on(licence, TODAY + 10 * DAY) == TODAY + 200 * DAY
    assert licence_last_day(licence) == TODAY + 200 * DAY


def test_a_licence_extended_past_its_granted_expiry_still_sells_and_can_be_cancelled(treasurer):  # R:L8
    """Its granted expiry was five days ago; the extension took effect before it."""
    licence = LicenceFactory(issued_on=TODAY - 120 * DAY, expires_on=TODAY - 5 * DAY)
    with pytest.raises(LicensingError, match="expired"):  # as granted, it would be expired today
        licensing_services.licence_cancel(actor=treasurer, licence=licence, reason="Hall closed", today=TODAY)
    _approved_dates(licence, new_expires_on=TODAY + 90 * DAY, requested=TODAY - 40 * DAY, effective=TODAY - 20 * DAY)
    assert not licence_is_expired(licence, TODAY)
    event = event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + DAY)
    draw = services.draw_open_sales(actor=treasurer, draw=event.draws.get(number=1))
    assert draw.state == DrawState.SELLING
    licensing_services.licence_cancel(actor=treasurer, licence=licence, reason="Hall closed", today=TODAY)
    assert Licence.objects.get(pk=licence.pk).status == LicenceStatus.CANCELLED


def test_after_the_amended_expiry_nothing_is_sold_amended_or_cancelled(treasurer):  # R:L8 R:R5
    licence = LicenceFactory(issued_on=TODAY - 120 * DAY, expires_on=TODAY + 300 * DAY)
    event, draws = event_with_closed_draws(["100.00"], actor=treasurer, licence=licence)
    _approved_dates(licence, new_expires_on=TODAY - 2 * DAY, requested=TODAY - 40 * DAY, effective=TODAY - 20 * DAY)
    assert licence_is_expired(licence, TODAY)
    with pytest.raises(RaffleError, match=f"expired on {TODAY - 2 * DAY:%Y-%m-%d} without the Ace"):
        services.draw_open_sales(actor=treasurer, draw=event.draws.get(number=2))
    with pytest.raises(LicensingError, match=f"expired on {TODAY - 2 * DAY:%Y-%m-%d}") as refused:
        licensing_services.licence_cancel(actor=treasurer, licence=licence, reason="Too late", today=TODAY)
    assert refused.value.rule == "L8"
    report = final_report(event)
    assert report.is_final and report.end_reason == f"the licence expired on {TODAY - 2 * DAY:%Y-%m-%d}"


def test_the_event_forecast_and_deadlines_follow_the_amended_expiry(treasurer):  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY, expires_on=TODAY + 20 * DAY)
    with pytest.raises(RaffleError, match=f"after the licence expires \\({TODAY + 20 * DAY:%Y-%m-%d}\\)"):
        event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + 30 * DAY)
    _approved_dates(licence, new_expires_on=TODAY + 120 * DAY, requested=TODAY - 30 * DAY, effective=TODAY - 10 * DAY)
    event = event_with_draw(actor=treasurer, licence=licence, first_draw_at=timezone.now() + 30 * DAY)
    assert prize_board_forecast(event).draws_left == (90 // 7) + 1  # weekly draws from day 30 to day 120
    expiry = [d for d in event_deadlines(event) if d.rule == "L8"]
    assert [d.on for d in expiry] == [TODAY + 120 * DAY]


def test_new_dates_must_hold_on_the_day_they_take_effect(treasurer):  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 60 * DAY, expires_on=TODAY + 300 * DAY)
    with pytest.raises(LicensingError, match="comes before the day the change takes effect"):
        licensing_services.licence_amend(
            actor=None,
            licence=licence,
            kind=AmendmentKind.DATES,
            new_expires_on=TODAY + 20 * DAY,
            notice_given_on=TODAY,
            effective_on=TODAY + 30 * DAY,
            today=TODAY,
            **LETTER,
        )


def test_the_pages_sell_on_the_channel_in_force_on_each_draws_day(client, staff_user):  # R:L5
    """An AGCO stub licence amended to electronic in-person sales from two weeks
    on: the draws before that day keep their books of stubs on every page, the
    Rules of Play still say stubs today, and the licence keeps its granted channel."""
    from core import roles
    from licensing.models import SalesChannel
    from raffle.forms import SaleForm
    from raffle.rules_of_play import rules_of_play
    from raffle.services.pool import draw_sales_channel
    from tests.factories import user_with_role

    licence = LicenceFactory(sales_channel=SalesChannel.PAPER_STUB)
    event = event_with_draw(actor=staff_user, licence=licence, first_draw_at=timezone.now() + DAY)
    amendment = licensing_services.licence_amend_channel(
        actor=None,
        licence=licence,
        to_channel=SalesChannel.ELECTRONIC,
        notice_given_on=TODAY,
        effective_on=TODAY + 14 * DAY,
        today=TODAY,
        **LETTER,
    )
    licensing_services.licence_amendment_approve(actor=None, amendment=amendment, approved_on=TODAY, today=TODAY)
    assert Licence.objects.get(pk=licence.pk).sales_channel == SalesChannel.PAPER_STUB
    first = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))  # tomorrow's draw
    third = Draw(event=event, number=3, scheduled_at=first.scheduled_at + 14 * DAY)  # not yet on the board
    assert draw_sales_channel(first) == SalesChannel.PAPER_STUB
    assert draw_sales_channel(third) == SalesChannel.ELECTRONIC
    client.force_login(user_with_role(roles.SELLER))
    page = client.get(f"/draws/{first.pk}/sales/").content.decode()
    assert "Books of stubs issued for this draw" in page and 'name="serials"' in page
    assert client.get(f"/draws/{first.pk}/rolls/").status_code == 200
    assert "serials" not in SaleForm(draw=third).fields
    text = " ".join(" ".join(s.paragraphs + s.items) for s in rules_of_play(event)["sections"])
    assert "Tickets are sold as paper stub tickets" in text


def test_an_amended_draw_place_is_where_the_draws_from_its_effective_day_are_held(client, treasurer):  # R:L5
    from django.urls import reverse

    from core import roles
    from raffle.services.pool import draw_place_of
    from tests.factories import user_with_role

    licence = LicenceFactory(issued_on=TODAY - 60 * DAY)
    event = event_with_draw(
        actor=treasurer, licence=licence, first_draw_at=timezone.now() + DAY, draw_place="Legion Branch 6, Owen Sound"
    )
    amendment = licensing_services.licence_amend(
        actor=None,
        licence=licence,
        kind=AmendmentKind.DRAW_PLACE,
        new_draw_place="Harbour Hall, 12 Front St, Owen Sound",
        notice_given_on=TODAY - 30 * DAY,
        effective_on=TODAY - 10 * DAY,
        today=TODAY - 30 * DAY,
        **LETTER,
    )
    draw = event.draws.get(number=1)
    earlier = Draw(event=event, number=0, scheduled_at=draw.scheduled_at - 20 * DAY)  # before the effective day
    assert draw_place_of(draw) == "Legion Branch 6, Owen Sound"  # requested, not approved: nothing changes
    licensing_services.licence_amendment_approve(
        actor=None, amendment=amendment, approved_on=TODAY - 28 * DAY, today=TODAY - 28 * DAY
    )
    assert draw_place_of(draw) == "Harbour Hall, 12 Front St, Owen Sound"
    assert draw_place_of(earlier) == "Legion Branch 6, Owen Sound"
    client.force_login(user_with_role(roles.DRAW_STAFF))
    page = client.get(reverse("draw_night", args=[draw.pk])).content.decode()
    assert "Harbour Hall, 12 Front St, Owen Sound" in page and "Legion Branch 6" not in page
