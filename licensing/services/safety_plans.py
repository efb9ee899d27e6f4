"""The safety and security plan as a guided document (RULES L4, L7): the
thresholds the organisation sets and the control measures for each. Each save
is a new version; applications and amendments keep the version filed."""

from decimal import Decimal

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import format_money_here, parse_amount
from licensing.errors import LicensingError
from licensing.models import Application, Organisation, SafetyPlan, SafetyThreshold
from licensing.services.applications import lock_draft

# What each threshold must say, in the guide's words (Step 1 "Security", Step 3 "Control measures").
MEASURES = {
    "police_security": "the police and security present",
    "venue_capacity": "the venue's capacity and what happens when it overflows",
    "traffic": "how people get into and out of the event (traffic and patrol plans)",
    "cash_handling": "how the money from ticket sales is secured and transported",
    "deposit_timing": "when the money is deposited into the lottery trust account",
}


def _threshold(index: int, row: dict) -> SafetyThreshold:
    jackpot = parse_amount(
        row.get("jackpot_from"), what=gettext("The jackpot of threshold %(index)s") % {"index": index}
    )
    try:
        attendance = int(row.get("expected_attendance") or 0)
        volunteers = int(row.get("volunteers") or 0)
    except (TypeError, ValueError):
        raise LicensingError(
            gettext("Threshold %(index)s: give the expected attendance and volunteers as numbers.") % {"index": index}
        ) from None
    if attendance <= 0 or volunteers <= 0:
        raise LicensingError(
            gettext("Threshold %(index)s: give the attendance you expect and the volunteers on duty.")
            % {"index": index}
        )
    missing = [what for name, what in MEASURES.items() if not (row.get(name) or "").strip()]
    if missing:
        raise LicensingError(
            gettext("Threshold %(index)s (jackpot from %(format_money)s): say %(missing)s.")
            % {"index": index, "format_money": format_money_here(jackpot), "missing": "; ".join(missing)},
            rule="L4",
        )
    return SafetyThreshold(
        jackpot_from=jackpot,
        expected_attendance=attendance,
        volunteers=volunteers,
        **{name: row[name].strip() for name in MEASURES},
    )


@transaction.atomic
def safety_plan_create(
    *, actor, organisation: Organisation, venue: str, landlord_consent: str, thresholds: list[dict], liquor_licence=""
) -> SafetyPlan:
    """R:L4 a new version of the organisation's plan: at least one threshold,
    each jackpot once, every control measure said for each."""
    organisation = Organisation.objects.select_for_update().get(pk=organisation.pk)
    venue, landlord_consent = (venue or "").strip(), (landlord_consent or "").strip()
    if not venue or not landlord_consent:
        raise LicensingError(gettext("Say where the draws are held and how the landlord consented to the event."))
    rows = [_threshold(index, row) for index, row in enumerate(thresholds or [], start=1)]
    if not rows:
        raise LicensingError(
            gettext("Set at least one threshold: from which jackpot, the attendance and the measures.")
        )
    jackpots = [row.jackpot_from for row in rows]
    if len(set(jackpots)) != len(jackpots):
        raise LicensingError(gettext("Each threshold needs its own jackpot amount."))
    version = (organisation.safety_plans.aggregate(last=Max("version"))["last"] or 0) + 1
    plan = SafetyPlan.objects.create(
        organisation=organisation,
        version=version,
        venue=venue,
        landlord_consent=landlord_consent,
        liquor_licence=(liquor_licence or "").strip(),
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    for row in rows:
        row.plan = plan
    SafetyThreshold.objects.bulk_create(sorted(rows, key=lambda row: row.jackpot_from))
    audit_record(
        actor=actor,
        action="licensing.safety_plan.create",
        obj=plan,
        data={"organisation": organisation.name, "version": version, "thresholds": [str(j) for j in sorted(jackpots)]},
    )
    return plan


@transaction.atomic
def application_attach_safety_plan(*, actor, application: Application, plan: SafetyPlan) -> Application:
    """R:L7 the checklist's safety and security plan: this version is filed."""
    application = lock_draft(application)
    if plan.organisation_id != application.organisation_id:
        raise LicensingError(gettext("Attach a safety and security plan of the applying organisation."))
    application.safety_plan = plan
    application.save(update_fields=["safety_plan"])
    audit_record(
        actor=actor, action="licensing.application.safety_plan", obj=application, data={"version": plan.version}
    )
    return application


def safety_threshold_warning(organisation: Organisation, *, jackpot: Decimal, forecast: Decimal) -> dict | None:
    """The next threshold of the latest plan above today's jackpot, when the
    jackpot forecast reaches it: its measures must be in place by then."""
    plan = SafetyPlan.objects.filter(organisation=organisation).first()
    if plan is None:
        return None
    upcoming = plan.thresholds.filter(jackpot_from__gt=jackpot).order_by("jackpot_from").first()
    if upcoming is None or forecast < upcoming.jackpot_from:
        return None
    return {"plan": plan, "threshold": upcoming, "jackpot": jackpot, "forecast": forecast}
