"""Writes for organisations and licences. Each one validates, locks what it
changes, writes, and appends to the audit trail in one transaction."""

import datetime
from decimal import Decimal

from django.db import transaction
from django.utils import timezone

from core.audit import audit_record
from core.money import parse_amount
from core.text import has_control_characters
from licensing.errors import LicensingError
from licensing.models import (
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    Licence,
    LicenceStatus,
    Organisation,
    SalesChannel,
)
from licensing.services.eligibility import eligibility_check

DEFAULT_FEE_RATE_PERCENT = {
    AuthorityKind.AGCO: Decimal("1.00"),
    AuthorityKind.MUNICIPALITY: Decimal("3.00"),
    AuthorityKind.FIRST_NATION: Decimal("3.00"),
}


@transaction.atomic
def organisation_get_or_create(*, actor, name: str, **details) -> tuple[Organisation, bool]:
    name = (name or "").strip()
    if not name:
        raise LicensingError("Give the organisation's name.")
    organisation, created = Organisation.objects.get_or_create(name=name, defaults=details)
    if created:
        audit_record(
            actor=actor, action="licensing.organisation.create", obj=organisation, data={"name": name, **details}
        )
    return organisation, created


def check_authority_allows(*, authority_kind: str, sales_channel: str, prize_board: Decimal) -> None:
    """RULES L2: what a municipality or First Nation may license."""
    if authority_kind not in AuthorityKind.values:
        raise LicensingError(
            f"Unknown issuing authority {authority_kind!r}: choose AGCO, municipality or First Nation."
        )
    if sales_channel not in SalesChannel.values:
        raise LicensingError(
            f"Unknown sales channel {sales_channel!r}: choose paper roll, paper stub, electronic in-person or online."
        )
    if authority_kind == AuthorityKind.AGCO:
        return
    label = AuthorityKind(authority_kind).label.lower()
    if sales_channel not in SalesChannel.paper():  # R:L2
        raise LicensingError(
            f"A {label} may license paper raffles only; electronic and online raffles are licensed by the AGCO.",
            rule="L2",
        )
    if prize_board > LOCAL_AUTHORITY_PRIZE_BOARD_CAP:  # R:L2
        raise LicensingError(
            f"A {label} may license a prize board of at most $50,000.00; this one is "
            f"${prize_board:,.2f}. Apply to the AGCO instead.",
            rule="L2",
        )


@transaction.atomic
def licence_create(
    *,
    actor,
    organisation: Organisation,
    number: str,
    authority_kind: str,
    authority_name: str,
    sales_channel: str,
    prize_board,
    issued_on: datetime.date,
    expires_on: datetime.date,
    fee_rate_percent=None,
) -> Licence:
    number = (number or "").strip()
    if not number:
        raise LicensingError("Give the licence number exactly as printed on the licence.")
    if has_control_characters(number) or has_control_characters(authority_name or ""):  # printed on PDFs and CSVs
        raise LicensingError("Type the licence number and the authority on one line, without control characters.")
    if Licence.objects.filter(number=number).exists():
        raise LicensingError(f"Licence {number} is already recorded.")
    prize_board = parse_amount(prize_board, what="The prize board", allow_zero=False)
    check_authority_allows(authority_kind=authority_kind, sales_channel=sales_channel, prize_board=prize_board)
    if fee_rate_percent is None:
        fee_rate_percent = DEFAULT_FEE_RATE_PERCENT[authority_kind]
    fee_rate_percent = parse_amount(fee_rate_percent, what="The fee rate")
    if fee_rate_percent > Decimal("3"):  # R:L9
        raise LicensingError("The licence fee rate cannot be more than 3% of the prize board.", rule="L9")
    if expires_on <= issued_on:
        raise LicensingError("The licence must expire after the day it is issued.")
    eligibility_check(organisation=organisation, today=issued_on)  # R:L1
    licence = Licence(
        organisation=organisation,
        number=number,
        authority_kind=authority_kind,
        authority_name=(authority_name or "").strip() or AuthorityKind(authority_kind).label,
        sales_channel=sales_channel,
        prize_board=prize_board,
        fee_rate_percent=fee_rate_percent,
        issued_on=issued_on,
        expires_on=expires_on,
    )
    licence.full_clean()
    licence.save()
    audit_record(
        actor=actor,
        action="licensing.licence.create",
        obj=licence,
        data={
            "organisation": organisation.name,
            "authority_kind": authority_kind,
            "authority_name": licence.authority_name,
            "sales_channel": sales_channel,
            "prize_board": prize_board,
            "fee_rate_percent": fee_rate_percent,
            "issued_on": issued_on,
            "expires_on": expires_on,
        },
    )
    return licence


def licence_conclude(*, actor, licence: Licence, reason: str) -> Licence:
    """End the licence (RULES P4). Runs inside the caller's transaction; the
    caller has locked the licence."""
    if licence.status == LicenceStatus.CONCLUDED:
        return licence
    licence.status = LicenceStatus.CONCLUDED
    licence.concluded_at = timezone.now()
    licence.save(update_fields=["status", "concluded_at"])
    audit_record(actor=actor, action="licensing.licence.conclude", obj=licence, data={"reason": reason})
    return licence


@transaction.atomic
def licence_cancel(*, actor, licence: Licence, reason: str, today=None) -> Licence:
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if licence.is_expired(today):  # R:L8
        raise LicensingError(
            f"Licence {licence.number} expired on {licence.expires_on:%Y-%m-%d}; an expired "
            "licence can no longer be amended or cancelled.",
            rule="L8",
        )
    if licence.status != LicenceStatus.ACTIVE:
        raise LicensingError(f"Licence {licence.number} is already {licence.get_status_display().lower()}.")
    if not (reason or "").strip():
        raise LicensingError("Say why the licence is cancelled; the regulator will ask.")
    licence.status = LicenceStatus.CANCELLED
    licence.concluded_at = timezone.now()  # R:R5 when it ended: the final report is due 30 days after
    licence.save(update_fields=["status", "concluded_at"])
    audit_record(actor=actor, action="licensing.licence.cancel", obj=licence, data={"reason": reason})
    return licence
