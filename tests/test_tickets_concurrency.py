"""Many sellers at once on real PostgreSQL connections: no duplicate serial,
no lost sale (RULES T3)."""

import threading

import pytest
from django.db import OperationalError, connection, transaction
from django.urls import reverse

from core import roles
from core.audit import audit_verify
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale, Ticket
from tests.factories import (
    LicenceFactory,
    UserFactory,
    event_with_draw,
    name_members_in_charge,
    once,
    user_with_role,
)
from tests.test_concurrency import _race

SELLERS, SALES_EACH = 6, 8


@pytest.mark.django_db(transaction=True)
def test_concurrent_electronic_sales_never_duplicate_a_serial_nor_lose_a_sale():  # R:T3
    user = UserFactory()
    event = event_with_draw(actor=user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=user, draw=event.draws.get(number=1))

    def sell(i):
        for _ in range(SALES_EACH):
            services.ticket_sell(
                actor=user,
                draw=draw,
                tier_quantity=3,
                purchaser_name=f"Buyer {i}",
                purchaser_contact="519-555-0199",
                envelope_pick=1 + i,
                device=f"POS-{i}",
            )
        return i

    results = _race(SELLERS, sell)

    assert sorted(kind for kind, _ in results) == ["ok"] * SELLERS, results
    assert Sale.objects.filter(draw=draw).count() == SELLERS * SALES_EACH
    tickets = list(Ticket.objects.filter(draw=draw).values_list("serial", "seq"))
    assert len(tickets) == SELLERS * SALES_EACH * 3
    assert len({serial for serial, _ in tickets}) == len(tickets)
    assert sorted(seq for _, seq in tickets) == list(range(1, len(tickets) + 1))  # dense: nothing lost
    # each sale's audit entry appended after the chain's head its own statement read under the lock
    chain = event.licence.organisation_id
    sells = AuditEntry.objects.filter(chain=chain, action="raffle.ticket.sell")
    assert sells.count() == SELLERS * SALES_EACH
    seqs = list(AuditEntry.objects.filter(chain=chain).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert audit_verify().intact


@pytest.mark.django_db(transaction=True)
def test_two_sellers_typing_the_same_stub_serial_at_once_give_exactly_one_sale():  # R:T3
    user = UserFactory()
    event = event_with_draw(actor=user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = services.draw_open_sales(actor=user, draw=event.draws.get(number=1))
    services.roll_issue(actor=user, draw=draw, seller_name="Jo", first_serial=1, last_serial=100, kind="book")

    results = _race(
        2,
        lambda i: services.ticket_sell(
            actor=user,
            draw=draw,
            tier_quantity=1,
            serials=["42"],
            purchaser_name=f"Buyer {i}",
            purchaser_contact="x",
            envelope_pick=5,
        ),
    )

    assert sorted(kind for kind, _ in results) == ["ok", "refused"], results
    assert "already sold" in next(message for kind, message in results if kind == "refused")
    assert Ticket.objects.filter(serial="42").count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_sale_racing_the_close_either_counts_or_is_refused():  # R:T4 R:P1
    user = UserFactory()
    event = event_with_draw(actor=user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=user, draw=event.draws.get(number=1))
    services.ticket_sell(
        actor=user, draw=draw, tier_quantity=1, purchaser_name="A", purchaser_contact="a", envelope_pick=1, device="POS"
    )
    draw = name_members_in_charge(draw, actor=user)  # R:L13 before sales close

    def work(i):
        if i == 0:
            return services.draw_close_sales(actor=user, draw=draw)
        return services.ticket_sell(
            actor=user,
            draw=draw,
            tier_quantity=3,
            purchaser_name="B",
            purchaser_contact="b",
            envelope_pick=2,
            device="POS",
        )

    results = _race(2, work)
    draw.refresh_from_db()
    valid = sum(Sale.objects.filter(draw=draw, voided_at__isnull=True).values_list("amount", flat=True))
    assert draw.ticket_sales == valid  # a sale is never left out of the closed total
    assert any(kind == "ok" for kind, _ in results)


def _sell_one(user, draw, buyer):
    return services.ticket_sell(
        actor=user,
        draw=draw,
        tier_quantity=1,
        purchaser_name=buyer,
        purchaser_contact="519-555-0199",
        envelope_pick=3,
        device="POS",
    )


@pytest.mark.django_db(transaction=True)
def test_a_sale_never_waits_for_a_sale_of_another_organisation_still_in_flight(client):  # #18
    """What lets sellers of 4 organisations sell at least as fast as 16 on
    one draw (#18): a sale holds its draw's row and its organisation's audit
    chain until it commits, and nothing any other organisation's sale needs.
    A sale of organisation A is held open at the point of commit; a sale of
    organisation B from its sales page then goes through under a 2-second
    lock_timeout, while another sale on A's draw, or on another draw of A
    (the same chain), is refused for the wait: the check tells a sale that
    waits from one that does not."""
    user = UserFactory()
    licence_a = LicenceFactory(sales_channel=SalesChannel.ELECTRONIC)
    licence_b = LicenceFactory(sales_channel=SalesChannel.ELECTRONIC)
    assert licence_a.organisation_id != licence_b.organisation_id
    draw_a = services.draw_open_sales(
        actor=user, draw=event_with_draw(actor=user, licence=licence_a).draws.get(number=1)
    )
    draw_b = services.draw_open_sales(
        actor=user, draw=event_with_draw(actor=user, licence=licence_b).draws.get(number=1)
    )
    # a second event of organisation A, on its own licence: another draw, the same audit chain
    licence_a2 = LicenceFactory(sales_channel=SalesChannel.ELECTRONIC, organisation=licence_a.organisation)
    draw_a2 = services.draw_open_sales(
        actor=user, draw=event_with_draw(actor=user, licence=licence_a2).draws.get(number=1)
    )
    client.force_login(user_with_role(roles.SELLER, organisation=licence_b.organisation))
    in_flight, release = threading.Event(), threading.Event()

    def hold_a_sale_of_a_open():
        try:
            with transaction.atomic():
                _sell_one(user, draw_a, "Held at the point of commit")
                in_flight.set()
                release.wait(60)
        finally:
            in_flight.set()
            connection.close()

    holder = threading.Thread(target=hold_a_sale_of_a_open)
    holder.start()
    try:
        assert in_flight.wait(60) and holder.is_alive()
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '2s'")
        # B's seller sells through the sales page, as in the load test: session, one-time token, sale, audit
        form = once(
            tier="1", units="1", purchaser_name="Another organisation", purchaser_contact="x", envelope_pick="4"
        )
        response = client.post(reverse("sales_sell", args=[draw_b.pk]), {**form, "device": "POS-B"})
        assert response.status_code == 302, response.content[:500]  # a wait would have been a lock timeout
        for draw in (draw_a, draw_a2):
            with pytest.raises(OperationalError) as waited, transaction.atomic():
                _sell_one(user, draw, "Waits for the sale in flight")
            assert "lock timeout" in str(waited.value)
    finally:
        release.set()
        holder.join(60)
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")

    assert Sale.objects.filter(draw=draw_b, purchaser_name="Another organisation").count() == 1
    assert Sale.objects.filter(draw=draw_a).count() == 1  # the held sale, committed once released
    assert not Sale.objects.filter(draw=draw_a2).exists()
    assert audit_verify().intact
