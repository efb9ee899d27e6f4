"""A report the licensing officer sends back (RULES R1, R2): the treasurer
records the return with the officer's reasons, corrects the figures and files
the report again as a new version; the version sent back is kept exactly as it
was sent, the deadline is open until the corrected one is filed, and every step
is in the audit trail."""

import datetime
import hashlib

import pytest
from django.contrib.auth.models import Group
from django.db import IntegrityError, transaction
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from core.pdf import pdf_text
from licensing.errors import LicensingError
from licensing.models import IssuedReport, ReportKind, ReportReturn
from licensing.outstanding import outstanding_reports
from licensing.services import report_file_intact, report_return_record
from raffle import services
from raffle.reports.deadlines import event_deadlines
from tests.factories import UserFactory, event_with_closed_draws, once

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)
REASONS = "The deposit slip of draw 3 is not legible; attach a clear copy and show the fee cheque's number."


@pytest.fixture
def season(treasurer):
    event, draws = event_with_closed_draws(["795.00", "430.00", "405.00", "385.00"], actor=treasurer)
    return event


def _issue(event, actor, file_format="pdf", kind=ReportKind.FOUR_DRAW, period=1):
    return services.event_report_issue(actor=actor, event=event, kind=kind, file_format=file_format, period=period)


def _send_back(report, actor, **overrides):
    kwargs = {
        "returned_on": TODAY,
        "returned_by": "J. Morin, AGCO Lottery Licensing",
        "reasons": REASONS,
        "reference": "AGCO-RL-2231",
        "refile_by": TODAY + 10 * DAY,
        **overrides,
    }
    return report_return_record(actor=actor, report=report, **kwargs)


def _report_deadlines(event):
    return [d for d in event_deadlines(event) if d.kind == "report"]


def test_a_returned_report_is_corrected_and_refiled_as_a_new_version_keeping_the_old(season, treasurer):  # R:R1
    """The AGCO sends four-draw report 1 back; the treasurer records why, and
    the corrected report says which version it replaces and why; both stay on file."""
    first = _issue(season, treasurer)
    first_bytes = first.file.read()
    back = _send_back(first, treasurer)
    assert back.report == first and back.reasons == REASONS

    corrected = _issue(season, treasurer)
    assert corrected.version == 2 and corrected.replaces == first
    text = " ".join(pdf_text(corrected.file.read()).split())
    assert "Corrected report, version 2" in text
    assert f"replaces version 1 issued {timezone.localtime(first.generated_at):%Y-%m-%d %H:%M}" in text
    assert "J. Morin, AGCO Lottery Licensing sent back on" in text and "AGCO-RL-2231" in text
    assert "The deposit slip of draw 3 is not legible" in text
    kept = IssuedReport.objects.get(pk=first.pk)  # the version sent back, exactly as it was sent
    assert kept.file.read() == first_bytes and report_file_intact(kept)
    assert hashlib.sha256(first_bytes).hexdigest() == kept.sha256
    actions = list(AuditEntry.objects.filter(action__startswith="licensing.report.").values_list("action", "data"))
    assert [a for a, _ in actions] == ["licensing.report.issue", "licensing.report.return", "licensing.report.issue"]
    assert actions[1][1]["reasons"] == REASONS and actions[1][1]["sha256"] == first.sha256
    assert actions[2][1]["version"] == 2 and actions[2][1]["replaces"] == first.sha256


def test_the_corrected_csv_names_the_version_it_replaces(season, treasurer):  # R:R1
    first = _issue(season, treasurer, file_format="csv")
    _send_back(first, treasurer)
    csv = _issue(season, treasurer, file_format="csv").file.read().decode()
    assert "\ncorrects_version,Test" not in csv  # the label is in the first column, the organisation next
    assert "corrects_version," in csv and f"corrects_sha256,{season.licence.organisation.name}" in csv
    assert first.sha256 in csv and "The deposit slip of draw 3 is not legible" in csv


def test_a_returned_report_is_due_again_until_the_corrected_one_is_filed(season, treasurer):  # R:R1 R:L7
    """Sent back with ten days to re-file: the deadline is open (and listed as
    outstanding for the organisation's next application) until version 2 is issued."""
    first = _issue(season, treasurer)
    assert all(d.done for d in _report_deadlines(season))
    _send_back(first, treasurer)
    due = [d for d in _report_deadlines(season) if not d.done]
    assert [(d.on, d.rule) for d in due] == [(TODAY + 10 * DAY, "R1")]
    assert "Four-draw report 1, corrected (PDF version 2): sent back by J. Morin" in due[0].what
    outstanding = outstanding_reports(season.licence.organisation)
    assert [r.due_on for r in outstanding] == [TODAY + 10 * DAY]
    _issue(season, treasurer)
    assert all(d.done for d in _report_deadlines(season))
    assert outstanding_reports(season.licence.organisation) == []


