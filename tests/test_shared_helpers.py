from decimal import Decimal

import pytest

from core.csvsafe import csv_text, safe_cell
from core.pdf import html_to_pdf, pdf_text, render_pdf
from raffle.charts import ChartPoint, sales_and_jackpot_svg


@pytest.mark.parametrize("text", ['=HYPERLINK("x")', "+1", "-2+3", "@SUM(A1)", "\tx"])
def test_formulas_in_text_cells_are_neutralised(text):
    assert safe_cell(text) == "'" + text


def test_numbers_stay_numbers_in_csv():
    assert csv_text(["a", "b"], [[Decimal("-12.50"), "plain"]]) == "a,b\n-12.50,plain\n"


def test_a_rendered_pdf_holds_its_text_and_escapes_markup(tmp_path):
    pdf = render_pdf("pdf/test_page.html", {"name": "<b>Bob</b> & Co"})
    text = pdf_text(pdf)
    assert "Hello <b>Bob</b> & Co" in text


def _png(path=None) -> bytes:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), "red").save(buffer, format="PNG")
    if path is not None:
        path.write_bytes(buffer.getvalue())
    return buffer.getvalue()


def _image_count(pdf: bytes) -> int:
    import io

    from pypdf import PdfReader

    return sum(len(page.images) for page in PdfReader(io.BytesIO(pdf)).pages)


def test_a_pdf_embeds_data_urls_and_fetches_nothing_else(tmp_path):
    import base64

    local = tmp_path / "secret.png"
    data_url = "data:image/png;base64," + base64.b64encode(_png(local)).decode()
    assert _image_count(html_to_pdf(f'<img src="{data_url}">')) == 1
    # A file on the server, or a URL on the network, never reaches the PDF.
    for url in (local.as_uri(), "http://127.0.0.1:9/x.png", "ftp://example.invalid/x.png"):
        assert _image_count(html_to_pdf(f'<img src="{url}">', base_url=str(tmp_path))) == 0, url
    assert _image_count(html_to_pdf('<img src="secret.png">', base_url=str(tmp_path))) == 0


def test_the_chart_is_an_svg_with_a_bar_per_draw():
    svg = sales_and_jackpot_svg([ChartPoint(n, Decimal(100 * n), Decimal(30 * n)) for n in range(1, 6)])
    assert svg.startswith("<svg") and svg.count("<rect") == 5 and "<polyline" in svg
