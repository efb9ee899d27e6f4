import datetime

import pytest
from django.utils import timezone

from licensing.errors import LicensingError
from licensing.models import AmendmentStatus, AuthorityKind, Licence, LicenceAmendment, SalesChannel
from licensing.services import licence_amend_channel, licence_amendment_approve, licence_cancel
from licensing.terms import licence_channel_on
from tests.factories import LicenceFactory

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()
DAY = datetime.timedelta(days=1)


def _amend(licence, **overrides):
    kwargs = dict(
        actor=None,
        licence=licence,
        to_channel=SalesChannel.ELECTRONIC,
        notice_given_on=TODAY,
        effective_on=TODAY + 14 * DAY,
        signed_by=["Ana Roy"],
        letterhead_note="Signed letter on letterhead, binder tab 1",
        today=TODAY,
    )
    kwargs.update(overrides)
    return licence_amend_channel(**kwargs)


def test_an_agco_paper_licence_moves_to_electronic_after_notice_and_approval():  # R:L5
    licence = LicenceFactory(sales_channel=SalesChannel.PAPER_ROLL)
    amendment = _amend(licence)
    assert licence_channel_on(licence, TODAY + 14 * DAY) == SalesChannel.PAPER_ROLL  # not before approval
    licence_amendment_approve(actor=None, amendment=amendment, approved_on=TODAY + 3 * DAY, today=TODAY)
    assert licence_channel_on(licence, TODAY + 14 * DAY) == SalesChannel.ELECTRONIC  # from its effective day
    assert licence_channel_on(licence, TODAY + 13 * DAY) == SalesChannel.PAPER_ROLL  # not before
    assert Licence.objects.get(pk=licence.pk).sales_channel == SalesChannel.PAPER_ROLL  # the granted figure is kept
    assert LicenceAmendment.objects.get().status == AmendmentStatus.APPROVED


def test_less_than_two_weeks_notice_is_refused():  # R:L5
    licence = LicenceFactory()
    with pytest.raises(LicensingError, match="two weeks' written notice.*at the earliest"):
        _amend(licence, effective_on=TODAY + 13 * DAY)
    assert not LicenceAmendment.objects.exists()


def test_the_change_applies_to_later_draws_only():  # R:L5
    with pytest.raises(LicensingError, match="later draws only"):
        _amend(LicenceFactory(), notice_given_on=TODAY - 20 * DAY, effective_on=TODAY)


def test_paper_to_online_is_refused():  # R:L5
    with pytest.raises(LicensingError, match="cannot be amended to online"):
        _amend(LicenceFactory(), to_channel=SalesChannel.ONLINE)


def test_a_municipal_licence_cannot_be_amended_to_electronic():  # R:L5
    licence = LicenceFactory(
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Perth",
        prize_board="50000",
        sales_channel=SalesChannel.PAPER_ROLL,
    )
    with pytest.raises(LicensingError, match="municipal or First Nation licence cannot be amended"):
        _amend(licence)


def test_an_electronic_licence_has_no_channel_amendment():  # R:L5
    with pytest.raises(LicensingError, match="only amendment allowed"):
        _amend(LicenceFactory(sales_channel=SalesChannel.ELECTRONIC), to_channel=SalesChannel.PAPER_STUB)


def test_an_expired_licence_cannot_be_amended_or_cancelled():  # R:L8
    licence = LicenceFactory(issued_on=TODAY - 400 * DAY, expires_on=TODAY - DAY)
    with pytest.raises(LicensingError, match="expired .* can no longer be amended") as refused:
        _amend(licence)
    assert refused.value.rule == "L8"
    with pytest.raises(LicensingError, match="can no longer be amended or cancelled"):
        licence_cancel(actor=None, licence=licence, reason="Ending", today=TODAY)


def test_an_amendment_cannot_be_approved_once_the_licence_has_expired():  # R:L8
    licence = LicenceFactory(expires_on=TODAY + 30 * DAY)
    amendment = _amend(licence)
    with pytest.raises(LicensingError, match="expired"):
        licence_amendment_approve(actor=None, amendment=amendment, approved_on=TODAY + 2 * DAY, today=TODAY + 31 * DAY)
    assert LicenceAmendment.objects.get().status == AmendmentStatus.REQUESTED
    assert licence_channel_on(licence, TODAY + 14 * DAY) == licence.sales_channel
