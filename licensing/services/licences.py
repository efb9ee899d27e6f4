"""Writes for organisations and licences. Each one validates, locks what it
changes, writes, and appends to the audit trail in one transaction."""

import datetime
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import format_money_here, parse_amount
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
from licensing.terms import licence_expires_on, licence_is_expired

DEFAULT_FEE_RATE_PERCENT = {
    AuthorityKind.AGCO: Decimal("1.00"),
    AuthorityKind.MUNICIPALITY: Decimal("3.00"),
    AuthorityKind.FIRST_NATION: Decimal("3.00"),
}


@transaction.atomic
def organisation_get_or_create(*, actor, name: str, **details) -> tuple[Organisation, bool]:
    name = (name or "").strip()
    if not name:
        raise LicensingError(gettext("Give the organisation's name."))
    organisation, created = Organisation.objects.get_or_create(name=name, defaults=details)
    if created:
        audit_record(
            actor=actor, action="licensing.organisation.create", obj=organisation, data={"name": name, **details}
        )
    return organisation, created


def default_authority_name(authority_kind: str) -> str:
    """The authority's name when none is typed: its kind, stored in the site's
    language whatever the language of the person typing (a name on record)."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(AuthorityKind(authority_kind).label)


def check_authority_allows(*, authority_kind: str, sales_channel: str, prize_board: Decimal) -> None:
    """RULES L2: what a municipality or First Nation may license."""
    if authority_kind not in AuthorityKind.values:
        raise LicensingError(
            gettext("Unknown issuing authority %(authority_kind)s: choose AGCO, municipality or First Nation.")
            % {"authority_kind": repr(authority_kind)}
        )
    if sales_channel not in SalesChannel.values:
        raise LicensingError(
            gettext(
                "Unknown sales channel %(sales_channel)s: choose paper roll, paper stub, electronic "
                "in-person or online."
            )
            % {"sales_channel": repr(sales_channel)}
        )
    if authority_kind == AuthorityKind.AGCO:
        return
    label = AuthorityKind(authority_kind).label.lower()
    if sales_channel not in SalesChannel.paper():  # R:L2
        raise LicensingError(
            gettext(
                "A %(label)s may license paper raffles only; electronic and online raffles are licensed by the AGCO."
            )
            % {"label": label},
            rule="L2",
        )
    if prize_board > LOCAL_AUTHORITY_PRIZE_BOARD_CAP:  # R:L2
        raise LicensingError(
            gettext(
                "A %(label)s may license a prize board of at most $50,000.00; this one is "
                "%(prize_board)s. Apply to the AGCO instead."
            )
            % {"label": label, "prize_board": format_money_here(prize_board)},
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
        raise LicensingError(gettext("Give the licence number exactly as printed on the licence."))
    if has_control_characters(number) or has_control_characters(authority_name or ""):  # printed on PDFs and CSVs
        raise LicensingError(
            gettext("Type the licence number and the authority on one line, without control characters.")
        )
    if Licence.objects.filter(number=number).exists():
        raise LicensingError(gettext("Licence %(number)s is already recorded.") % {"number": number})
    prize_board = parse_amount(prize_board, what=gettext("The prize board"), allow_zero=False)
    check_authority_allows(authority_kind=authority_kind, sales_channel=sales_channel, prize_board=prize_board)
    if fee_rate_percent is None:
        fee_rate_percent = DEFAULT_FEE_RATE_PERCENT[authority_kind]
    fee_rate_percent = parse_amount(fee_rate_percent, what=gettext("The fee rate"))
    if fee_rate_percent > Decimal("3"):  # R:L9
        raise LicensingError(gettext("The licence fee rate cannot be more than 3% of the prize board."), rule="L9")
    if expires_on <= issued_on:
        raise LicensingError(gettext("The licence must expire after the day it is issued."))
    eligibility_check(organisation=organisation, today=issued_on)  # R:L1
    licence = Licence(
        organisation=organisation,
        number=number,
        authority_kind=authority_kind,
        authority_name=(authority_name or "").strip() or default_authority_name(authority_kind),
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


def check_not_expired(licence: Licence, today: datetime.date | None = None) -> None:
    """R:L8 an expired licence (by the expiry in force, amendments included) may not be amended or cancelled."""
    today = today or timezone.localdate()
    if licence_is_expired(licence, today):
        raise LicensingError(
            gettext(
                "Licence %(number)s expired on %(licence_expires_on)s; an expired licence can no longer be "
                "amended or cancelled."
            )
            % {"number": licence.number, "licence_expires_on": format(licence_expires_on(licence, today), "%Y-%m-%d")},
            rule="L8",
        )


@transaction.atomic
def licence_cancel(*, actor, licence: Licence, reason: str, today=None) -> Licence:
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    check_not_expired(licence, today)  # R:L8
    if licence.status != LicenceStatus.ACTIVE:
        raise LicensingError(
            gettext("Licence %(number)s is already %(lower)s.")
            % {"number": licence.number, "lower": licence.get_status_display().lower()}
        )
    if not (reason or "").strip():
        raise LicensingError(gettext("Say why the licence is cancelled; the regulator will ask."))
    licence.status = LicenceStatus.CANCELLED
    licence.concluded_at = timezone.now()  # R:R5 when it ended: the final report is due 30 days after
    licence.save(update_fields=["status", "concluded_at"])
    audit_record(actor=actor, action="licensing.licence.cancel", obj=licence, data={"reason": reason})
    return licence
