"""The draw's next step as the staff wizard and the admin's step page perform
it, read from the one step table (`raffle.models.draw_steps.DRAW_STEPS`):
which form it asks for, which service it runs, what it says when done. Both
pages go through here, so they perform a step exactly the same way."""

from licensing.models import BonaFideMember
from raffle import forms, services
from raffle.forms import DestructionForm
from raffle.models import Draw, Step
from raffle.models.draw_steps import step_choices
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


def chosen_step(draw: Draw, name: str = "") -> Step | None:
    """The step the staff take: the draw's next step, or the row of the same
    state they chose instead (R:T8 "the holder is not here") when `name`
    names one that applies now."""
    return next((s for s in step_choices(draw) if s.name == name), None) if name else draw.next_step


def step_form_class(draw: Draw, step: Step | None = None):
    step = step or draw.next_step
    name = for_draw(draw, step.form) if step is not None else None
    return getattr(forms, name) if name else None


def step_form(draw: Draw, data=None, step: Step | None = None):
    form_class = step_form_class(draw, step)
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


def perform_next_step(*, actor, draw: Draw, cleaned: dict, step: Step | None = None) -> tuple[Draw, str]:
    """Run the service for the draw's next step (or the `step` chosen instead,
    see `chosen_step`); return the draw and what happened."""
    step = step or draw.next_step
    if step is None or step.to is None:
        return draw, "This draw is closed."
    draw = perform_step(step, actor=actor, draw=draw, cleaned=cleaned)
    return draw, step.done(draw)
