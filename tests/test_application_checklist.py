"""The application checklist holds exactly the licensing guide's items (L4, L7),
per authority and channel, first-time and returning, in the guide's order."""

import datetime
import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from pypdf import PdfReader

from core.pdf import pdf_text
from licensing import services
from licensing.errors import LicensingError
from licensing.models import ApplicantKind, AuthorityKind, DocumentKind, SalesChannel
from licensing.package import application_package_pdf
from tests.factories import ADULT_BIRTHDAY, OrganisationFactory

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()

# The guide's words (seeds/catch-the-ace-ontario-source.txt, Step 3), typed out here on purpose.
FIRST_TIME_HEAD = [
    "Governing documents",
    "Revenue Canada Notification of Registration Letter",
    "Detailed outline of programs/services",
    "Organization's current operating budget",
]
FIRST_TIME_TAIL = [
    "Use of net proceeds",
    "Rules of Play for raffle",
    "Ticket Sample",
    "Copy of your safety and security plan",
    "List of Board of Directors with contact information",
]
RETURNING_HEAD = [
    "Outstanding Raffle Licence Financial Reports",
    "Outstanding Financial reports for other Charitable gaming events",
    "Outstanding information requests from your licensing authority",
]
RETURNING_TAIL = [
    "Use of net proceeds",
    "Rules of Play for raffle",
    "Ticket Sample",
    "Copy of your safety and security plan",
    "Annual updated List of Board of Directors",
    "Changes to governing documents and Revenue Canada status",
    "Annual verified financial statements",
]
MUNICIPAL_NOTICE = ["Copy of Municipal notification"]  # "if applying to AGCO"
SCHEDULE = ["Proposed draw schedule and sales plan"]  # Step 3: every paper application

CASES = [
    # authority, channel, prize board, AGCO?, paper?
    (AuthorityKind.MUNICIPALITY, SalesChannel.PAPER_ROLL, "50000", False, True),
    (AuthorityKind.MUNICIPALITY, SalesChannel.PAPER_STUB, "20000", False, True),
    (AuthorityKind.FIRST_NATION, SalesChannel.PAPER_ROLL, "50000", False, True),
    (AuthorityKind.FIRST_NATION, SalesChannel.PAPER_STUB, "30000", False, True),
    (AuthorityKind.AGCO, SalesChannel.PAPER_ROLL, "60000", True, True),
    (AuthorityKind.AGCO, SalesChannel.PAPER_STUB, "250000", True, True),
    (AuthorityKind.AGCO, SalesChannel.ELECTRONIC, "20000", True, False),
    (AuthorityKind.AGCO, SalesChannel.ONLINE, "500000", True, False),
]


def _application(*, applicant_kind=ApplicantKind.FIRST_TIME, authority_kind, sales_channel, prize_board, **kwargs):
    return services.application_create(
        actor=None,
        organisation=kwargs.pop("organisation", None) or OrganisationFactory(),
        applicant_kind=applicant_kind,
        authority_kind=authority_kind,
        authority_name=str(AuthorityKind(authority_kind).label),
        sales_channel=sales_channel,
        prize_board=prize_board,
    )


@pytest.mark.parametrize("authority, channel, board, agco, paper", CASES)
def test_a_first_time_checklist_holds_exactly_the_guides_items(authority, channel, board, agco, paper):  # R:L7 R:L4
    application = _application(authority_kind=authority, sales_channel=channel, prize_board=board)
    labels = [row["label"] for row in services.application_checklist(application)]
    expected = FIRST_TIME_HEAD + (MUNICIPAL_NOTICE if agco else []) + FIRST_TIME_TAIL + (SCHEDULE if paper else [])
    assert labels == expected


@pytest.mark.parametrize("authority, channel, board, agco, paper", CASES)
def test_a_returning_checklist_holds_exactly_the_guides_items(authority, channel, board, agco, paper):  # R:L7 R:L4
    application = _application(
        applicant_kind=ApplicantKind.RETURNING, authority_kind=authority, sales_channel=channel, prize_board=board
    )
    labels = [row["label"] for row in services.application_checklist(application)]
    expected = RETURNING_HEAD + (MUNICIPAL_NOTICE if agco else []) + RETURNING_TAIL + (SCHEDULE if paper else [])
    assert labels == expected


def test_a_document_outside_the_applications_checklist_is_refused():  # R:L7
    application = _application(
        authority_kind=AuthorityKind.MUNICIPALITY, sales_channel=SalesChannel.PAPER_ROLL, prize_board="20000"
    )
    with pytest.raises(LicensingError, match="this application's checklist") as refused:
        services.application_attach_document(
            actor=None, application=application, kind=DocumentKind.ANNUAL_BOARD_LIST, note="x"
        )
    assert refused.value.rule == "L7"
    assert not application.documents.exists()


