"""The supplier import page and the wizard of a supplier's draw (RULES D5)."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from core import roles
from raffle.models import Draw, DrawState, Sale, SelectionMethod, WinnerSelection
from tests.factories import login_verified, name_members_in_charge, user_with_role
from tests.supplier_files import four_sales, sales_file, supplier_event

pytestmark = pytest.mark.django_db


def _upload(supplier_file):
    return SimpleUploadedFile(supplier_file.name, supplier_file.content, content_type="text/csv")


def test_refused_file_shows_its_line_and_imports_nothing(client, staff_user):  # R:T3
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[2]["ticket_number"] = rows[1]["ticket_number"]
    client.force_login(user_with_role(roles.DRAW_STAFF))
    response = client.post(
        reverse("supplier_import", args=[draw.pk]), {"mapping": "generic", "sales": _upload(sales_file(rows))}
    )
    assert response.status_code == 400
    assert "sales.csv, line 4, column ticket_number: ticket 100002 is also on line 3" in response.content.decode()
    assert not Sale.objects.exists()


def test_confirm_without_a_preview_does_nothing(client, staff_user):
    event, draw = supplier_event(staff_user)
    client.force_login(user_with_role(roles.DRAW_STAFF))
    response = client.post(reverse("supplier_import_confirm", args=[draw.pk]), {"token": "guess"})
    assert response.status_code == 404 and not Sale.objects.exists()


def test_treasurer_imports_and_stays_on_the_import_page(client, staff_user, settings):  # R:D5
    settings.REQUIRE_2FA_ROLES = []
    event, draw = supplier_event(staff_user)
    login_verified(client, user_with_role(roles.TREASURER))
    url = reverse("supplier_import", args=[draw.pk])
    preview = client.post(url, {"mapping": "generic", "sales": _upload(sales_file(four_sales(draw)))})
    assert preview.status_code == 200 and "Confirm the import" in preview.content.decode()
    token = preview.context["token"]
    response = client.post(reverse("supplier_import_confirm", args=[draw.pk]), {"token": token})
    assert response.status_code == 302 and response["Location"] == url
    assert Sale.objects.filter(draw=draw).count() == 5
    again = client.post(reverse("supplier_import_confirm", args=[draw.pk]), {"token": token})
    assert again.status_code == 404  # a confirmed import cannot be confirmed twice


def test_wizard_records_a_winner_typed_twice_with_its_reference(client, staff_user):  # R:D5
    event, draw = supplier_event(staff_user)
    from raffle import services

    services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(four_sales(draw)))
    name_members_in_charge(draw, actor=staff_user)  # R:L13 named before sales close
    draw = services.draw_announce(actor=staff_user, draw=services.draw_close_sales(actor=staff_user, draw=draw))
    client.force_login(user_with_role(roles.DRAW_STAFF))
    url = reverse("draw_night", args=[draw.pk])
    page = client.get(url).content.decode()
    assert "number from its screen, type it twice" in page
    typed = {"expected_state": DrawState.ANNOUNCED, "serial": "100002", "serial_again": "100002"}
    response = client.post(url, typed)
    assert response.status_code == 400 and "reference of this draw" in response.content.decode()
    client.post(url, {**typed, "rng_reference": "RC-77"})
    draw = Draw.objects.get(pk=draw.pk)
    selection = WinnerSelection.objects.get(draw=draw)
    assert (draw.state, draw.winning_serial, draw.winner_name) == (DrawState.TICKET_DRAWN, "100002", "Lee Chan")
    assert (selection.method, selection.rng_reference) == (SelectionMethod.SUPPLIER, "RC-77")
