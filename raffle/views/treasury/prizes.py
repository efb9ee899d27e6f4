"""Prize payments and unclaimed prizes with the attempts to reach the winner (R:P3, R:P5)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.roles import role_required
from raffle import services
from raffle.forms import treasury as tf
from raffle.models import Draw, MustGoTicket, PrizePayment, UnclaimedPrize
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def prizes(request, event_id: int):
    event = event_for(request, event_id)
    return render(
        request,
        "treasury/prizes.html",
        page_context(
            request,
            event,
            draws=Draw.objects.filter(event=event, state="closed").order_by("number"),
            payments=PrizePayment.objects.filter(draw__event=event).select_related("draw", "must_go_ticket"),
            # R:P7 a must-go draw's holders, each with their share and their own payments
            holders=MustGoTicket.objects.filter(draw__event=event)
            .select_related("draw", "envelope")
            .prefetch_related("payments")
            .order_by("draw__number", "sequence"),
            unclaimed=UnclaimedPrize.objects.filter(draw__event=event)
            .select_related("draw", "must_go_ticket")
            .prefetch_related("attempts"),
            payment_form=tf.PrizePaymentForm(event=event),
            unclaimed_form=tf.UnclaimedForm(event=event),
            attempt_form=tf.ContactAttemptForm(),
            today=timezone.localdate(),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_pay(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.PrizePaymentForm(request.POST, request.FILES, event=event)
    return write_and_back(
        request,
        form,
        lambda d: services.prize_payment_record(
            actor=request.user,
            draw=d["draw"],
            kind=d["kind"],
            method=d["method"],
            reference=d["reference"],
            paid_on=d["paid_on"],
            payee=d["payee"],
            cheque_image=d["cheque_image"],
            holder=d.get("holder"),
            amount=d.get("amount") or None,
        ),
        done=gettext("Payment recorded."),
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_unclaimed(request, event_id: int):
    event = event_for(request, event_id)
    form = tf.UnclaimedForm(request.POST, event=event)
    return write_and_back(
        request,
        form,
        lambda d: services.prize_mark_unclaimed(
            actor=request.user, draw=d["draw"], kind=d["kind"], holder=d.get("holder")
        ),
        done=gettext("Prize held in trust as unclaimed."),
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_attempt(request, event_id: int, prize_id: int):
    event = event_for(request, event_id)
    prize = get_object_or_404(UnclaimedPrize, pk=prize_id, draw__event=event)
    form = tf.ContactAttemptForm(request.POST)
    return write_and_back(
        request,
        form,
        lambda d: services.prize_log_contact_attempt(
            actor=request.user, prize=prize, attempted_on=d["attempted_on"], means=d["means"], outcome=d["outcome"]
        ),
        done=gettext("Attempt logged."),
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_to_proceeds(request, event_id: int, prize_id: int):
    event = event_for(request, event_id)
    prize = get_object_or_404(UnclaimedPrize, pk=prize_id, draw__event=event)
    try:
        services.prize_add_to_proceeds(actor=request.user, prize=prize)
        messages.success(request, gettext("The prize joins the gross proceeds."))
    except DomainError as error:
        messages.error(request, str(error))
    return redirect(reverse("treasury_prizes", args=[event.pk]))
