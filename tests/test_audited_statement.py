"""An audited financial statement within 120 days of a request: RULES R3."""

import datetime

import pytest
from django.utils import timezone

from licensing.errors import LicensingError
from licensing.models import AuditedStatementRequest
from licensing.services import audited_statement_deliver, audited_statement_request_record
from raffle.reports.deadlines import event_deadlines

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def test_a_request_is_due_120_days_later_and_shows_on_the_deadlines(event, staff_user):  # R:R3
    asked = TODAY - datetime.timedelta(days=5)
    request = audited_statement_request_record(
        actor=staff_user, licence=event.licence, requested_on=asked, requested_by="AGCO Registrar", reference="REG-77"
    )
    assert request.due_on == asked + datetime.timedelta(days=120)
    due = [d for d in event_deadlines(event) if d.rule == "R3"]
    assert len(due) == 1 and due[0].on == request.due_on and not due[0].done
    audited_statement_deliver(actor=staff_user, request=request, delivered_on=TODAY, audited_by="Lee & Park CPA")
    assert [d for d in event_deadlines(event) if d.rule == "R3"][0].done


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"requested_by": " "}, "Say who asked"),
        ({"requested_on": TODAY + datetime.timedelta(days=1)}, "cannot be in the future"),
        ({"requested_on": datetime.date(2000, 1, 1)}, "cannot be older"),
    ],
)
def test_a_bad_request_is_refused_and_records_nothing(event, staff_user, kwargs, message):  # R:R3
    values = {"requested_on": TODAY, "requested_by": "AGCO Registrar", **kwargs}
    with pytest.raises(LicensingError, match=message):
        audited_statement_request_record(actor=staff_user, licence=event.licence, **values)
    assert not AuditedStatementRequest.objects.exists()


def test_a_statement_is_delivered_once_and_by_a_named_accountant(event, staff_user):  # R:R3
    request = audited_statement_request_record(
        actor=staff_user, licence=event.licence, requested_on=TODAY, requested_by="AGCO Registrar"
    )
    with pytest.raises(LicensingError, match="public accountant"):
        audited_statement_deliver(actor=staff_user, request=request, delivered_on=TODAY, audited_by="")
    audited_statement_deliver(actor=staff_user, request=request, delivered_on=TODAY, audited_by="Lee & Park CPA")
    with pytest.raises(LicensingError, match="already delivered"):
        audited_statement_deliver(actor=staff_user, request=request, delivered_on=TODAY, audited_by="Other")
