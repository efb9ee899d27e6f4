"""The public results page (RULES D10): every draw's winning ticket number and
prize once it is drawn, winners' names only with their written consent, and a
"did I win?" look-up for ticket holders, which for roll tickets is how a
holder learns to come forward. No sign-in; a flood of look-ups is refused."""

from django.conf import settings
from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from core import ratelimit, roles
from core.errors import DomainError
from core.scope import own
from raffle.forms.results import TicketCheckForm, WinnerConsentForm
from raffle.models import Draw, WinnerNameConsent
from raffle.selectors.results import public_results as select_public_results
from raffle.selectors.results import ticket_check
from raffle.services.results import winner_name_consent_record


@never_cache
def public_results(request, event_id: int):
    results = select_public_results(event_id)
    if results is None:
        raise Http404(_("No such raffle."))
    form = TicketCheckForm(request.GET if "ticket" in request.GET else None)
    check, error, status = None, "", 200
    if form.is_bound:
        allowed = ratelimit.allow(
            request,
            scope="ticket-check",
            limit=settings.TICKET_CHECKS_PER_WINDOW,
            window_seconds=settings.TICKET_CHECK_WINDOW_SECONDS,
        )
        if not allowed:
            status = 429
            error = _("Too many look-ups from your connection. Wait %(minutes)s minutes and try again.") % {
                "minutes": max(1, settings.TICKET_CHECK_WINDOW_SECONDS // 60)
            }
        elif form.is_valid():
            try:
                check = ticket_check(results["event"], form.cleaned_data["ticket"])
            except DomainError as refusal:
                error = str(refusal)
    return render(
        request,
        "raffle/results/public.html",
        {
            **results,
            "form": form,
            "check": check,
            "error": error,
            "can_record_consent": roles.user_has_role(
                request.user,
                roles.DRAW_STAFF,
                roles.TREASURER,
                roles.ADMINISTRATOR,
                organisation=results["event"].licence.organisation_id,
            ),
        },
        status=status,
    )


@roles.role_required(roles.DRAW_STAFF, roles.TREASURER, roles.ADMINISTRATOR)
def winner_consent(request, draw_id: int):
    draw = own(request, Draw.objects.select_related("event"), pk=draw_id)
    current = WinnerNameConsent.objects.filter(draw=draw).first()
    initial = {}
    if current is not None:
        initial = {
            "publish": current.publish,
            "name": current.published_name,
            "town": current.published_town,
            "consent_reference": current.written_consent_reference,
        }
    form = WinnerConsentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            winner_name_consent_record(actor=request.user, draw=draw, **form.cleaned_data)
        except DomainError as refusal:
            form.add_error(None, str(refusal))
        else:
            messages.success(
                request, _("Draw %(number)s: the winner's publication choice is recorded.") % {"number": draw.number}
            )
            return redirect("public_results", event_id=draw.event_id)
    return render(request, "raffle/results/winner_consent.html", {"draw": draw, "form": form, "current": current})
