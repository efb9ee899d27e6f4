"""A new application lists the organisation's reports not yet filed and cannot
be submitted while any is overdue (L7; the reports of R1, R2, R3)."""

import datetime

import pytest
from django.utils import timezone

from licensing import selectors, services
from licensing.errors import LicensingError
from licensing.models import ApplicantKind, ApplicationStatus, AuthorityKind, ReportKind, SalesChannel
from licensing.outstanding import outstanding_reports
from tests.factories import ADULT_BIRTHDAY, LicenceFactory, event_with_closed_draws

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _ready_application(organisation, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    application = services.application_create(
        actor=None,
        organisation=organisation,
        applicant_kind=ApplicantKind.RETURNING,
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Perth",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="20000",
    )
    services.application_set_schedule(
        actor=None, application=application, draws=[(TODAY + datetime.timedelta(days=10), "1000")]
    )
    for kind in application.required_documents():
        services.application_attach_document(actor=None, application=application, kind=kind, note="Binder")
    services.application_add_signer(
        actor=None, application=application, name="Ana Roy", title="President", date_of_birth=ADULT_BIRTHDAY
    )
    return application


def _earlier_licence_with_four_draws(treasurer):
    first = timezone.now() - datetime.timedelta(days=60)
    licence = LicenceFactory(issued_on=timezone.localdate(first) - datetime.timedelta(days=30))
    event, _ = event_with_closed_draws(
        ["100", "100", "100", "100"], actor=treasurer, licence=licence, first_draw_at=first
    )
    return event


def test_an_overdue_four_draw_report_of_an_earlier_licence_stops_the_submission_and_is_named(
    treasurer, settings, tmp_path
):  # R:L7 R:R1
    event = _earlier_licence_with_four_draws(treasurer)
    application = _ready_application(event.licence.organisation, settings, tmp_path)
    summary = selectors.application_summary(application, today=TODAY)
    assert [row["report"].what for row in summary["outstanding"] if row["overdue"]] == [
        "Four-draw report 1 (draws 1–4) and its fee"
    ]
    with pytest.raises(
        LicensingError, match=rf"Four-draw report 1 \(draws 1–4\).* of licence {event.licence.number}, due"
    ):
        services.application_submit(actor=None, application=application, today=TODAY)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.DRAFT


def test_once_the_report_is_filed_the_application_can_be_submitted(treasurer, settings, tmp_path):  # R:L7 R:R1
    event = _earlier_licence_with_four_draws(treasurer)
    application = _ready_application(event.licence.organisation, settings, tmp_path)
    services.report_issue(
        actor=treasurer, licence=event.licence, kind=ReportKind.FOUR_DRAW, file_format="pdf", content=b"%PDF", period=1
    )
    assert not [r for r in outstanding_reports(event.licence.organisation) if r.rule == "R1"]
    services.application_submit(actor=None, application=application, today=TODAY)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED


def test_an_overdue_audited_statement_stops_the_submission(settings, tmp_path):  # R:L7 R:R3
    licence = LicenceFactory(
        issued_on=TODAY - datetime.timedelta(days=400), expires_on=TODAY - datetime.timedelta(days=40)
    )
    services.audited_statement_request_record(
        actor=None, licence=licence, requested_on=TODAY - datetime.timedelta(days=130), requested_by="AGCO Registrar"
    )
    application = _ready_application(licence.organisation, settings, tmp_path)
    with pytest.raises(LicensingError, match="Audited financial statement requested by AGCO Registrar"):
        services.application_submit(actor=None, application=application, today=TODAY)


def test_a_report_not_yet_due_is_listed_but_does_not_stop_the_submission(settings, tmp_path):  # R:L7 R:R3
    licence = LicenceFactory()
    services.audited_statement_request_record(
        actor=None, licence=licence, requested_on=TODAY - datetime.timedelta(days=5), requested_by="AGCO Registrar"
    )
    application = _ready_application(licence.organisation, settings, tmp_path)
    summary = selectors.application_summary(application, today=TODAY)
    assert [row["overdue"] for row in summary["outstanding"]] == [False]
    services.application_submit(actor=None, application=application, today=TODAY)
