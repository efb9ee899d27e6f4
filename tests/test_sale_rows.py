"""Sale rows built for bulk (docs/architecture.md, "Sale rows"): no per-row
foreign key checks, yet the database still refuses a sale whose draw, licence,
tier, roll or seller do not exist or do not belong together, and a draw, a
price tier or a user that sales name is never deleted (RULES T3, T4, T11)."""

import pytest
from django.db import IntegrityError, connection, transaction

from licensing.models import SalesChannel
from raffle import services
from raffle.models import PriceTier, Sale, TicketRoll
from tests.factories import LicenceFactory, UserFactory, event_with_draw

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


def _copy(sale, **changes):
    """Insert a copy of `sale` with `changes`, in a savepoint."""
    fields = {f.attname: getattr(sale, f.attname) for f in Sale._meta.concrete_fields if f.name != "id"}
    with transaction.atomic():
        return Sale.objects.create(**{**fields, **changes})


def test_a_sale_like_one_sold_is_accepted(sold):
    assert _copy(sold).draw_id == sold.draw_id


def test_a_sale_under_another_licence_than_its_draws_is_refused(sold):  # R:T3
    with pytest.raises(IntegrityError, match="does not belong to that draw, licence and tier"):
        _copy(sold, licence_id=LicenceFactory().pk)


def test_a_sale_of_a_draw_that_does_not_exist_is_refused(sold):  # R:T4
    with pytest.raises(IntegrityError, match="does not belong to that draw, licence and tier"):
        _copy(sold, draw_id=sold.draw_id + 1000)


def test_a_sale_at_another_events_price_tier_is_refused(sold, staff_user):  # R:T1
    other = event_with_draw(actor=staff_user)
    with pytest.raises(IntegrityError, match="does not belong to that draw, licence and tier"):
        _copy(sold, tier_id=PriceTier.objects.filter(event=other).first().pk)


def test_a_sale_from_a_roll_of_another_draw_is_refused(sold, staff_user):  # R:T7
    second = sold.draw.event.draws.create(number=2, scheduled_at=sold.draw.scheduled_at)
    roll = TicketRoll.objects.create(
        licence_id=sold.licence_id, draw=second, seller_name="Bob", first_serial=1, last_serial=10
    )
    with pytest.raises(IntegrityError, match="not a roll of that draw"):
        _copy(sold, roll_id=roll.pk)


def test_a_sale_by_a_seller_who_is_not_a_user_is_refused(sold):
    with pytest.raises(IntegrityError, match="not a user"):
        _copy(sold, sold_by_id=sold.sold_by_id + 1000)


def test_a_void_by_someone_who_is_not_a_user_is_refused(sold):  # R:T11
    with pytest.raises(IntegrityError, match="not a user"), transaction.atomic():
        Sale.objects.filter(pk=sold.pk).update(voided_by_id=sold.sold_by_id + 1000)


def test_a_sale_is_still_voided_in_place(sold, staff_user):  # R:T11
    services.sale_void(actor=staff_user, sale=sold, reason="wrong tier")
    sold.refresh_from_db()
    assert sold.voided_by == staff_user


@pytest.mark.parametrize("table", ["raffle_draw", "raffle_pricetier", "auth_user"])
def test_a_row_that_sales_name_is_never_deleted(sold, table):
    key = {"raffle_draw": sold.draw_id, "raffle_pricetier": sold.tier_id, "auth_user": sold.sold_by_id}[table]
    with pytest.raises(IntegrityError, match="that sales name is never deleted"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"DELETE FROM {table} WHERE id = %s", [key])  # past the admin's guards


def test_a_user_without_sales_may_still_be_deleted(sold):
    UserFactory().delete()
