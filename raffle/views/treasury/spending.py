"""Approved uses of net proceeds, expenses and donated prizes (R:L11)."""

from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.roles import role_required
from licensing import services as licensing_services
from licensing.models import (
    ApprovedUse,
    DonatedPrize,
    Expense,
    ExpenseCategory,
)
from raffle.forms import treasury as tf
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def spending(request, event_id: int):
    event = event_for(request, event_id)
    licence = event.licence
    return render(
        request,
        "treasury/spending.html",
        page_context(
            request,
            event,
            uses=ApprovedUse.objects.filter(licence=licence),
            expenses=Expense.objects.filter(licence=licence).select_related("approved_use"),
            donated=DonatedPrize.objects.filter(licence=licence),
            use_form=tf.ApprovedUseForm(),
            expense_form=tf.ExpenseForm(licence=licence),
            donated_form=tf.DonatedPrizeForm(),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def use_add(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.ApprovedUseForm(request.POST, request.FILES)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.approved_use_add(
            actor=request.user,
            licence=event.licence,
            description=d["description"],
            approved_on=d["approved_on"],
            is_amendment=d["is_amendment"],
            approval_reference=d["approval_reference"],
            approval_document=d["approval_document"],
        ),
        done=gettext("Approved use recorded."),
        back=reverse("treasury_spending", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def expense_add(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.ExpenseForm(request.POST, request.FILES, licence=event.licence)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.expense_record(
            actor=request.user,
            licence=event.licence,
            kind=d["kind"],
            approved_use=d["approved_use"],
            paid_on=d["paid_on"],
            amount=d["amount"],
            payee=d["payee"],
            description=d["description"],
            reference=d["reference"],
            category=d["category"] or ExpenseCategory.OTHER,
            cheque_image=d["cheque_image"],
            fee_period=d["fee_period"],
        ),
        done=gettext("Payment recorded."),
        back=reverse("treasury_spending", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def donated_add(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.DonatedPrizeForm(request.POST)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.donated_prize_record(
            actor=request.user,
            licence=event.licence,
            description=d["description"],
            donor=d["donor"],
            value=d["value"],
            received_on=d["received_on"],
        ),
        done=gettext("Donated prize recorded."),
        back=reverse("treasury_spending", args=[event.pk]),
    )