def test_a_return_without_a_date_for_the_correction_is_due_at_once(season, treasurer):  # R:R1
    first = _issue(season, treasurer)
    _send_back(first, treasurer, refile_by=None)
    (due,) = [d for d in _report_deadlines(season) if not d.done]
    assert due.on == TODAY and due.status(TODAY + DAY) == "overdue"


def test_a_report_on_file_is_not_issued_again_unless_it_was_sent_back(season, treasurer):  # R:R1
    _issue(season, treasurer)
    with pytest.raises(LicensingError, match="is the report on file.*record the return") as refused:
        _issue(season, treasurer)
    assert refused.value.rule == "R1"
    assert IssuedReport.objects.count() == 1
    _issue(season, treasurer, file_format="csv")  # the CSV of the same report is its own file


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"reasons": "  "}, "Write the officer's reasons"),
        ({"returned_by": ""}, "Name the licensing officer"),
        ({"returned_on": TODAY + DAY}, "cannot be in the future"),
        ({"returned_on": TODAY - 400 * DAY}, "cannot be sent back before"),
        ({"refile_by": TODAY - DAY}, "cannot be due before the day the report was sent back"),
    ],
)
def test_a_return_without_its_reasons_or_with_impossible_dates_is_refused(season, treasurer, changes, message):  # R:R1
    first = _issue(season, treasurer)
    with pytest.raises(LicensingError, match=message):
        _send_back(first, treasurer, **changes)
    assert not ReportReturn.objects.exists()
    assert not AuditEntry.objects.filter(action="licensing.report.return").exists()


def test_a_report_is_sent_back_once_and_a_replaced_version_not_at_all(season, treasurer):  # R:R1
    first = _issue(season, treasurer)
    _send_back(first, treasurer)
    with pytest.raises(LicensingError, match="already recorded as sent back"):
        _send_back(first, treasurer)
    _issue(season, treasurer)
    assert ReportReturn.objects.count() == 1


def test_the_final_report_is_returned_and_refiled_the_same_way(treasurer):  # R:R2
    event, _ = event_with_closed_draws(["100.00"], actor=treasurer)
    event.licence.status = "cancelled"
    event.licence.concluded_at = timezone.now()
    event.licence.save(update_fields=["status", "concluded_at"])
    first = _issue(event, treasurer, kind=ReportKind.FINAL, period=None)
    _send_back(first, treasurer, reasons="List the unclaimed prizes still held in trust.")
    with pytest.raises(LicensingError, match="already recorded"):
        _send_back(first, treasurer)
    corrected = _issue(event, treasurer, kind=ReportKind.FINAL, period=None)
    assert corrected.version == 2 and "List the unclaimed prizes" in pdf_text(corrected.file.read())
    deadline = [d for d in _report_deadlines(event) if "corrected" in d.what]
    assert [(d.rule, d.done) for d in deadline] == [("R2", True)]


def test_the_database_keeps_returns_as_recorded_and_versions_in_order(season, treasurer):  # R:R1
    first = _issue(season, treasurer)
    back = _send_back(first, treasurer)
    with pytest.raises(Exception, match="append-only"), transaction.atomic():
        ReportReturn.objects.filter(pk=back.pk).update(reasons="nothing wrong")
    with pytest.raises(IntegrityError), transaction.atomic():
        IssuedReport.objects.filter(pk=first.pk).update(version=2)  # a later version must replace one
    second = _issue(season, treasurer)
    with pytest.raises(IntegrityError), transaction.atomic():
        IssuedReport.objects.filter(pk=second.pk).update(version=1, replaces=None)  # version 1 is taken


def test_the_treasurer_records_the_return_on_the_overview_and_the_auditor_cannot(client, season, treasurer):  # R:R1
    first = _issue(season, treasurer)
    page = f"/treasury/{season.pk}/"
    url = f"/treasury/{season.pk}/reports/issued/{first.pk}/return/"
    form = once(
        {
            "returned_on": TODAY.isoformat(),
            "returned_by": "J. Morin, AGCO Lottery Licensing",
            "reasons": REASONS,
            "reference": "AGCO-RL-2231",
            "refile_by": (TODAY + 10 * DAY).isoformat(),
        }
    )
    auditor = UserFactory(username="auditor")
    auditor.groups.add(Group.objects.get(name=roles.AUDITOR))
    client.force_login(auditor)
    assert "Record that it was sent back" not in client.get(page).content.decode()
    assert client.post(url, form).status_code == 403
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    client.force_login(treasurer)
    assert "Record that it was sent back" in client.get(page).content.decode()
    response = client.post(url, form, follow=True)
    html = response.content.decode()
    assert "recorded as sent back" in html and "version 2" in html
    assert "not yet re-filed" in html and "The deposit slip of draw 3 is not legible" in html
    assert ReportReturn.objects.get().recorded_by == treasurer
    client.post(f"/treasury/{season.pk}/reports/issue/", {"kind": "four_draw", "period": "1", "format": "pdf"})
    html = client.get(page).content.decode()
    assert "replaced by version 2" in html and "(corrected)" in html
