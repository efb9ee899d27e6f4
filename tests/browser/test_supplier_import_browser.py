"""The supplier import page in Chromium (RULES D5): upload a draw's sales
and result files, check the preview's counts and totals, confirm, and carry
the draw on in the draw-night wizard with the supplier's winning ticket."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from raffle.models import Draw, DrawState, SelectionMethod, WinnerSelection
from tests.browser.conftest import axe_violations
from tests.browser.test_draw_night_browser import click_step, sign_in
from tests.factories import UserFactory, name_members_in_charge, user_with_role
from tests.supplier_files import four_sales, result_file, sales_file, supplier_event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_import_page_upload_preview_confirm_then_the_wizard_moves_on(
    page, axe_context, live_server, shoot, tmp_path
):  # R:D5
    event, draw = supplier_event(UserFactory())
    name_members_in_charge(draw)  # R:L13 named before sales close
    user = user_with_role(roles.DRAW_STAFF, username="sam", first_name="Sam")
    for supplier_file in (sales_file(four_sales(draw)), result_file(draw, "100005")):
        (tmp_path / supplier_file.name).write_bytes(supplier_file.content)
    url = reverse("supplier_import", args=[draw.pk])
    sign_in(page, live_server, user.username, url)
    axe_page = axe_context.new_page()
    sign_in(axe_page, live_server, user.username, url)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Import draw 1 from the supplier")
    assert axe_violations(axe_page, page.url) == []
    shoot(page, "upload")

    page.get_by_label("Sales file (CSV)").set_input_files(str(tmp_path / "sales.csv"))
    page.get_by_label("Result file: the winning ticket (CSV)").set_input_files(str(tmp_path / "result.csv"))
    click_step(page, "Check the files")
    expect(page.get_by_role("heading", name="Check what the files hold")).to_be_visible()
    expect(page.get_by_role("row", name=re.compile("Lines in the sales file"))).to_contain_text("7")
    expect(page.get_by_role("row", name=re.compile("^Tickets sold"))).to_contain_text("6")
    expect(page.get_by_role("row", name=re.compile("^Ticket sales"))).to_contain_text("$25.00")
    expect(page.get_by_role("row", name=re.compile("void or refunded"))).to_contain_text("1 ($5.00)")
    expect(page.get_by_role("row", name=re.compile("Winning ticket drawn"))).to_contain_text("100005 (RC-88121)")
    shoot(page, "preview")
    assert not draw.sales.exists()  # nothing written before the confirmation

    click_step(page, "Confirm the import")
    expect(page).to_have_url(re.compile(re.escape(reverse("draw_night", args=[draw.pk])) + "$"))
    expect(page.get_by_role("status").first).to_contain_text("6 ticket(s) sold, 1 void or refunded")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Close ticket sales")
    expect(page.get_by_role("row", name=re.compile("Valid tickets sold"))).to_contain_text("6")
    shoot(page, "wizard-close-sales")
    click_step(page, "Check the figures")
    click_step(page, "Close sales at $25.00")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Announce the draw")
    click_step(page, "Announced: go to the ticket draw")
    expect(page.locator("main")).to_contain_text("The registered supplier's system drew ticket 100005")
    shoot(page, "wizard-supplier-winner")
    assert axe_violations(axe_page, page.url) == []
    click_step(page, "Record the supplier's winning ticket")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Choose the envelope")
    expect(page.locator(".winner .big").first).to_have_text("100005")
    shoot(page, "wizard-envelope")
    draw = Draw.objects.get(pk=draw.pk)
    selection = WinnerSelection.objects.get(draw=draw)
    assert draw.state == DrawState.TICKET_DRAWN
    assert (selection.method, selection.rng_reference) == (SelectionMethod.SUPPLIER, "RC-88121")
