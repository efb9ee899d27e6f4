"""Eligibility, the application package and licence amendments (L1, L3-L8)."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext

from core.errors import DomainError
from core.pdf import pdf_response
from core.roles import ADMINISTRATOR, AUDITOR, TREASURER, role_required, user_has_role
from core.scope import organisations_of, own, scoped
from licensing import selectors, services
from licensing.forms import (
    AmendmentForm,
    ApplicationForm,
    ApprovalForm,
    DocumentForm,
    EligibilityForm,
    ScheduleForm,
    SignerForm,
)
from licensing.models import ApplicationStatus, Eligibility, Licence, LicenceAmendment, Organisation, SafetyPlan
from licensing.package import application_package_pdf
from licensing.terms import licence_terms_on

READERS = (ADMINISTRATOR, TREASURER, AUDITOR)
WRITERS = (ADMINISTRATOR, TREASURER)


def _run(request, service, success: str, **kwargs) -> bool:
    try:
        service(actor=request.user, **kwargs)
    except DomainError as error:
        messages.error(request, str(error))
        return False
    messages.success(request, success)
    return True


@role_required(*READERS)
def application_list(request):
    return render(
        request,
        "licensing/application_list.html",
        {
            "applications": scoped(selectors.application_list(), request.user, *READERS),
            "organisations": organisations_of(request.user, *READERS).select_related("eligibility").order_by("name"),
            "licences": selectors.licence_rows(licences=scoped(Licence.objects.all(), request.user, *READERS)),
            "form": ApplicationForm(organisations=organisations_of(request.user, *WRITERS)),
        },
    )


@role_required(*WRITERS)
def application_new(request):
    form = ApplicationForm(request.POST or None, organisations=organisations_of(request.user, *WRITERS))
    if request.method == "POST" and form.is_valid():
        try:
            application = services.application_create(actor=request.user, **form.cleaned_data)
        except DomainError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, gettext("Application started. Plan the draws and attach the documents."))
            return redirect("application_detail", application.pk)
    return render(request, "licensing/application_new.html", {"form": form})


@role_required(*READERS)
def application_detail(request, application_id: int):
    application = own(request, selectors.application_list(), pk=application_id)
    schedule_form = ScheduleForm(
        initial={"lines": "\n".join(f"{p.draw_on:%Y-%m-%d}, {p.max_sales}" for p in application.planned_draws.all())}
    )
    document_form = DocumentForm(application=application)
    signer_form = SignerForm()
    if request.method == "POST":
        if not user_has_role(request.user, *WRITERS, organisation=application.organisation_id):
            raise PermissionDenied
        action = request.POST.get("action")
        if action == "schedule":
            schedule_form = ScheduleForm(request.POST)
            if schedule_form.is_valid() and _run(
                request,
                services.application_set_schedule,
                "Draw schedule and sales plan saved.",
                application=application,
                draws=schedule_form.cleaned_data["lines"],
            ):
                return redirect("application_detail", application.pk)
        elif action == "document":
            document_form = DocumentForm(request.POST, request.FILES, application=application)
            if document_form.is_valid() and _run(
                request,
                services.application_attach_document,
                "Document attached.",
                application=application,
                **document_form.cleaned_data,
            ):
                return redirect("application_detail", application.pk)
        elif action == "signer":
            signer_form = SignerForm(request.POST)
            if signer_form.is_valid() and _run(
                request,
                services.application_add_signer,
                "Signer added.",
                application=application,
                **signer_form.cleaned_data,
            ):
                return redirect("application_detail", application.pk)
        elif action == "safety_plan":
            plan = get_object_or_404(SafetyPlan, pk=request.POST.get("plan"), organisation=application.organisation)
            if _run(
                request,
                services.application_attach_safety_plan,
                gettext("Safety and security plan version %(version)s attached.") % {"version": plan.version},
                application=application,
                plan=plan,
            ):
                return redirect("application_detail", application.pk)
        elif action == "licence":
            licence = get_object_or_404(Licence, pk=request.POST.get("licence"), organisation=application.organisation)
            if _run(
                request,
                services.application_record_licence,
                gettext("Package kept with licence %(number)s.") % {"number": licence.number},
                application=application,
                licence=licence,
            ):
                return redirect("application_detail", application.pk)
        elif action == "submit":
            if _run(request, services.application_submit, "Application submitted.", application=application):
                return redirect("application_detail", application.pk)
    context = selectors.application_summary(application)
    context.update(
        schedule_form=schedule_form,
        document_form=document_form,
        signer_form=signer_form,
        signers=application.signers.all(),
        latest_plan=SafetyPlan.objects.filter(organisation=application.organisation).first(),
        is_draft=application.status == ApplicationStatus.DRAFT,
        licences=Licence.objects.filter(organisation=application.organisation, application__isnull=True),
    )
    return render(request, "licensing/application_detail.html", context)


@role_required(*READERS)
def application_pdf(request, application_id: int):
    application = own(request, selectors.application_list(), pk=application_id)
    return pdf_response(application_package_pdf(application), f"application-{application.pk}-package.pdf")


@role_required(*WRITERS)
def eligibility_edit(request, organisation_id: int):
    organisation = own(request, Organisation, pk=organisation_id)
    current = Eligibility.objects.filter(organisation=organisation).first()
    initial = {f: getattr(current, f) for f in EligibilityForm.base_fields} if current else {}
    form = EligibilityForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        if _run(
            request,
            services.eligibility_record,
            "Eligibility recorded.",
            organisation=organisation,
            **form.cleaned_data,
        ):
            return redirect("eligibility_edit", organisation.pk)
    return render(
        request,
        "licensing/eligibility.html",
        {
            "organisation": organisation,
            "form": form,
            "eligibility": current,
            "problems": current.problems() if current else None,
        },
    )


@role_required(*WRITERS)
def licence_amend(request, licence_id: int):
    licence = own(request, selectors.licence_list(), pk=licence_id)
    form = AmendmentForm(request.POST or None, request.FILES or None)
    approval = ApprovalForm(request.POST or None, prefix="approve")
    if request.method == "POST" and request.POST.get("action") == "approve":
        amendment = get_object_or_404(LicenceAmendment, pk=request.POST.get("amendment"), licence=licence)
        if approval.is_valid() and _run(
            request,
            services.licence_amendment_approve,
            "Amendment approved.",
            amendment=amendment,
            **approval.cleaned_data,
        ):
            return redirect("licence_amend", licence.pk)
    elif request.method == "POST" and form.is_valid():
        if _run(
            request,
            services.licence_amend,
            "Amendment requested; nothing changes until you record the authority's approval.",
            licence=licence,
            **form.cleaned_data,
        ):
            return redirect("licence_amend", licence.pk)
    return render(
        request,
        "licensing/licence_amend.html",
        {
            "licence": licence,
            "form": form,
            "approval": ApprovalForm(prefix="approve"),
            "amendments": licence.amendments.prefetch_related("draws"),
            "terms": licence_terms_on(licence, timezone.localdate()),
        },
    )
