from decimal import Decimal

import pytest

from core.csvsafe import csv_text, safe_cell
from core.pdf import pdf_text, render_pdf
from raffle.charts import ChartPoint, sales_and_jackpot_svg


@pytest.mark.parametrize("text", ["=HYPERLINK(\"x\")", "+1", "-2+3", "@SUM(A1)", "\tx"])
def test_formulas_in_text_cells_are_neutralised(text):
    assert safe_cell(text) == "'" + text


def test_numbers_stay_numbers_in_csv():
    assert csv_text(["a", "b"], [[Decimal("-12.50"), "plain"]]) == "a,b\n-12.50,plain\n"


def test_a_rendered_pdf_holds_its_text_and_escapes_markup(tmp_path):
    pdf = render_pdf("pdf/test_page.html", {"name": "<b>Bob</b> & Co"})
    text = pdf_text(pdf)
    assert "Hello <b>Bob</b> & Co" in text


def test_the_chart_is_an_svg_with_a_bar_per_draw():
    svg = sales_and_jackpot_svg([ChartPoint(n, Decimal(100 * n), Decimal(30 * n)) for n in range(1, 6)])
    assert svg.startswith("<svg") and svg.count("<rect") == 5 and "<polyline" in svg
