"""Sellers, voids and roll returns at once on real PostgreSQL connections: the
draw's running totals still equal the sums of its rows (RULES L3, P1, T3)."""

import itertools

import pytest

from core.audit import audit_verify
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Draw, Sale
from raffle.totals import totals_mismatches
from tests.factories import LicenceFactory, UserFactory, event_with_draw
from tests.test_concurrency import _race

WORKERS, ROUNDS = 8, 6


@pytest.mark.django_db(transaction=True)
def test_running_totals_equal_the_rows_after_concurrent_sales_voids_and_returns():  # R:P1 R:T3
    user = UserFactory()
    e_event = event_with_draw(actor=user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    e_draw = services.draw_open_sales(actor=user, draw=e_event.draws.get(number=1))
    r_event = event_with_draw(actor=user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_ROLL))
    r_draw = services.draw_open_sales(actor=user, draw=r_event.draws.get(number=1))
    rolls = [
        services.roll_issue(
            actor=user, draw=r_draw, seller_name=f"Seller {i}", first_serial=i * 1000 + 1, last_serial=i * 1000 + 500
        )
        for i in range(WORKERS)
    ]
    counter = itertools.count()

    def work(i):
        done = 0
        for round_ in range(ROUNDS):
            sale = services.ticket_sell(
                actor=user,
                draw=e_draw,
                tier_quantity=1 + 2 * (round_ % 2),
                purchaser_name=f"Buyer {i}",
                purchaser_contact="519-555-0199",
                envelope_pick=1 + i,
                device=f"POS-{i}",
            )
            if round_ % 3 == 0:  # a third of each seller's sales are voided, by the seller, at once
                services.sale_void(actor=user, sale=sale, reason=f"void {next(counter)}")
            done += 1
        returned = services.roll_return(
            actor=user, roll=rolls[i], first_unsold=rolls[i].first_serial + 7, tier_counts={1: 4, 3: 1}
        )
        services.sale_void(actor=user, sale=returned[0], reason="counted twice")
        return done

    results = _race(WORKERS, work)

    assert sorted(kind for kind, _ in results) == ["ok"] * WORKERS, results
    assert totals_mismatches(Draw.objects.filter(pk__in=[e_draw.pk, r_draw.pk])) == []
    # a sale locks its organisation's audit chain in the statement that writes it, a void in a
    # statement of its own, both after the draw: no deadlock above, and every chain still verifies
    assert audit_verify().intact
    e_draw.refresh_from_db()
    r_draw.refresh_from_db()
    assert e_draw.sales_valid + e_draw.sales_void == Sale.objects.filter(draw=e_draw).count() == WORKERS * ROUNDS
    assert e_draw.sales_void == WORKERS * 2
    assert (r_draw.tickets_valid, r_draw.tickets_void) == (WORKERS * 3, WORKERS * 4)  # the 4 single tickets voided
