"""The draw's two members in charge (RULES L13), named from the draw-night
wizard before its sales close (`/draws/<id>/members/`, POST only)."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core import roles
from core.errors import DomainError
from core.scope import own
from licensing.services import adults_in_charge
from raffle import selectors, services
from raffle.forms import MembersInChargeForm
from raffle.models import Draw
from raffle.services.members_in_charge import NAMING_STATES


def members_in_charge_form(draw: Draw, data=None) -> MembersInChargeForm:
    """The form naming the draw's members in charge: its organisation's
    members in charge aged 18 or over (one query)."""
    members = list(
        adults_in_charge(draw.event.licence.organisation_id).order_by("full_name").values_list("pk", "full_name")
    )
    initial = {"first": draw.member_in_charge_id, "second": draw.second_member_in_charge_id}
    return MembersInChargeForm(data, members=members, initial=initial)


def members_in_charge_panel(draw: Draw) -> dict:
    """What the wizard shows about the draw's members in charge while they
    may still be named (R:L13): who they are, or what is missing, and the form."""
    if draw.is_imported or draw.state not in NAMING_STATES:
        return {}
    form = members_in_charge_form(draw)
    available = len(form.fields["first"].choices) - 1
    return {"members_problem": services.members_in_charge_problem(draw, available=available), "members_form": form}


@roles.role_required(roles.DRAW_STAFF, roles.ADMINISTRATOR)
@require_POST
def draw_members_in_charge(request, draw_id: int):
    draw = own(request, selectors.draws_for_night(), pk=draw_id)
    form = members_in_charge_form(draw, request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose two members in charge from the lists."))
        return redirect("draw_night", draw_id=draw.pk)
    try:
        draw = services.draw_name_members_in_charge(
            actor=request.user, draw=draw, first=form.cleaned_data["first"], second=form.cleaned_data["second"]
        )
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("Members in charge of draw %(number)s: %(first)s and %(second)s.")
            % {
                "number": draw.number,
                "first": draw.member_in_charge.full_name,
                "second": draw.second_member_in_charge.full_name,
            },
        )
    return redirect("draw_night", draw_id=draw.pk)
