"""The draw's first steps (RULES D8): open ticket sales, close them (the
draw's money fixed for good, P1), announce. Each goes through the draw
machine (`raffle.services.draw_machine`)."""

import datetime

from django.db import transaction

from core.money import DRAW_PRIZE_PERCENT, JACKPOT_PERCENT, LICENSEE_PERCENT, parse_amount, split_sales
from licensing.models import LicenceStatus
from raffle.errors import RaffleError, TransitionNotAllowed
from raffle.models import Draw, DrawState
from raffle.services import draw_machine
from raffle.services.events import event_check_ready_to_sell
from raffle.services.pool import pool_fix
from raffle.services.prize_board import prize_board_check


@transaction.atomic
def draw_open_sales(*, actor, draw: Draw, today: datetime.date | None = None) -> Draw:
    event, draw, step = draw_machine.begin(draw, "open_sales")
    licence = event.licence
    if licence.status != LicenceStatus.ACTIVE or licence.is_expired(today):
        raise RaffleError(f"Licence {licence.number} is not in force; no tickets may be sold under it.")
    event_check_ready_to_sell(event)  # R:T12
    # R:T11 the previous draw finishes before the next draw's sales start.
    unfinished = event.draws.filter(number__lt=draw.number).exclude(state=DrawState.CLOSED).first()
    if unfinished:
        raise TransitionNotAllowed(
            f"Draw {unfinished.number} is not finished yet; finish it before selling for draw {draw.number}.",
            rule="T11",
        )
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        data={},
    )


@transaction.atomic
def draw_close_sales(*, actor, draw: Draw, ticket_sales=None, container_count=None) -> Draw:
    """Close sales and fix the draw's money for good (P1): the sales total comes
    from the draw's valid tickets (their tier prices; voids excluded), then the
    20/30/50 split by the event's rounding rule and the jackpot before and after.

    `ticket_sales`, when given, is the reconciled cash count: it must equal the
    tickets' total (T11). `container_count` (paper) is the number of tickets
    counted in the container: it must equal the valid tickets sold (T7, L13).
    An imported draw (`is_imported`) has no tickets: its total is `ticket_sales`.
    """
    event, draw, step = draw_machine.begin(draw, "close_sales")
    counted = None
    if ticket_sales is not None and str(ticket_sales).strip() != "":
        counted = parse_amount(ticket_sales, what="The draw's ticket sales")
    if draw.is_imported:
        if counted is None:
            raise RaffleError("An imported draw needs its ticket sales total.")
        total = counted
    else:
        if container_count is not None and str(container_count).strip() != "":
            try:
                container_count = int(str(container_count).strip())
            except ValueError:
                raise RaffleError("The container count must be a whole number of tickets.") from None
        else:
            container_count = None
        pool = pool_fix(draw=draw, container_count=container_count)
        total = pool.sales_total
        if counted is not None and counted != total:  # R:T11 sales are reconciled before the draw
            raise RaffleError(
                f"The tickets sold for draw {draw.number} add up to ${total:,.2f}, but "
                f"${counted:,.2f} was counted. Find the difference before closing sales.",
                rule="T11",
            )
    split = split_sales(total, rounding=event.rounding)
    prize_board_check(event=event, extra_sales=split.sales)  # R:L3
    draw.ticket_sales = split.sales
    draw.draw_prize = split.draw_prize
    draw.jackpot_contribution = split.jackpot_contribution
    draw.licensee_share = split.licensee_share
    draw.rounding = split.rounding
    draw.draw_prize_percent = DRAW_PRIZE_PERCENT
    draw.jackpot_percent = JACKPOT_PERCENT
    draw.licensee_percent = LICENSEE_PERCENT
    draw.jackpot_before = event.jackpot
    draw.jackpot_after = event.jackpot + split.jackpot_contribution
    event.jackpot = draw.jackpot_after
    event.save(update_fields=["jackpot"])
    money = (
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
    pool_data = (
        {}
        if draw.is_imported
        else {
            "valid_tickets": draw.pool.valid_tickets,
            "void_tickets": draw.pool.void_tickets,
            "first_serial": draw.pool.first_serial,
            "last_serial": draw.pool.last_serial,
            "container_count": draw.pool.container_count,
        }
    )
    return draw_machine.advance(
        actor=actor,
        draw=draw,
        step=step,
        fields=money,
        data={**{name: getattr(draw, name) for name in money}, **pool_data},
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
