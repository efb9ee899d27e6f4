"""How a licence ends (RULES R5): a cancellation stops every later step of
every draw and every sale; a licence that expires without the Ace lets only
the must-go final draw go on; however it ends, the final report is due."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.pdf import pdf_text
from licensing.services import licence_cancel, report_issue
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, MustGoPayout, MustGoReason
from raffle.reports.builders import final_report
from raffle.reports.deadlines import event_deadlines
from raffle.reports.render import report_file
from tests.factories import (
    LicenceFactory,
    clock_at,
    event_with_closed_draws,
    event_with_draw,
    run_draw,
    sell_tickets,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def test_a_cancelled_licence_stops_a_draw_already_past_sales_close(staff_user, client):  # R:R5
    event = event_with_draw(actor=staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="250.00", until=DrawState.SALES_CLOSED)
    licence_cancel(actor=staff_user, licence=event.licence, reason="The hall lost its occupancy permit")

    with pytest.raises(RaffleError, match="was cancelled") as refused:
        services.draw_announce(actor=staff_user, draw=draw)
    assert refused.value.rule == "R5"
    client.force_login(user_with_role(roles.DRAW_STAFF))
    response = client.post(reverse("draw_night", args=[draw.pk]), {"expected_state": DrawState.SALES_CLOSED})
    assert response.status_code == 400 and "was cancelled" in response.content.decode()
    with pytest.raises(RaffleError, match="was cancelled"):
        services.draw_postpone(
            actor=staff_user,
            draw=draw,
            new_at=draw.scheduled_at + datetime.timedelta(days=1),
            reason="Hall",
            notice_to="Registrar",
            notice_at=timezone.now(),
            notice_method="email",
        )
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SALES_CLOSED


def test_a_cancelled_licence_sells_nothing_more_but_a_roll_out_may_come_back(staff_user):  # R:R5
    event = event_with_draw(actor=staff_user)
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="0", until=DrawState.SELLING)
    roll = services.roll_issue(
        actor=staff_user, draw=draw, seller_name="Sam Seller", first_serial=500001, last_serial=500050
    )
    licence_cancel(actor=staff_user, licence=event.licence, reason="Cancelled by the township")
    with pytest.raises(RaffleError, match="was cancelled"):
        services.roll_issue(
            actor=staff_user, draw=draw, seller_name="Lee Seller", first_serial=600001, last_serial=600050
        )
    with pytest.raises(RaffleError, match="was cancelled"):
        sell_tickets(draw, actor=staff_user, sales="10.00")
    services.roll_return(actor=staff_user, roll=roll, first_unsold=500001, tier_counts={})
    roll.refresh_from_db()
    assert roll.is_returned


def test_a_cancellation_before_any_draw_still_gives_a_final_report_and_its_deadline(staff_user):  # R:R5 R:R2
    event = event_with_draw(actor=staff_user)
    licence_cancel(actor=staff_user, licence=event.licence, reason="The organisation withdrew")
    event.refresh_from_db()
    today = timezone.localdate()
    final = [d for d in event_deadlines(event) if d.what == "Final report"]
    assert [d.on for d in final] == [today + datetime.timedelta(days=30)]
    report = final_report(event)
    assert report.is_final and report.due_on == today + datetime.timedelta(days=30)
    assert report.end_reason == "the licence was cancelled"
    # The treasurer's path: the final report is rendered and issued like any other.
    content, _, fee, due_on = report_file(event, "final", None, "pdf")
    issued = report_issue(
        actor=staff_user,
        licence=event.licence,
        kind="final",
        file_format="pdf",
        content=content,
        fee=fee,
        due_on=due_on,
    )
    assert issued.due_on == today + datetime.timedelta(days=30)
    assert "The licence ended: the licence was cancelled" in " ".join(pdf_text(content).split())
    assert [d.done for d in event_deadlines(event) if d.what == "Final report"] == [True]


def test_a_cancellation_after_draws_owes_the_final_report_30_days_after_the_last(treasurer):  # R:R5 R:R2
    event, draws = event_with_closed_draws(["100.00"] * 3, actor=treasurer)
    licence_cancel(actor=treasurer, licence=event.licence, reason="Hall closed")
    event.refresh_from_db()
    assert final_report(event).due_on == draws[-1].held_on + datetime.timedelta(days=30)


def test_a_licence_that_expires_without_the_ace_lets_only_the_must_go_draw_go_on(staff_user):  # R:R5 R:P7
    first = timezone.now() - datetime.timedelta(hours=1)
    licence = LicenceFactory(expires_on=timezone.localdate() + datetime.timedelta(days=2))
    event = event_with_draw(
        actor=staff_user, licence=licence, first_draw_at=first, must_go_payout=MustGoPayout.SHARE_NON_ACE
    )
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="300.00", until=DrawState.SALES_CLOSED)
    after_expiry = timezone.now() + datetime.timedelta(days=3)
    with clock_at(after_expiry):
        with pytest.raises(RaffleError, match="expired on .* without the Ace of Spades") as refused:
            services.draw_announce(actor=staff_user, draw=draw)
        assert refused.value.rule == "R5"
        services.draw_set_must_go(actor=staff_user, draw=draw, reason=MustGoReason.LICENCE_EXPIRY)
        draw = services.draw_announce(actor=staff_user, draw=draw)
        assert draw.state == DrawState.ANNOUNCED and draw.must_go
        final = [d for d in event_deadlines(event) if d.what == "Final report"]
        assert [d.on for d in final] == [licence.expires_on + datetime.timedelta(days=30)]
        assert final_report(event).end_reason.startswith("the licence expired")
