"""Roll tickets whose holder is not at the draw (RULES T8, D2).

A roll ticket carries no name: when its holder is not there as it is drawn,
the draw waits "awaiting claim" until the end of the event's claim time, and
no envelope is opened for them (`draw_await_claim`). The holder comes
forward, is recorded by name with the ID seen and who checked it, and
chooses the envelope then (`draw_claim`). When the claim time runs out,
another ticket of the same draw is drawn and its holder gets the same claim
time (`draw_redraw_unclaimed`); every drawing is a `WinnerSelection` and an
audit entry. Nothing is re-drawn once an envelope is chosen, so never after
a card is revealed, and never on a concluded event (the draw machine's P4).
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from raffle.errors import RaffleError, TransitionNotAllowed
from raffle.models import Draw, DrawState, Event, EventStatus, SelectionMethod, WinnerSelection
from raffle.models.draw_steps import claim_time_over, holder_may_be_absent
from raffle.services import draw_machine
from raffle.services.draws import winners_envelope
from raffle.services.pool import current_selection, paper_ticket, record_selection

# What the services take from the claim form, at most as long as the fields that keep it.
_NAME_LENGTH = 150


def _claim_until(event: Event, start: datetime.datetime) -> datetime.datetime:
    return start + datetime.timedelta(days=event.claim_period_days)


def _local(moment: datetime.datetime) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M}"


def _check_still_current(draw: Draw, expected_serial: str | None) -> None:
    """A screen names the ticket it shows; if another ticket was drawn in its
    place since, nothing is done to the wrong one."""
    if expected_serial and draw.winning_serial != expected_serial:
        raise RaffleError(
            gettext(
                "Ticket %(expected_serial)s is no longer the winning ticket of draw %(number)s: ticket "
                "%(winning_serial)s was drawn in its place. Nothing was changed."
            )
            % {"expected_serial": expected_serial, "number": draw.number, "winning_serial": draw.winning_serial},
            rule="T8",
        )


def _check_awaiting(draw: Draw, doing: str) -> None:
    """R:T8 claims and re-draws belong to a draw awaiting a claim: once an
    envelope is chosen the holder was there, and nothing is re-drawn."""
    if draw.state == DrawState.AWAITING_CLAIM:
        return
    if draw.envelope_id is not None:
        raise TransitionNotAllowed(
            gettext(
                "Cannot %(doing)s for draw %(number)s: the holder of ticket %(winning_serial)s chose "
                "envelope %(number2)s, so the ticket stands. Nothing is re-drawn once an envelope is "
                "chosen or a card revealed."
            )
            % {
                "doing": doing,
                "number": draw.number,
                "winning_serial": draw.winning_serial,
                "number2": draw.envelope.number,
            },
            rule="T8",
        )
    raise TransitionNotAllowed(
        gettext("Cannot %(doing)s for draw %(number)s: it is not awaiting a claim (the draw is at “%(lower)s”).")
        % {"doing": doing, "number": draw.number, "lower": draw.get_state_display().lower()},
        rule="T8",
    )


@transaction.atomic
def draw_await_claim(*, actor, draw: Draw) -> Draw:
    """R:T8 the staff answer "no" to "is the holder here?": the draw waits for
    the roll ticket's holder until the end of the event's claim time."""
    event, draw = draw_machine.lock(draw)
    step = draw_machine.check(event, draw, "await_claim")
    if not holder_may_be_absent(draw):
        raise RaffleError(
            gettext(
                "Draw %(number)s does not wait for a claim: only roll tickets carry no name. Stub and "
                "electronic tickets name their buyer, who chooses the envelope picked on the ticket."
            )
            % {"number": draw.number},
            rule="T8",
        )
    selection = WinnerSelection.objects.select_for_update().get(pk=current_selection(draw).pk)
    until = _claim_until(event, timezone.now())
    selection.claim_until = until
    selection.save(update_fields=["claim_until"])
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        at=until,
        data={"serial": draw.winning_serial, "attempt": selection.attempt, "claim_until": until},
    )


def _required(value: str, what: str) -> str:
    value = (value or "").strip()
    if not value:
        raise RaffleError(gettext("Type %(what)s.") % {"what": what}, rule="T8")
    if len(value) > _NAME_LENGTH:
        raise RaffleError(
            gettext("Shorten %(what)s to %(NAME_LENGTH)s characters.") % {"what": what, "NAME_LENGTH": _NAME_LENGTH},
            rule="T8",
        )
    return value


@transaction.atomic
def draw_claim(
    *,
    actor,
    draw: Draw,
    holder_name: str = "",
    id_seen: str = "",
    id_checked_by: str = "",
    envelope_number=None,
    expected_serial: str | None = None,
) -> Draw:
    """R:T8 the holder of the winning roll ticket comes forward within the
    claim time: recorded by name with the ID seen and who checked it, they
    choose the envelope now (T9)."""
    event, draw = draw_machine.lock(draw)
    _check_still_current(draw, expected_serial)
    if event.status != EventStatus.CONCLUDED:  # the machine's own P4 refusal comes first
        _check_awaiting(draw, "record a claim")
    if draw.state == DrawState.AWAITING_CLAIM and claim_time_over(draw):
        raise RaffleError(
            gettext(
                "The claim time of ticket %(winning_serial)s ended on %(local)s: its holder can no longer "
                "choose the envelope. Draw another ticket of this draw in its place."
            )
            % {"winning_serial": draw.winning_serial, "local": _local(draw.claim_until)},
            rule="T8",
        )
    step = draw_machine.check(event, draw, "claim")
    holder = _required(holder_name, "the holder's name")
    seen = _required(id_seen, "the identification the holder showed (for example, a driver's licence)")
    checker = _required(id_checked_by, "the name of the person who checked it")
    draw.envelope, how = winners_envelope(event=event, draw=draw, envelope_number=envelope_number)
    selection = WinnerSelection.objects.select_for_update().get(pk=current_selection(draw).pk)
    now = timezone.now()
    selection.claimed_at, selection.holder_name, selection.id_seen, selection.id_checked_by = now, holder, seen, checker
    selection.save(update_fields=["claimed_at", "holder_name", "id_seen", "id_checked_by"])
    draw.winner_name = holder
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        at=now,
        fields=("envelope", "winner_name"),
        data={
            "serial": draw.winning_serial,
            "attempt": selection.attempt,
            "holder": holder,
            "id_seen": seen,
            "id_checked_by": checker,
            "envelope": draw.envelope.number,
            "how": how,
        },
    )


@transaction.atomic
def draw_redraw_unclaimed(
    *, actor, draw: Draw, serial: str = "", serial_again: str | None = None, expected_serial: str | None = None
) -> Draw:
    """R:T8 the claim time ran out: another ticket of the same draw is drawn
    (roll tickets: from the container, typed twice), never one drawn before,
    and its holder gets the same claim time from now. The unclaimed drawing
    stays on record, superseded."""
    event, draw = draw_machine.lock(draw)
    _check_still_current(draw, expected_serial)
    if event.status != EventStatus.CONCLUDED:  # the machine's own P4 refusal comes first
        _check_awaiting(draw, "draw another ticket")
    if draw.state == DrawState.AWAITING_CLAIM and not claim_time_over(draw):
        raise RaffleError(
            gettext(
                "The holder of ticket %(winning_serial)s has until %(local)s to claim; another ticket is "
                "drawn only after that."
            )
            % {"winning_serial": draw.winning_serial, "local": _local(draw.claim_until)},
            rule="T8",
        )
    step = draw_machine.check(event, draw, "redraw_unclaimed")
    current = WinnerSelection.objects.select_for_update().get(pk=current_selection(draw).pk)
    ticket = paper_ticket(draw=draw, serial=serial, serial_again=serial_again)  # R:D2 typed twice
    if draw.winner_selections.filter(ticket=ticket).exists():
        raise RaffleError(
            gettext("Ticket %(serial)s was already drawn for this draw; draw another.") % {"serial": ticket.serial},
            rule="T8",
        )
    now = timezone.now()
    current.superseded_at = now
    current.superseded_reason = f"not claimed within {event.claim_period_days} days"
    current.save(update_fields=["superseded_at", "superseded_reason"])
    until = _claim_until(event, now)
    selection = record_selection(actor=actor, draw=draw, ticket=ticket, method=SelectionMethod.CONTAINER, picks=[])
    selection.claim_until = until
    selection.save(update_fields=["claim_until"])
    draw.winning_serial, draw.winner_name, draw.ticket_drawn_at = ticket.serial, "", now
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        at=until,
        fields=("winning_serial", "winner_name", "ticket_drawn_at"),
        data={
            "unclaimed": current.ticket.serial,
            "serial": ticket.serial,
            "attempt": selection.attempt,
            "claim_until": until,
        },
    )
