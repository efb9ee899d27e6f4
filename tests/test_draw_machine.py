"""The draw's steps live in one table (`raffle.models.draw_steps.DRAW_STEPS`)
and every step service goes through the draw machine (RULES D8, P7)."""

import ast
import inspect
from pathlib import Path

import pytest
from django.template.loader import get_template

from raffle import forms, services
from raffle.models import DRAW_STEPS, DRAW_TRANSITIONS, MUST_GO_TRANSITIONS, Draw, DrawState
from raffle.models.draw_steps import next_step

ROOT = Path(__file__).resolve().parent.parent
STEPS_WITH_A_SERVICE = [step for step in DRAW_STEPS if step.to is not None]


def _form_names(step):
    return list(step.form.values()) if isinstance(step.form, dict) else [step.form]


@pytest.mark.parametrize("step", STEPS_WITH_A_SERVICE, ids=lambda s: s.name)
def test_every_step_names_a_form_and_a_service_that_take_its_fields(step):  # R:D8
    service = getattr(services, step.service)
    parameters = inspect.signature(service).parameters
    assert {"actor", "draw"} <= set(parameters)
    assert set(step.fields) <= set(parameters), f"{step.service} does not take {set(step.fields) - set(parameters)}"
    for name in _form_names(step):
        form_class = getattr(forms, name)
        # The form's fields the service takes are named in the row (a button has none).
        form_fields = set(form_class.base_fields)
        assert form_fields - {"confirm"} <= set(step.fields), f"{name} has fields {step.name} does not pass"


@pytest.mark.parametrize("step", STEPS_WITH_A_SERVICE, ids=lambda s: s.name)
def test_every_step_service_goes_through_the_draw_machine_with_its_own_row(step):  # R:D8
    source = inspect.getsource(getattr(services, step.service))
    assert f'draw_machine.begin(draw, "{step.name}")' in source or (
        f'draw_machine.check(event, draw, "{step.name}")' in source
    ), f"{step.service} does not check its step against the table"
    assert "draw_machine.advance(" in source, f"{step.service} does not move the draw through the machine"


@pytest.mark.parametrize("step", DRAW_STEPS, ids=lambda s: s.name)
def test_every_row_has_its_screen_and_each_state_a_row(step):
    assert get_template(step.template)
    assert step.heading
    if step.to is not None:
        assert step.label and step.verb and step.stamp and step.done
        assert step.stamp in {f.name for f in Draw._meta.fields}


def test_every_state_has_a_row_and_only_the_last_state_leads_nowhere():  # R:D8
    assert {step.state for step in DRAW_STEPS} == set(DrawState.values)
    assert [state for state, moves in DRAW_TRANSITIONS.items() if not moves] == [DrawState.CLOSED]
    # R:P7 the moves back, from the revealed card to another winning ticket, or, when no
    # valid ticket is left, to the lowest sealed envelope.
    assert MUST_GO_TRANSITIONS == {DrawState.CARD_REVEALED: {DrawState.TICKET_DRAWN, DrawState.ENVELOPE_CHOSEN}}


class _Draw:
    """Just what the table's `when` reads."""

    def __init__(self, state, *, is_ace=False, must_go=False, run_out=False):
        self.state, self.is_ace, self.must_go, self.must_go_run_out = state, is_ace, must_go, must_go and run_out


@pytest.mark.parametrize(
    "is_ace, must_go, run_out, name",
    [
        (True, False, False, "award_jackpot"),
        (True, True, False, "award_jackpot"),
        (True, True, True, "award_jackpot"),
        (False, True, False, "must_go_redraw"),
        (False, True, True, "must_go_open_next"),
        (False, False, False, "roll_over"),
    ],
)
def test_the_revealed_card_chooses_the_step(is_ace, must_go, run_out, name):  # R:P4 R:P7
    draw = _Draw(DrawState.CARD_REVEALED, is_ace=is_ace, must_go=must_go, run_out=run_out)
    assert next_step(draw).name == name


def _application_modules():
    for top in ("raffle", "licensing", "core", "config"):
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _is_state(node) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "DrawState"


def _names_a_state(node) -> bool:
    """A state, or a tuple that starts with one (a row of a parallel list)."""
    return _is_state(node) or (isinstance(node, ast.Tuple) and bool(node.elts) and _is_state(node.elts[0]))


def test_the_draw_steps_are_listed_in_one_table_only():  # R:D8
    """No dict keyed by the draw's states and no list of three or more of
    them outside the table: a state's screen, form, service and message are
    its row in `raffle/models/draw_steps.py`, not parallel lists."""
    table = ROOT / "raffle" / "models" / "draw_steps.py"
    found = []
    for path in _application_modules():
        if path == table:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Dict) and any(_is_state(key) for key in node.keys if key is not None):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} a dict keyed by states")
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)) and sum(map(_names_a_state, node.elts)) >= 3:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} a list of states")
    assert found == []


def test_only_the_draw_machine_moves_a_draw_from_state_to_state():  # R:D8
    """`draw.state = ...` is written in one place: `draw_machine.advance`."""
    machine = ROOT / "raffle" / "services" / "draw_machine.py"
    found = []
    for path in _application_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for target in targets:
                if isinstance(target, ast.Attribute) and target.attr == "state" and path != machine:
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


def test_the_architecture_diagram_is_the_table():
    """docs/architecture.md draws the machine; it must say what the table says."""
    text = (ROOT / "docs" / "architecture.md").read_text()
    diagram = text.split("```mermaid", 1)[1].split("```", 1)[0]
    drawn = {
        tuple(part.strip() for part in (line.split("-->")[0], *line.split("-->")[1].split(":")))
        for line in diagram.splitlines()
        if "-->" in line and ":" in line
    }
    assert drawn == {(step.state, step.to, step.name) for step in DRAW_STEPS if step.to is not None}
