"""Bona fide members who run the lottery (RULES L13): a member is named
(put in charge, a draw's member in charge, a card's destroyer or verifier, a
trust account's signing officer) only once their date of birth is recorded,
and never under 18."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import BonaFideMember

ADULT_AGE = 18


def check_member_may_act(member: BonaFideMember, *, role: str, on: datetime.date | None = None) -> None:
    """R:L13 refuse, with a plain message, a member who is not known to be 18
    or over on `on` (today): `role` says what they were named to do, e.g.
    "verify the card's destruction"."""
    check_adult(member.full_name, member.date_of_birth, role=role, on=on)


def check_adult(name: str, date_of_birth: datetime.date | None, *, role: str, on: datetime.date | None = None) -> None:
    """R:L13 the person named (`name`, born on `date_of_birth`) is 18 or over on `on` (today)."""
    age = BonaFideMember(date_of_birth=date_of_birth).age_on(on or timezone.localdate())
    if age is None:
        raise LicensingError(
            _(
                "%(name)s's date of birth is not recorded, so they cannot %(role)s: only people aged "
                "%(adult)s or over run the lottery. Record it first."
            )
            % {"name": name, "role": role, "adult": ADULT_AGE},
            rule="L13",
        )
    if age < ADULT_AGE:
        raise LicensingError(
            _(
                "%(name)s is under %(adult)s, so they cannot %(role)s: only people aged %(adult)s or over "
                "run the lottery."
            )
            % {"name": name, "role": role, "adult": ADULT_AGE},
            rule="L13",
        )


def adults_in_charge(organisation_id: int, *, on: datetime.date | None = None):
    """R:L13 the organisation's active members in charge who are 18 or over."""
    day = on or timezone.localdate()
    try:
        born_by = day.replace(year=day.year - ADULT_AGE)
    except ValueError:  # 29 February
        born_by = day.replace(year=day.year - ADULT_AGE, day=28)
    return BonaFideMember.objects.filter(
        organisation_id=organisation_id, is_in_charge=True, is_active=True, date_of_birth__lte=born_by
    )


@transaction.atomic
def member_set_in_charge(*, actor, member: BonaFideMember, in_charge: bool = True) -> BonaFideMember:
    """Put a member in charge of the lottery (or take them out of it). R:L13
    only a member whose date of birth shows them 18 or over is put in charge."""
    member = BonaFideMember.objects.select_for_update().get(pk=member.pk)
    if in_charge:
        check_member_may_act(member, role=_("be put in charge of the lottery"))
    if member.is_in_charge != in_charge:
        member.is_in_charge = in_charge
        member.save(update_fields=["is_in_charge"])  # the member signals write the audit entry
    audit_record(actor=actor, action="licensing.member.set_in_charge", obj=member, data={"in_charge": in_charge})
    return member
