"""The application package as one PDF (RULES L7): the filled application, the
guide's checklist, the signature block of the Licence Application signers, then
every document in the guide's order, each behind a page that names it.

Attached PDFs are enclosed page by page; attached images are shown on their
item's page; any other file, or a PDF that cannot be read, is named on its page
as enclosed separately, so the package's text always lists every document.
"""

import base64
import io
import logging
import mimetypes

from django.template.loader import render_to_string
from django.utils.translation import gettext
from pypdf import PdfReader, PdfWriter
from pypdf.errors import PdfReadError

from licensing.models import Application
from licensing.selectors import application_summary

logger = logging.getLogger(__name__)
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif")


def _read(document) -> bytes:
    with document.file.open("rb") as handle:
        return handle.read()


def _enclosure(row: dict) -> dict:
    """How an item's document is enclosed: pdf (its pages follow), image
    (shown on the item's page), separate (named only), reason or missing."""
    document = row["document"]
    if row["generated"]:
        return {"how": "generated"}
    if document is None:
        return {"how": "plan" if row.get("plan") else "missing"}
    if not document.file:
        return {"how": "reason"}
    name = document.file.name.rsplit("/", 1)[-1]
    kind = mimetypes.guess_type(name)[0] or ""
    try:
        data = _read(document)
    except OSError:
        logger.warning("application document %s is not on disk", document.file.name)
        return {"how": "separate", "name": name}
    if kind in IMAGE_TYPES:
        return {"how": "image", "name": name, "src": f"data:{kind};base64,{base64.b64encode(data).decode()}"}
    if kind == "application/pdf":
        try:
            reader = PdfReader(io.BytesIO(data))
            return {"how": "pdf", "name": name, "reader": reader, "pages": len(reader.pages)}
        except (PdfReadError, ValueError, OSError):
            return {"how": "separate", "name": name, "unreadable": True}
    return {"how": "separate", "name": name}


def application_package_pdf(application: Application, *, today=None) -> bytes:
    """R:L7 the whole package, in the guide's order."""
    from weasyprint import HTML

    from core.pdf_fetcher import DataOnlyFetcher

    context = application_summary(application, today=today)
    for row in context["checklist"]:
        row["enclosure"] = _enclosure(row)
    context["signers"] = list(application.signers.all())
    context["footer_left"] = gettext("Application package · %(organisation)s") % {
        "organisation": application.organisation.name
    }
    html = render_to_string("pdf/application_package.html", context)
    rendered = HTML(string=html, url_fetcher=DataOnlyFetcher()).render()
    # The page each item's separator starts on, found by its anchor.
    starts = {}
    for index, page in enumerate(rendered.pages):
        for anchor in page.anchors:
            if anchor.startswith("item-"):
                starts.setdefault(int(anchor.removeprefix("item-")), index)
    base = PdfReader(io.BytesIO(rendered.write_pdf()))
    writer = PdfWriter()
    ordered = sorted(starts.items(), key=lambda pair: pair[1])
    enclosures = {row["number"]: row["enclosure"] for row in context["checklist"]}
    for position, (number, start) in enumerate(ordered):
        if position == 0:
            for page in base.pages[:start]:
                writer.add_page(page)
        end = ordered[position + 1][1] if position + 1 < len(ordered) else len(base.pages)
        for page in base.pages[start:end]:
            writer.add_page(page)
        enclosure = enclosures[number]
        if enclosure["how"] == "pdf":
            for page in enclosure["reader"].pages:
                writer.add_page(page)
    if not ordered:
        for page in base.pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
