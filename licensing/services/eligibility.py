"""Recording an organisation's eligibility (RULES L1)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import CharitablePurpose, Eligibility, Organisation


@transaction.atomic
def eligibility_record(
    *,
    actor,
    organisation: Organisation,
    is_non_profit: bool,
    non_profit_evidence: str = "",
    located_in_ontario: bool,
    location_evidence: str = "",
    charitable_activity_since: datetime.date | None,
    activity_evidence: str = "",
    purpose: str,
    purpose_description: str = "",
) -> Eligibility:
    """Record (or re-record) the L1 assessment with its evidence. An
    organisation that falls short is still recorded, with what it lacks: the
    licence service is what refuses it."""
    organisation = Organisation.objects.select_for_update().get(pk=organisation.pk)
    if purpose and purpose not in CharitablePurpose.values:
        raise LicensingError(gettext("Choose the organisation's purpose from the list."))
    if charitable_activity_since and charitable_activity_since > timezone.localdate():
        raise LicensingError(gettext("The charitable activity cannot start in the future."))
    values = dict(
        is_non_profit=bool(is_non_profit),
        non_profit_evidence=(non_profit_evidence or "").strip(),
        located_in_ontario=bool(located_in_ontario),
        location_evidence=(location_evidence or "").strip(),
        charitable_activity_since=charitable_activity_since,
        activity_evidence=(activity_evidence or "").strip(),
        purpose=purpose or "",
        purpose_description=(purpose_description or "").strip(),
        assessed_by=actor if actor is not None and actor.is_authenticated else None,
        assessed_at=timezone.now(),
    )
    eligibility, _ = Eligibility.objects.update_or_create(organisation=organisation, defaults=values)
    audit_record(
        actor=actor,
        action="licensing.eligibility.record",
        obj=eligibility,
        data={
            **{k: v for k, v in values.items() if k not in ("assessed_by", "assessed_at")},
            "problems": eligibility.problems(),
        },
    )
    return eligibility


def eligibility_check(*, organisation: Organisation, today: datetime.date | None = None) -> None:
    """R:L1 refuse an organisation that is not shown to be eligible."""
    eligibility = Eligibility.objects.filter(organisation=organisation).first()
    if eligibility is None:
        raise LicensingError(
            gettext(
                "%(organisation)s has no eligibility assessment on file: record that it is a non-profit "
                "located in Ontario with a year of charitable activity and an eligible purpose, with the "
                "evidence, before it can be licensed."
            )
            % {"organisation": organisation},
            rule="L1",
        )
    problems = eligibility.problems(today)
    if problems:
        raise LicensingError(
            gettext("%(organisation)s cannot be licensed yet: %(problems)s.")
            % {"organisation": organisation, "problems": "; ".join(problems)},
            rule="L1",
        )
