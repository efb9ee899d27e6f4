"""PDF rendering with WeasyPrint: one place that turns a template into bytes.

Every PDF of the project (tickets, reports, logs, Rules of Play) goes through
`render_pdf`, so fonts, page size and escaping behave the same everywhere.
Templates are Django templates, so every value is HTML-escaped as on pages.
"""

from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string


def render_pdf(template_name: str, context: dict, *, request=None) -> bytes:
    html = render_to_string(template_name, context, request=request)
    base_url = request.build_absolute_uri("/") if request is not None else str(settings.BASE_DIR)
    return html_to_pdf(html, base_url=base_url)


def html_to_pdf(html: str, *, base_url: str | None = None) -> bytes:
    # Imported lazily: WeasyPrint loads Pango at import time.
    from weasyprint import HTML

    from core.pdf_fetcher import DataOnlyFetcher

    return HTML(string=html, base_url=base_url, url_fetcher=DataOnlyFetcher()).write_pdf()


def pdf_response(pdf: bytes, filename: str, *, inline: bool = True) -> HttpResponse:
    response = HttpResponse(pdf, content_type="application/pdf")
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    return response


def pdf_text(pdf: bytes) -> str:
    """The text of a PDF, for tests and checks (pypdf)."""
    import io

    from pypdf import PdfReader

    return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(pdf)).pages)
