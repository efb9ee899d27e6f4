"""The draw's running totals: moved by every sale, void and roll return in the
same transaction, equal to the sums of the rows, and read by the sale's prize
board check and the close of sales instead of summing the rows (RULES L3, P1)."""

from decimal import Decimal

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.models import Count, Sum
from django.test.utils import CaptureQueriesContext

from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, Sale
from raffle.totals import totals_mismatches
from tests.factories import LicenceFactory, event_with_draw, name_members_in_charge

pytestmark = pytest.mark.django_db


def _open(channel, actor, **licence):
    event = event_with_draw(actor=actor, licence=LicenceFactory(sales_channel=channel, **licence))
    return services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))


def _sell(draw, actor, quantity=1, pick=3):
    return services.ticket_sell(
        actor=actor,
        draw=draw,
        tier_quantity=quantity,
        purchaser_name="Ann Buyer",
        purchaser_contact="519-555-0101",
        envelope_pick=pick,
        device="POS-1",
    )


def _rows(draw):
    valid = Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(
        amount=Sum("amount"), sales=Count("id"), tickets=Sum("ticket_count")
    )
    void = Sale.objects.filter(draw=draw, voided_at__isnull=False).aggregate(
        sales=Count("id"), tickets=Sum("ticket_count")
    )
    return (valid["amount"], valid["sales"], void["sales"], valid["tickets"], void["tickets"] or 0)


def _totals(draw):
    draw = Draw.objects.get(pk=draw.pk)
    return (draw.sales_amount, draw.sales_valid, draw.sales_void, draw.tickets_valid, draw.tickets_void)


def test_sales_and_voids_move_the_running_totals_to_the_row_sums(staff_user):
    draw = _open(SalesChannel.ELECTRONIC, staff_user)
    sales = [_sell(draw, staff_user, quantity=q) for q in (1, 3, 1, 3)]
    services.sale_void(actor=staff_user, sale=sales[1], reason="wrong tier entered")

    assert _totals(draw) == _rows(draw) == (Decimal("20.00"), 3, 1, 5, 3)
    assert totals_mismatches(Draw.objects.filter(pk=draw.pk)) == []


def test_a_returned_roll_moves_the_running_totals(staff_user):
    draw = _open(SalesChannel.PAPER_ROLL, staff_user)
    roll = services.roll_issue(actor=staff_user, draw=draw, seller_name="Sam", first_serial=1, last_serial=500)
    sales = services.roll_return(actor=staff_user, roll=roll, first_unsold=141, tier_counts={1: 20, 3: 40})
    services.sale_void(actor=staff_user, sale=sales[0], reason="counted twice")

    assert _totals(draw) == _rows(draw)
    assert _totals(draw)[3:] == (120, 20)
    assert totals_mismatches(Draw.objects.filter(pk=draw.pk)) == []


def test_a_refused_sale_leaves_the_totals_unchanged(staff_user):  # R:L3
    draw = _open(SalesChannel.ELECTRONIC, staff_user, prize_board=Decimal("10.00"))
    _sell(draw, staff_user)
    before = _totals(draw)
    with pytest.raises(RaffleError) as refused:
        for _ in range(10):
            _sell(draw, staff_user, quantity=3)
    assert refused.value.rule == "L3"
    assert _totals(draw)[0] <= Decimal("20.00")
    assert _totals(draw) == _rows(draw)
    assert _totals(draw)[1] >= before[1]


def test_the_sale_reads_the_running_total_not_the_rows(staff_user):  # R:L3
    draw = _open(SalesChannel.ELECTRONIC, staff_user)
    for _ in range(5):
        _sell(draw, staff_user)
    with CaptureQueriesContext(connection) as queries:
        _sell(draw, staff_user)
    aggregates = [
        q["sql"]
        for q in queries.captured_queries
        if any(f in q["sql"].upper() for f in ("SUM(", "MAX(", "COUNT("))
        and any(table in q["sql"] for table in ('"raffle_sale"', '"raffle_ticket"'))
    ]
    assert aggregates == []  # no aggregate over the draw's sales or tickets: the totals are read


def test_close_of_sales_fixes_the_pool_from_the_totals(staff_user):  # R:T7 R:P1
    draw = _open(SalesChannel.ELECTRONIC, staff_user)
    sales = [_sell(draw, staff_user, quantity=3) for _ in range(3)]
    services.sale_void(actor=staff_user, sale=sales[0], reason="test")
    name_members_in_charge(draw, actor=staff_user)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=staff_user, draw=draw)

    assert draw.ticket_sales == Decimal("20.00")
    assert (draw.pool.valid_tickets, draw.pool.void_tickets, draw.pool.max_seq) == (6, 3, 9)


def test_the_reconcile_command_passes_on_true_totals_and_names_a_wrong_one(staff_user, capsys):
    draw = _open(SalesChannel.ELECTRONIC, staff_user)
    _sell(draw, staff_user, quantity=3)
    call_command("reconcile_draw_totals")
    assert "totals equal the rows" in capsys.readouterr().out

    Draw.objects.filter(pk=draw.pk).update(sales_amount=Decimal("99.00"))
    with pytest.raises(CommandError, match="differ from the rows"):
        call_command("reconcile_draw_totals", event=draw.event_id)
    err = capsys.readouterr().err
    assert "sales_amount is 99.00 on the draw but 10.00 in its rows" in err
