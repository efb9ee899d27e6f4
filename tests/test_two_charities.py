"""Two charities on one installation (#15): each person reaches only the
records of the organisations they work for; another organisation's record is
a 404, never a 403 that confirms it exists. A seller sees and prints only
the sales they made; the records' lists accept only the lookups their
filters offer."""

import pytest
from django.urls import reverse

from core import roles
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Draw, DrawState, Sale
from tests.factories import (
    LicenceFactory,
    OrganisationFactory,
    event_with_draw,
    give_role,
    login_verified,
    once,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def selling_draw(organisation, staff):
    event = event_with_draw(
        actor=staff, licence=LicenceFactory(organisation=organisation, sales_channel=SalesChannel.ELECTRONIC)
    )
    return services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))


def sale_by(seller, draw, name, contact="519-555-0101", envelope=10):
    return services.ticket_sell(
        actor=seller,
        draw=draw,
        tier_quantity=1,
        purchaser_name=name,
        purchaser_contact=contact,
        envelope_pick=envelope,
        device="POS-1",
    )


@pytest.fixture
def charities(settings):
    settings.REQUIRE_2FA_ROLES = []
    lions, hospice = OrganisationFactory(name="Lakeshore Lions"), OrganisationFactory(name="Hilltop Hospice")
    people = {
        (organisation, role): user_with_role(role, organisation=organisation, username=f"{organisation.pk}-{role}")
        for organisation in (lions, hospice)
        for role in roles.ALL_ROLES
    }
    draws = {o: selling_draw(o, people[(o, roles.DRAW_STAFF)]) for o in (lions, hospice)}
    return lions, hospice, people, draws


# --- sellers see and print only their own sales ---------------------------------


def test_a_seller_opens_and_prints_only_the_sales_they_made(client, charities):  # R:T9
    lions, _, people, draws = charities
    seller = people[(lions, roles.SELLER)]
    colleague = user_with_role(roles.SELLER, organisation=lions, username="colleague")
    mine = sale_by(seller, draws[lions], "Ann Mine")
    theirs = sale_by(colleague, draws[lions], "Bob Theirs", contact="519-555-0199", envelope=11)
    client.force_login(seller)
    assert client.get(reverse("sale_detail", args=[mine.pk])).status_code == 200
    assert client.get(reverse("sale_detail", args=[theirs.pk])).status_code == 404
    printed = client.post(reverse("sale_ticket_pdf", args=[mine.pk]), {"paper": "receipt"})
    refused = client.post(reverse("sale_ticket_pdf", args=[theirs.pk]), {"paper": "receipt"})
    assert printed["Content-Type"] == "application/pdf" and refused.status_code == 404
    # The colleague's first print is still theirs to make: not marked REPRINT by someone else's attempt.
    assert Sale.objects.get(pk=theirs.pk).print_count == 0
    sell_page = client.get(reverse("sales_sell", args=[draws[lions].pk])).text
    assert "Ann Mine" in sell_page and "Bob Theirs" not in sell_page


def test_draw_staff_supervise_every_sale_of_their_organisation_only(client, charities):
    lions, hospice, people, draws = charities
    ours = sale_by(people[(lions, roles.SELLER)], draws[lions], "Ann Mine")
    elsewhere = sale_by(people[(hospice, roles.SELLER)], draws[hospice], "Hospice Buyer")
    client.force_login(people[(lions, roles.DRAW_STAFF)])
    assert client.get(reverse("sale_detail", args=[ours.pk])).status_code == 200
    assert client.get(reverse("sale_detail", args=[elsewhere.pk])).status_code == 404
    voided = client.post(reverse("sale_void", args=[elsewhere.pk]), {"reason": "mine now"})
    assert voided.status_code == 404 and not Sale.objects.get(pk=elsewhere.pk).is_void


# --- another charity's draw, tickets and treasury -------------------------------------


def test_another_charitys_draw_staff_cannot_close_its_draw(client, charities):  # R:D7
    lions, hospice, people, draws = charities
    client.force_login(people[(lions, roles.DRAW_STAFF)])
    theirs = draws[hospice]
    page = client.get(reverse("draw_night", args=[theirs.pk]))
    closed = client.post(reverse("draw_night", args=[theirs.pk]), {"expected_state": theirs.state})
    assert page.status_code == 404 and closed.status_code == 404
    assert Draw.objects.get(pk=theirs.pk).state == DrawState.SELLING
    assert client.get(reverse("draw_night", args=[draws[lions].pk])).status_code == 200


