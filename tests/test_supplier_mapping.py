"""A supplier's own export read through a mapping file, without touching the
core (docs/suppliers.md): the made-up `tixnet-example` format in suppliers/."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from raffle import services
from raffle.models import Sale, SupplierResult
from raffle.services.supplier_formats import ImportRefused, SupplierFile, available_mappings, mapping_named
from tests.supplier_files import supplier_event

pytestmark = pytest.mark.django_db


def _local(draw, minutes):
    return timezone.localtime(draw.scheduled_at + datetime.timedelta(minutes=minutes)).strftime("%d/%m/%Y %H:%M")


def _tixnet_sales(draw, *, state="PAID"):
    sold = _local(draw, -120)
    lines = [
        "OrderRef;TicketNo;PurchasedOn;Bundle;Paid;Buyer;Street;Tel;Mail;Envelope;State;Channel",
        f"TX-1;T-0001;{sold};SINGLE;5.00;Pat Buyer;1 Elm St;519-555-0100;;3;PAID;web",
        f"TX-2;T-0002;{sold};TRIO;10.00;Lee Chan;2 Oak St;;lee@example.org;9;PAID;web",
        f"TX-2;T-0003;{sold};TRIO;0.00;Lee Chan;2 Oak St;;lee@example.org;9;PAID;web",
        f"TX-2;T-0004;{sold};TRIO;0.00;Lee Chan;2 Oak St;;lee@example.org;9;PAID;web",
        f"TX-3;T-0005;{sold};SINGLE;5.00;Ana Ruiz;3 Ash St;519-555-0102;;4;{state};web",
    ]
    return SupplierFile("tixnet-orders.csv", ("\n".join(lines) + "\n").encode())


def test_example_mapping_is_found_in_the_mappings_folder():
    assert set(available_mappings()) >= {"generic", "tixnet-example"}


def test_supplier_export_imports_through_its_mapping(staff_user):  # R:D5
    event, draw = supplier_event(staff_user)
    result = SupplierFile(
        "tixnet-draw.csv", f"DrawNo;Winner;DrawTime;AuditId\n1;T-0003;{_local(draw, 5)};AUD-551\n".encode()
    )
    mapping = mapping_named("tixnet-example")
    summary = services.supplier_draw_import(
        actor=staff_user, draw=draw, sales=_tixnet_sales(draw), result=result, mapping=mapping
    )
    assert (summary.tickets_sold, summary.amount_sold, summary.winning_ticket) == (5, Decimal("20.00"), "T-0003")
    assert Sale.objects.get(draw=draw, supplier_order="TX-2").tier.quantity == 3
    assert SupplierResult.objects.get(draw=draw).rng_reference == "AUD-551"


def test_mapped_refusal_names_the_suppliers_own_column(staff_user):
    event, draw = supplier_event(staff_user)
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(
            actor=staff_user,
            draw=draw,
            sales=_tixnet_sales(draw, state="LOST"),
            mapping=mapping_named("tixnet-example"),
        )
    assert (refused.value.file, refused.value.line, refused.value.column) == ("tixnet-orders.csv", 6, "State")
    bad = SupplierFile("tixnet-orders.csv", b"OrderRef;TicketNo\nTX-1;T-1\n")
    with pytest.raises(ImportRefused, match="the column “PurchasedOn” is missing \\(our sold_at\\)"):
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=bad, mapping=mapping_named("tixnet-example"))
    assert not Sale.objects.exists()
