"""Recording the Registrar's request for an audited financial statement and
its delivery (RULES R3)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import AuditedStatementRequest, Licence


@transaction.atomic
def audited_statement_request_record(
    *, actor, licence: Licence, requested_on: datetime.date, requested_by: str, reference: str = ""
) -> AuditedStatementRequest:
    """R:R3 the statement is due 120 days after the request; the deadline
    appears on the treasurer's deadlines and calendar feed."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    requested_by = (requested_by or "").strip()
    if not requested_by:
        raise LicensingError(gettext("Say who asked for the audited statement, e.g. the AGCO Registrar."), rule="R3")
    if requested_on > timezone.localdate():
        raise LicensingError(
            gettext("The request date cannot be in the future; use the date on the letter."), rule="R3"
        )
    if requested_on < licence.issued_on:
        raise LicensingError(
            gettext(
                "Licence %(number)s was issued on %(issued_on)s; a request for its audited statement cannot be older."
            )
            % {"number": licence.number, "issued_on": licence.issued_on},
            rule="R3",
        )
    request = AuditedStatementRequest.objects.create(
        licence=licence,
        requested_on=requested_on,
        requested_by=requested_by[:150],
        reference=(reference or "").strip()[:100],
        recorded_by=actor if getattr(actor, "pk", None) else None,
    )
    audit_record(
        actor=actor,
        action="licensing.audited_statement.request",
        obj=request,
        data={
            "licence": licence.number,
            "requested_on": requested_on,
            "requested_by": requested_by,
            "due_on": request.due_on,
        },
    )
    return request


@transaction.atomic
def audited_statement_deliver(
    *,
    actor,
    request: AuditedStatementRequest,
    delivered_on: datetime.date,
    audited_by: str,
    delivery_reference: str = "",
) -> AuditedStatementRequest:
    request = AuditedStatementRequest.objects.select_for_update().get(pk=request.pk)
    if request.delivered_on is not None:
        raise LicensingError(
            gettext("This audited statement was already delivered on %(delivered_on)s.")
            % {"delivered_on": request.delivered_on}
        )
    if delivered_on < request.requested_on:
        raise LicensingError(gettext("The statement cannot be delivered before it was requested."), rule="R3")
    if not (audited_by or "").strip():
        raise LicensingError(gettext("Name the public accountant who audited the statement."), rule="R3")
    request.delivered_on = delivered_on
    request.audited_by = audited_by.strip()[:150]
    request.delivery_reference = (delivery_reference or "").strip()[:100]
    request.save(update_fields=["delivered_on", "audited_by", "delivery_reference"])
    audit_record(
        actor=actor,
        action="licensing.audited_statement.deliver",
        obj=request,
        data={"delivered_on": delivered_on, "audited_by": request.audited_by, "late": delivered_on > request.due_on},
    )
    return request
