"""The winner's contact on draw night and a sale's contact on its page (#15,
R:T9): only the reader's roles in the organisation of THAT draw or sale
count. A treasurer of one charity who runs another charity's draw (and sells
its tickets) sees that charity's purchasers masked, as its draw staff do; the
administrator of the draw's charity sees them in full, whatever else they do
elsewhere; the seller who took the winning sale sees what they wrote down."""

import pytest
from django.urls import reverse

from core import roles
from licensing.models import SalesChannel
from raffle.models import DrawState
from tests.factories import (
    LicenceFactory,
    OrganisationFactory,
    UserFactory,
    event_with_draw,
    give_role,
    run_draw,
)

pytestmark = pytest.mark.django_db

CONTACT, MASKED = "519-555-0100", "•••-•••-0100"  # what tests.factories.sell_tickets records


def person(username, **held):
    """A user with, for each organisation given, the roles listed."""
    user = UserFactory(username=username, is_staff=True)
    for organisation, names in held.values():
        for name in names:
            give_role(user, name, organisation=organisation)
    return user


@pytest.fixture
def night(settings):
    """Hilltop Hospice's draw 1 with its winning ticket drawn; the ticket was
    sold by `runner`, who runs the draw and sells for the hospice."""
    settings.REQUIRE_2FA_ROLES = []
    lions, hospice = OrganisationFactory(name="Lakeshore Lions"), OrganisationFactory(name="Hilltop Hospice")
    runner = person("runner", b=(hospice, [roles.DRAW_STAFF, roles.SELLER]))
    event = event_with_draw(
        actor=runner, licence=LicenceFactory(organisation=hospice, sales_channel=SalesChannel.ELECTRONIC)
    )
    draw = run_draw(event.draws.get(number=1), actor=runner, until=DrawState.TICKET_DRAWN)
    return lions, hospice, runner, draw


def winner_panel(client, user, draw) -> str:
    client.force_login(user)
    response = client.get(reverse("draw_night", args=[draw.pk]))
    assert response.status_code == 200
    page = response.text
    return page.split('id="winner-title"')[1].split("</section>")[0]


def test_a_treasurer_elsewhere_who_runs_and_sells_for_this_charity_sees_its_winner_masked(client, night):  # R:T9
    lions, hospice, _, draw = night
    pat = person("pat", a=(lions, [roles.TREASURER]), b=(hospice, [roles.DRAW_STAFF, roles.SELLER]))
    panel = winner_panel(client, pat, draw)
    assert MASKED in panel and CONTACT not in panel


def test_the_administrator_of_the_draws_charity_sees_its_winner_in_full_whatever_they_do_elsewhere(
    client, night
):  # R:T9
    lions, hospice, _, draw = night
    ada = person("ada", a=(lions, [roles.DRAW_STAFF]), b=(hospice, [roles.ADMINISTRATOR]))
    panel = winner_panel(client, ada, draw)
    assert CONTACT in panel and MASKED not in panel


def test_draw_staff_who_are_administrators_elsewhere_see_this_charitys_winner_masked(client, night):  # R:T9
    lions, hospice, _, draw = night
    dan = person("dan", a=(lions, [roles.ADMINISTRATOR, roles.TREASURER]), b=(hospice, [roles.DRAW_STAFF]))
    panel = winner_panel(client, dan, draw)
    assert MASKED in panel and CONTACT not in panel


def test_the_seller_who_sold_the_winning_ticket_sees_the_contact_they_took(client, night):  # R:T9
    _, _, runner, draw = night
    panel = winner_panel(client, runner, draw)
    assert CONTACT in panel


def test_on_the_sale_page_a_colleagues_sale_is_masked_for_a_seller_who_also_supervises(client, night):  # R:T9
    lions, hospice, runner, draw = night
    sale = draw.sales.filter(sold_by=runner).first()
    pat = person("pat", a=(lions, [roles.TREASURER]), b=(hospice, [roles.DRAW_STAFF, roles.SELLER]))
    client.force_login(pat)
    page = client.get(reverse("sale_detail", args=[sale.pk])).text
    assert MASKED in page and CONTACT not in page
    client.force_login(runner)
    assert CONTACT in client.get(reverse("sale_detail", args=[sale.pk])).text
