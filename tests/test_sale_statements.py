"""One sale's SQL statements are counted, so the sale path cannot grow again
silently (#18: one sale through the service within 4x of the same rows
written with hand-written SQL; docs/benchmarks.md, "One sale")."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from licensing.models import SalesChannel
from raffle import services
from tests.factories import LicenceFactory, event_with_draw

pytestmark = pytest.mark.django_db

# The statements of one electronic sale on PostgreSQL, BEGIN and COMMIT aside (9 with them: docs/benchmarks.md).
SALE_STATEMENTS = 7


def test_one_sale_takes_a_fixed_number_of_statements(staff_user):  # #18
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    with CaptureQueriesContext(connection) as captured:
        sale = services.ticket_sell(
            actor=staff_user,
            draw=draw,
            tier_quantity=1,
            purchaser_name="Ann Buyer",
            purchaser_contact="519-555-0101",
            envelope_pick=10,
            device="POS-1",
        )
    # the test's own transaction turns the service's atomic block into a savepoint: not counted
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert sale.tickets.count() == 1
    assert len(statements) <= SALE_STATEMENTS, "\n".join(statements)
