"""The draw's states and its steps (RULES D8), as one table of plain data.

Every part of the project that needs to know the draw's steps reads
`DRAW_STEPS`: the model (`Draw.can_transition_to`), the draw machine that
every step service goes through (`raffle.services.draw_machine`: the
transition check, the timestamp and the audit action), the staff wizard and
the admin's step page (`raffle.steps`: the form, the service, the message,
the screen), the test factories and the tests.

A row is one step: the state it is taken from, the state it leads to, what
staff call it, the screen that shows it (`templates/raffle/drawnight/_<screen>.html`),
its form (a class of `raffle.forms`, or one per variant: "paper" drawn from a
container, "rng" drawn by the system, "supplier" drawn by the registered
supplier's system (D5), "imported" from another system's records), its
service (a function of `raffle.services`, which must call
`draw_machine.begin(draw, "<name>")` and `draw_machine.advance`), the form
fields that service takes, and the message shown when it is done. Several
rows of one state are told apart by `when` (the first that applies is the
draw's next step). A row marked `choice` is never the next step: the staff
take it instead, by its name (R:T8 "the holder is not here": the draw then
waits for the roll ticket's holder to claim). Forms and services are named, not imported, because they
are built on this module; `tests/test_draw_machine.py` checks every name.

Adding a state: a `DrawState` member, its row(s) here, its service, its
screen's template.
"""

import datetime
from collections.abc import Callable
from dataclasses import dataclass

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.money import format_money_here


class DrawState(models.TextChoices):
    SCHEDULED = "scheduled", gettext_lazy("Scheduled")
    SELLING = "selling", gettext_lazy("Selling tickets")
    SALES_CLOSED = "sales_closed", gettext_lazy("Sales closed")
    ANNOUNCED = "announced", gettext_lazy("Announced")
    TICKET_DRAWN = "ticket_drawn", gettext_lazy("Winning ticket drawn")
    AWAITING_CLAIM = "awaiting_claim", gettext_lazy("Awaiting claim")
    ENVELOPE_CHOSEN = "envelope_chosen", gettext_lazy("Envelope chosen")
    CARD_REVEALED = "card_revealed", gettext_lazy("Card revealed")
    CLOSED = "closed", gettext_lazy("Closed")


# The form fields of the card's destruction (E3), signed by two members.
DESTRUCTION_FIELDS = ("destroyed_by", "verified_by", "destroyer_password", "verifier_password")
# The form fields of a winning ticket: its serial typed twice (D2), the holder's name.
TICKET_FIELDS = ("serial", "serial_again", "winner_name")
# R:T8 the form fields of a roll-ticket holder's claim: who they are, the ID seen and by whom, their envelope.
CLAIM_FIELDS = ("holder_name", "id_seen", "id_checked_by", "envelope_number")
# The form fields of the card revealed: typed twice (E3), the Ace of Spades confirmed (P4).
CARD_FIELDS = ("card", "card_again", "ace_confirmed")


@dataclass(frozen=True)
class Step:
    state: str  # the state the step is taken from
    name: str  # its audit action is "raffle.draw.<name>"
    to: str | None  # the state it leads to; None: nothing more to do
    heading: str  # the screen's heading
    label: str = ""  # what the progress list calls it
    verb: str = ""  # what refusals call it: "Cannot <verb> for draw 3 ..."
    button: str | dict[str, str] = ""  # the screen's button, or one per variant
    screen: str = ""  # the screen's template: raffle/drawnight/_<screen>.html (default: the state)
    form: str | dict[str, str] | None = None  # a class name in raffle.forms, or one per variant
    service: str = ""  # a function name in raffle.services
    fields: tuple[str, ...] = ()  # the form fields the service takes as keyword arguments
    stamp: str = ""  # the draw's timestamp field the step sets
    done: Callable | None = None  # done(draw) -> the message shown when the step is done
    when: Callable | None = None  # when(draw) -> this row applies (None: always)
    back: bool = False  # R:P7 the one move back: only a must-go draw whose card is not the ace makes it
    shows: tuple[str, ...] = ()  # what else its screen shows (see views/drawnight.py)
    # R:T8 a row the staff choose instead of the state's next step (the
    # holder of a roll ticket is not here); never the draw's next step itself.
    choice: bool = False

    @property
    def template(self) -> str:
        return f"raffle/drawnight/_{self.screen or self.state}.html"

    @property
    def screen_name(self) -> str:
        return self.screen or self.state


