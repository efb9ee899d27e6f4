"""Amending a licence's sales channel (RULES L5, L8)."""

import datetime

from django.db import transaction
from django.utils import timezone

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import (
    AMENDMENT_NOTICE_DAYS,
    AmendmentStatus,
    AuthorityKind,
    Licence,
    LicenceAmendment,
    LicenceStatus,
    SalesChannel,
)


def _check_amendable(licence: Licence, today: datetime.date) -> None:
    if licence.is_expired(today):  # R:L8
        raise LicensingError(
            f"Licence {licence.number} expired on {licence.expires_on:%Y-%m-%d}; an expired licence can "
            "no longer be amended or cancelled.",
            rule="L8",
        )
    if licence.status != LicenceStatus.ACTIVE:
        raise LicensingError(
            f"Licence {licence.number} is {licence.get_status_display().lower()}; only "
            "a licence in force can be amended."
        )


@transaction.atomic
def licence_amend_channel(
    *,
    actor,
    licence: Licence,
    to_channel: str,
    notice_given_on: datetime.date,
    effective_on: datetime.date,
    today: datetime.date | None = None,
) -> LicenceAmendment:
    """Request the one channel change the rules allow (L5): an AGCO paper
    licence to electronic in-person sales, for later draws, with two weeks'
    written notice. The change applies once approved."""
    today = today or timezone.localdate()
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    _check_amendable(licence, today)
    if to_channel == SalesChannel.ONLINE:  # R:L5
        raise LicensingError(
            "Online sales must be chosen before the event and used for every draw; a licence cannot be "
            "amended to online sales. Keep selling on paper (an AGCO licence may move to electronic "
            "in-person sales).",
            rule="L5",
        )
    if not licence.is_paper or to_channel != SalesChannel.ELECTRONIC:  # R:L5
        raise LicensingError(
            f"The only amendment allowed is from paper to electronic in-person sales; this licence sells "
            f"{licence.get_sales_channel_display().lower()}.",
            rule="L5",
        )
    if licence.authority_kind != AuthorityKind.AGCO:  # R:L5
        raise LicensingError(
            f"Licence {licence.number} was issued by {licence.authority_name}; a municipal or First Nation "
            "licence cannot be amended to electronic sales. Electronic raffles need an AGCO licence.",
            rule="L5",
        )
    if notice_given_on > today:
        raise LicensingError("The written notice cannot be dated in the future; record it once it is sent.")
    if effective_on <= today:  # R:L5 later draws only
        raise LicensingError("The amendment applies to later draws only: choose a day after today.", rule="L5")
    if (effective_on - notice_given_on).days < AMENDMENT_NOTICE_DAYS:  # R:L5
        earliest = notice_given_on + datetime.timedelta(days=AMENDMENT_NOTICE_DAYS)
        raise LicensingError(
            f"The AGCO needs two weeks' written notice: with notice given on {notice_given_on:%Y-%m-%d} "
            f"the change can take effect on {earliest:%Y-%m-%d} at the earliest.",
            rule="L5",
        )
    if effective_on > licence.expires_on:
        raise LicensingError(
            f"The licence expires on {licence.expires_on:%Y-%m-%d}, before the change would take effect."
        )
    if licence.amendments.filter(status=AmendmentStatus.REQUESTED).exists():
        raise LicensingError("An amendment of this licence is already awaiting approval.")
    amendment = LicenceAmendment.objects.create(
        licence=licence,
        from_channel=licence.sales_channel,
        to_channel=to_channel,
        notice_given_on=notice_given_on,
        effective_on=effective_on,
        requested_by=actor if actor is not None and actor.is_authenticated else None,
    )
    audit_record(
        actor=actor,
        action="licensing.licence.amend_request",
        obj=licence,
        data={
            "from": licence.sales_channel,
            "to": to_channel,
            "notice_given_on": notice_given_on,
            "effective_on": effective_on,
        },
    )
    return amendment


@transaction.atomic
def licence_amendment_approve(
    *, actor, amendment: LicenceAmendment, approved_on: datetime.date, today: datetime.date | None = None
) -> LicenceAmendment:
    """Record the AGCO's approval: the licence sells on the new channel from
    the amendment's effective day."""
    today = today or timezone.localdate()
    amendment = LicenceAmendment.objects.select_for_update().get(pk=amendment.pk)
    licence = Licence.objects.select_for_update().get(pk=amendment.licence_id)
    _check_amendable(licence, today)
    if amendment.status != AmendmentStatus.REQUESTED:
        raise LicensingError("This amendment was already approved.")
    if approved_on > amendment.effective_on or approved_on < amendment.notice_given_on:
        raise LicensingError(
            f"The approval must fall between the notice ({amendment.notice_given_on:%Y-%m-%d})"
            f" and the effective day ({amendment.effective_on:%Y-%m-%d}); after that, "
            "request a new effective day.",
            rule="L5",
        )
    amendment.status = AmendmentStatus.APPROVED
    amendment.approved_on = approved_on
    amendment.save(update_fields=["status", "approved_on"])
    licence.sales_channel = amendment.to_channel
    licence.save(update_fields=["sales_channel"])
    audit_record(
        actor=actor,
        action="licensing.licence.amend_approve",
        obj=licence,
        data={"to": amendment.to_channel, "approved_on": approved_on, "effective_on": amendment.effective_on},
    )
    return amendment
