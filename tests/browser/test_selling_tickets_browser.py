"""The staff sales page in a real browser (Debian's Chromium), without JavaScript."""

import pytest
from django.contrib.auth.models import Group

from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale
from tests.factories import PASSWORD, LicenceFactory, UserFactory, event_with_draw


@pytest.fixture
def browser_context_args(browser_context_args):
    return {**browser_context_args, "java_script_enabled": False}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_seller_sells_an_electronic_ticket_from_the_sales_page(live_server, page, artifacts):  # R:T9 R:T11
    seller = UserFactory(username="pos-seller")
    seller.groups.add(Group.objects.get_or_create(name="seller")[0])
    event = event_with_draw(actor=seller, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=seller, draw=event.draws.get(number=1))

    page.goto(f"{live_server.url}/accounts/login/?next=/draws/{draw.pk}/sales/")
    page.get_by_label("Username").fill("pos-seller")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Purchaser's name").fill("Robin Lakeside")
    page.get_by_label("Phone or e-mail").fill("613-555-0144")
    page.get_by_label("Price", exact=True).select_option(label="3 for $10.00")
    page.get_by_label("Envelope picked (sealed envelopes only)").select_option(label="Envelope 23")
    page.get_by_label("Point-of-sale device or seller").fill("Tablet at the Legion")
    page.screenshot(path=str(artifacts / "sales-page.png"), full_page=True)
    page.get_by_role("button", name="Sell").click()

    assert page.get_by_text("Sold 3 ticket(s) for $10.00").is_visible()
    assert page.get_by_text("E001-0000001–E001-0000003 (3)").is_visible()  # serials shown as a range
    assert page.get_by_role("button", name="Void the sale").count() == 0  # voids are for draw staff
    page.screenshot(path=str(artifacts / "sale-detail.png"), full_page=True)
    sale = Sale.objects.get()
    assert (sale.purchaser_name, sale.envelope_pick, sale.device) == ("Robin Lakeside", 23, "Tablet at the Legion")
