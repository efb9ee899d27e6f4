import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from core.pdf import pdf_text
from licensing import selectors, services
from licensing.errors import LicensingError
from licensing.models import (
    ApplicantKind,
    ApplicationStatus,
    AuthorityKind,
    CharitablePurpose,
    DocumentKind,
    Licence,
    PlannedDraw,
    SalesChannel,
)
from licensing.package import application_package_pdf
from tests.factories import ADULT_BIRTHDAY, EligibilityFactory, OrganisationFactory

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _licence(organisation, **overrides):
    kwargs = dict(
        actor=None,
        organisation=organisation,
        number="L-1",
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.PAPER_STUB,
        prize_board="100000",
        issued_on=TODAY,
        expires_on=TODAY + datetime.timedelta(days=365),
    )
    kwargs.update(overrides)
    return services.licence_create(**kwargs)


def test_an_organisation_without_an_eligibility_assessment_cannot_be_licensed():  # R:L1
    organisation = OrganisationFactory(eligible=False)
    with pytest.raises(LicensingError, match="no eligibility assessment on file"):
        _licence(organisation)
    assert not Licence.objects.exists()


@pytest.mark.parametrize(
    "fields, reason",
    [
        ({"purpose": CharitablePurpose.PRIVATE_INTEREST}, "private interests is not eligible"),
        ({"located_in_ontario": False}, "located in Ontario"),
        ({"non_profit_evidence": ""}, "non-profit organisation, with evidence"),
        ({"charitable_activity_since": TODAY - datetime.timedelta(days=200)}, "at least one year"),
    ],
)
def test_an_ineligible_organisation_is_refused_with_what_it_lacks(fields, reason):  # R:L1
    eligibility = EligibilityFactory(organisation=OrganisationFactory(eligible=False), **fields)
    with pytest.raises(LicensingError, match=reason) as refused:
        _licence(eligibility.organisation)
    assert refused.value.rule == "L1"
    assert not Licence.objects.exists()


def test_eligibility_recorded_through_the_service_lets_the_organisation_be_licensed():  # R:L1
    organisation = OrganisationFactory(eligible=False)
    eligibility = services.eligibility_record(
        actor=None,
        organisation=organisation,
        is_non_profit=True,
        non_profit_evidence="Letters patent 42",
        located_in_ontario=True,
        location_evidence="1 Main St, Perth ON",
        charitable_activity_since=TODAY - datetime.timedelta(days=800),
        activity_evidence="Reports 2024-2025",
        purpose=CharitablePurpose.EDUCATION,
    )
    assert eligibility.is_eligible()
    assert _licence(organisation).organisation == organisation


def _application(**overrides):
    kwargs = dict(
        actor=None,
        organisation=OrganisationFactory(),
        applicant_kind=ApplicantKind.FIRST_TIME,
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Perth",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="50000",
    )
    kwargs.update(overrides)
    return services.application_create(**kwargs)


def _weekly(start, amounts):
    return [(start + datetime.timedelta(weeks=i), amount) for i, amount in enumerate(amounts)]


def test_an_ineligible_organisation_cannot_even_start_an_application():  # R:L1
    with pytest.raises(LicensingError, match="no eligibility assessment"):
        _application(organisation=OrganisationFactory(eligible=False))


def test_a_sales_plan_whose_prizes_pass_the_prize_board_is_refused():  # R:L3
    application = _application()
    # Prizes are half the sales, each part rounded down: 20,000 + 20,000 + 10,000.02.
    plan = _weekly(TODAY + datetime.timedelta(days=30), ["40000", "40000", "20000.05"])
    with pytest.raises(LicensingError, match=r"\$50,000.02 by draw 3.*prize board of \$50,000.00") as refused:
        services.application_set_schedule(actor=None, application=application, draws=plan)
    assert refused.value.rule == "L3"
    assert not PlannedDraw.objects.exists()


def test_a_sales_plan_that_fits_the_prize_board_is_kept_with_cumulative_prizes():  # R:L3
    application = _application()
    plan = _weekly(TODAY + datetime.timedelta(days=30), ["40000", "40000", "20000.01"])
    services.application_set_schedule(actor=None, application=application, draws=plan)
    summary = selectors.application_summary(application)
    assert [row["cumulative_prizes"] for row in summary["plan"]] == [
        Decimal("20000.00"),
        Decimal("40000.00"),
        Decimal("50000.00"),
    ]
    assert summary["planned_sales"] == Decimal("100000.01")


def test_first_time_and_returning_applicants_have_their_own_checklists():  # R:L7
    first = _application()
    returning = _application(organisation=OrganisationFactory(), applicant_kind=ApplicantKind.RETURNING)
    first_kinds = [row["kind"] for row in services.application_checklist(first)]
    returning_kinds = [row["kind"] for row in services.application_checklist(returning)]
    assert DocumentKind.GOVERNING_DOCUMENTS in first_kinds and DocumentKind.GOVERNING_DOCUMENTS not in returning_kinds
    assert (
        DocumentKind.OUTSTANDING_RAFFLE_REPORTS in returning_kinds
        and DocumentKind.OUTSTANDING_RAFFLE_REPORTS not in first_kinds
    )
    # The guide asks every applicant for the safety and security plan, whatever the prize board.
    assert DocumentKind.SAFETY_PLAN in first_kinds and DocumentKind.SAFETY_PLAN in returning_kinds


