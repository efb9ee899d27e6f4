import datetime
from decimal import Decimal

import pytest
from django.db import IntegrityError
from django.utils import timezone

from licensing.errors import LicensingError
from licensing.models import AuthorityKind, Licence, LicenceStatus, SalesChannel
from licensing.services import licence_cancel, licence_create
from tests.factories import LicenceFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


def _create(**overrides):
    today = timezone.localdate()
    kwargs = dict(
        actor=None,
        organisation=OrganisationFactory(),
        number="M-1",
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Cobourg",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="50000.00",
        issued_on=today,
        expires_on=today + datetime.timedelta(days=365),
    )
    kwargs.update(overrides)
    return licence_create(**kwargs)


def test_a_municipal_licence_up_to_50000_is_accepted():  # R:L2
    licence = _create()
    assert licence.prize_board == Decimal("50000.00")
    assert licence.fee_rate_percent == Decimal("3.00")


@pytest.mark.parametrize("authority", [AuthorityKind.MUNICIPALITY, AuthorityKind.FIRST_NATION])
def test_a_local_licence_over_50000_is_refused(authority):  # R:L2
    with pytest.raises(LicensingError, match="at most \\$50,000.00.*AGCO"):
        _create(authority_kind=authority, prize_board="50000.01")
    assert not Licence.objects.exists()


@pytest.mark.parametrize("channel", [SalesChannel.ELECTRONIC, SalesChannel.ONLINE])
def test_a_local_licence_for_electronic_or_online_sales_is_refused(channel):  # R:L2 R:L5
    with pytest.raises(LicensingError, match="paper raffles only"):
        _create(sales_channel=channel, prize_board="1000")


def test_the_database_itself_refuses_a_municipal_licence_over_50000():  # R:L2
    with pytest.raises(IntegrityError):
        LicenceFactory(
            authority_kind=AuthorityKind.MUNICIPALITY,
            sales_channel=SalesChannel.PAPER_ROLL,
            prize_board=Decimal("75000"),
        )


def test_the_agco_licenses_electronic_events_of_any_size():  # R:L2
    licence = _create(
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.ELECTRONIC,
        prize_board="2500000",
    )
    assert licence.fee_rate_percent == Decimal("1.00")


def test_a_fee_rate_over_3_percent_is_refused():  # R:L9
    with pytest.raises(LicensingError, match="more than 3%"):
        _create(fee_rate_percent="3.5")


def test_a_duplicate_licence_number_is_refused():
    _create()
    with pytest.raises(LicensingError, match="already recorded"):
        _create()


def test_an_expired_licence_cannot_be_cancelled():  # R:L8
    licence = LicenceFactory(issued_on=datetime.date(2024, 1, 1), expires_on=datetime.date(2025, 1, 1))
    with pytest.raises(LicensingError, match="expired on 2025-01-01"):
        licence_cancel(actor=None, licence=licence, reason="moving on")
    licence.refresh_from_db()
    assert licence.status == LicenceStatus.ACTIVE


def test_a_current_licence_can_be_cancelled_with_a_reason():
    licence = LicenceFactory()
    with pytest.raises(LicensingError, match="Say why"):
        licence_cancel(actor=None, licence=licence, reason=" ")
    licence_cancel(actor=None, licence=licence, reason="Event abandoned")
    licence.refresh_from_db()
    assert licence.status == LicenceStatus.CANCELLED
