"""The licensing pages and the exit-strategy page: roles, and each form through its service."""

import datetime

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.pdf import pdf_text
from licensing.models import Application, ApplicationStatus, Eligibility, Licence, LicenceAmendment
from raffle.models import Draw, Event, MustGoReason
from tests.factories import LicenceFactory, OrganisationFactory, UserFactory

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _login(client, role):
    user = UserFactory()
    user.groups.add(Group.objects.get_or_create(name=role)[0])
    client.force_login(user)
    return user


def test_licensing_pages_need_a_role(client):
    assert client.get(reverse("application_list")).status_code == 302  # to the login page
    _login(client, roles.SELLER)
    assert client.get(reverse("application_list")).status_code == 403
    assert client.get(reverse("application_new")).status_code == 403


def test_an_auditor_reads_but_cannot_start_an_application(client):
    _login(client, roles.AUDITOR)
    assert client.get(reverse("application_list")).status_code == 200
    assert client.get(reverse("application_new")).status_code == 403


def test_a_treasurer_records_eligibility_and_sees_what_is_missing(client):  # R:L1
    _login(client, roles.TREASURER)
    organisation = OrganisationFactory(eligible=False)
    url = reverse("eligibility_edit", args=[organisation.pk])
    response = client.post(
        url,
        {
            "is_non_profit": "on",
            "non_profit_evidence": "Letters patent 77",
            "located_in_ontario": "on",
            "location_evidence": "Perth ON",
            "charitable_activity_since": (TODAY - datetime.timedelta(days=100)).isoformat(),
            "activity_evidence": "First annual report",
            "purpose": "education",
        },
        follow=True,
    )
    assert response.status_code == 200
    assert "at least one year of charitable activity" in response.content.decode()
    assert not Eligibility.objects.get(organisation=organisation).is_eligible()


def test_an_application_is_prepared_and_submitted_through_the_pages(client, settings, tmp_path):  # R:L3 R:L7
    settings.MEDIA_ROOT = tmp_path
    _login(client, roles.ADMINISTRATOR)
    organisation = OrganisationFactory()
    response = client.post(
        reverse("application_new"),
        {
            "organisation": organisation.pk,
            "applicant_kind": "returning",
            "authority_kind": "municipality",
            "authority_name": "Town of Perth",
            "sales_channel": "paper_roll",
            "prize_board": "20000",
        },
    )
    application = Application.objects.get()
    assert response.status_code == 302
    url = reverse("application_detail", args=[application.pk])
    start = TODAY + datetime.timedelta(days=10)
    over = client.post(
        url, {"action": "schedule", "lines": f"{start}, 30000\n{start + datetime.timedelta(7)}, 20000"}, follow=True
    )
    assert "past the prize board" in over.content.decode()
    assert not application.planned_draws.exists()
    client.post(url, {"action": "schedule", "lines": f"{start}, 20000\n{start + datetime.timedelta(7)}, 20000"})
    assert application.planned_draws.count() == 2
    for kind in application.required_documents():
        client.post(url, {"action": "document", "kind": kind, "note": "In the binder"})
    client.post(url, {"action": "signer", "name": "Ana Roy", "title": "President", "date_of_birth": "1975-06-01"})
    client.post(url, {"action": "submit"})
    application.refresh_from_db()
    assert application.status == ApplicationStatus.SUBMITTED
    pdf = client.get(reverse("application_pdf", args=[application.pk]))
    assert pdf["Content-Type"] == "application/pdf"
    assert "Ana Roy" in pdf_text(pdf.content)


def test_an_amendment_is_requested_and_approved_through_the_page(client):  # R:L5
    _login(client, roles.ADMINISTRATOR)
    licence = LicenceFactory()
    url = reverse("licence_amend", args=[licence.pk])
    short = client.post(
        url,
        {
            "kind": "channel",
            "to_channel": "electronic",
            "signed_by": "Ana Roy",
            "letterhead_note": "Binder tab 1",
            "notice_given_on": TODAY.isoformat(),
            "effective_on": (TODAY + datetime.timedelta(days=5)).isoformat(),
        },
        follow=True,
    )
    assert "two weeks" in short.content.decode()
    client.post(
        url,
        {
            "kind": "channel",
            "to_channel": "electronic",
            "signed_by": "Ana Roy",
            "letterhead_note": "Binder tab 1",
            "notice_given_on": TODAY.isoformat(),
            "effective_on": (TODAY + datetime.timedelta(days=15)).isoformat(),
        },
    )
    amendment = LicenceAmendment.objects.get()
    client.post(url, {"action": "approve", "amendment": amendment.pk, "approve-approved_on": TODAY.isoformat()})
    licence.refresh_from_db()
    assert licence.sales_channel == "electronic"


def test_the_exit_strategy_page_shows_the_forecast_and_makes_the_final_draw(client, event):  # R:L3 R:P7
    _login(client, roles.DRAW_STAFF)
    url = reverse("exit_strategy", args=[event.pk])
    page = client.get(url).content.decode()
    assert "0.0%" in page and "prize board" in page
    client.post(url, {"action": "rules", "claim_period_days": "3"})
    assert Event.objects.get(pk=event.pk).claim_period_days == 7  # draw staff may not change the rules
    client.post(url, {"action": "must_go", "reason": MustGoReason.LICENCE_EXPIRY})
    assert Draw.objects.get(event=event, number=1).must_go


def test_the_admin_shows_an_ineligible_organisation_as_a_form_error(client):  # R:L1
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    organisation = OrganisationFactory(eligible=False)
    response = client.post(
        "/admin/licensing/licence/add/",
        {
            "number": "A-77",
            "organisation": organisation.pk,
            "authority_kind": "agco",
            "authority_name": "AGCO",
            "sales_channel": "electronic",
            "prize_board": "60000",
            "fee_rate_percent": "1.00",
            "issued_on": TODAY.isoformat(),
            "expires_on": (TODAY + datetime.timedelta(days=300)).isoformat(),
        },
    )
    assert response.status_code == 200
    assert "no eligibility assessment on file" in response.content.decode()
    assert not Licence.objects.exists()
