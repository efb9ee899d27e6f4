"""The bulk path of a supplier's sales file (#17's speed goal): a clean file
is checked set-based and written with INSERT ... SELECT, with exactly the
sales, tickets, sequence numbers and totals the row-by-row path writes; a file
it cannot vouch for is read row by row, which names the line of any problem
(RULES T1, T3, T4, T9, T11)."""

import pytest

from raffle import services
from raffle.models import Draw, Sale, Ticket
from raffle.services import supplier_bulk, supplier_import
from raffle.services.supplier_formats import ImportRefused, SupplierFile
from tests.supplier_files import four_sales, sale_row, sales_file, supplier_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def paths(monkeypatch):
    """Which path each import took: 'bulk' or 'rows'."""
    taken = []

    def spy(**kwargs):
        written = supplier_bulk.bulk_sales_import(**kwargs)
        taken.append("rows" if written is None else "bulk")
        return written

    monkeypatch.setattr(supplier_import, "bulk_sales_import", spy)
    return taken


def _row_by_row(monkeypatch):
    monkeypatch.setattr(supplier_import, "bulk_sales_import", lambda **kwargs: None)


def _written(draw):
    sales = [
        (
            s.supplier_order,
            s.tier.quantity,
            s.units,
            s.ticket_count,
            s.amount,
            s.purchaser_name,
            s.purchaser_contact,
            s.purchaser_address,
            s.envelope_pick,
            s.sold_at - draw.scheduled_at,  # the two draws are at different times
            s.is_void,
            s.void_reason,
            s.channel,
            s.device,
            [(t.serial, t.seq, t.is_void) for t in s.tickets.order_by("seq")],
        )
        for s in Sale.objects.filter(draw=draw).select_related("tier").order_by("id")
    ]
    totals = Draw.objects.filter(pk=draw.pk).values_list(
        "sales_amount", "sales_valid", "sales_void", "tickets_valid", "tickets_void"
    )
    return sales, totals.get()


def _mixed_rows(draw):
    rows = four_sales(draw)
    rows += [
        sale_row(draw, "B-9", "000200", name="Lee Léger", amount="5"),  # leading zeros, accents, whole dollars
        sale_row(draw, "B-10", "201", status="void", pick="12"),
    ]
    return rows


def test_a_clean_file_takes_the_bulk_path_and_writes_what_row_by_row_writes(staff_user, monkeypatch, paths):
    _, bulk_draw = supplier_event(staff_user)
    bulk = services.supplier_draw_import(actor=staff_user, draw=bulk_draw, sales=sales_file(_mixed_rows(bulk_draw)))
    assert paths == ["bulk"]
    _row_by_row(monkeypatch)
    _, rows_draw = supplier_event(staff_user)
    rows = services.supplier_draw_import(actor=staff_user, draw=rows_draw, sales=sales_file(_mixed_rows(rows_draw)))
    assert bulk == rows and isinstance(bulk.tickets_sold, int)  # the preview's figures, as the audit entry has them
    bulk_sales, bulk_totals = _written(bulk_draw)
    rows_sales, rows_totals = _written(rows_draw)
    assert bulk_sales == rows_sales and bulk_totals == rows_totals
    assert Ticket.objects.filter(draw=bulk_draw, serial="200").exists()


@pytest.mark.parametrize("interleaved", [False, True])
def test_tickets_are_numbered_by_their_sales_first_line_as_row_by_row(staff_user, monkeypatch, paths, interleaved):
    def rows(draw):  # an order's lines apart in the file, or one after another
        mixed = _mixed_rows(draw)
        return [mixed[1], mixed[0], *mixed[2:]] if interleaved else mixed

    _, bulk_draw = supplier_event(staff_user)
    services.supplier_draw_import(actor=staff_user, draw=bulk_draw, sales=sales_file(rows(bulk_draw)))
    assert paths == ["bulk"]
    _row_by_row(monkeypatch)
    _, rows_draw = supplier_event(staff_user)
    services.supplier_draw_import(actor=staff_user, draw=rows_draw, sales=sales_file(rows(rows_draw)))
    assert _written(bulk_draw) == _written(rows_draw)


def test_a_second_file_into_the_same_draw_numbers_on(staff_user, paths):
    _, draw = supplier_event(staff_user)
    services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(four_sales(draw)))
    services.supplier_draw_import(
        actor=staff_user, draw=draw, sales=sales_file([sale_row(draw, "C-1", "300001"), sale_row(draw, "C-2", "3")])
    )
    assert paths == ["bulk", "bulk"]
    assert list(Ticket.objects.filter(draw=draw).order_by("seq").values_list("seq", flat=True)) == list(range(1, 10))


@pytest.mark.parametrize(
    "change, line, column",
    [
        ({"ticket_number": "100001"}, 3, "ticket_number"),  # R:T3 twice in the file
        ({"amount": "4.00"}, 3, "amount"),  # R:T1 off the tier's price
        ({"price_tier": "2"}, 3, "price_tier"),  # R:T1 a tier the event does not sell
        ({"purchaser_name": " "}, 3, "purchaser_name"),  # R:T9
        ({"status": "lost"}, 3, "status"),  # R:T11
    ],
)
def test_a_bad_line_is_refused_by_the_row_by_row_path_naming_it(staff_user, paths, change, line, column):
    _, draw = supplier_event(staff_user)
    rows = [sale_row(draw, "A-1", "100001"), {**sale_row(draw, "A-9", "100009"), **change}]
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    assert paths == ["rows"]
    assert (refused.value.line, refused.value.column) == (line, column)
    assert not Sale.objects.filter(draw=draw).exists() and not Ticket.objects.filter(draw=draw).exists()


@pytest.mark.parametrize(
    "name",
    [
        'Bob "Bobby" Smith',  # a quote inside a value: COPY and csv read it differently
        "Pat\u00a0",  # a Unicode space Python strips
        "Pat\x85Buyer",  # a C1 control character
    ],
)
def test_a_file_the_bulk_path_cannot_vouch_for_is_imported_row_by_row(staff_user, paths, name):
    _, draw = supplier_event(staff_user)
    rows = [sale_row(draw, "A-1", "100001"), sale_row(draw, "A-2", "100002", name=name)]
    try:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    except ImportRefused:
        assert not Sale.objects.filter(draw=draw).exists()
    else:
        assert Sale.objects.get(supplier_order="A-2").purchaser_name == name.strip()
    assert paths == ["rows"]


def test_an_unquoted_stray_quote_is_read_as_the_row_by_row_reader_reads_it(staff_user, paths):
    _, draw = supplier_event(staff_user)
    header, first = sales_file([sale_row(draw, "A-1", "100001")]).content.decode().splitlines()
    stray = first.replace("Pat Buyer", 'Pat "P" Buyer')  # not quoted: COPY would drop the quotes
    stray_file = SupplierFile(name="sales.csv", content=f"{header}\n{stray}\n".encode())
    services.supplier_draw_import(actor=staff_user, draw=draw, sales=stray_file)
    assert paths == ["rows"]
    assert Sale.objects.get(draw=draw).purchaser_name == 'Pat "P" Buyer'
