"""The draw machine (RULES D8): how every step service of a draw moves it.

Every step service (`raffle/services/draws.py`, `draw_sales.py`,
`must_go.py`) runs in one order:

    event, draw, step = draw_machine.begin(draw, "close_sales")  # lock, then check
    ...                                                           # the step's own checks and writes
    return draw_machine.advance(actor=actor, draw=draw, step=step, data={...})

`begin` locks and re-reads the event then the draw (always in that order, so
two services never deadlock) and checks the move against the step table
(`raffle.models.draw_steps.DRAW_STEPS`, the one table of the draw's steps).
`advance` sets the state and the step's timestamp, saves with `update_fields`
and appends the audit entry `raffle.draw.<step name>`. A second request for a
step that was just done finds the draw already moved on and is refused: two
staff on two laptops cannot both succeed.
"""

from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from raffle.errors import EventConcluded, TransitionNotAllowed
from raffle.models import DRAW_ORDER, DRAW_STEPS, Draw, Event, EventStatus, Step
from raffle.models.draw_steps import STEPS_BY_NAME, next_step, step_choices
from raffle.services.ending import check_licence_allows_step


def lock(draw: Draw) -> tuple[Event, Draw]:
    """Lock and re-read the event and the draw, in that order."""
    event = Event.objects.select_for_update().get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    draw.event = event
    return event, draw


def begin(draw: Draw, name: str) -> tuple[Event, Draw, Step]:
    """Lock the event and the draw, then check that step `name` of the table
    is the draw's next move. Returns the locked event and draw and the step."""
    event, draw = lock(draw)
    return event, draw, check(event, draw, name)


def check(event: Event, draw: Draw, name: str) -> Step:
    """Refuse (changing nothing) unless the table's step `name` may be taken now."""
    step = STEPS_BY_NAME[name]
    if event.status == EventStatus.CONCLUDED:  # R:P4
        raise EventConcluded(
            gettext(
                "%(event)s is concluded: the Ace of Spades has been found, so nothing more can be sold or "
                "drawn under this licence."
            )
            % {"event": event},
            rule="P4",
        )
    check_licence_allows_step(event, draw)  # R:R5
    here = next_step(draw)
    # A row of the draw's state: its next step (or a row of the same state leading
    # to the same state), or a row the staff may choose instead (R:T8).
    can_move = step.state == draw.state and ((here is not None and here.to == step.to) or step in step_choices(draw))
    # R:P7 the must-go move back is made only by the re-draw step (which logs
    # the card's destruction first), and the re-draw makes no other move.
    move_back_pending = here is not None and here.back
    is_move_back = any(s.back and s.state == draw.state and s.to == step.to for s in DRAW_STEPS)
    if is_move_back != step.back or (move_back_pending and not can_move):
        if move_back_pending:
            raise TransitionNotAllowed(
                gettext(
                    "Draw %(number)s is the must-go final draw and the card is not the Ace of Spades: log the "
                    "card's destruction and %(verb)s."
                )
                % {"number": draw.number, "verb": here.verb},
                rule="P7",
            )
        raise TransitionNotAllowed(
            gettext(
                "Cannot draw another winning ticket for draw %(number)s: only a must-go final draw whose "
                "card is not the ace does that (the draw is at “%(lower)s”)."
            )
            % {"number": draw.number, "lower": draw.get_state_display().lower()},
            rule="P7",
        )
    if can_move:
        return step
    current = draw.get_state_display().lower()
    verb = step.verb
    if DRAW_ORDER.index(draw.state) >= DRAW_ORDER.index(step.to):
        raise TransitionNotAllowed(
            gettext("Cannot %(verb)s for draw %(number)s: that step is already done (the draw is at “%(current)s”).")
            % {"verb": verb, "number": draw.number, "current": current},
            rule="D8",
        )
    next_verb = here.verb if here is not None and here.to else "nothing"
    raise TransitionNotAllowed(
        gettext(
            "Cannot %(verb)s for draw %(number)s yet: the draw is at “%(current)s”, so the next step "
            "is to %(next_verb)s."
        )
        % {"verb": verb, "number": draw.number, "current": current, "next_verb": next_verb},
        rule="D8",
    )


def forward_path(since: str) -> list[Step]:
    """The table's forward steps from step `since` to the end (the first
    forward row of each state: the path of a draw that runs its course)."""
    path = [STEPS_BY_NAME[since]]
    while (after := next((s for s in DRAW_STEPS if s.state == path[-1].to and s.to and not s.back), None)) is not None:
        path.append(after)
    return path


def record_history(*, draw: Draw, at, since: str, fields: tuple[str, ...] = ()) -> Draw:
    """A draw taken from another system's records (the history import): moved
    at once along the table from step `since` to its end, each step's
    timestamp set to `at`, saved with `update_fields`. The import's own audit
    entry names the draws it records."""
    path = forward_path(since)
    for step in path:
        setattr(draw, step.stamp, at)
    draw.state = path[-1].to
    draw.save(update_fields=["state", *(step.stamp for step in path), *fields])
    return draw


def advance(*, actor, draw: Draw, step: Step, data: dict, fields: tuple[str, ...] = (), at=None) -> Draw:
    """Move the draw along `step`: its state, its timestamp (`at`, default
    now), the step's own fields (`fields`), saved with `update_fields`; then
    the audit entry."""
    draw.state = step.to
    setattr(draw, step.stamp, at or timezone.now())
    draw.save(update_fields=["state", step.stamp, *fields])
    audit_record(
        actor=actor,
        action=f"raffle.draw.{step.name}",
        obj=draw,
        data={"event": draw.event_id, "number": draw.number, "state": step.to, **data},
    )
    return draw
