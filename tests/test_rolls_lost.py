"""Rolls and books still out when sales close (RULES T7, L13): every one is
returned or declared lost with a reason before the draw's sales close; the
unsold serials of a lost one are void and reported as void."""

import csv
import io

import pytest
from django.urls import reverse

from core import roles
from core.errors import DomainError
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Draw, DrawState, RollKind, Ticket, TicketRoll
from tests.factories import (
    LicenceFactory,
    event_with_draw,
    name_members_in_charge,
    once,
    run_draw,
    sell_tickets,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def _log(client, draw) -> list[dict]:
    client.force_login(user_with_role(roles.DRAW_STAFF))
    response = client.get(reverse("draw_ticket_log", args=[draw.pk]))
    return list(csv.DictReader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_sales_cannot_close_while_a_roll_is_out_until_it_is_declared_lost(client, draw, staff_user):  # R:T7 R:L13
    """Friday night: Sam's roll came back, but Terry went home with roll
    200001–200100. Closing sales is refused, naming Terry's roll. Terry
    cannot be reached: the volunteer declares the roll lost, saying why;
    its hundred serials are void, sales close on what was returned, the
    ticket log shows the void serials, and the roll can never come back."""
    draw = run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    sell_tickets(draw, actor=staff_user, sales="100.00")
    terry = services.roll_issue(
        actor=staff_user, draw=draw, seller_name="Terry Late", first_serial=200001, last_serial=200100
    )
    with pytest.raises(
        DomainError, match=r"Roll of tickets 200001–200100 \(Terry Late\) is still out for draw 1"
    ) as refused:
        services.draw_close_sales(actor=staff_user, draw=draw)
    assert refused.value.rule == "T7"
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SELLING

    with pytest.raises(DomainError, match="Say why"):
        services.roll_declare_lost(actor=staff_user, roll=terry, reason="  ")
    assert TicketRoll.objects.get(pk=terry.pk).is_out

    services.roll_declare_lost(actor=staff_user, roll=terry, reason="Seller left with the roll; unreachable")
    entry = AuditEntry.objects.get(action="raffle.roll.declare_lost")
    assert entry.data["void_serials"] == 100 and entry.data["reason"] == "Seller left with the roll; unreachable"
    with pytest.raises(DomainError, match="declared lost"):
        services.roll_return(actor=staff_user, roll=terry, first_unsold=200001, tier_counts={})
    with pytest.raises(DomainError, match="overlap"):  # R:T3 the void serials are never reused
        services.roll_issue(actor=staff_user, draw=draw, seller_name="Sam", first_serial=200050, last_serial=200060)

    closed = services.draw_close_sales(actor=staff_user, draw=draw)
    assert closed.state == DrawState.SALES_CLOSED and closed.ticket_sales == 100
    assert not Ticket.objects.filter(draw=draw, serial__startswith="2000").exists()

    rows = _log(client, draw)
    void = [row for row in rows if row["serial"].startswith("200")]
    assert len(void) == 100 and all(row["void"] == "True" for row in void)
    assert void[0]["void reason"] == "roll declared lost: Seller left with the roll; unreachable"


def test_a_returned_roll_cannot_be_declared_lost(draw, staff_user):  # R:T7
    draw = run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    [sale] = sell_tickets(draw, actor=staff_user, sales="5.00")
    with pytest.raises(DomainError, match="already accounted for"):
        services.roll_declare_lost(actor=staff_user, roll=sale.roll, reason="Changed my mind")


def test_a_lost_book_keeps_its_sold_stubs_and_voids_the_rest(staff_user):  # R:T7 R:L13 R:T9
    """A book of ten stubs: two were sold with the buyers' details, then the
    book went missing. Declared lost, its eight other stubs are void and
    cannot be sold; the two sold stubs stay in the draw."""
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.SELLING)
    book = services.roll_issue(
        actor=staff_user,
        draw=draw,
        seller_name="Bea Books",
        first_serial=300001,
        last_serial=300010,
        kind=RollKind.BOOK,
    )
    buyer = {"purchaser_name": "Pat Buyer", "purchaser_contact": "519-555-0100", "envelope_pick": 5}
    for serial in ("300001", "300002"):
        services.ticket_sell(actor=staff_user, draw=draw, tier_quantity=1, units=1, serials=[serial], **buyer)
    services.roll_declare_lost(actor=staff_user, roll=book, reason="Book lost at the arena")
    assert AuditEntry.objects.get(action="raffle.roll.declare_lost").data["void_serials"] == 8
    with pytest.raises(DomainError, match="book declared lost"):
        services.ticket_sell(actor=staff_user, draw=draw, tier_quantity=1, units=1, serials=["300003"], **buyer)
    name_members_in_charge(draw, actor=staff_user)
    closed = services.draw_close_sales(actor=staff_user, draw=draw)
    assert closed.pool.valid_tickets == 2


def test_the_rolls_page_declares_a_roll_lost_with_its_reason(client, draw, staff_user):  # R:T7
    draw = run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    roll = services.roll_issue(actor=staff_user, draw=draw, seller_name="Terry Late", first_serial=1, last_serial=50)
    client.force_login(user_with_role(roles.DRAW_STAFF))
    url = reverse("sales_rolls", args=[draw.pk])
    page = client.get(url).content.decode()
    assert "Declare a roll lost" in page
    response = client.post(url, once(action="lost", roll=roll.pk, reason="Never came back"), follow=True)
    page = response.content.decode()
    assert "declared lost" in page and "Never came back" in page
    assert TicketRoll.objects.get(pk=roll.pk).is_lost
