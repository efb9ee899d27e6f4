"""One close-sales calculation (`close_sales_figures`): the wizard's preview,
the close-sales service and the history import fix the same figures and
refuse the same things with the same words (RULES P1, T7, T11, L13, L3)."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Event
from raffle.reports.ledger import ImportRefused
from tests.factories import (
    LicenceFactory,
    event_with_draw,
    name_members_in_charge,
    run_draw,
    sell_tickets,
    user_with_role,
)

pytestmark = pytest.mark.django_db
HEADER = "draw_number,draw_date,ticket_sales,envelope,card"
# A running raffle moves in: its licence was issued before the draws it imports (L3).
MOVED_IN = datetime.date(2025, 12, 1)


@pytest.fixture
def selling(staff_user):
    event = event_with_draw(actor=staff_user)
    return run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.SELLING)


def test_the_figures_shown_are_the_figures_written(staff_user, selling):  # R:P1
    sell_tickets(selling, actor=staff_user, sales="1001.99")
    shown = services.close_sales_figures(Draw.objects.get(pk=selling.pk))
    name_members_in_charge(selling, actor=staff_user)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=staff_user, draw=selling, expected_sales=shown.sales)
    assert (draw.ticket_sales, draw.draw_prize, draw.jackpot_contribution, draw.licensee_share) == (
        shown.sales,
        shown.split.draw_prize,
        shown.split.jackpot_contribution,
        shown.split.licensee_share,
    )
    assert (draw.jackpot_before, draw.jackpot_after) == (shown.jackpot_before, shown.jackpot_after)
    assert draw.pool.valid_tickets == shown.valid_tickets and draw.pool.sales_total == shown.sales


def test_a_close_at_a_total_other_than_the_one_shown_is_refused_and_changes_nothing(staff_user, selling):  # R:P1
    sell_tickets(selling, actor=staff_user, sales="500.00")
    name_members_in_charge(selling, actor=staff_user)  # R:L13 named before sales close
    shown = services.close_sales_figures(Draw.objects.get(pk=selling.pk))
    sell_tickets(selling, actor=staff_user, sales="20.00")  # another screen sells after the figures were shown
    entries = AuditEntry.objects.count()
    with pytest.raises(RaffleError, match=r"changed since the figures were shown: they now add up to \$520.00"):
        services.draw_close_sales(actor=staff_user, draw=selling, expected_sales=shown.sales)
    draw = Draw.objects.get(pk=selling.pk)
    assert draw.state == DrawState.SELLING and draw.ticket_sales is None
    assert AuditEntry.objects.count() == entries


@pytest.mark.parametrize(
    "sales, data, rule",
    [
        (None, {}, "T7"),
        ("500.00", {"ticket_sales": "480.00"}, "T11"),
        ("500.00", {"container_count": "3"}, "L13"),
    ],
)
def test_the_preview_refuses_with_the_services_own_words(client, staff_user, selling, sales, data, rule):
    # R:T7 R:T11 R:L13 the wizard's preview and the service raise the same refusal, from one place.
    if sales:
        sell_tickets(selling, actor=staff_user, sales=sales)
    with pytest.raises(RaffleError) as refused:
        services.draw_close_sales(actor=staff_user, draw=Draw.objects.get(pk=selling.pk), **data)
    assert refused.value.rule == rule
    client.force_login(user_with_role(roles.DRAW_STAFF, username="sam"))
    response = client.post(reverse("draw_night", args=[selling.pk]), {"expected_state": DrawState.SELLING, **data})
    assert response.status_code == 400
    assert str(refused.value) in [str(e) for e in response.context["form"].non_field_errors()]
    assert Draw.objects.get(pk=selling.pk).state == DrawState.SELLING


def test_the_preview_already_refuses_sales_past_the_prize_board(client, staff_user, selling):  # R:L3
    sell_tickets(selling, actor=staff_user, sales="1000.00")
    licence = selling.event.licence
    licence.prize_board = Decimal("100.00")
    licence.save(update_fields=["prize_board"])
    client.force_login(user_with_role(roles.DRAW_STAFF, username="sam"))
    response = client.post(reverse("draw_night", args=[selling.pk]), {"expected_state": DrawState.SELLING})
    assert response.status_code == 400
    assert "prize board" in response.content.decode() and "Close sales at" not in response.content.decode()


def test_the_history_import_closes_each_draw_with_the_live_close(staff_user):  # R:P1 R:L3
    """The import runs the live close: the same figures, and the same refusal
    of sales that would pass the prize board (the whole file refused)."""
    jan_8 = timezone.make_aware(datetime.datetime(2026, 1, 8, 19, 0))  # R:D9 set up on its first draw's date
    event = event_with_draw(
        actor=staff_user, licence=LicenceFactory(issued_on=datetime.date(2025, 12, 1)), first_draw_at=jan_8
    )
    licence = event.licence
    licence.prize_board = Decimal("300.00")
    licence.save(update_fields=["prize_board"])
    with pytest.raises(ImportRefused, match=r"row 3 \(draw 2\): Sales of .* past licence"):
        services.history_import(
            actor=staff_user, licence=licence, text=f"{HEADER}\n1,2026-01-08,400.00,7,QD\n2,2026-01-15,400.00,8,KD\n"
        )
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()
    assert Event.objects.get(pk=event.pk).jackpot == event.jackpot
    live = services.close_sales_figures(Draw(event=event, number=9, is_imported=True), ticket_sales="400.00")
    services.history_import(actor=staff_user, licence=licence, text=f"{HEADER}\n1,2026-01-08,400.00,7,QD\n")
    draw = Draw.objects.get(event=event, number=1)
    assert (draw.ticket_sales, draw.draw_prize, draw.jackpot_contribution) == (
        live.sales,
        live.split.draw_prize,
        live.split.jackpot_contribution,
    )
    assert draw.state == DrawState.CLOSED and draw.sales_opened_at is None and draw.closed_at is not None
