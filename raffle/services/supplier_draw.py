"""The winning ticket of a draw run on the registered supplier's system
(RULES D5, D2): the one its result file names, or the one staff read from the
supplier's screen, typed twice with the RNG reference of that draw."""

import datetime
from dataclasses import dataclass

from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext

from raffle.errors import RaffleError
from raffle.models import Draw, Sale, SupplierResult, Ticket
from raffle.services.pool import normalise_serial, paper_ticket
from raffle.services.schedule import check_draw_time


@dataclass
class SupplierPick:
    ticket: Ticket
    rng_reference: str
    drawn_at: datetime.datetime


def supplier_winning_ticket(*, draw: Draw, serial: str, serial_again: str | None, rng_reference: str) -> SupplierPick:
    """Runs inside the draw-step service's transaction, draw locked."""
    result = SupplierResult.objects.filter(draw=draw).first()
    if result is not None:
        if serial and normalise_serial(serial) != result.winning_ticket_number:
            raise RaffleError(
                gettext(
                    "The supplier's result file names ticket %(winning_ticket_number)s as draw %(number)s's "
                    "winner, not %(normalise_serial)s."
                )
                % {
                    "winning_ticket_number": result.winning_ticket_number,
                    "number": draw.number,
                    "normalise_serial": normalise_serial(serial),
                },
                rule="D5",
            )
        serial = serial_again = result.winning_ticket_number
        rng_reference, drawn_at = result.rng_reference, result.drawn_at
    else:
        rng_reference = (rng_reference or "").strip()[:120]
        if not rng_reference:  # R:D5 every draw's inputs and outcome are logged
            raise RaffleError(
                gettext(
                    "Type the supplier system's reference of this draw (its RNG draw number) with the winning ticket."
                ),
                rule="D5",
            )
        drawn_at = timezone.now()
    ticket = paper_ticket(draw=draw, serial=serial, serial_again=serial_again)
    if result is None:  # read from the supplier's screen now, after this draw's sales closed here
        return SupplierPick(ticket=ticket, rng_reference=rng_reference, drawn_at=drawn_at)
    check_draw_time(draw, at=drawn_at)  # R:D9
    # The supplier's sales closed at the draw's time, after its last sale.
    last_sale = Sale.objects.filter(draw=draw).aggregate(m=Max("sold_at"))["m"]
    closes = max(m for m in (draw.scheduled_at, last_sale) if m)
    if drawn_at < closes:  # R:D2 a winning ticket is drawn after sales close
        raise RaffleError(
            gettext(
                "The supplier drew ticket %(serial)s at %(drawn_at)s, before draw %(number)s's sales "
                "closed; a winning ticket is drawn after sales close."
            )
            % {
                "serial": ticket.serial,
                "drawn_at": format(timezone.localtime(drawn_at), "%Y-%m-%d %H:%M"),
                "number": draw.number,
            },
            rule="D2",
        )
    return SupplierPick(ticket=ticket, rng_reference=rng_reference, drawn_at=drawn_at)
