"""`python manage.py import_supplier_draw` (RULES D5, T3): the same import as
the page, all or nothing, refusals naming the file, line and column."""

import pytest
from django.core.management import CommandError, call_command

from core import roles
from raffle.models import Sale, SupplierResult
from tests.factories import acting_as
from tests.supplier_files import four_sales, result_file, sales_file, supplier_event

pytestmark = pytest.mark.django_db


def _import(event, draw_number, sales, *extra):
    """The command as draw staff of the licence's organisation run it (#15: `--as`)."""
    args = ["--licence", event.licence.number, "--draw", draw_number, "--sales", sales, *extra]
    call_command("import_supplier_draw", *acting_as(roles.DRAW_STAFF), *args)


def _write(tmp_path, supplier_file):
    path = tmp_path / supplier_file.name
    path.write_bytes(supplier_file.content)
    return str(path)


def test_command_dry_run_then_import(staff_user, tmp_path, capsys):  # R:D5
    event, draw = supplier_event(staff_user)
    sales = _write(tmp_path, sales_file(four_sales(draw)))
    result = _write(tmp_path, result_file(draw, "100002"))
    _import(event, "1", sales, "--result", result, "--dry-run")
    out = capsys.readouterr().out
    assert "Would import for draw 1: 7 line(s), 5 order(s), 6 ticket(s) sold for 25.00" in out
    assert "Winning ticket 100002" in out and not Sale.objects.exists()
    _import(event, "1", sales, "--result", result)
    assert "Imported for draw 1" in capsys.readouterr().out
    assert Sale.objects.filter(draw=draw).count() == 5
    assert SupplierResult.objects.get(draw=draw).winning_ticket_number == "100002"


def test_command_refusal_names_file_line_and_column(staff_user, tmp_path):  # R:T3
    event, draw = supplier_event(staff_user)
    rows = four_sales(draw)
    rows[3]["ticket_number"] = rows[0]["ticket_number"]
    sales = _write(tmp_path, sales_file(rows))
    with pytest.raises(CommandError, match=r"sales.csv, line 5, column ticket_number: ticket 100001 is also on line 2"):
        _import(event, "1", sales)
    assert not Sale.objects.exists()
    with pytest.raises(CommandError, match="has no draw 9"):
        _import(event, "9", sales)
