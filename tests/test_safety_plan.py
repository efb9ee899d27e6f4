"""The safety and security plan as a guided document (L4, L7): thresholds with
control measures, versions kept with applications and amendments, and the
dashboard's warning when the jackpot forecast reaches the next threshold."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.pdf import pdf_text
from licensing import services
from licensing.errors import LicensingError
from licensing.models import AmendmentKind, ApplicantKind, AuthorityKind, SafetyPlan, SalesChannel
from licensing.package import application_package_pdf
from raffle.selectors.safety import jackpot_forecast, safety_warning
from tests.factories import LicenceFactory, OrganisationFactory, event_with_closed_draws, user_with_role

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _threshold(jackpot, **overrides):
    row = {
        "jackpot_from": jackpot,
        "expected_attendance": 300,
        "volunteers": 8,
        "police_security": "Two paid-duty officers",
        "venue_capacity": "Hall holds 400; overflow to the arena with a video feed",
        "traffic": "Volunteers direct parking; OPP patrol on Main St",
        "cash_handling": "Counted by two members in the locked office; bank courier",
        "deposit_timing": "Next business morning",
    }
    row.update(overrides)
    return row


def _plan(organisation, *jackpots):
    return services.safety_plan_create(
        actor=None,
        organisation=organisation,
        venue="Legion Hall, 1 Main St",
        landlord_consent="Letter of the Legion branch president",
        thresholds=[_threshold(j) for j in jackpots],
    )


def test_every_threshold_says_every_control_measure():  # R:L4
    organisation = OrganisationFactory()
    with pytest.raises(LicensingError, match="how the money from ticket sales is secured and transported") as refused:
        services.safety_plan_create(
            actor=None,
            organisation=organisation,
            venue="Legion Hall",
            landlord_consent="Letter",
            thresholds=[_threshold("10000", cash_handling=" ")],
        )
    assert refused.value.rule == "L4"
    assert not SafetyPlan.objects.exists()


def test_each_save_is_a_new_version():  # R:L4
    organisation = OrganisationFactory()
    first = _plan(organisation, "10000")
    second = _plan(organisation, "10000", "50000")
    assert (first.version, second.version) == (1, 2)
    assert [t.jackpot_from for t in second.thresholds.all()] == [Decimal("10000.00"), Decimal("50000.00")]
    assert first.thresholds.count() == 1  # the earlier version is kept as filed


def test_the_application_keeps_the_plan_version_and_the_package_shows_it(settings, tmp_path):  # R:L4 R:L7
    settings.MEDIA_ROOT = tmp_path
    organisation = OrganisationFactory()
    application = services.application_create(
        actor=None,
        organisation=organisation,
        applicant_kind=ApplicantKind.FIRST_TIME,
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="250000",
    )
    plan = _plan(organisation, "25000", "100000")
    services.application_attach_safety_plan(actor=None, application=application, plan=plan)
    _plan(organisation, "30000")  # a later version does not change the one filed
    application.refresh_from_db()
    row = next(r for r in services.application_checklist(application) if r["kind"] == "safety_plan")
    assert row["attached"] and row["plan"].version == 1
    text = " ".join(pdf_text(application_package_pdf(application, today=TODAY)).split())
    assert "Copy of your safety and security plan Safety and security plan, version 1" in text
    assert "$25,000.00" in text and "$100,000.00" in text and "Two paid-duty officers" in text


def test_an_amendment_keeps_the_plan_version_in_force_when_requested():  # R:L4
    licence = LicenceFactory()
    _plan(licence.organisation, "25000")
    latest = _plan(licence.organisation, "25000", "75000")
    amendment = services.licence_amend(
        actor=None,
        licence=licence,
        kind=AmendmentKind.PRIZE_BOARD,
        new_prize_board="2000000",
        notice_given_on=TODAY,
        effective_on=TODAY + datetime.timedelta(days=14),
        signed_by=["Ana Roy"],
        letterhead_note="Binder",
        today=TODAY,
    )
    assert amendment.safety_plan == latest


def test_the_dashboard_warns_when_the_jackpot_forecast_crosses_the_next_threshold(client, staff_user):  # R:L4
    event, _ = event_with_closed_draws(["1000", "1000"], actor=staff_user)
    # Each draw puts 30% into the jackpot: $600 now, $900 forecast for the next draw.
    assert (event.jackpot, jackpot_forecast(event)) == (Decimal("600.00"), Decimal("900.00"))
    _plan(event.licence.organisation, "500", "1000")
    assert safety_warning(event) is None  # the next threshold ($1,000) is beyond the forecast
    _plan(event.licence.organisation, "500", "850", "1000")
    warning = safety_warning(event)
    assert warning["threshold"].jackpot_from == Decimal("850.00") and warning["plan"].version == 2
    client.force_login(user_with_role(roles.TREASURER))
    page = " ".join(client.get(reverse("event_dashboard", args=[event.pk])).content.decode().split())
    assert "crosses the next threshold of the safety and security plan (version 2): from $850.00" in page
    assert "Two paid-duty officers" in page


def test_the_guided_plan_is_written_through_its_page(client):  # R:L4
    organisation = OrganisationFactory()
    client.force_login(user_with_role(roles.ADMINISTRATOR))
    url = reverse("safety_plan_edit", args=[organisation.pk])
    data = {"venue": "Legion Hall", "landlord_consent": "Letter", "t-TOTAL_FORMS": "3", "t-INITIAL_FORMS": "0"}
    data.update({f"t-0-{key}": value for key, value in _threshold("20000").items()})
    response = client.post(url, data)
    assert response.status_code == 302
    plan = SafetyPlan.objects.get(organisation=organisation)
    assert plan.version == 1 and plan.thresholds.get().volunteers == 8
    assert "Two paid-duty officers" in client.get(url).content.decode()
