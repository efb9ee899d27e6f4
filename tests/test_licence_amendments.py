"""Amendments of every figure of a granted licence (L2, L3, L5, L8): a written
request signed by the application's signers, the authority's notice, nothing
changed before approval, the new figure from its effective date."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from licensing import services
from licensing.errors import LicensingError
from licensing.models import AmendmentKind, ApplicantKind, AuthorityKind, Licence, LicenceAmendment, SalesChannel
from licensing.terms import licence_prize_board_on, licence_terms_on
from raffle.errors import RaffleError
from raffle.rules_of_play import rules_of_play
from raffle.selectors import prize_board_forecast
from raffle.services import prize_board_check
from tests.factories import ADULT_BIRTHDAY, LicenceFactory, event_with_draw

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)
LETTER = {"signed_by": ["Ana Roy"], "letterhead_note": "Signed letter on letterhead, binder tab 1"}


def _amend(licence, kind, *, today=TODAY, **fields):
    kwargs = dict(notice_given_on=today, effective_on=today + 14 * DAY, today=today, **LETTER)
    kwargs.update(fields)
    return services.licence_amend(actor=None, licence=licence, kind=kind, **kwargs)


def test_a_prize_board_amendment_changes_the_guard_only_from_its_effective_date():  # R:L3 R:L5
    event = event_with_draw(licence=LicenceFactory(prize_board=Decimal("1000.00")))
    amendment = _amend(event.licence, AmendmentKind.PRIZE_BOARD, new_prize_board="5000")
    services.licence_amendment_approve(actor=None, amendment=amendment, approved_on=TODAY, reference="AGCO-77")
    # Sales of $3,000 create $1,500 of prizes: past $1,000, within $5,000.
    with pytest.raises(RaffleError, match=r"prize board of \$1,000.00") as refused:
        prize_board_check(event=event, extra_sales="3000", on=TODAY + 13 * DAY)
    assert refused.value.rule == "L3"
    assert prize_board_check(event=event, extra_sales="3000", on=TODAY + 14 * DAY) == Decimal("1500.00")
    assert Licence.objects.get(pk=event.licence.pk).prize_board == Decimal("1000.00")  # the granted figure is kept
    assert licence_prize_board_on(event.licence, TODAY + 20 * DAY) == Decimal("5000.00")
    assert LicenceAmendment.objects.get().approval_reference == "AGCO-77"


def test_an_unapproved_amendment_changes_nothing():  # R:L5
    event = event_with_draw(licence=LicenceFactory(prize_board=Decimal("1000.00")))
    for kind, fields in [
        (AmendmentKind.PRIZE_BOARD, {"new_prize_board": "5000"}),
        (AmendmentKind.DATES, {"new_expires_on": TODAY + 300 * DAY}),
        (AmendmentKind.DRAW_PLACE, {"new_draw_place": "Legion Hall, 1 Main St"}),
        (AmendmentKind.SCHEDULE, {"schedule": [(TODAY + 20 * DAY, "500")]}),
    ]:
        _amend(event.licence, kind, **fields)
    later = licence_terms_on(event.licence, TODAY + 30 * DAY)
    assert later.prize_board == Decimal("1000.00") and later.expires_on == event.licence.expires_on
    assert later.draw_place is None and later.schedule is None and later.applied == []
    with pytest.raises(RaffleError, match="prize board"):
        prize_board_check(event=event, extra_sales="3000", on=TODAY + 30 * DAY)


def test_an_expired_licence_refuses_an_amendment():  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 400 * DAY, expires_on=TODAY - DAY)
    with pytest.raises(LicensingError, match="expired .* can no longer be amended") as refused:
        _amend(licence, AmendmentKind.PRIZE_BOARD, new_prize_board="5000")
    assert refused.value.rule == "L8"
    assert not LicenceAmendment.objects.exists()


def test_the_written_request_is_signed_by_every_licence_application_signer(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    licence = LicenceFactory()
    application = services.application_create(
        actor=None,
        organisation=licence.organisation,
        applicant_kind=ApplicantKind.FIRST_TIME,
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="1000000",
    )
    for name in ("Ana Roy", "Ben Oak"):
        services.application_add_signer(
            actor=None, application=application, name=name, title="Director", date_of_birth=ADULT_BIRTHDAY
        )
    application.status, application.submitted_on, application.licence = "submitted", TODAY, licence
    application.save()
    with pytest.raises(LicensingError, match="every Licence Application signer; missing: Ben Oak"):
        _amend(licence, AmendmentKind.DRAW_PLACE, new_draw_place="Legion Hall")
    with pytest.raises(LicensingError, match="letterhead"):
        _amend(
            licence,
            AmendmentKind.DRAW_PLACE,
            new_draw_place="Legion Hall",
            signed_by=["Ana Roy", "Ben Oak"],
            letterhead_note="",
        )
    amendment = _amend(
        licence, AmendmentKind.DRAW_PLACE, new_draw_place="Legion Hall", signed_by=["Ana Roy", "Ben Oak"]
    )
    assert amendment.signed_by == ["Ana Roy", "Ben Oak"]


def test_the_agco_needs_two_weeks_notice_for_any_amendment():  # R:L5
    with pytest.raises(LicensingError, match="two weeks' written notice"):
        _amend(LicenceFactory(), AmendmentKind.PRIZE_BOARD, new_prize_board="5000", effective_on=TODAY + 13 * DAY)
    assert not LicenceAmendment.objects.exists()


def test_a_municipal_licence_cannot_be_amended_past_50000():  # R:L2
    licence = LicenceFactory(
        authority_kind=AuthorityKind.MUNICIPALITY, authority_name="Town of Perth", prize_board=Decimal("40000")
    )
    with pytest.raises(LicensingError, match="50,000") as refused:
        _amend(licence, AmendmentKind.PRIZE_BOARD, new_prize_board="60000", effective_on=TODAY + 2 * DAY)
    assert refused.value.rule == "L2"
    # A municipality sets its own notice; the request comes before the change.
    _amend(licence, AmendmentKind.PRIZE_BOARD, new_prize_board="50000", effective_on=TODAY + 2 * DAY)


def test_an_amended_sales_plan_must_fit_the_prize_board_in_force():  # R:L3
    licence = LicenceFactory(prize_board=Decimal("1000.00"))
    with pytest.raises(LicensingError, match="past the prize board") as refused:
        _amend(licence, AmendmentKind.SCHEDULE, schedule=[(TODAY + 20 * DAY, "1500"), (TODAY + 27 * DAY, "600")])
    assert refused.value.rule == "L3"
    amendment = _amend(
        licence, AmendmentKind.SCHEDULE, schedule=[(TODAY + 20 * DAY, "1500"), (TODAY + 27 * DAY, "400")]
    )
    services.licence_amendment_approve(actor=None, amendment=amendment, approved_on=TODAY)
    assert licence_terms_on(licence, TODAY + 13 * DAY).schedule is None
    assert licence_terms_on(licence, TODAY + 14 * DAY).schedule == [
        (TODAY + 20 * DAY, Decimal("1500.00")),
        (TODAY + 27 * DAY, Decimal("400.00")),
    ]


def test_the_rules_of_play_follow_approved_amendments_once_effective():  # R:L5 R:R4
    licence = LicenceFactory(prize_board=Decimal("1000.00"), issued_on=TODAY - 60 * DAY)
    event = event_with_draw(licence=licence, draw_place="Town Hall")
    past = TODAY - 30 * DAY  # requested and approved a month ago, effective a week ago
    for kind, fields in [
        (AmendmentKind.PRIZE_BOARD, {"new_prize_board": "5000"}),
        (AmendmentKind.DRAW_PLACE, {"new_draw_place": "Legion Hall, 1 Main St"}),
        (AmendmentKind.DATES, {"new_expires_on": licence.expires_on + 30 * DAY}),
    ]:
        amendment = _amend(licence, kind, today=past, effective_on=TODAY - 7 * DAY, **fields)
        services.licence_amendment_approve(actor=None, amendment=amendment, approved_on=past + DAY, today=past + DAY)
    pending = _amend(licence, AmendmentKind.PRIZE_BOARD, new_prize_board="9000")  # requested, not approved
    text = " ".join(p for s in rules_of_play(event)["sections"] for p in s.paragraphs)
    assert "the prize board is $5,000.00" in text and "$9,000.00" not in text
    assert "Legion Hall, 1 Main St" in text and "Town Hall" not in text
    assert f"{licence.expires_on + 30 * DAY:%B %-d, %Y}" in text
    assert pending.status == "requested"
    assert prize_board_forecast(event).prize_board == Decimal("5000.00")  # the dashboard's forecast follows too
