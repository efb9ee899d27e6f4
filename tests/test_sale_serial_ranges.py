"""A sale's page shows its serials as ranges: a returned roll of thousands of
tickets is one line read from two index lookups, not every serial (RULES T7)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core import roles
from licensing.models import SalesChannel
from raffle import services
from raffle.selectors.sales import serial_ranges
from tests.factories import LicenceFactory, event_with_draw, login_verified, user_with_role

pytestmark = pytest.mark.django_db


def test_consecutive_serials_are_grouped_into_ranges():
    serials = ["41", "42", "43", "45", "E001-0000009", "E001-0000010", "E002-0000011", "X", "099", "100"]
    assert serial_ranges(serials) == [
        ("41", "43", 3),
        ("45", "45", 1),
        ("E001-0000009", "E001-0000010", 2),
        ("E002-0000011", "E002-0000011", 1),
        ("X", "X", 1),
        ("099", "100", 2),
    ]


def _roll_sale(staff, tickets):
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_ROLL))
    draw = services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))
    roll = services.roll_issue(actor=staff, draw=draw, seller_name="Sam", first_serial=100001, last_serial=200000)
    [sale] = services.roll_return(actor=staff, roll=roll, first_unsold=100001 + tickets, tier_counts={1: tickets})
    return sale


@pytest.mark.parametrize("tickets", [20, 3000])
def test_a_returned_rolls_sale_page_shows_one_range_in_a_fixed_number_of_queries(client, tickets):  # R:T7
    staff = user_with_role(roles.DRAW_STAFF)
    sale = _roll_sale(staff, tickets)
    login_verified(client, staff)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("sale_detail", args=[sale.pk])).content.decode()
    assert f"100001–{100000 + tickets} ({tickets})" in page
    assert "100002" not in page  # no serial listed one by one
    assert len(queries) <= 12


def test_typed_stubs_are_shown_as_they_run(client):  # R:T9
    staff = user_with_role(roles.DRAW_STAFF)
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))
    services.roll_issue(actor=staff, draw=draw, seller_name="Jo", first_serial=1, last_serial=100, kind="book")
    sale = services.ticket_sell(
        actor=staff,
        draw=draw,
        tier_quantity=1,
        units=4,
        serials=["7", "8", "9", "12"],
        purchaser_name="Ann",
        purchaser_contact="519-555-0101",
        envelope_pick=5,
    )
    login_verified(client, staff)
    page = client.get(reverse("sale_detail", args=[sale.pk])).content.decode()
    assert "7–9 (3), 12" in page
