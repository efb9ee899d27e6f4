"""Postponing a draw (RULES D9): the staff page that records the reason, the
new date and time and the notice given to the licensing authority."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core import roles
from core.errors import DomainError
from core.scope import own
from raffle import selectors, services
from raffle.forms import PostponementForm
from raffle.models import BEFORE_WINNING_TICKET

# Who decides a postponement and tells the authority; the auditor reads.
POSTPONERS = (roles.DRAW_STAFF, roles.TREASURER, roles.ADMINISTRATOR)


@roles.role_required(*POSTPONERS, roles.AUDITOR)
def draw_postpone(request, draw_id: int):
    draw = own(request, selectors.draws_for_night(), pk=draw_id)
    can_postpone = roles.user_has_role(request.user, *POSTPONERS, organisation=draw.event.licence.organisation_id)
    form = PostponementForm(request.POST or None)
    if request.method == "POST":
        if not can_postpone:
            raise PermissionDenied
        if form.is_valid():
            try:
                postponement = services.draw_postpone(actor=request.user, draw=draw, **form.cleaned_data)
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                messages.success(
                    request,
                    _("Draw %(number)s is postponed to %(when)s; the public board shows the new time.")
                    % {"number": draw.number, "when": services.advertised(postponement.postponed_to)},
                )
                return redirect("event_dashboard", event_id=draw.event_id)
    return render(
        request,
        "raffle/postpone.html",
        {
            "draw": draw,
            "event": draw.event,
            "form": form if can_postpone and draw.state in BEFORE_WINNING_TICKET else None,
            "postponements": draw.postponements.select_related("recorded_by"),
        },
        status=400 if form.errors else 200,
    )