def test_a_prize_board_over_50000_needs_the_municipal_notice_and_a_safety_plan():  # R:L4
    application = _application(authority_kind=AuthorityKind.AGCO, authority_name="AGCO", prize_board="50000.01")
    kinds = [row["kind"] for row in services.application_checklist(application)]
    assert DocumentKind.MUNICIPAL_NOTIFICATION in kinds and DocumentKind.SAFETY_PLAN in kinds


def _complete(application, *, first_draw):
    services.application_set_schedule(
        actor=None, application=application, draws=_weekly(first_draw, ["2000", "2500", "3000"])
    )
    for kind in application.required_documents():
        services.application_attach_document(actor=None, application=application, kind=kind, note=f"Binder tab {kind}")
    services.application_add_signer(
        actor=None, application=application, name="Ana Roy", title="President", date_of_birth=ADULT_BIRTHDAY
    )


def test_an_agco_application_cannot_plan_a_first_draw_before_six_weeks(settings, tmp_path):  # R:L6
    settings.MEDIA_ROOT = tmp_path
    application = _application(
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.ELECTRONIC,
        prize_board="250000",
    )
    assert application.earliest_start(TODAY) == TODAY + datetime.timedelta(days=42)
    _complete(application, first_draw=TODAY + datetime.timedelta(days=41))
    with pytest.raises(LicensingError, match="before the earliest realistic start"):
        services.application_submit(actor=None, application=application, today=TODAY)
    services.application_set_schedule(
        actor=None, application=application, draws=_weekly(TODAY + datetime.timedelta(days=42), ["2000"])
    )
    services.application_submit(actor=None, application=application, today=TODAY)
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED and application.submitted_on == TODAY


def test_an_application_with_missing_documents_is_not_submitted(settings, tmp_path):  # R:L7
    settings.MEDIA_ROOT = tmp_path
    application = _application()
    _complete(application, first_draw=TODAY + datetime.timedelta(days=7))
    application.documents.filter(kind=DocumentKind.USE_OF_PROCEEDS).delete()
    with pytest.raises(LicensingError, match="Use of net proceeds"):
        services.application_submit(actor=None, application=application, today=TODAY)
    services.application_attach_document(
        actor=None,
        application=application,
        kind=DocumentKind.USE_OF_PROCEEDS,
        file=SimpleUploadedFile("use-of-proceeds.pdf", b"%PDF-1.4 letter"),
    )
    services.application_submit(actor=None, application=application, today=TODAY)
    with pytest.raises(LicensingError, match="can no longer be changed"):
        services.application_attach_document(
            actor=None, application=application, kind=DocumentKind.BOARD_OF_DIRECTORS, note="late"
        )


def test_the_package_summary_pdf_shows_plan_checklist_and_dates():  # R:L3 R:L4 R:L6 R:L7
    application = _application(
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        prize_board="60000",
        sales_channel=SalesChannel.PAPER_STUB,
    )
    services.application_set_schedule(
        actor=None, application=application, draws=_weekly(TODAY + datetime.timedelta(days=50), ["1000", "1200.50"])
    )
    services.application_attach_document(
        actor=None, application=application, kind=DocumentKind.SAFETY_PLAN, note="Signed copy, binder tab 9"
    )
    text = " ".join(pdf_text(application_package_pdf(application, today=TODAY)).split())
    assert application.organisation.name in text
    assert "$1,200.50" in text and "$1,100.25 of $60,000.00" in text  # cumulative prizes: 500 + 600.25
    assert "Copy of your safety and security plan" in text and "Signed copy, binder tab 9" in text
    assert "Copy of Municipal notification" in text and "MISSING" in text
    assert f"{TODAY + datetime.timedelta(days=42):%Y-%m-%d}" in text


def test_the_package_is_kept_with_the_licence_granted_on_it(settings, tmp_path):  # R:L7
    settings.MEDIA_ROOT = tmp_path
    application = _application()
    with pytest.raises(LicensingError, match="Submit the application"):
        services.application_record_licence(
            actor=None, application=application, licence=_licence(application.organisation)
        )
    _complete(application, first_draw=TODAY + datetime.timedelta(days=7))
    services.application_submit(actor=None, application=application, today=TODAY)
    licence = Licence.objects.get(number="L-1")
    other = _licence(OrganisationFactory(), number="L-2")
    with pytest.raises(LicensingError, match="belongs to"):
        services.application_record_licence(actor=None, application=application, licence=other)
    services.application_record_licence(actor=None, application=application, licence=licence)
    assert licence.application.documents.count() == len(application.required_documents())
