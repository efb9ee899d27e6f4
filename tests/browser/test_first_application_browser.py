"""An organiser's first licence application in a real browser (Chromium via
Playwright): the guide's checklist filled item by item, the guided safety and
security plan, the signers, the submission and the package PDF. Screenshots go
to test-artifacts/ (the organiser's guide uses them, docs/img/)."""

import io
import re

import pytest
from django.contrib.auth.models import Group
from django.utils import timezone
from PIL import Image

from core import roles
from core.pdf import html_to_pdf, pdf_text
from licensing.models import Application, ApplicationStatus
from tests.browser.conftest import axe_violations
from tests.factories import PASSWORD, OrganisationFactory, UserFactory

FILES = {  # checklist item: (file name, type) or a reason
    "governing_documents": ("letters-patent-and-bylaws.pdf", "application/pdf"),
    "cra_registration": "Not registered with the CRA: incorporated non-profit, letters patent enclosed",
    "programs": ("programs-and-services.pdf", "application/pdf"),
    "operating_budget": ("budget-2027-and-statements-2026.pdf", "application/pdf"),
    "use_of_proceeds": ("use-of-net-proceeds.pdf", "application/pdf"),
    "rules_of_play": ("rules-of-play.pdf", "application/pdf"),
    "ticket_sample": ("ticket-sample.png", "image/png"),
    "board_of_directors": ("board-of-directors.pdf", "application/pdf"),
}


def _pdf(title: str) -> bytes:
    return html_to_pdf(f"<h1>{title}</h1><p>Enclosed document.</p>")


def _png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (300, 120), (240, 230, 200)).save(out, "PNG")
    return out.getvalue()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_organiser_fills_a_first_application_to_the_package_pdf(
    live_server, page, axe_context, shoot
):  # R:L7 R:L4 R:L3
    admin = UserFactory(username="ana", is_staff=True)
    admin.groups.add(Group.objects.get(name=roles.ADMINISTRATOR))
    organisation = OrganisationFactory(name="Perth Food Bank")

    page.goto(f"{live_server.url}/licensing/applications/new/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_label("Organisation").select_option(str(organisation.pk))
    page.get_by_label("Applicant").select_option("first_time")
    page.get_by_label("Licensing authority").select_option("municipality")
    page.get_by_label("Authority's name").fill("Town of Perth")
    page.get_by_label("Sales channel").select_option("paper_roll")
    page.get_by_label("Prize board ($)").fill("20000")
    shoot(page, "new-application")
    page.get_by_role("button", name="Start the application").click()
    application = Application.objects.get()
    detail = page.url
    shoot(page, "empty-checklist")

    start = timezone.localdate() + timezone.timedelta(days=21)
    plan = "\n".join(f"{start + timezone.timedelta(weeks=i)}, 4000" for i in range(4))
    page.get_by_label("Draw schedule and sales plan").fill(plan)
    page.get_by_role("button", name="Save the schedule").click()
    assert page.get_by_text("Draw schedule and sales plan saved.").is_visible()

    for kind, attachment in FILES.items():
        page.locator("#id_kind").select_option(kind)
        if isinstance(attachment, str):
            page.locator("#id_note").fill(attachment)
        else:
            name, mime = attachment
            body = _png() if mime == "image/png" else _pdf(name)
            page.locator("#id_file").set_input_files({"name": name, "mimeType": mime, "buffer": body})
        page.get_by_role("button", name="Attach", exact=True).click()
        assert page.get_by_text("Document attached.").is_visible()

    page.get_by_role("link", name="Write or update the guided safety and security plan").click()
    page.get_by_label("Where are the draws held?").fill("Perth Legion Hall, 26 Beckwith St")
    page.get_by_label("Has the landlord consented to the event? How?").fill("Letter of the branch president")
    threshold = {
        "jackpot_from": "5000",
        "expected_attendance": "150",
        "volunteers": "6",
        "police_security": "Two volunteers at the door; OPP informed",
        "venue_capacity": "Hall holds 200; overflow to the lower hall",
        "traffic": "Parking on Beckwith St; volunteers direct cars",
        "cash_handling": "Counted by two members in the office; carried together to the bank",
        "deposit_timing": "Next business morning",
    }
    for field, value in threshold.items():
        page.locator(f'[name="t-0-{field}"]').fill(value)
    shoot(page, "safety-plan")
    page.get_by_role("button", name="Save the plan").click()
    assert page.get_by_text("Safety and security plan version 1 saved.").is_visible()
    page.goto(detail)
    page.get_by_role("button", name="Attach the plan, version 1").click()
    assert page.get_by_text("Safety and security plan version 1 attached.").is_visible()

    for name, title in (("Ana Roy", "President"), ("Ben Oak", "Treasurer")):
        page.get_by_label("Signer's name").fill(name)
        page.locator("#id_title").fill(title)
        page.get_by_label("Signer's date of birth").fill("1975-06-01")  # R:L13 an adult signs
        page.get_by_role("button", name="Add the signer").click()
        assert page.get_by_text("Signer added.").is_visible()
    assert page.get_by_text("Everything is in place.").is_visible()
    shoot(page, "checklist-complete")
    assert axe_violations(axe_context.new_page(), detail) == []

    page.get_by_role("button", name="Submit the application today").click()
    assert page.get_by_text("Application submitted.").is_visible()
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED
    shoot(page, "submitted")

    pdf = page.request.get(f"{live_server.url}/licensing/applications/{application.pk}/package.pdf")
    assert pdf.headers["content-type"] == "application/pdf"
    text = " ".join(pdf_text(pdf.body()).split())
    for kind, attachment in FILES.items():
        label = next(row.label for row in application.checklist_items() if row.kind == kind)
        assert label in text, label
        assert (attachment if isinstance(attachment, str) else attachment[0]) in text
    assert "Copy of your safety and security plan" in text and "Safety and security plan, version 1" in text
    assert "Proposed draw schedule and sales plan" in text
    assert re.search(r"Ana Roy President .*Ben Oak Treasurer", text)
    assert "MISSING" not in text
