"""Printing tickets the way the sales table can (issue 16): on an 80 mm
receipt printer, one ticket a receipt, or as sheets of eight tickets per
Letter or A4 page, chosen at print. Each ticket carries what T10 and T11
ask, whatever the paper."""

import io

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from pypdf import PdfReader

from core import roles
from core.pdf import pdf_text
from licensing.models import SalesChannel
from raffle import services
from tests.factories import LicenceFactory, UserFactory, event_with_draw

pytestmark = pytest.mark.django_db

MM = 72 / 25.4  # PDF points in a millimetre


@pytest.fixture
def seller_client(client):
    seller = UserFactory()
    seller.groups.add(Group.objects.get(name=roles.SELLER))
    client.force_login(seller)
    client.seller = seller  # a seller prints the sales they made (#15)
    return client


def ten_ticket_sale(actor, *, seller):
    """An electronic sale of "10 for $20" that `seller` made at the hall's tablet."""
    licence = LicenceFactory(sales_channel=SalesChannel.ELECTRONIC)
    event = event_with_draw(actor=actor, licence=licence, price_tiers=[(1, "5.00"), (10, "20.00")])
    draw = services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))
    return services.ticket_sell(
        actor=seller,
        draw=draw,
        tier_quantity=10,
        purchaser_name="Ann Buyer",
        purchaser_contact="519-555-0101",
        envelope_pick=12,
        device="Hall tablet 2",
    )


def printed(client, sale, paper):
    response = client.post(reverse("sale_ticket_pdf", args=[sale.pk]), {"paper": paper})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert f"-{paper}.pdf" in response["Content-Disposition"]
    return response.content


def page_sizes_mm(pdf: bytes) -> list[tuple[int, int]]:
    return [
        (round(float(page.mediabox.width) / MM), round(float(page.mediabox.height) / MM))
        for page in PdfReader(io.BytesIO(pdf)).pages
    ]


def serials_of(sale):
    return list(sale.tickets.order_by("seq").values_list("serial", flat=True))


def test_a_receipt_printer_gets_one_80_mm_ticket_per_receipt(seller_client, staff_user):  # R:T10 R:T11
    sale = ten_ticket_sale(staff_user, seller=seller_client.seller)
    pdf = printed(seller_client, sale, "receipt")
    assert page_sizes_mm(pdf) == [(80, 120)] * 10
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages]
    for page, serial in zip(pages, serials_of(sale), strict=True):
        assert f"Ticket {serial}" in page
        for expected in ["Hall tablet 2", "10 for $20.00", "Draw 1", "1-866-531-2600", "Licence", "Issued"]:
            assert expected in page, (expected, page)


@pytest.mark.parametrize("paper, size_mm", [("letter", (216, 279)), ("a4", (210, 297))])
def test_a_sheet_prints_eight_tickets_a_page(seller_client, staff_user, paper, size_mm):  # R:T10 R:T11
    sale = ten_ticket_sale(staff_user, seller=seller_client.seller)
    pdf = printed(seller_client, sale, paper)
    assert page_sizes_mm(pdf) == [size_mm, size_mm]  # 10 tickets: a page of eight and one of two
    first_page = PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    serials = serials_of(sale)
    assert all(f"Ticket {serial}" in first_page for serial in serials[:8])
    assert not any(f"Ticket {serial}" in first_page for serial in serials[8:])
    text = pdf_text(pdf)
    assert text.count("1-866-531-2600") == 10 and text.count("Hall tablet 2") == 10


def test_a_reprint_is_marked_on_every_ticket_whatever_the_paper(seller_client, staff_user):  # R:T11
    sale = ten_ticket_sale(staff_user, seller=seller_client.seller)
    assert "REPRINT" not in pdf_text(printed(seller_client, sale, "letter"))
    assert pdf_text(printed(seller_client, sale, "receipt")).count("REPRINT") == 10


def test_the_print_button_offers_the_three_papers_and_refuses_another(seller_client, staff_user):
    sale = ten_ticket_sale(staff_user, seller=seller_client.seller)
    page = seller_client.get(reverse("sale_detail", args=[sale.pk])).content.decode()
    for value in ("letter", "a4", "receipt"):
        assert f'<option value="{value}"' in page
    refused = seller_client.post(reverse("sale_ticket_pdf", args=[sale.pk]), {"paper": "legal"})
    assert refused.status_code == 302
    sale.refresh_from_db()
    assert sale.print_count == 0  # nothing printed, no reprint counted
