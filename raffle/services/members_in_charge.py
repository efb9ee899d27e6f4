"""The two bona fide members in charge of each draw (RULES L13): named before
the draw's sales close, each an active member in charge of the organisation,
18 or over with their date of birth recorded."""

from django.db import transaction
from django.utils.translation import gettext as _

from core.audit import audit_record
from licensing.models import BonaFideMember
from licensing.services.members import adults_in_charge, check_member_may_act
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState
from raffle.services import draw_machine

# States in which a draw's members in charge may still be named: before its sales close.
NAMING_STATES = (DrawState.SCHEDULED, DrawState.SELLING)


def _member(member_or_id, *, draw: Draw) -> BonaFideMember:
    pk = getattr(member_or_id, "pk", member_or_id)
    member = BonaFideMember.objects.filter(pk=pk).first() if pk else None
    organisation = draw.event.licence.organisation
    if member is None or member.organisation_id != organisation.pk or not member.is_active:
        raise RaffleError(
            _("Each member in charge of draw %(number)s must be an active bona fide member of %(organisation)s.")
            % {"number": draw.number, "organisation": organisation},
            rule="L13",
        )
    if not member.is_in_charge:
        raise RaffleError(
            _(
                "%(name)s is not a member in charge of the lottery; an administrator puts a member in charge "
                "(with their date of birth) before they can be named for a draw."
            )
            % {"name": member.full_name},
            rule="L13",
        )
    check_member_may_act(member, role=_("be a member in charge of draw %(number)s") % {"number": draw.number})
    return member


@transaction.atomic
def draw_name_members_in_charge(*, actor, draw: Draw, first, second) -> Draw:
    """R:L13 name the draw's two members in charge, before its sales close:
    two different people, each an active member in charge aged 18 or over."""
    event, draw = draw_machine.lock(draw)
    if draw.state not in NAMING_STATES:
        raise RaffleError(
            _("Sales of draw %(number)s are closed: its members in charge were named before, and stay as named.")
            % {"number": draw.number},
            rule="L13",
        )
    if not first or not second:
        raise RaffleError(_("Name two members in charge of draw %(number)s.") % {"number": draw.number}, rule="L13")
    one, two = _member(first, draw=draw), _member(second, draw=draw)
    if one.pk == two.pk or one.user_id == two.user_id:
        raise RaffleError(
            _("A draw is run by two different members in charge; %(name)s is named twice.") % {"name": one.full_name},
            rule="L13",
        )
    draw.member_in_charge, draw.second_member_in_charge = one, two
    draw.save(update_fields=["member_in_charge", "second_member_in_charge"])
    audit_record(
        actor=actor,
        action="raffle.draw.name_members_in_charge",
        obj=draw,
        data={"number": draw.number, "members_in_charge": [one.full_name, two.full_name]},
    )
    return draw


def members_in_charge_problem(draw: Draw, *, available: int | None = None) -> str:
    """What stops the draw's sales from closing for want of its members in
    charge (R:L13), in the words the wizard shows at its first step; "" when
    nothing does. An imported draw is history, its members named elsewhere.
    `available`: the organisation's members in charge aged 18 or over, when
    the caller has counted them already."""
    if draw.is_imported or draw.members_in_charge_named:
        return ""
    if available is None:
        available = adults_in_charge(draw.event.licence.organisation_id).count()
    if available < 2:
        return _(
            "Draw %(number)s needs two members in charge, aged 18 or over, before its sales close, and "
            "%(organisation)s has %(count)s recorded. An administrator records the members' dates of birth "
            "and puts two of them in charge (Administration, Bona fide members), then you name them here."
        ) % {"number": draw.number, "organisation": draw.event.licence.organisation, "count": available}
    return _(
        "Draw %(number)s has no members in charge yet: name its two members in charge (aged 18 or over) "
        "before its sales close."
    ) % {"number": draw.number}


def check_members_in_charge(draw: Draw) -> None:
    """R:L13 refuse to close the draw's sales until its two members in charge are named."""
    problem = members_in_charge_problem(draw)
    if problem:
        raise RaffleError(problem, rule="L13")
