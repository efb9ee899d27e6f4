"""The guided safety and security plan (L4)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from core.errors import DomainError
from core.roles import ADMINISTRATOR, TREASURER, role_required
from core.scope import own
from licensing import services
from licensing.forms_safety import SafetyPlanForm, ThresholdFormSet
from licensing.models import Organisation, SafetyPlan


@role_required(ADMINISTRATOR, TREASURER)
def safety_plan_edit(request, organisation_id: int):
    organisation = own(request, Organisation, pk=organisation_id)
    current = SafetyPlan.objects.filter(organisation=organisation).prefetch_related("thresholds").first()
    initial = {"venue": current.venue, "landlord_consent": current.landlord_consent} if current else {}
    form = SafetyPlanForm(request.POST or None, initial=initial)
    thresholds = ThresholdFormSet(request.POST or None, prefix="t")
    if request.method == "POST" and form.is_valid() and thresholds.is_valid():
        rows = [row for row in thresholds.cleaned_data if row]
        try:
            plan = services.safety_plan_create(
                actor=request.user, organisation=organisation, thresholds=rows, **form.cleaned_data
            )
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request, gettext("Safety and security plan version %(version)s saved.") % {"version": plan.version}
            )
            return redirect("safety_plan_edit", organisation.pk)
    return render(
        request,
        "licensing/safety_plan.html",
        {"organisation": organisation, "plan": current, "form": form, "thresholds": thresholds},
    )
