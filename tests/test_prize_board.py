import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from core.models import AuditEntry
from core.money import max_sales_for_prizes, prizes_of
from licensing.models import SalesChannel
from raffle import selectors, services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Event, Sale, Ticket
from tests.factories import (
    LicenceFactory,
    UserFactory,
    event_with_draw,
    members_for,
    name_members_in_charge,
    run_draw,
    sell_tickets,
)

pytestmark = pytest.mark.django_db
D = Decimal


@pytest.fixture
def user():
    return UserFactory()


def _event(user, *, prize_board="50000.00", sales_channel=SalesChannel.PAPER_ROLL, **kwargs):
    today = timezone.localdate()
    licence = LicenceFactory(
        prize_board=D(prize_board),
        issued_on=today - datetime.timedelta(days=1),
        expires_on=today + datetime.timedelta(days=7 * 20 - 1),
        sales_channel=sales_channel,
    )
    kwargs.setdefault("first_draw_at", timezone.now() + datetime.timedelta(hours=1))
    return event_with_draw(actor=user, licence=licence, **kwargs)


def _close(event, user, sales_list):
    destroyer, verifier = members_for(event)
    for sales in sales_list:
        draw = event.draws.exclude(state=DrawState.CLOSED).order_by("number").first()
        run_draw(draw, actor=user, sales=sales, destroyer=destroyer, verifier=verifier)


def test_the_forecast_on_a_known_schedule(user):  # R:L3
    event = _event(user)
    # Prizes are half the sales: 5,000, 10,000 and 15,000 -> 30,000 of 50,000 (60%).
    _close(event, user, ["10000", "20000", "30000"])
    forecast = selectors.prize_board_forecast(Event.objects.get(pk=event.pk))
    assert forecast.prizes_so_far == D("30000.00")
    assert forecast.percent_used == D("60.0") and forecast.level == "ok"
    assert forecast.pace == D("10000.00")  # mean prizes of the last three draws
    # 20 weekly draws fit the licence; 3 are done, 17 remain.
    assert forecast.draws_left == 17 and forecast.next_draw_number == 4
    # Draws 4 and 5 bring the prizes to exactly 50,000; draw 6 would pass the board.
    assert forecast.reach_draw_number == 6
    first = timezone.localdate(event.first_draw_at)
    assert forecast.reach_date == first + datetime.timedelta(weeks=5)
    assert forecast.prizes_at_expiry == D("200000.00")
    assert "draw 6" in forecast.message


@pytest.mark.parametrize(
    "sales, level",
    [("74998", "ok"), ("75000", "warning"), ("89999.98", "warning"), ("90000", "danger"), ("100000", "reached")],
)
def test_the_forecast_warns_at_75_and_90_percent(user, sales, level):  # R:L3
    event = _event(user)
    _close(event, user, [sales])
    assert selectors.prize_board_forecast(Event.objects.get(pk=event.pk)).level == level


def test_a_draw_close_that_would_pass_the_prize_board_is_refused_and_changes_nothing(user):  # R:L3
    event = _event(user, prize_board="1000.00")
    _close(event, user, ["1500"])  # 750 in prizes
    draw = event.draws.get(number=2)
    run_draw(draw, actor=user, until=DrawState.SELLING)
    # Ticket sales are guarded one by one (below); a draw brought in from another
    # system closes on its recorded total, so the close itself is guarded too.
    draw.is_imported = True
    draw.save(update_fields=["is_imported"])
    with pytest.raises(
        RaffleError,
        match=r"prizes to \$1,000.50.*prize board of \$1,000.00.*at most \$500.03 "
        r"in sales.*must-go final draw",
    ) as refused:
        services.draw_close_sales(actor=user, draw=draw, ticket_sales="501")
    assert refused.value.rule == "L3"
    draw.refresh_from_db()
    assert draw.state == DrawState.SELLING and draw.ticket_sales is None
    assert Event.objects.get(pk=event.pk).jackpot == D("450.00")
    # Exactly up to the board is allowed.
    services.draw_close_sales(actor=user, draw=draw, ticket_sales="500.03")  # prizes 1,000.00
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SALES_CLOSED


