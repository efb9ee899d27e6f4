"""Closing sales succeeds while eight sellers go on selling (#15): the close
locks the draw and fixes the figures at that moment; every sale committed
before it counts, every later one is refused (RULES P1, T4), over real
PostgreSQL connections."""

import threading
import time
from decimal import Decimal

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.urls import reverse

from core import roles
from core.errors import DomainError
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Draw, DrawState, Sale
from tests.factories import LicenceFactory, UserFactory, event_with_draw, name_members_in_charge, user_with_role

SELLERS = 8


@pytest.mark.django_db(transaction=True)
def test_closing_sales_succeeds_at_the_first_confirmation_while_eight_sellers_sell():  # R:P1 R:T4
    staff = user_with_role(roles.DRAW_STAFF, username="sam")
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))
    draw = name_members_in_charge(draw, actor=staff)  # R:L13 before sales close
    sellers = [UserFactory(username=f"seller{i}") for i in range(SELLERS)]
    refused, crashed, stop = [], [], threading.Event()

    def sell(i):
        try:
            while not stop.is_set():
                try:
                    services.ticket_sell(
                        actor=sellers[i],
                        draw=draw,
                        tier_quantity=1,
                        purchaser_name=f"Buyer {i}",
                        purchaser_contact="519-555-0199",
                        envelope_pick=1 + i,
                        device=f"POS-{i}",
                    )
                except DomainError as error:
                    refused.append(str(error))
                    return
        except Exception as error:  # pragma: no cover - shown in the assertion
            crashed.append(repr(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=sell, args=(i,)) for i in range(SELLERS)]
    for thread in threads:
        thread.start()
    try:
        deadline = time.monotonic() + 30
        while Sale.objects.filter(draw=draw).count() < 3 * SELLERS and time.monotonic() < deadline:
            time.sleep(0.05)
        night = reverse("draw_night", args=[draw.pk])
        browser = Client()
        browser.force_login(staff)
        preview = browser.post(night, {"expected_state": DrawState.SELLING})
        assert "Check the reconciled figures" in preview.text
        shown = preview.context["preview"].sales
        time.sleep(0.2)  # the volunteer reads the figures; the sellers go on selling
        closed = browser.post(night, {"expected_state": DrawState.SELLING, "previewed": str(shown)}, follow=True)
    finally:
        time.sleep(0.2)
        stop.set()
        for thread in threads:
            thread.join(timeout=60)

    assert not crashed, crashed
    draw = Draw.objects.get(pk=draw.pk)
    assert draw.state == DrawState.SALES_CLOSED  # the first confirmation closed
    sold = Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(total=Sum("amount"))["total"]
    assert draw.ticket_sales == sold  # every sale committed before the close counts, none after
    assert draw.ticket_sales > shown  # selling went on after the figures were shown
    assert f"closed at ${draw.ticket_sales:,.2f}" in closed.text
    assert len(refused) == SELLERS and all("are closed" in message for message in refused), refused
    assert draw.pool.sales_total == draw.ticket_sales and draw.pool.valid_tickets == Decimal(
        Sale.objects.filter(draw=draw).aggregate(n=Sum("ticket_count"))["n"]
    )
