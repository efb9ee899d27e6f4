"""Many sellers at once on real PostgreSQL connections: no duplicate serial,
no lost sale (RULES T3)."""

import pytest

from core.audit import audit_verify
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale, Ticket
from tests.factories import LicenceFactory, UserFactory, event_with_draw, name_members_in_charge
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