def holder_may_be_absent(draw) -> bool:
    """R:T8 D2 a roll ticket's holder need not be at the draw, and nothing
    names them: the draw may wait for their claim. Stub and electronic
    tickets carry the buyer's name (T9); an imported draw has no tickets."""
    from licensing.models import SalesChannel
    from raffle.services.pool import draw_sales_channel

    return not draw.is_imported and draw_sales_channel(draw) == SalesChannel.PAPER_ROLL


def claim_time_over(draw, now: datetime.datetime | None = None) -> bool:
    """R:T8 the claim time of the draw's current winning ticket has run out."""
    return draw.claim_until is not None and (now or timezone.now()) >= draw.claim_until


def claim_until_text(draw) -> str:
    return f"{timezone.localtime(draw.claim_until):%Y-%m-%d %H:%M}" if draw.claim_until else ""


def step_leading_to(state: str) -> Step:
    """The (first, forward) step that leads to `state`: its name for refusals."""
    return next(s for s in DRAW_STEPS if s.to == state and not s.back)


# R:D8 the draw's steps, in order. No step may be skipped, repeated or undone
# (the one move back is the must-go re-draw, R:P7).
DRAW_STEPS: tuple[Step, ...] = (
    Step(
        DrawState.SCHEDULED,
        "open_sales",
        to=DrawState.SELLING,
        heading=gettext_lazy("Open ticket sales"),
        label=gettext_lazy("Open ticket sales"),
        verb=gettext_lazy("open ticket sales"),
        button=gettext_lazy("Open ticket sales"),
        form="ConfirmForm",
        service="draw_open_sales",
        stamp="sales_opened_at",
        done=lambda draw: _("Ticket sales are open for draw %(number)s.") % {"number": draw.number},
    ),
    Step(
        DrawState.SELLING,
        "close_sales",
        to=DrawState.SALES_CLOSED,
        heading=gettext_lazy("Close ticket sales"),
        label=gettext_lazy("Close sales"),
        verb=gettext_lazy("close ticket sales"),
        button=gettext_lazy("Check the figures"),
        form={
            "paper": "PaperCloseSalesForm",
            "rng": "CloseSalesForm",
            "supplier": "CloseSalesForm",
            "imported": "ImportedCloseSalesForm",
        },
        service="draw_close_sales",
        fields=("ticket_sales", "container_count", "expected_sales"),
        stamp="sales_closed_at",
        done=lambda draw: _("Sales closed at %(sales)s.") % {"sales": format_money_here(draw.ticket_sales)},
        shows=("tickets",),
    ),
    Step(
        DrawState.SALES_CLOSED,
        "announce",
        to=DrawState.ANNOUNCED,
        heading=gettext_lazy("Announce the draw"),
        label=gettext_lazy("Announce"),
        verb=gettext_lazy("announce the sales, draw prize and jackpot"),
        button=gettext_lazy("Announced: go to the ticket draw"),
        form="ConfirmForm",
        service="draw_announce",
        stamp="announced_at",
        done=lambda draw: _("Announced."),
    ),
    Step(
        DrawState.ANNOUNCED,
        "draw_ticket",
        to=DrawState.TICKET_DRAWN,
        heading=gettext_lazy("Draw the winning ticket"),
        label=gettext_lazy("Draw the winning ticket"),
        verb=gettext_lazy("draw the winning ticket"),
        button={
            "paper": gettext_lazy("Record the winning ticket"),
            "imported": gettext_lazy("Record the winning ticket"),
            "rng": gettext_lazy("Draw the winning ticket now"),
            "supplier": gettext_lazy("Record the supplier's winning ticket"),
        },
        form={
            "paper": "PaperWinningTicketForm",
            "rng": "RngWinningTicketForm",
            "supplier": "SupplierWinningTicketForm",
            "imported": "WinningTicketForm",
        },
        service="draw_record_winning_ticket",
        fields=(*TICKET_FIELDS, "rng_reference"),
        stamp="ticket_drawn_at",
        done=lambda draw: _("Winning ticket %(serial)s%(holder)s.")
        % {"serial": draw.winning_serial, "holder": f" ({draw.winner_name})" if draw.winner_name else ""},
    ),
    Step(
        DrawState.TICKET_DRAWN,
        "choose_envelope",
        to=DrawState.ENVELOPE_CHOSEN,
        heading=gettext_lazy("Choose the envelope"),
        label=gettext_lazy("Choose the envelope"),
        verb=gettext_lazy("choose the envelope"),
        button=gettext_lazy("Choose this envelope"),
        form="EnvelopeForm",
        service="draw_choose_envelope",
        fields=("envelope_number",),
        stamp="envelope_chosen_at",
        done=lambda draw: _("Envelope %(number)s chosen.") % {"number": draw.envelope.number},
        shows=("envelopes",),
    ),
    Step(  # R:T8 the holder of the winning roll ticket is not here: the draw waits for the claim
        DrawState.TICKET_DRAWN,
        "await_claim",
        to=DrawState.AWAITING_CLAIM,
        choice=True,
        when=lambda draw: holder_may_be_absent(draw),
        heading=gettext_lazy("The holder is not here: wait for the claim"),
        label=gettext_lazy("Wait for the holder's claim"),
        verb=gettext_lazy("wait for the holder's claim"),
        button=gettext_lazy("The holder is not here: wait for the claim"),
        form="ConfirmForm",
        service="draw_await_claim",
        stamp="claim_until",
        done=lambda draw: _("Ticket %(serial)s is awaiting its holder's claim until %(until)s. No envelope is opened.")
        % {"serial": draw.winning_serial, "until": claim_until_text(draw)},
    ),
    Step(  # R:T8 the holder comes forward with the ticket and chooses the envelope
        DrawState.AWAITING_CLAIM,
        "claim",
        to=DrawState.ENVELOPE_CHOSEN,
        when=lambda draw: not claim_time_over(draw),
        heading=gettext_lazy("Awaiting the holder's claim"),
        label=gettext_lazy("Record the claim"),
        verb=gettext_lazy("record the holder's claim"),
        button=gettext_lazy("Record the claim and the envelope chosen"),
        form="ClaimForm",
        service="draw_claim",
        fields=CLAIM_FIELDS,
        stamp="envelope_chosen_at",
        done=lambda draw: _("Ticket %(serial)s claimed by %(holder)s; envelope %(number)s chosen.")
        % {"serial": draw.winning_serial, "holder": draw.winner_name, "number": draw.envelope.number},
        shows=("envelopes", "drawings"),
    ),
    Step(  # R:T8 the claim time ran out: another ticket of the same draw, with the same claim time
        DrawState.AWAITING_CLAIM,
        "redraw_unclaimed",
        to=DrawState.AWAITING_CLAIM,
        when=claim_time_over,
        heading=gettext_lazy("The claim time is over: draw another ticket"),
        label=gettext_lazy("Record the claim"),
        verb=gettext_lazy("draw another ticket in place of the unclaimed one"),
        button=gettext_lazy("Record the ticket drawn in its place"),
        form="PaperWinningTicketForm",
        service="draw_redraw_unclaimed",
        fields=("serial", "serial_again"),
        stamp="claim_until",
        done=lambda draw: _("Ticket %(serial)s is drawn in place of the unclaimed one; its holder has until %(until)s.")
        % {"serial": draw.winning_serial, "until": claim_until_text(draw)},
        shows=("drawings",),
    ),
    Step(
        DrawState.ENVELOPE_CHOSEN,
        "reveal_card",
        to=DrawState.CARD_REVEALED,
        heading=gettext_lazy("Reveal the card"),
        label=gettext_lazy("Reveal the card"),
        verb=gettext_lazy("reveal the card"),
        button=gettext_lazy("Record the card"),
        form="RevealCardForm",
        service="draw_reveal_card",
        fields=CARD_FIELDS,
        stamp="card_revealed_at",
        done=lambda draw: _("The card is the %(card)s.") % {"card": draw.envelope.card_name},
        shows=("envelopes",),
    ),
    Step(
        DrawState.CARD_REVEALED,
        "award_jackpot",
        to=DrawState.CLOSED,
        when=lambda draw: draw.is_ace,
        screen="ace",
        heading=gettext_lazy("The Ace of Spades!"),
        label=gettext_lazy("Destroy the card or award the jackpot"),
        verb=gettext_lazy("close the draw"),
        button=gettext_lazy("Award the jackpot and conclude the event"),
        form="ConfirmForm",
        service="draw_award_jackpot",
        stamp="closed_at",
        done=lambda draw: _("Jackpot of %(jackpot)s awarded. The event is concluded.")
        % {"jackpot": format_money_here(draw.jackpot_awarded)},
    ),
    Step(  # R:P7 a must-go draw with no valid ticket left: the lowest sealed envelope is opened next
        DrawState.CARD_REVEALED,
        "must_go_open_next",
        to=DrawState.ENVELOPE_CHOSEN,
        back=True,
        when=lambda draw: draw.must_go_run_out,
        screen="destruction",
        heading=gettext_lazy("Not the Ace of Spades: destroy the card"),
        label=gettext_lazy("Destroy the card or award the jackpot"),
        verb=gettext_lazy("open the lowest sealed envelope"),
        button=gettext_lazy("Log the destruction and open the lowest sealed envelope"),
        form="MustGoOpenNextForm",
        service="draw_must_go_open_next",
        fields=DESTRUCTION_FIELDS,
        stamp="envelope_chosen_at",
        done=lambda draw: _(
            "Card destruction logged. No valid ticket is left in the must-go final draw: envelope %(number)s, "
            "the lowest still sealed, is opened next, as the Rules of Play say."
        )
        % {"number": draw.envelope.number},
        shows=("envelopes",),
    ),
    Step(  # R:P7 the must-go final draw: a card that is not the ace sends the draw back
        DrawState.CARD_REVEALED,
        "must_go_redraw",
        to=DrawState.TICKET_DRAWN,
        back=True,
        when=lambda draw: draw.must_go,
        screen="destruction",
        heading=gettext_lazy("Not the Ace of Spades: destroy the card"),
        label=gettext_lazy("Destroy the card or award the jackpot"),
        verb=gettext_lazy("draw another winning ticket"),
        button=gettext_lazy("Log the destruction and draw the next ticket"),
        form={"paper": "PaperMustGoRedrawForm", "rng": "RngMustGoRedrawForm"},
        service="draw_must_go_redraw",
        fields=DESTRUCTION_FIELDS + TICKET_FIELDS,
        stamp="ticket_drawn_at",
        done=lambda draw: _(
            "Card destruction logged. Must-go final draw: ticket %(serial)s drawn; its holder chooses an envelope."
        )
        % {"serial": draw.winning_serial},
    ),
    Step(
        DrawState.CARD_REVEALED,
        "roll_over",
        to=DrawState.CLOSED,
        screen="destruction",
        heading=gettext_lazy("Not the Ace of Spades: destroy the card"),
        label=gettext_lazy("Destroy the card or award the jackpot"),
        verb=gettext_lazy("close the draw"),
        button=gettext_lazy("Log the destruction and roll the jackpot over"),
        form="DestructionForm",
        service="draw_roll_over",
        fields=DESTRUCTION_FIELDS,
        stamp="closed_at",
        done=lambda draw: _("Card destruction logged; the jackpot rolls over to the next draw."),
    ),
    Step(DrawState.CLOSED, "finished", to=None, heading=gettext_lazy("Draw finished"), shows=("next_draw",)),
)

