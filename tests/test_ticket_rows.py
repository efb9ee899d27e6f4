"""Ticket rows built for bulk (docs/architecture.md, "Ticket rows"): no
per-row foreign key checks, yet the database still refuses a ticket that does
not belong to a sale of its own draw and licence, and a ticket's or a sale's
keys never change (RULES T3, T4, T11)."""

import pytest
from django.db import DatabaseError, IntegrityError, transaction

from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale, Ticket
from raffle.models.ticket import ticket_key
from tests.factories import LicenceFactory, event_with_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def sold(staff_user):
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    return services.ticket_sell(
        actor=staff_user,
        draw=draw,
        tier_quantity=1,
        purchaser_name="Ann",
        purchaser_contact="519-555-0101",
        envelope_pick=3,
        device="POS-1",
    )


def _insert(**values):
    with transaction.atomic():
        Ticket.objects.create(**values)


def test_a_ticket_of_another_draw_than_its_sale_is_refused(sold, staff_user):  # R:T4
    second = sold.draw.event.draws.create(number=2, scheduled_at=sold.draw.scheduled_at)
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=sold.licence_id, draw=second, sale=sold, serial="X-1", seq=1)


def test_a_ticket_under_another_licence_than_its_sale_is_refused(sold):  # R:T3
    other = LicenceFactory()
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=other.pk, draw=sold.draw, sale=sold, serial="X-2", seq=99)


def test_a_ticket_without_a_sale_is_refused(sold):
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=sold.licence_id, draw=sold.draw, sale_id=sold.pk + 1000, serial="X-3", seq=98)


def test_a_ticket_of_its_sale_is_accepted(sold):
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sold, serial="X-4", seq=97)
    assert Ticket.objects.filter(sale=sold).count() == 2


@pytest.mark.parametrize("change", [{"serial": "Z-9"}, {"seq": 500}, {"sale_id": 0}, {"draw_id": 0}])
def test_a_tickets_serial_number_and_keys_never_change(sold, change):  # R:T11
    with pytest.raises(DatabaseError, match="never changes"), transaction.atomic():
        Ticket.objects.filter(sale=sold).update(**change)


def test_a_ticket_is_still_voided_in_place(sold, staff_user):  # R:T11
    services.sale_void(actor=staff_user, sale=sold, reason="wrong tier")
    assert list(Ticket.objects.filter(sale=sold).values_list("is_void", flat=True)) == [True]


def test_a_sales_draw_never_changes(sold):
    second = sold.draw.event.draws.create(number=2, scheduled_at=sold.draw.scheduled_at)
    with pytest.raises(DatabaseError, match="never changes"), transaction.atomic():
        Sale.objects.filter(pk=sold.pk).update(draw=second)


def test_a_seq_taken_twice_in_one_draw_is_refused(sold):  # R:T4 the primary key is (draw, seq)
    with pytest.raises(IntegrityError, match="raffle_ticket_pkey"):
        _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sold, serial="X-5", seq=1)


def test_a_tickets_key_is_its_place_in_its_draw_and_never_set_by_hand(sold):
    ticket = Ticket.objects.get(sale=sold)
    assert ticket.pk == ticket_key(sold.draw_id, ticket.seq) == sold.draw_id * 2**32 + 1
    assert list(Ticket.objects.of_draw(sold.draw_id)) == list(Ticket.objects.at(sold.draw_id, [1])) == [ticket]
    assert Ticket.objects.last_seq(sold.draw_id) == 1 and Ticket.objects.last_seq(sold.draw_id + 1) == 0
    with pytest.raises(DatabaseError, match="generated"), transaction.atomic():
        Ticket.objects.filter(pk=ticket.pk).update(id=ticket.pk + 1)
