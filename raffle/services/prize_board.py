"""The prize board and sales plan guards (RULES L3, L9 decision).

The prizes of an event are its seed jackpot (P6) and what its sales created:
each draw's 20% draw prize plus its 30% jackpot allocation. They may never pass the licence's prize
board. `prize_board_check` is the one place that refuses a draw's sales close
or a ticket sale that would carry them past it; call it inside the service's
transaction, after locking the event.
"""

import datetime
from decimal import Decimal

from django.db.models import DecimalField, Exists, F, OuterRef, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core.money import ZERO, format_money_here, max_sales_for_prizes, parse_amount, prizes_of
from licensing.models import AmendmentKind, PlannedDraw
from licensing.terms import approved_amendments, licence_prize_board_on, licence_sales_plan_on
from raffle.errors import RaffleError
from raffle.models import Draw, Event

# Named in a refusal only: translated then, not on every sale (#18).
THE_SALES = gettext_lazy("The sales")


def prizes_committed(event: Event) -> Decimal:
    """The prizes fixed so far: the seed jackpot (P6), then the draw prizes
    and jackpot allocations of every draw whose sales are closed (stored on
    the draw, never recomputed)."""
    total = Draw.objects.filter(event=event, ticket_sales__isnull=False).aggregate(
        prizes=Sum(F("draw_prize") + F("jackpot_contribution"))
    )["prizes"]
    # R:P6 R:L3 the seed counts in the prize board.
    return event.seed_jackpot + (total if total is not None else ZERO)


def sale_columns() -> dict:
    """What a sale reads with its draw, in the draw's own query (#18): the
    prizes committed by the event's closed draws (as `prizes_committed`,
    without the seed) and the application's sales plan line for the draw
    (`has_plan`: the licence has a plan at all)."""
    money = DecimalField(max_digits=14, decimal_places=2)
    committed = (
        Draw.objects.filter(event=OuterRef("event"), ticket_sales__isnull=False)
        .order_by()
        .values("event")
        .annotate(prizes=Sum(F("draw_prize") + F("jackpot_contribution")))
        .values("prizes")
    )
    planned = PlannedDraw.objects.filter(application__licence=OuterRef("event__licence")).order_by()
    return {
        "committed_prizes": Subquery(committed, output_field=money),
        "planned_max": Subquery(planned.filter(number=OuterRef("number")).values("max_sales")[:1], output_field=money),
        "has_plan": Exists(planned),
    }


def sale_prizes_committed(draw: Draw) -> Decimal:
    """R:P6 R:L3 `prizes_committed` from the draw's `sale_columns` when it was read with them."""
    if not hasattr(draw, "committed_prizes"):
        return prizes_committed(draw.event)
    return draw.event.seed_jackpot + (draw.committed_prizes if draw.committed_prizes is not None else ZERO)


def prize_board_check(
    *, event: Event, extra_sales, on: datetime.date | None = None, committed: Decimal | None = None
) -> Decimal:
    """R:L3 refuse sales that would carry the prizes past the prize board.

    `extra_sales` is the open draw's sales not yet counted: for a draw's sales
    close, its reconciled total; for a ticket sale, the draw's sales so far
    plus the tickets being sold. `on` is the day of the sale (default today):
    the prize board is the one in force that day, an approved amendment's
    from its effective date (L3, L5). `committed`: the prizes committed,
    when the caller read them already (a sale reads them before it locks the
    draw: only a draw's close moves them, and an event has one draw in
    progress at a time). Returns the prizes the sales would bring the
    event to. Raises `RaffleError` that says what to do.
    """
    extra_sales = parse_amount(extra_sales, what=THE_SALES)
    board = licence_prize_board_on(event.licence, on or timezone.localdate())
    committed = prizes_committed(event) if committed is None else committed
    total = committed + prizes_of(extra_sales, rounding=event.rounding)
    if total <= board:
        return total
    room = max_sales_for_prizes(board - committed, rounding=event.rounding)
    raise RaffleError(
        gettext(
            "Sales of %(format_money)s in this draw would bring the prizes to %(format_money2)s, past "
            "licence %(number)s's prize board of %(format_money3)s (prizes so far: "
            "%(format_money4)s%(seed_note)s). This draw can take at most %(format_money5)s in sales: "
            "stop selling, refund or void the tickets over that amount, and make this the must-go "
            "final draw so the event ends within its licence."
        )
        % {
            "format_money": format_money_here(extra_sales),
            "format_money2": format_money_here(total),
            "number": event.licence.number,
            "format_money3": format_money_here(board),
            "format_money4": format_money_here(committed),
            "seed_note": _seed_note(event),
            "format_money5": format_money_here(room),
        },
        rule="L3",
    )


def _seed_note(event: Event) -> str:
    if not event.seed_jackpot:
        return ""
    return gettext(", the seed jackpot of %(amount)s included") % {"amount": format_money_here(event.seed_jackpot)}


def sales_plan_max(*, draw: Draw, on: datetime.date | None = None) -> Decimal | None:
    """R:L3 the most the licence's approved sales plan lets this draw sell,
    on `on` (default today); None when the licence has no plan. A draw the
    plan does not list may sell nothing."""
    day = on or timezone.localdate()
    read = approved_amendments(draw.event.licence)
    if read is not None and hasattr(draw, "has_plan") and read.latest(AmendmentKind.SCHEDULE, day) is None:
        # the application's plan, read with the draw (`sale_columns`): no schedule amendment is in force
        if not draw.has_plan:
            return None
        return draw.planned_max if draw.planned_max is not None else ZERO
    plan = licence_sales_plan_on(draw.event.licence, day)
    if plan is None:
        return None
    return plan.get(draw.number, ZERO)


def sales_plan_check(*, draw: Draw, total, on: datetime.date | None = None, planned=...) -> None:
    """R:L3 refuse sales that would carry a draw past the approved sales plan's
    maximum for it: the same guard and message on every channel (roll
    returns, stub sales, device and supplier imports), at the close of sales
    and in history imports. `total` is the draw's valid sales with the ones
    being recorded; `planned`, the maximum when the caller read it already."""
    total = parse_amount(total, what=THE_SALES)
    planned = sales_plan_max(draw=draw, on=on) if planned is ... else planned
    if planned is None or total <= planned:
        return
    licence = draw.event.licence
    if not planned:
        raise RaffleError(
            gettext(
                "Draw %(number)s is not in licence %(number2)s's approved sales plan, so no ticket can be "
                "sold for it. Ask the licensing authority to amend the draw schedule and sales plan first."
            )
            % {"number": draw.number, "number2": licence.number},
            rule="L3",
        )
    raise RaffleError(
        gettext(
            "Sales of %(format_money)s in draw %(number)s would pass licence %(number2)s's approved "
            "sales plan, which allows at most %(format_money2)s for this draw. Stop selling, and "
            "refund or void the tickets over that amount."
        )
        % {
            "format_money": format_money_here(total),
            "number": draw.number,
            "number2": licence.number,
            "format_money2": format_money_here(planned),
        },
        rule="L3",
    )
