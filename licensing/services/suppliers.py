"""The electronic raffle supplier a licence names (RULES D5, E4)."""

import datetime

from django.db import transaction
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import ExcludedPerson, ExclusionReason, Licence, Organisation

SUPPLIER_FIELDS = (
    "supplier_name",
    "supplier_registration_number",
    "supplier_system_name",
    "supplier_system_version",
    "system_approval_reference",
    "system_approval_on",
)


@transaction.atomic
def licence_record_supplier(
    *,
    actor,
    licence: Licence,
    supplier_name: str,
    supplier_registration_number: str,
    supplier_system_name: str,
    supplier_system_version: str,
    system_approval_reference: str = "",
    system_approval_on: datetime.date | None = None,
) -> Licence:
    """R:D5 record the AGCO-registered supplier whose electronic raffle system
    runs the licence's electronic or online sales and draws, and, when the
    regulator has approved it, the approval that lets this software draw with
    its own RNG and deal an electronic deck (E4)."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    values = {
        "supplier_name": (supplier_name or "").strip()[:150],
        "supplier_registration_number": (supplier_registration_number or "").strip()[:40],
        "supplier_system_name": (supplier_system_name or "").strip()[:150],
        "supplier_system_version": (supplier_system_version or "").strip()[:40],
        "system_approval_reference": (system_approval_reference or "").strip()[:120],
        "system_approval_on": system_approval_on,
    }
    missing = [name.replace("_", " ") for name in SUPPLIER_FIELDS[:4] if not values[name]]
    if missing:
        raise LicensingError(
            gettext(
                "Give the supplier's name, its AGCO registration number, and the system's name and version "
                "(missing: %(missing)s)."
            )
            % {"missing": ", ".join(missing)},
            rule="D5",
        )
    if bool(values["system_approval_reference"]) != bool(values["system_approval_on"]):
        raise LicensingError(gettext("Record the approval's reference and its date, or neither."), rule="D5")
    before = {name: getattr(licence, name) for name in SUPPLIER_FIELDS}
    for name, value in values.items():
        setattr(licence, name, value)
    licence.save(update_fields=list(SUPPLIER_FIELDS))
    audit_record(
        actor=actor,
        action="licensing.licence.record_supplier",
        obj=licence,
        data={"before": before, "after": values},
    )
    return licence


@transaction.atomic
def excluded_person_add(
    *, actor, organisation: Organisation, full_name: str, reason: str, contact: str = ""
) -> ExcludedPerson:
    """Put someone on the organisation's list of people the Rules of Play
    exclude from buying tickets; every sale and import checks it."""
    organisation = Organisation.objects.select_for_update().get(pk=organisation.pk)
    full_name = " ".join((full_name or "").split())[:150]
    if not full_name:
        raise LicensingError(gettext("Give the excluded person's full name."))
    if reason not in ExclusionReason.values:
        raise LicensingError(
            gettext("Say why the person is excluded: board member, draw volunteer, supplier staff, household.")
        )
    person = ExcludedPerson.objects.create(
        organisation=organisation,
        full_name=full_name,
        contact=(contact or "").strip()[:200],
        reason=reason,
        added_by=actor,
    )
    audit_record(
        actor=actor,
        action="licensing.excluded_person.add",
        obj=person,
        data={"organisation": organisation.name, "full_name": full_name, "reason": reason},
    )
    return person