STEPS_BY_NAME: dict[str, Step] = {step.name: step for step in DRAW_STEPS}
DRAW_ORDER: list[str] = list(DrawState.values)


def _applies(step: Step, draw) -> bool:
    return step.state == draw.state and (step.when is None or step.when(draw))


def next_step(draw) -> Step | None:
    """The row of the draw's next step: the first of its state's rows that
    applies to it and is not a choice (None for a state without a row)."""
    return next((s for s in DRAW_STEPS if not s.choice and _applies(s, draw)), None)


def step_choices(draw) -> list[Step]:
    """R:T8 the rows the staff may take instead of the next step (the holder
    of the winning roll ticket is not here)."""
    return [s for s in DRAW_STEPS if s.choice and _applies(s, draw)]


# Read from the table: each state and the states its forward steps lead to,
# and the must-go move back (R:P7).
DRAW_TRANSITIONS: dict[str, set[str]] = {
    state: {s.to for s in DRAW_STEPS if s.state == state and s.to and not s.back} for state in DRAW_ORDER
}
MUST_GO_TRANSITIONS: dict[str, set[str]] = {
    state: moves
    for state in DRAW_ORDER
    if (moves := {s.to for s in DRAW_STEPS if s.state == state and s.to and s.back})
}
# States before the winning ticket is drawn: a draw may still be made the
# must-go final draw (R:P7), and it has no winner yet.
BEFORE_WINNING_TICKET = DRAW_ORDER[: DRAW_ORDER.index(DrawState.TICKET_DRAWN)]
MUST_GO_SETTABLE = BEFORE_WINNING_TICKET
# States in which a draw is under way; at most one draw per event is.
DRAW_IN_PROGRESS = [s for s in DRAW_ORDER if s not in (DrawState.SCHEDULED, DrawState.CLOSED)]
