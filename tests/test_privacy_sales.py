"""Purchasers' contact details on the ticket pages and records (core.privacy,
R:T9): in full for the roles that need them, masked for draw staff and
auditors, and never searchable by a role that sees them masked."""

import pytest
from django.urls import reverse

from core import roles
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale
from tests.factories import LicenceFactory, event_with_draw, login_verified, user_with_role

CONTACT, MASKED = "519-555-0101", "•••-•••-0101"


@pytest.fixture
def sale(db, settings):
    settings.REQUIRE_2FA_ROLES = [roles.TREASURER, roles.ADMINISTRATOR]
    staff = user_with_role(roles.DRAW_STAFF)
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))
    return services.ticket_sell(
        actor=staff,
        draw=draw,
        tier_quantity=1,
        purchaser_name="Ann Buyer",
        purchaser_contact=CONTACT,
        envelope_pick=10,
        device="POS-1",
    )


@pytest.mark.parametrize(
    ("role", "full"),
    [(roles.DRAW_STAFF, False), (roles.AUDITOR, False), (roles.TREASURER, True), (roles.ADMINISTRATOR, True)],
)
def test_the_sale_record_shows_the_contact_only_to_the_roles_that_need_it(client, sale, role, full):  # R:T9
    login_verified(client, user_with_role(role))
    page = client.get(reverse("admin:raffle_sale_change", args=[sale.pk])).content.decode()
    assert "Ann Buyer" in page
    assert (CONTACT in page) is full
    assert (MASKED in page) is not full


@pytest.mark.parametrize(("role", "found"), [(roles.AUDITOR, False), (roles.ADMINISTRATOR, True)])
def test_a_masked_contact_cannot_be_confirmed_by_searching_for_it(client, sale, role, found):  # R:T9
    login_verified(client, user_with_role(role))
    page = client.get(reverse("admin:raffle_sale_changelist"), {"q": CONTACT}).content.decode()
    assert ("Ann Buyer" in page) is found


@pytest.mark.parametrize(
    ("role", "full"), [(roles.SELLER, True), (roles.DRAW_STAFF, False), (roles.ADMINISTRATOR, True)]
)
def test_the_sale_page_masks_the_contact_for_draw_staff(client, sale, role, full):  # R:T9
    user = user_with_role(role)
    if role == roles.SELLER:  # a seller opens only the sales they made (#15)
        Sale.objects.filter(pk=sale.pk).update(sold_by=user)
    login_verified(client, user)
    page = client.get(reverse("sale_detail", args=[sale.pk])).content.decode()
    assert (CONTACT in page) is full
    assert (MASKED in page) is not full


def test_the_ticket_log_carries_names_but_no_contact_details(client, sale):  # R:T7 R:T9
    login_verified(client, user_with_role(roles.AUDITOR))
    response = client.get(reverse("draw_ticket_log", args=[sale.draw_id]))
    text = b"".join(response.streaming_content).decode()
    assert "Ann Buyer" in text and "0101" not in text
