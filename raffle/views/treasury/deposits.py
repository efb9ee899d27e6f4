"""The trust account and its deposits (R:L10, R:L12): the account, its
signing officers, deposit slips and the draws they hold."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.roles import role_required
from licensing import services as licensing_services
from licensing.models import (
    Deposit,
)
from raffle import services
from raffle.forms import treasury as tf
from raffle.reports.reconciliation import deposit_allocations, draw_reconciliation, trust_account_of
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def deposits(request, event_id: int):
    event = event_for(request, event_id)
    account = trust_account_of(event)
    officers = account.signing_officers.all() if account else []
    return render(
        request,
        "treasury/deposits.html",
        page_context(
            request,
            event,
            reconciliation=draw_reconciliation(event),
            allocations=deposit_allocations(event),
            officers=officers,
            account_form=tf.TrustAccountForm(licence=event.licence),
            officers_form=tf.SigningOfficersForm(
                licence=event.licence, initial={"signing_officers": list(officers) if account else []}
            ),
            deposit_form=tf.DepositForm(event=event),
            coverage_form=tf.CoverageForm(event=event),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def account_open(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.TrustAccountForm(request.POST, licence=event.licence)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.trust_account_open(
            actor=request.user,
            licence=event.licence,
            bank_name=d["bank_name"],
            branch=d["branch"],
            account_number=d["account_number"],
            opened_on=d["opened_on"],
            deposit_within_days=d["deposit_within_days"],
            signing_officers=list(d["signing_officers"]),
        ),
        done=gettext("Trust account recorded."),
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def account_officers(request, event_id: int):
    event = event_for(request, event_id)
    account = trust_account_of(event)
    if account is None:
        raise Http404("No trust account yet.")
    form = tf.SigningOfficersForm(request.POST, licence=event.licence)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.trust_account_set_officers(
            actor=request.user, account=account, signing_officers=list(d["signing_officers"])
        ),
        done=gettext("Signing officers updated."),
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def deposit_add(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.DepositForm(request.POST, request.FILES, event=event)
    back = reverse("treasury_deposits", args=[event.pk])
    account = trust_account_of(event)
    if account is None:
        messages.error(request, gettext("Record the lottery trust account first (L10)."))
        return redirect(back)

    def call(d):
        services.deposit_record_for_draws(  # R:L12 all or nothing
            actor=request.user,
            account=account,
            slip_number=d["slip_number"],
            deposited_on=d["deposited_on"],
            amount=d["amount"],
            slip_scan=d["slip_scan"],
            amounts={d["draw"]: d["draw_amount"] or d["amount"]} if d["draw"] else None,
            seed=d["seed_amount"],  # R:P6
        )

    return write_and_back(request, form, call, done=gettext("Deposit recorded."), back=back)


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def deposit_cover(request, event_id: int, deposit_id: int):
    event = event_for(request, event_id)
    deposit = get_object_or_404(Deposit, pk=deposit_id, account__licence=event.licence)
    form = tf.CoverageForm(request.POST, event=event)
    return write_and_back(
        request,
        form,
        lambda d: services.deposit_cover_draws(actor=request.user, deposit=deposit, amounts={d["draw"]: d["amount"]}),
        done=gettext("Slip %(slip_number)s updated.") % {"slip_number": deposit.slip_number},
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*READ)
def deposit_slip(request, event_id: int, deposit_id: int):
    event = event_for(request, event_id)
    deposit = get_object_or_404(Deposit, pk=deposit_id, account__licence=event.licence)
    if not deposit.slip_scan:
        raise Http404("No scan of this slip.")
    response = HttpResponse(deposit.slip_scan.read(), content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{deposit.slip_scan.name.rsplit("/", 1)[-1]}"'
    return response
