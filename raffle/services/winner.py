"""After the winning ticket is drawn: the winner's claim, and the re-draw of
an unclaimed roll ticket once the claim period is over (T8)."""

import datetime

from django.db import transaction
from django.utils import timezone

from core.audit import audit_record
from licensing.models import SalesChannel
from raffle.errors import RaffleError
from raffle.models import BEFORE_WINNING_TICKET, Draw, PrizeKind, PrizePayment, SelectionMethod, WinnerSelection
from raffle.services import draw_machine
from raffle.services.pool import (
    current_selection,
    draw_sales_channel,
    draws_by_rng,
    paper_ticket,
    pick_rng,
    record_selection,
)


def _selection(draw: Draw) -> WinnerSelection:
    if draw.state in BEFORE_WINNING_TICKET:
        raise RaffleError(f"No winning ticket has been drawn for draw {draw.number} yet.")
    selection = current_selection(draw)
    if selection is None:
        raise RaffleError(f"Draw {draw.number} has no winning ticket on record (imported draw).")
    return selection


def _check_still_current(selection: WinnerSelection, expected_serial: str | None) -> None:
    """A screen names the ticket it shows; if another ticket was drawn in its
    place since, nothing is done to the wrong one."""
    if expected_serial is not None and selection.ticket.serial != expected_serial:
        raise RaffleError(
            f"Ticket {expected_serial} is no longer the winning ticket: ticket "
            f"{selection.ticket.serial} was drawn in its place. Nothing was changed.",
            rule="T8",
        )


@transaction.atomic
def winner_claim(*, actor, draw: Draw, expected_serial: str | None = None) -> WinnerSelection:
    """The holder of the winning ticket has come forward with it."""
    _event, draw = draw_machine.lock(draw)
    selection = WinnerSelection.objects.select_for_update().get(pk=_selection(draw).pk)
    _check_still_current(selection, expected_serial)
    if selection.claimed_at:
        raise RaffleError(f"Ticket {selection.ticket.serial} was already claimed.")
    selection.claimed_at = timezone.now()
    selection.save(update_fields=["claimed_at"])
    audit_record(
        actor=actor,
        action="raffle.draw.winner_claim",
        obj=draw,
        data={"draw": draw.number, "serial": selection.ticket.serial, "attempt": selection.attempt},
    )
    return selection


@transaction.atomic
def draw_redraw_unclaimed(
    *,
    actor,
    draw: Draw,
    serial: str = "",
    serial_again: str | None = None,
    now: datetime.datetime | None = None,
    expected_serial: str | None = None,
) -> WinnerSelection:
    """R:T8 roll tickets: when the winner has not claimed within the event's
    claim period, another ticket of the same draw is drawn (from the container,
    typed twice; or by the RNG). Every re-draw is logged; earlier winners are
    never drawn again."""
    event, draw = draw_machine.lock(draw)
    if draw_sales_channel(draw) != SalesChannel.PAPER_ROLL:
        raise RaffleError(
            "Only roll-ticket winners are re-drawn; stub and electronic tickets carry the winner's name and contact.",
            rule="T8",
        )
    current = _selection(draw)
    _check_still_current(current, expected_serial)
    if current.claimed_at:
        raise RaffleError(f"Ticket {current.ticket.serial} was claimed; there is nothing to re-draw.", rule="T8")
    paid = PrizePayment.objects.filter(draw=draw, kind=PrizeKind.DRAW_PRIZE).first()
    if paid is not None:
        raise RaffleError(
            f"The draw prize of draw {draw.number} was paid to {paid.payee} on "
            f"{paid.paid_on:%Y-%m-%d}, so its winner came forward: record the claim instead.",
            rule="T8",
        )
    deadline = current.selected_at + datetime.timedelta(days=event.claim_period_days)
    now = now or timezone.now()
    if now < deadline:
        raise RaffleError(
            f"The winner of draw {draw.number} has until {timezone.localtime(deadline):%Y-%m-%d %H:%M} "
            "to claim; another ticket is drawn only after that.",
            rule="T8",
        )
    previous = set(draw.winner_selections.values_list("ticket_id", flat=True))
    if draws_by_rng(draw):
        ticket, picks = pick_rng(draw=draw, exclude=previous)
        method = SelectionMethod.RNG
    else:
        ticket, picks = paper_ticket(draw=draw, serial=serial, serial_again=serial_again), []
        method = SelectionMethod.CONTAINER
        if ticket.pk in previous:
            raise RaffleError(f"Ticket {ticket.serial} was already drawn for this draw; draw another.", rule="T8")
    current.superseded_at = now
    current.superseded_reason = f"not claimed within {event.claim_period_days} days"
    current.save(update_fields=["superseded_at", "superseded_reason"])
    selection = record_selection(actor=actor, draw=draw, ticket=ticket, method=method, picks=picks)
    draw.winning_serial = ticket.serial
    draw.winner_name = ticket.sale.purchaser_name
    draw.save(update_fields=["winning_serial", "winner_name"])
    audit_record(
        actor=actor,
        action="raffle.draw.redraw",
        obj=draw,
        data={
            "draw": draw.number,
            "unclaimed": current.ticket.serial,
            "serial": ticket.serial,
            "attempt": selection.attempt,
            "method": method,
            "rng_picks": picks,
        },
    )
    return selection
