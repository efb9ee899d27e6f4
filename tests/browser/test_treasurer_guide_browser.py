"""#14 #16 the treasurer's season in the browser, on the demo raffle
(`load_demo`, as `make run` shows it): every treasury page, then four-draw
report 1 issued, sent back by the licensing officer and issued again as
version 2, the version sent back kept. The pictures of docs/treasurer-guide.md
are this test's screenshots (1366 px wide); `DOCS_PICTURES=1` writes them to
docs/img/ (optimised to a 256-colour palette), otherwise to
test-artifacts/docs-img/."""

import datetime
import io
import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from licensing.models import IssuedReport, ReportKind, ReportReturn
from raffle.management.commands.load_demo import DEMO_LICENCE, DEMO_PASSWORD
from raffle.models import Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ISSUED = "h2:has-text('Issued reports') + .table-responsive"  # the table of issued reports
REASONS = "The deposit slip of draw 3 is not legible: attach a clear copy."

# The treasury pages in the order of the guide: (file name, tab link, heading).
PAGES = [
    ("treasurer-02-reports-and-deadlines", "Reports and deadlines", "Reports and deadlines"),
    ("treasurer-03-trust-account-and-deposits", "Trust account and deposits", None),
    ("treasurer-04-ledger-and-bank-statements", "Ledger and bank statements", None),
    ("treasurer-05-prizes", "Prizes", None),
    ("treasurer-06-publication-of-the-winners", "Publication of the winners", None),
    ("treasurer-07-expenses-and-use-of-proceeds", "Expenses and use of proceeds", None),
]


@pytest.fixture
def demo():
    call_command("load_demo", stdout=io.StringIO())
    return Event.objects.get(licence__number=DEMO_LICENCE)


def test_the_treasurers_season_page_by_page_with_a_report_sent_back_and_reissued(page, live_server, demo, picture):
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{live_server.url}{reverse('login')}?next={reverse('treasury_home')}")
    page.get_by_label("Username").fill("treasurer")
    page.get_by_label("Password").fill(DEMO_PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Treasury")
    picture(page, "treasurer-01-treasury")

    page.get_by_role("link", name=demo.name, exact=True).first.click()
    for name, tab, heading in PAGES:
        page.get_by_role("navigation", name="Treasury").get_by_role("link", name=tab).click()
        expect(page.get_by_role("navigation", name="Treasury").get_by_role("link", name=tab)).to_have_attribute(
            "aria-current", "page"
        )
        if heading:
            expect(page.get_by_role("heading", level=1)).to_have_text(heading)
        picture(page, name)

    # Four-draw report 1 issued, then sent back by the licensing officer.
    page.get_by_role("navigation", name="Treasury").get_by_role("link", name="Reports and deadlines").click()
    page.get_by_role("row", name=re.compile("^Report 1 ")).get_by_role("button", name="Issue PDF").click()
    expect(page.get_by_text(re.compile("issued and kept; SHA-256"))).to_be_visible()
    first = IssuedReport.objects.get(licence=demo.licence, kind=ReportKind.FOUR_DRAW, period=1)
    page.get_by_text("Record that it was sent back").click()
    today = timezone.localdate()
    page.get_by_label("Sent back on").fill(today.isoformat())
    page.get_by_label("By", exact=True).fill("J. Morin, City of Owen Sound licensing")
    page.get_by_label("Reasons").fill(REASONS)
    page.get_by_label("Reference").fill("OS-LL-2231")
    page.get_by_label("Corrected report due by").fill((today + datetime.timedelta(days=10)).isoformat())
    page.get_by_role("button", name="Record the return").click()
    issued = page.locator("table").filter(has_text="Licensing officer")
    expect(issued).to_contain_text("Sent back")
    expect(issued).to_contain_text("not yet re-filed")
    expect(issued).to_contain_text("(OS-LL-2231): " + REASONS)
    expect(issued).to_contain_text(f"corrected report due {today + datetime.timedelta(days=10):%Y-%m-%d}")
    picture(page, "treasurer-08-report-sent-back", selector=ISSUED)
    assert ReportReturn.objects.get(report=first).reasons == REASONS

    # Corrected and issued again: version 2 replaces version 1, which stays on file.
    page.get_by_role("row", name=re.compile("^Report 1 ")).get_by_role("button", name="Issue PDF").click()
    expect(page.get_by_text(re.compile("issued and kept; SHA-256"))).to_be_visible()
    expect(issued).to_contain_text("replaced by version 2")
    expect(issued.get_by_role("cell", name="2 (corrected)")).to_be_visible()
    expect(issued).to_contain_text(first.sha256)  # version 1 kept, with its fingerprint
    picture(page, "treasurer-09-report-reissued", selector=ISSUED)
    second = IssuedReport.objects.get(licence=demo.licence, kind=ReportKind.FOUR_DRAW, period=1, version=2)
    assert second.replaces == first
