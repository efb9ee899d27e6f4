"""Supplier files for tests: a draw run on the registered supplier's system,
and its sales, result and settlement CSVs in the generic format."""

import csv
import datetime
import io

from django.utils import timezone

from raffle import services
from raffle.services.supplier_formats import RESULT_COLUMNS, SALES_COLUMNS, SETTLEMENT_COLUMNS, SupplierFile
from tests.factories import event_with_draw, without_approval


def supplier_event(actor, **event_kwargs):
    """An online event whose draw 1 was held an hour ago on the supplier's
    system, with its sales open here so its files can be imported."""
    event_kwargs.setdefault("first_draw_at", timezone.now() - datetime.timedelta(hours=1))
    event = event_with_draw(actor=actor, licence=without_approval(), **event_kwargs)
    draw = services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))
    return event, draw


def at(draw, minutes: int) -> str:
    """A timestamp `minutes` after the draw's time (negative: before it)."""
    return (draw.scheduled_at + datetime.timedelta(minutes=minutes)).isoformat()


def sale_row(draw, order, ticket, *, minutes=-90, tier="1", amount="5.00", name="Pat Buyer", pick="7", status="sold"):
    return {
        "order_id": order,
        "ticket_number": ticket,
        "sold_at": at(draw, minutes),
        "price_tier": tier,
        "amount": amount,
        "purchaser_name": name,
        "purchaser_address": "12 King Street, Kingston",
        "purchaser_phone": "519-555-0100",
        "purchaser_email": "pat@example.org",
        "envelope_pick": pick,
        "status": status,
    }


def csv_file(name: str, columns, rows, *, drop: str = "") -> SupplierFile:
    columns = [c for c in columns if c != drop]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows([[row[c] for c in columns] for row in rows])
    return SupplierFile(name=name, content=out.getvalue().encode())


def sales_file(rows, **kwargs) -> SupplierFile:
    return csv_file("sales.csv", SALES_COLUMNS, rows, **kwargs)


def result_file(draw, ticket, *, minutes=10, reference="RC-88121", number=None) -> SupplierFile:
    row = {
        "draw_number": number or draw.number,
        "winning_ticket_number": ticket,
        "drawn_at": at(draw, minutes),
        "rng_reference": reference,
    }
    return csv_file("result.csv", RESULT_COLUMNS, [row])


def settlement_file(gross, processing, supplier, net, *, slip="SUP-0001", day=None) -> SupplierFile:
    row = {
        "settlement_date": (day or timezone.localdate()).isoformat(),
        "gross": gross,
        "processing_fees": processing,
        "supplier_fees": supplier,
        "net_deposited": net,
        "deposit_reference": slip,
    }
    return csv_file("settlement.csv", SETTLEMENT_COLUMNS, [row])


def four_sales(draw):
    """Three sold orders (one of them 3 for $10) and one refunded ticket: $25.00 sold."""
    return [
        sale_row(draw, "A-1", "100001"),
        sale_row(draw, "A-2", "100002", tier="3", amount="3.34", name="Lee Chan"),
        sale_row(draw, "A-2", "100003", tier="3", amount="3.33", name="Lee Chan"),
        sale_row(draw, "A-2", "100004", tier="3", amount="3.33", name="Lee Chan"),
        sale_row(draw, "A-3", "100005", name="Ana Ruiz", pick="12"),
        sale_row(draw, "A-4", "100006", name="Ana Ruiz", status="refunded"),
        sale_row(draw, "A-5", "100007", minutes=-30, name="Sam Woo"),
    ]