@pytest.mark.parametrize(
    "channel", [SalesChannel.PAPER_ROLL, SalesChannel.PAPER_STUB, SalesChannel.ELECTRONIC, SalesChannel.ONLINE]
)
def test_a_ticket_sale_on_any_channel_that_would_pass_the_prize_board_is_refused_and_changes_nothing(
    user, channel
):  # R:L3
    event = _event(user, prize_board="1000.00", sales_channel=channel)
    _close(event, user, ["1500"])  # 750 in prizes: draw 2 can take at most 500.03 in sales
    draw = run_draw(event.draws.get(number=2), actor=user, until=DrawState.SELLING)
    sell_tickets(draw, actor=user, sales="500")  # prizes 250: 1,000 in all, the board exactly

    def entries():  # a roll issued for the refused return is audited; the refused sale writes nothing
        return AuditEntry.objects.exclude(action="raffle.roll.issue").count()

    sales, tickets, before = Sale.objects.count(), Ticket.objects.count(), entries()
    with pytest.raises(
        RaffleError,
        match=r"Sales of \$505.00 in this draw would bring the prizes to "
        r"\$1,002.50.*at most \$500.03 in sales: stop selling.*must-go "
        r"final draw",
    ) as refused:
        sell_tickets(draw, actor=user, sales="5")  # roll return, stub sale or device import
    assert refused.value.rule == "L3"
    assert (Sale.objects.count(), Ticket.objects.count()) == (sales, tickets)
    assert entries() == before
    # The roll or book of the refused sale comes back unsold (R:T7); what the
    # draw sold is within the board: it closes exactly there.
    for roll in services.rolls_out(draw):
        services.roll_return(actor=user, roll=roll, first_unsold=roll.first_serial, tier_counts={})
    name_members_in_charge(draw, actor=user)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=user, draw=draw)
    assert draw.ticket_sales == D("500.00") and selectors.prize_board_forecast(
        Event.objects.get(pk=event.pk)
    ).prizes_so_far == D("1000.00")


def test_a_void_makes_room_under_the_prize_board_again(user):  # R:L3 R:T11
    event = _event(user, prize_board="1000.00", sales_channel=SalesChannel.ELECTRONIC)
    _close(event, user, ["1500"])
    draw = run_draw(event.draws.get(number=2), actor=user, until=DrawState.SELLING)
    sell_tickets(draw, actor=user, sales="500")  # prizes 250: 1,000 in all, the board exactly
    with pytest.raises(RaffleError, match="prize board"):
        sell_tickets(draw, actor=user, sales="5")
    services.sale_void(actor=user, sale=Sale.objects.filter(draw=draw).first(), reason="refunded")
    assert sell_tickets(draw, actor=user, sales="5")


def test_a_ticket_sale_that_would_pass_the_prize_board_is_refused(user):  # R:L3
    event = _event(user, prize_board="100.00")
    # The draw has sold 195.00 so far; one more $5 ticket would make prizes 100.00 -> allowed,
    # a further $5 would make them 102.50 -> refused.
    assert services.prize_board_check(event=event, extra_sales="200.00") == D("100.00")
    with pytest.raises(RaffleError, match=r"Sales of \$205.00 .* at most \$200.03") as refused:
        services.prize_board_check(event=event, extra_sales="205.00")
    assert refused.value.rule == "L3"


def test_whole_dollar_rounding_leaves_a_little_more_room(user):  # R:L3 R:P1
    assert prizes_of(D("201.99"), rounding="dollar") == D("100.00")  # 40 + 60
    assert max_sales_for_prizes(D("100.00"), rounding="dollar") == D("203.33")
    assert prizes_of(D("203.34"), rounding="dollar") == D("101.00")
    assert max_sales_for_prizes(D("100.00"), rounding="cent") == D("200.03")
    assert prizes_of(D("200.03")) == D("100.00") and prizes_of(D("200.04")) == D("100.01")


def test_the_forecast_asks_for_the_must_go_draw_when_the_next_draw_would_pass_the_board(user):  # R:L3 R:P7
    event = _event(user)
    _close(event, user, ["30000", "40000"])  # 35,000 of 50,000 in prizes; pace 17,500
    forecast = selectors.prize_board_forecast(Event.objects.get(pk=event.pk))
    assert forecast.reach_draw_number == 3 == forecast.next_draw_number
    assert forecast.must_go_due == "prize_board" and "must-go final draw" in forecast.message


def test_the_forecast_asks_for_the_must_go_draw_before_the_licence_expires(user):  # R:P7
    today = timezone.localdate()
    licence = LicenceFactory(
        issued_on=today - datetime.timedelta(days=30), expires_on=today + datetime.timedelta(days=3)
    )
    event = event_with_draw(actor=user, licence=licence, first_draw_at=timezone.now() + datetime.timedelta(days=1))
    forecast = selectors.prize_board_forecast(event)
    assert forecast.draws_left == 1 and forecast.must_go_due == "licence_expiry"
    assert "last draw before the licence expires" in forecast.message
