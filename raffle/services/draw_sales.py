"""The draw's first steps (RULES D8): open ticket sales, close them (the
draw's money fixed for good, P1), announce. Each goes through the draw
machine (`raffle.services.draw_machine`)."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext

from core.money import (
    DRAW_PRIZE_PERCENT,
    JACKPOT_PERCENT,
    LICENSEE_PERCENT,
    MAX_AMOUNT,
    Split,
    format_money_here,
    parse_amount,
    split_sales,
)
from licensing.models import LicenceStatus
from licensing.terms import licence_is_expired
from raffle.errors import RaffleError, TransitionNotAllowed
from raffle.models import Draw, DrawState, Event
from raffle.selectors.drawnight import draw_sales_reconciliation
from raffle.services import draw_machine
from raffle.services.events import event_check_ready_to_sell
from raffle.services.members_in_charge import check_members_in_charge
from raffle.services.pool import draws_by_supplier, pool_fix
from raffle.services.prize_board import prize_board_check, sales_plan_check
from raffle.services.rolls import check_no_roll_out


@transaction.atomic
def draw_open_sales(*, actor, draw: Draw, today: datetime.date | None = None) -> Draw:
    event, draw, step = draw_machine.begin(draw, "open_sales")
    licence = event.licence
    if licence.status != LicenceStatus.ACTIVE or licence_is_expired(licence, today):  # R:L8 amended expiry included
        raise RaffleError(
            gettext("Licence %(number)s is not in force; no tickets may be sold under it.") % {"number": licence.number}
        )
    event_check_ready_to_sell(event)  # R:T12
    if draws_by_supplier(draw) and not licence.supplier_recorded:  # R:D5
        raise RaffleError(
            gettext(
                "Licence %(number)s sells electronically: record its AGCO-registered supplier (name, "
                "registration number, system name and version) before selling."
            )
            % {"number": licence.number},
            rule="D5",
        )
    # R:T11 the previous draw finishes before the next draw's sales start.
    unfinished = event.draws.filter(number__lt=draw.number).exclude(state=DrawState.CLOSED).first()
    if unfinished:
        raise TransitionNotAllowed(
            gettext("Draw %(number)s is not finished yet; finish it before selling for draw %(number2)s.")
            % {"number": unfinished.number, "number2": draw.number},
            rule="T11",
        )
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        data={},
    )


@dataclass(frozen=True)
class CloseSalesFigures:
    """What closing a draw's sales fixes for good (P1): worked out by
    `close_sales_figures` for the wizard's preview and for the service alike,
    so the figures a volunteer confirms are the figures written."""

    sales: Decimal
    split: Split  # the 20/30/50 parts by the event's rounding rule
    jackpot_before: Decimal
    jackpot_after: Decimal
    valid_tickets: int | None  # None: an imported draw has no tickets
    void_tickets: int | None
    container_count: int | None


# The draw's fields closing sales writes.
MONEY_FIELDS = (
    "ticket_sales",
    "draw_prize",
    "jackpot_contribution",
    "licensee_share",
    "rounding",
    "draw_prize_percent",
    "jackpot_percent",
    "licensee_percent",
    "jackpot_before",
    "jackpot_after",
)


def _whole_number(value) -> int | None:
    if value is None or str(value).strip() == "":
        return None
    try:
        return int(str(value).strip())
    except ValueError:
        raise RaffleError(gettext("The container count must be a whole number of tickets.")) from None


def close_sales_figures(
    draw: Draw,
    *,
    ticket_sales=None,
    container_count=None,
    jackpot_before: Decimal | None = None,
    committed: Decimal | None = None,
    on: datetime.date | None = None,
) -> CloseSalesFigures:
    """R:P1 the figures closing the draw's sales would fix, and every refusal
    of closing them, in one place; nothing is written.

    The sales total comes from the draw's valid tickets (their tier prices;
    voids excluded). `ticket_sales`, when given, is the reconciled cash count:
    it must equal that total (T11). `container_count` (paper) is the number of
    tickets counted in the container: it must equal the valid tickets sold
    (T7, L13). An imported draw (`is_imported`) has no tickets: its total is
    `ticket_sales`. The prizes must stay within the prize board (L3). The
    jackpot before is the event's (`jackpot_before` for a history import,
    which carries it from row to row, with the prizes `committed` by the rows
    before and the day `on` the draw was held, whose prize board and sales
    plan apply)."""
    counted = None
    if ticket_sales is not None and str(ticket_sales).strip() != "":
        counted = parse_amount(ticket_sales, what=gettext("The draw's ticket sales"))
    valid = void = None
    if draw.is_imported:
        if counted is None:
            raise RaffleError(gettext("An imported draw needs its ticket sales total."))
        total, container_count = counted, None
    else:
        container_count = _whole_number(container_count)
        check_no_roll_out(draw)  # R:T7 R:L13 every roll and book is back, or declared lost
        tickets = draw_sales_reconciliation(draw)
        valid, void, total = tickets.valid_tickets, tickets.void_tickets, tickets.sales
        if valid == 0:  # R:T7
            raise RaffleError(
                gettext(
                    "No valid ticket has been sold for draw %(number)s; sales cannot close on an empty pool. "
                    "Record the night's sales first."
                )
                % {"number": draw.number},
                rule="T7",
            )
        # R:T7 R:L13 R:D3 the tickets counted in the container are reconciled against the sales,
        # so every sold ticket is in the container the winner is drawn from.
        if container_count is not None and container_count != valid:
            raise RaffleError(
                gettext(
                    "The container holds %(container_count)s tickets but %(valid)s valid tickets were sold for "
                    "draw %(number)s. Recount, or find the missing sale, before closing."
                )
                % {"container_count": container_count, "valid": valid, "number": draw.number},
                rule="L13",
            )
        if counted is not None and counted != total:  # R:T11 sales are reconciled before the draw
            raise RaffleError(
                gettext(
                    "The tickets sold for draw %(number)s add up to %(total)s, but %(counted)s was counted. "
                    "Find the difference before closing sales."
                )
                % {"number": draw.number, "total": format_money_here(total), "counted": format_money_here(counted)},
                rule="T11",
            )
    event = draw.event
    split = split_sales(total, rounding=event.rounding)
    prize_board_check(event=event, extra_sales=split.sales, committed=committed, on=on)  # R:L3
    sales_plan_check(draw=draw, total=split.sales, on=on)  # R:L3 the approved maximum of this draw
    check_members_in_charge(draw)  # R:L13
    before = event.jackpot if jackpot_before is None else jackpot_before
    if before + split.jackpot_contribution > MAX_AMOUNT:
        raise RaffleError(
            gettext(
                "The jackpot would grow to %(value)s, more than this system can record (%(MAX_AMOUNT)s); "
                "check the ticket sales and the opening jackpot."
            )
            % {
                "value": format_money_here(before + split.jackpot_contribution),
                "MAX_AMOUNT": format_money_here(MAX_AMOUNT),
            }
        )
    return CloseSalesFigures(
        sales=split.sales,
        split=split,
        jackpot_before=before,
        jackpot_after=before + split.jackpot_contribution,
        valid_tickets=valid,
        void_tickets=void,
        container_count=container_count,
    )


def sales_close_write(*, event: Event, draw: Draw, figures: CloseSalesFigures) -> tuple[str, ...]:
    """Write the figures on the draw (saved by the caller, with the fields
    returned) and carry the jackpot on the event. Shared by the live close
    and the history import, so they can never disagree."""
    split = figures.split
    draw.ticket_sales = split.sales
    draw.draw_prize = split.draw_prize
    draw.jackpot_contribution = split.jackpot_contribution
    draw.licensee_share = split.licensee_share
    draw.rounding = split.rounding
    draw.draw_prize_percent = DRAW_PRIZE_PERCENT
    draw.jackpot_percent = JACKPOT_PERCENT
    draw.licensee_percent = LICENSEE_PERCENT
    draw.jackpot_before = figures.jackpot_before
    draw.jackpot_after = figures.jackpot_after
    event.jackpot = draw.jackpot_after
    event.save(update_fields=["jackpot"])
    return MONEY_FIELDS


@transaction.atomic
def draw_close_sales(*, actor, draw: Draw, ticket_sales=None, container_count=None, expected_sales=None) -> Draw:
    """Close sales and fix the draw's money for good (P1), at the figures of
    `close_sales_figures`. `expected_sales`, when given, is the total the
    volunteer was shown and confirmed: if the sales changed since (a sale or
    a void on another screen), nothing is closed."""
    event, draw, step = draw_machine.begin(draw, "close_sales")
    figures = close_sales_figures(draw, ticket_sales=ticket_sales, container_count=container_count)
    if expected_sales is not None and str(expected_sales).strip() != "":
        shown = parse_amount(expected_sales, what=gettext("The total shown"))
        if shown != figures.sales:  # R:P1 close only at the total that was shown
            raise RaffleError(
                gettext(
                    "The sales of draw %(number)s changed since the figures were shown: they now add up to "
                    "%(sales)s, not %(shown)s. Nothing was closed; check the new figures."
                )
                % {"number": draw.number, "sales": format_money_here(figures.sales), "shown": format_money_here(shown)},
                rule="P1",
            )
    fields = sales_close_write(event=event, draw=draw, figures=figures)
    pool_data = {}
    if not draw.is_imported:
        pool = pool_fix(draw=draw, figures=figures)
        pool_data = {
            "valid_tickets": pool.valid_tickets,
            "void_tickets": pool.void_tickets,
            "first_serial": pool.first_serial,
            "last_serial": pool.last_serial,
            "container_count": pool.container_count,
        }
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=fields,
        data={**{name: getattr(draw, name) for name in fields}, **pool_data},
    )


@transaction.atomic
def draw_announce(*, actor, draw: Draw) -> Draw:
    """R:D1 the sales, the draw prize and the jackpot are announced before the draw."""
    event, draw, step = draw_machine.begin(draw, "announce")
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        data={"ticket_sales": draw.ticket_sales, "draw_prize": draw.draw_prize, "jackpot": draw.jackpot_after},
    )