def test_another_charitys_seller_cannot_sell_its_tickets(client, charities):
    lions, hospice, people, draws = charities
    client.force_login(people[(lions, roles.SELLER)])
    response = client.post(
        reverse("sales_sell", args=[draws[hospice].pk]),
        once(tier="1", units="1", purchaser_name="Mallory", purchaser_contact="x", envelope_pick="3"),
    )
    assert response.status_code == 404 and not Sale.objects.filter(draw=draws[hospice]).exists()


def test_a_seller_here_who_is_only_treasurer_there_cannot_sell_there(client, charities):
    # The sales page reads the draw and whether it is theirs in one statement (#18): the role
    # must be held in the draw's own organisation, not in another one.
    lions, hospice, people, draws = charities
    seller = people[(lions, roles.SELLER)]
    give_role(seller, roles.TREASURER, organisation=hospice)
    client.force_login(seller)
    theirs = reverse("sales_sell", args=[draws[hospice].pk])
    form = once(tier="1", units="1", purchaser_name="Mallory", purchaser_contact="x", envelope_pick="3", device="P")
    assert client.get(theirs).status_code == 404
    assert client.post(theirs, form).status_code == 404
    assert not Sale.objects.filter(draw=draws[hospice]).exists()
    assert client.get(reverse("sales_sell", args=[draws[lions].pk])).status_code == 200
    assert client.get(reverse("sales_sell", args=[draws[lions].pk + 10_000])).status_code == 404


def test_another_charitys_treasurer_reads_none_of_its_treasury(client, charities):
    lions, hospice, people, draws = charities
    login_verified(client, people[(lions, roles.TREASURER)])
    theirs = draws[hospice].event
    for name in [
        "treasury_overview",
        "treasury_deposits",
        "treasury_trust_ledger",
        "treasury_prizes",
        "treasury_publications",
        "treasury_spending",
        "event_dashboard",
    ]:
        assert client.get(reverse(name, args=[theirs.pk])).status_code == 404, name
    listing = client.get(reverse("treasury_home")).text
    assert draws[lions].event.name in listing and "Hilltop Hospice" not in listing


def test_a_person_with_roles_in_both_sees_contacts_as_each_role_allows(client, charities):  # R:T9
    """A treasurer of one charity who is draw staff of the other sees the
    other's purchasers masked, and cannot find them by contact in the records."""
    lions, hospice, people, draws = charities
    both = user_with_role(roles.TREASURER, organisation=lions, username="both")
    give_role(both, roles.DRAW_STAFF, organisation=hospice)  # the same person, a second role elsewhere
    elsewhere = sale_by(people[(hospice, roles.SELLER)], draws[hospice], "Hospice Buyer", contact="613-555-0142")
    client.force_login(both)
    page = client.get(reverse("sale_detail", args=[elsewhere.pk])).text
    assert "613-555-0142" not in page and "•••-•••-0142" in page
    found = client.get(reverse("admin:raffle_sale_changelist"), {"q": "613-555-0142"}).text
    assert "Hospice Buyer" not in found


# --- the records' lists accept only the lookups their filters offer ----------------------


def test_a_masked_contact_cannot_be_recovered_through_a_list_lookup(client, charities):  # R:T9
    lions, _, people, draws = charities
    sale_by(people[(lions, roles.SELLER)], draws[lions], "Ann Mine")
    client.force_login(people[(lions, roles.DRAW_STAFF)])
    changelist = reverse("admin:raffle_sale_changelist")
    for lookup in ["purchaser_contact__startswith", "purchaser_contact", "purchaser_name__icontains", "tier__price"]:
        assert client.get(changelist, {lookup: "519"}).status_code == 400, lookup
    offered = client.get(changelist, {"channel__exact": SalesChannel.ELECTRONIC})
    assert offered.status_code == 200 and "Ann Mine" in offered.text
    users = reverse("admin:auth_user_changelist")
    client.force_login(people[(lions, roles.ADMINISTRATOR)])
    assert client.get(users, {"password__startswith": "pbkdf2"}).status_code == 400
    assert client.get(users, {"is_active__exact": "1"}).status_code == 200