def test_an_item_without_a_file_needs_a_reason():  # R:L7
    application = _application(
        authority_kind=AuthorityKind.MUNICIPALITY, sales_channel=SalesChannel.PAPER_ROLL, prize_board="20000"
    )
    with pytest.raises(LicensingError, match="reason there is none"):
        services.application_attach_document(
            actor=None, application=application, kind=DocumentKind.CRA_REGISTRATION, note="  "
        )
    services.application_attach_document(
        actor=None, application=application, kind=DocumentKind.CRA_REGISTRATION, note="Not registered with the CRA"
    )
    row = next(r for r in services.application_checklist(application) if r["kind"] == DocumentKind.CRA_REGISTRATION)
    assert row["attached"] and row["document"].note == "Not registered with the CRA"


def test_an_application_without_signers_is_not_submitted(settings, tmp_path):  # R:L7
    settings.MEDIA_ROOT = tmp_path
    application = _application(
        authority_kind=AuthorityKind.MUNICIPALITY, sales_channel=SalesChannel.PAPER_ROLL, prize_board="20000"
    )
    services.application_set_schedule(
        actor=None, application=application, draws=[(TODAY + datetime.timedelta(days=7), "1000")]
    )
    for kind in application.required_documents():
        services.application_attach_document(actor=None, application=application, kind=kind, note="Binder")
    with pytest.raises(LicensingError, match="Licence Application signers"):
        services.application_submit(actor=None, application=application, today=TODAY)
    services.application_add_signer(
        actor=None, application=application, name="Ana Roy", title="President", date_of_birth=ADULT_BIRTHDAY
    )
    services.application_submit(actor=None, application=application, today=TODAY)


def _png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (60, 30), (200, 200, 200)).save(out, "PNG")
    return out.getvalue()


def _one_page_pdf(text: str) -> bytes:
    from core.pdf import html_to_pdf

    return html_to_pdf(f"<p>{text}</p>")


def test_the_package_pdf_assembles_application_checklist_signatures_and_documents_in_the_guides_order(
    settings, tmp_path
):  # R:L7
    settings.MEDIA_ROOT = tmp_path
    application = _application(
        authority_kind=AuthorityKind.AGCO, sales_channel=SalesChannel.PAPER_STUB, prize_board="60000"
    )
    services.application_set_schedule(
        actor=None, application=application, draws=[(TODAY + datetime.timedelta(days=50), "1000")]
    )
    services.application_add_signer(
        actor=None, application=application, name="Ana Roy", title="President", date_of_birth=ADULT_BIRTHDAY
    )
    services.application_add_signer(
        actor=None, application=application, name="Ben Oak", title="Treasurer", date_of_birth=ADULT_BIRTHDAY
    )
    services.application_attach_document(
        actor=None,
        application=application,
        kind=DocumentKind.GOVERNING_DOCUMENTS,
        file=SimpleUploadedFile("letters-patent.pdf", _one_page_pdf("LETTERS PATENT OF THE FOOD BANK")),
    )
    services.application_attach_document(
        actor=None, application=application, kind=DocumentKind.CRA_REGISTRATION, note="Not registered with the CRA"
    )
    services.application_attach_document(
        actor=None,
        application=application,
        kind=DocumentKind.RULES_OF_PLAY,
        file=SimpleUploadedFile("rules.png", _png()),
    )
    services.application_attach_document(
        actor=None,
        application=application,
        kind=DocumentKind.TICKET_SAMPLE,
        file=SimpleUploadedFile("ticket.txt", b"sample"),
    )
    pdf = application_package_pdf(application, today=TODAY)
    text = " ".join(pdf_text(pdf).split())
    order = [
        "Lottery licence application package",
        "Draw schedule and sales plan (L3)",
        "Checklist of supporting documents",
        "Signatures of the Licence Application signers",
        "Ana Roy President",
        "Ben Oak Treasurer",
        "Document 1 of 11: Governing documents",
        "letters-patent.pdf",
        "LETTERS PATENT OF THE FOOD BANK",  # the attached PDF's own page follows its item
        "Document 2 of 11: Revenue Canada Notification of Registration Letter",
        "Reason: Not registered with the CRA",
        "Document 3 of 11: Detailed outline of programs/services",
        "Document 5 of 11: Copy of Municipal notification",
        "Document 8 of 11: Ticket Sample",
        "ticket.txt",
        "Enclosed separately",
        "Document 11 of 11: Proposed draw schedule and sales plan",
    ]
    at = 0
    for part in order:  # each part after the one before
        at = text.find(part, at)
        assert at != -1, f"{part!r} missing or out of order"
    assert text.count("MISSING") >= 6  # the items not attached yet say so
    pages = PdfReader(io.BytesIO(pdf)).pages
    assert (
        "LETTERS PATENT"
        in pages[[i for i, p in enumerate(pages) if "Document 1 of 11" in p.extract_text()][0] + 1].extract_text()
    )
