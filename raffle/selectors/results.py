"""Reads behind the public results page and its "did I win?" answer (RULES D10).

The page costs a fixed number of queries whatever the season's size: the
event, its drawn draws (with envelope and consent), the must-go tickets and
the superseded roll-ticket winners. Ticket rows never enter it."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext as _

from raffle.cards import card_name_for_reader
from raffle.errors import RaffleError
from raffle.models import BEFORE_WINNING_TICKET, Draw, DrawState, Event, MustGoTicket, WinnerSelection
from raffle.services.pool import normalise_serial

# A draw's winning number is public once it is drawn, never before (D10):
# every state from the winning ticket on, read from the step table.
NOT_YET_DRAWN = BEFORE_WINNING_TICKET


@dataclass
class ResultRow:
    draw_id: int
    number: int
    held_at: datetime.datetime
    winning_serial: str
    draw_prize: Decimal | None
    card: str
    jackpot_awarded: Decimal | None
    winner: str
    earlier_serials: list[str] = field(default_factory=list)
    unclaimed_serials: list[str] = field(default_factory=list)


def _drawn(event: Event):
    return (
        Draw.objects.filter(event=event)
        .exclude(state__in=NOT_YET_DRAWN)
        .exclude(winning_serial="")
        .select_related("envelope", "name_consent")
        .order_by("number")
    )


def published_winner(draw: Draw) -> str:
    consent = getattr(draw, "name_consent", None)
    if consent is None or not consent.publish:
        return ""
    return ", ".join(part for part in (consent.published_name, consent.published_town) if part)


def public_results(event_id: int) -> dict | None:
    event = Event.objects.select_related("licence__organisation").filter(pk=event_id).first()
    if event is None:
        return None
    draws = list(_drawn(event))
    earlier: dict[int, list[str]] = {}
    for ticket in MustGoTicket.objects.filter(draw__in=draws).order_by("draw_id", "sequence"):
        earlier.setdefault(ticket.draw_id, []).append(ticket.winning_serial)
    unclaimed: dict[int, list[str]] = {}
    superseded = WinnerSelection.objects.filter(draw__in=draws, superseded_at__isnull=False).exclude(
        superseded_reason__startswith="must-go"
    )
    for selection in superseded.select_related("ticket").order_by("draw_id", "attempt"):
        unclaimed.setdefault(selection.draw_id, []).append(selection.ticket.serial)
    rows = []
    for draw in draws:
        opened = draw.envelope is not None and draw.envelope.is_open
        rows.append(
            ResultRow(
                draw_id=draw.pk,
                number=draw.number,
                held_at=draw.held_or_due_at,  # R:D9
                winning_serial=draw.winning_serial,
                draw_prize=draw.draw_prize,
                card=card_name_for_reader(draw.envelope.card) if opened else "",
                jackpot_awarded=draw.jackpot_awarded,
                winner=published_winner(draw),
                earlier_serials=[s for s in earlier.get(draw.pk, []) if s != draw.winning_serial],
                unclaimed_serials=unclaimed.get(draw.pk, []),
            )
        )
    return {"event": event, "rows": rows}


@dataclass
class TicketCheck:
    serial: str
    won: bool
    message: str


def ticket_check(event: Event, value: str) -> TicketCheck:
    """R:D10 "did I win?": whether a serial is a winning ticket of this
    event's draws held so far. It never says whether a serial was sold, or to
    whom: only what the results page already publishes, found for the reader."""
    try:
        serial = normalise_serial(value)
    except RaffleError:
        raise RaffleError(_("Type the ticket number as printed on your ticket: letters, digits and dashes.")) from None
    for draw in _drawn(event):
        if draw.winning_serial == serial:
            return TicketCheck(serial, True, _winner_message(event, draw, serial))
    must_go = MustGoTicket.objects.filter(draw__event=event, winning_serial=serial).select_related("draw").first()
    if must_go is not None:
        return TicketCheck(
            serial,
            True,
            _(
                "Ticket %(serial)s was drawn in the final draw (draw %(number)s) and opened envelope "
                "%(envelope)s. Contact %(organisation)s with your ticket for your share of the prizes."
            )
            % {
                "serial": serial,
                "number": must_go.draw.number,
                "envelope": must_go.envelope.number,
                "organisation": event.licence.organisation.name,
            },
        )
    superseded = (
        WinnerSelection.objects.filter(draw__event=event, ticket__serial=serial, superseded_at__isnull=False)
        .select_related("draw")
        .first()
    )
    if superseded is not None:
        return TicketCheck(
            serial,
            False,
            _(
                "Ticket %(serial)s was drawn in draw %(number)s but was not claimed within the claim period, "
                "so another ticket was drawn in its place, as the Rules of Play say."
            )
            % {"serial": serial, "number": superseded.draw.number},
        )
    return TicketCheck(
        serial, False, _("Ticket %(serial)s is not a winning ticket of any draw held so far.") % {"serial": serial}
    )


def _winner_message(event: Event, draw: Draw, serial: str) -> str:
    organisation = event.licence.organisation.name
    message = _("Ticket %(serial)s is the winning ticket of draw %(number)s.") % {
        "serial": serial,
        "number": draw.number,
    }
    if draw.state == DrawState.AWAITING_CLAIM:  # R:T8 the holder of the roll ticket has until then
        deadline = timezone.localtime(draw.claim_until)
        return " ".join(
            [
                message,
                _(
                    "Bring the ticket to %(organisation)s by %(deadline)s to claim the prize and choose "
                    "your envelope; after that another ticket is drawn."
                )
                % {"organisation": organisation, "deadline": deadline.strftime("%Y-%m-%d %H:%M")},
            ]
        )
    return " ".join([message, _("Contact %(organisation)s with your ticket.") % {"organisation": organisation}])
