"""The draw's next step as the staff wizard and the admin's step page perform
it, read from the one step table (`raffle.models.draw_steps.DRAW_STEPS`):
which form it asks for, which service it runs, what it says when done. Both
pages go through here, so they perform a step exactly the same way."""

from licensing.models import BonaFideMember
from raffle import forms, services
from raffle.forms import DestructionForm, PaperWinningTicketForm
from raffle.models import Draw, Step
from raffle.services.pool import draws_by_rng, draws_by_supplier


def variant(draw: Draw) -> str:
    """How the draw's winner is drawn: "imported" (another system's records),
    "rng" (electronic and online sales drawn by this software under the
    licence's approval, D5), "supplier" (electronic and online sales drawn by
    the registered supplier's system, D5) or "paper" (from a container, D3)."""
    if draw.is_imported:
        return "imported"
    if draws_by_supplier(draw):
        return "supplier"
    return "rng" if draws_by_rng(draw) else "paper"


def for_draw(draw: Draw, choice):
    """A table cell that may differ by variant: the one for this draw (a
    variant the cell does not name falls back to how the draw is drawn)."""
    if not isinstance(choice, dict):
        return choice
    kind = variant(draw)
    return choice[kind] if kind in choice else choice["rng" if draws_by_rng(draw) else "paper"]


def step_service(step: Step):
    return getattr(services, step.service)


def step_form_class(draw: Draw):
    step = draw.next_step
    name = for_draw(draw, step.form) if step is not None else None
    return getattr(forms, name) if name else None


def step_form(draw: Draw, data=None):
    form_class = step_form_class(draw)
    if form_class is None:
        return None
    if issubclass(form_class, DestructionForm):
        members = BonaFideMember.objects.filter(organisation_id=draw.event.licence.organisation_id, is_active=True)
        return form_class(data, members=members)
    return form_class(data)


def perform_step(step: Step, *, actor, draw: Draw, cleaned: dict) -> Draw:
    """Run the step's service with the form fields it takes (a field left
    empty is not passed: the service's default applies)."""
    values = {name: cleaned[name] for name in step.fields if cleaned.get(name) not in (None, "")}
    return step_service(step)(actor=actor, draw=draw, **values)


def perform_next_step(*, actor, draw: Draw, cleaned: dict) -> tuple[Draw, str]:
    """Run the service for the draw's next step; return the draw and what happened."""
    step = draw.next_step
    if step is None or step.to is None:
        return draw, "This draw is closed."
    draw = perform_step(step, actor=actor, draw=draw, cleaned=cleaned)
    return draw, step.done(draw)


def unclaimed_redraw_form(draw: Draw, data=None) -> PaperWinningTicketForm | None:
    """R:T8 the form of a re-draw after an unclaimed roll ticket: the serial
    drawn from the container typed twice, or nothing when the RNG draws."""
    return None if draws_by_rng(draw) else PaperWinningTicketForm(data)


def perform_unclaimed_redraw(*, actor, draw: Draw, cleaned: dict, expected_serial: str | None = None) -> str:
    selection = services.draw_redraw_unclaimed(
        actor=actor,
        draw=draw,
        serial=cleaned.get("serial", ""),
        serial_again=cleaned.get("serial_again"),
        expected_serial=expected_serial,
    )
    return (
        f"Draw {draw.number}: ticket {selection.ticket.serial} is drawn in place of the unclaimed one; "
        "the re-draw is logged."
    )
