"""Reads behind the pages and reports, each a fixed number of queries."""

import datetime
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Q, Sum
from django.utils import timezone

from core.money import average_amount, percent_used
from raffle.cards import ACE_OF_SPADES, card_name, card_symbol
from raffle.models import Draw, DrawState, Envelope, Event


def event_list():
    return Event.objects.select_related("licence", "licence__organisation").order_by("-created_at")


def current_draw(event: Event) -> Draw | None:
    """The draw under way, else the next scheduled one, else the last one."""
    draws = Draw.objects.filter(event=event)
    return (
        draws.exclude(state__in=[DrawState.SCHEDULED, DrawState.CLOSED]).first()
        or draws.filter(state=DrawState.SCHEDULED).order_by("number").first()
        or draws.order_by("-number").first()
    )


def event_summary(event: Event) -> dict:
    totals = Draw.objects.filter(event=event).aggregate(
        draws_closed=Count("pk", filter=Q(state=DrawState.CLOSED)),
        ticket_sales=Sum("ticket_sales"),
        draw_prizes=Sum("draw_prize"),
        jackpot_contributions=Sum("jackpot_contribution"),
        licensee_shares=Sum("licensee_share"),
    )
    envelopes = Envelope.objects.filter(event=event).aggregate(left=Count("pk", filter=Q(opened_at__isnull=True)))
    return {**totals, "envelopes_left": envelopes["left"]}


def envelope_board(event: Event) -> list[Envelope]:
    return list(Envelope.objects.filter(event=event).order_by("number"))


def draw_history(event: Event):
    return Draw.objects.filter(event=event).select_related("envelope").order_by("number")


# --- Draw night, the public board and the event dashboard -------------------


def _current_of(draws) -> Draw | None:
    """Among draws ordered by number: the one under way, else the first
    scheduled, else the last."""
    draws = list(draws)
    return (
        next((d for d in draws if d.state not in (DrawState.SCHEDULED, DrawState.CLOSED)), None)
        or next((d for d in draws if d.state == DrawState.SCHEDULED), None)
        or (draws[-1] if draws else None)
    )


def public_board(event_id: int) -> dict | None:
    """Everything the public envelope board shows, in three queries whatever
    the event's size: the event with its licence, its 52 envelopes (with the
    draw each was opened in), and its draws not yet closed. It reads the
    figures stored on the event and the draws; ticket rows never enter it."""
    event = (
        Event.objects.select_related("licence__organisation")
        .only(
            "pk",
            "name",
            "status",
            "jackpot",
            "concluded_at",
            "draw_place",
            "deck_kind",
            "licence__number",
            "licence__authority_name",
            "licence__organisation__name",
        )
        .filter(pk=event_id)
        .first()
    )
    if event is None:
        return None
    envelopes = list(
        Envelope.objects.filter(event_id=event.pk)
        .select_related("opened_in_draw")
        .only(
            "pk",
            "number",
            "card",
            "opened_at",
            "opened_in_draw__number",
            "opened_in_draw__winning_serial",
            "opened_in_draw__draw_prize",
            "opened_in_draw__jackpot_after",
            "opened_in_draw__outcome",
            "opened_in_draw__jackpot_awarded",
            "opened_in_draw__scheduled_at",
        )
        .order_by("number")
    )
    open_draws = list(
        Draw.objects.filter(event_id=event.pk)
        .exclude(state=DrawState.CLOSED)
        .select_related("envelope")
        .only(
            "pk",
            "number",
            "state",
            "scheduled_at",
            "ticket_sales",
            "draw_prize",
            "jackpot_after",
            "winning_serial",
            "envelope__number",
            "envelope__card",
            "envelope__opened_at",
        )
        .order_by("number")[:2]
    )
    current = _current_of(open_draws)
    opened = [e for e in envelopes if e.is_open]
    latest = max(opened, key=lambda e: e.opened_at) if opened else None
    chosen_id = current.envelope_id if current is not None else None
    return {
        "event": event,
        "envelopes": envelopes,
        "tiles": [_envelope_tile(e, chosen=e.pk == chosen_id) for e in envelopes],
        "envelopes_left": len(envelopes) - len(opened),
        "current": current,
        "latest": latest,
        "latest_draw": latest.opened_in_draw if latest else None,
    }


def _envelope_tile(envelope: Envelope, *, chosen: bool) -> dict:
    """What one envelope on the board shows, worked out once here rather than
    in the template (52 of them on every refresh)."""
    n = envelope.number
    if envelope.is_open:
        suit = envelope.card[-1]
        return {
            "number": n,
            "face": card_symbol(envelope.card),
            "css": f"open suit-{suit}{' ace' if envelope.card == ACE_OF_SPADES else ''}",
            "label": f"Envelope {n}: opened, {card_name(envelope.card)}",
        }
    if chosen:
        return {"number": n, "face": "", "css": "sealed chosen", "label": f"Envelope {n}: chosen, about to be opened"}
    return {"number": n, "face": "", "css": "sealed", "label": f"Envelope {n}: sealed"}


def event_dashboard(event: Event) -> dict:
    """The staff dashboard: totals (two aggregate queries), every draw with
    its envelope (one query) and the current draw taken from that list."""
    draws = list(draw_history(event))
    return {
        "summary": event_summary(event),
        "draws": draws,
        "current": _current_of(draws),
    }


def draws_for_night():
    """Draws with what every draw-night screen shows (event, licence, envelope)."""
    return Draw.objects.select_related("event__licence__organisation", "envelope")


# --- Integrity registers (issue 5) ---------------------------------------


def deck_commitments(event: Event) -> list[dict]:
    """R:E4 the electronic deck's published commitments, in envelope order,
    for the public board and the PDF. The card and the salt are included for
    opened envelopes only; a sealed envelope's never leave this function."""
    from raffle.models import DeckCommitment

    rows = (
        DeckCommitment.objects.filter(envelope__event=event)
        .order_by("envelope__number")
        .values("envelope__number", "commitment", "salt", "envelope__card", "envelope__opened_at")
    )
    return [
        {
            "number": row["envelope__number"],
            "commitment": row["commitment"],
            "opened": row["envelope__opened_at"] is not None,
            "card": row["envelope__card"] if row["envelope__opened_at"] is not None else "",
            "salt": row["salt"] if row["envelope__opened_at"] is not None else "",
        }
        for row in rows
    ]


def destruction_log(event: Event):
    """R:E3 the card destruction/deletion log of an event, in draw order."""
    from raffle.models import CardDestruction

    return (
        CardDestruction.objects.filter(draw__event=event)
        .select_related("draw", "envelope", "recorded_by")
        .order_by("draw__number")
    )


def draws_needing_video(event: Event):
    """R:D4 paper draws that have taken place (the card was revealed) and have
    no registered recording. Empty for an electronic deck."""
    from raffle.models import DeckKind

    if event.deck_kind != DeckKind.PAPER:
        return Draw.objects.none()
    return Draw.objects.filter(event=event, card_revealed_at__isnull=False, videos__isnull=True).order_by("number")


def video_register_rows(event: Event):
    from raffle.models import DrawVideo

    return (
        DrawVideo.objects.filter(draw__event=event)
        .select_related("draw", "recorded_by")
        .order_by("draw__number", "recorded_at")
    )


def registrar_register(event: Event):
    from raffle.models import RegistrarNotification

    return (
        RegistrarNotification.objects.filter(event=event).select_related("recorded_by").order_by("-notified_at", "-id")
    )


# R:L3 the prize board forecast shown on the dashboard.
PRIZE_BOARD_WARNING_PERCENT = Decimal("75")
PRIZE_BOARD_DANGER_PERCENT = Decimal("90")
# The pace of the forecast: the mean prizes of this many latest closed draws
# (Catch the Ace sales grow with the jackpot, so recent draws say most).
FORECAST_RECENT_DRAWS = 3


@dataclass(frozen=True)
class PrizeBoardForecast:
    prize_board: Decimal
    prizes_so_far: Decimal
    percent_used: Decimal
    level: str  # "ok", "warning" (75% or more), "danger" (90% or more), "reached"
    pace: Decimal  # prizes per draw at the recent pace
    draws_left: int  # draws the schedule still holds before the licence expires
    next_draw_number: int
    reach_draw_number: int | None  # the draw whose prizes would pass the board
    reach_date: datetime.date | None
    prizes_at_expiry: Decimal  # at the recent pace, if every scheduled draw is held

    @property
    def headroom(self) -> Decimal:
        return self.prize_board - self.prizes_so_far

    @property
    def must_go_due(self) -> str:
        """R:P7 why the next draw should be the must-go final draw, if it should."""
        if self.level == "reached" or self.reach_draw_number == self.next_draw_number:
            return "prize_board"
        if self.draws_left == 1:
            return "licence_expiry"
        return ""

    @property
    def message(self) -> str:
        if self.must_go_due == "licence_expiry":
            return (
                f"Draw {self.next_draw_number} is the last draw before the licence expires: make it the "
                "must-go final draw."
            )
        if self.reach_draw_number is not None and self.reach_draw_number == self.next_draw_number:
            return (
                f"At the recent pace the prizes pass the prize board in the next draw, draw "
                f"{self.next_draw_number}: make it the must-go final draw and stop selling at the room left."
            )
        if self.level == "reached":
            return (
                "The prizes have reached the prize board: no more sales can be taken. Run the must-go final draw now."
            )
        if self.reach_draw_number is None:
            return "At the recent pace the prizes stay within the prize board until the licence expires."
        text = (
            f"At the recent pace the prizes pass the prize board in draw {self.reach_draw_number}"
            f"{f' ({self.reach_date:%Y-%m-%d})' if self.reach_date else ''}."
        )
        if self.level != "ok":
            text += (
                " Plan the must-go final draw for the draw before it, and watch each draw's sales "
                "against the room left."
            )
        return text


def prize_board_forecast(event: Event) -> PrizeBoardForecast:
    """From the actual sales so far and the schedule ahead: how much of the
    prize board the prizes use, and in which draw they would pass it."""
    from raffle.services.prize_board import prizes_committed

    licence = event.licence
    board = licence.prize_board
    so_far = prizes_committed(event)
    closed = list(
        Draw.objects.filter(event=event, ticket_sales__isnull=False)
        .order_by("-number")
        .values_list("number", "draw_prize", "jackpot_contribution")[:FORECAST_RECENT_DRAWS]
    )
    pace = average_amount([prize + jackpot for _, prize, jackpot in closed])
    last_number = closed[0][0] if closed else 0
    next_draw = Draw.objects.filter(event=event, number=last_number + 1).only("scheduled_at").first()
    interval = datetime.timedelta(days=event.draw_interval_days)
    if next_draw is not None:
        next_date = timezone.localdate(next_draw.scheduled_at)
    else:
        next_date = timezone.localdate(event.first_draw_at) + interval * last_number
    draws_left = 0 if next_date > licence.expires_on else (licence.expires_on - next_date) // interval + 1
    if event.is_concluded:
        draws_left = 0
    percent = percent_used(so_far, board)
    reach_number = reach_date = None
    if pace > 0:
        ahead = int((board - so_far) // pace) + 1  # the first draw whose prizes pass the board
        if ahead <= draws_left:
            reach_number = last_number + ahead
            reach_date = next_date + interval * (ahead - 1)
    if so_far >= board:
        level = "reached"
    elif percent >= PRIZE_BOARD_DANGER_PERCENT:
        level = "danger"
    elif percent >= PRIZE_BOARD_WARNING_PERCENT:
        level = "warning"
    else:
        level = "ok"
    return PrizeBoardForecast(
        prize_board=board,
        prizes_so_far=so_far,
        percent_used=percent,
        level=level,
        pace=pace,
        draws_left=draws_left,
        next_draw_number=last_number + 1,
        reach_draw_number=reach_number,
        reach_date=reach_date,
        prizes_at_expiry=so_far + pace * draws_left,
    )


# --- Draw night (issue 4 meets real tickets, issue 3) --------------------


@dataclass(frozen=True)
class SalesReconciliation:
    """What closing a draw's sales would fix, read from its tickets (P1, T7,
    T11): nothing is written. `split` is None while no valid ticket is sold."""

    valid_tickets: int
    void_tickets: int
    sales: Decimal
    split: object  # core.money.Split | None
    jackpot_before: Decimal
    jackpot_after: Decimal | None


def draw_sales_reconciliation(draw: Draw) -> SalesReconciliation:
    """R:P1 the figures the close-sales screen shows before anything is fixed:
    the draw's valid and void tickets and the total of its valid sales (two
    aggregate queries, as `pool_fix` counts them), the 20/30/50 split by the
    event's rounding and the jackpot after."""
    from core.money import ZERO, split_sales
    from raffle.models import Sale, Ticket

    counts = Ticket.objects.filter(draw=draw).aggregate(total=Count("id"), void=Count("id", filter=Q(is_void=True)))
    sales = Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(s=Sum("amount"))["s"] or ZERO
    valid = counts["total"] - counts["void"]
    split = split_sales(sales, rounding=draw.event.rounding) if valid else None
    jackpot = draw.event.jackpot
    return SalesReconciliation(
        valid_tickets=valid,
        void_tickets=counts["void"],
        sales=sales,
        split=split,
        jackpot_before=jackpot,
        jackpot_after=jackpot + split.jackpot_contribution if split else None,
    )


def winning_sale(draw: Draw):
    """The sale behind the draw's current winning ticket (its purchaser's name,
    contact and envelope pick), or None (an imported draw, or none drawn yet)."""
    from raffle.models import WinnerSelection

    selection = (
        WinnerSelection.objects.filter(draw=draw, superseded_at__isnull=True).select_related("ticket__sale").first()
    )
    return selection.ticket.sale if selection else None


@dataclass(frozen=True)
class RollWinnerClaim:
    """R:T8 the current winning roll ticket of a draw and its claim period."""

    serial: str
    drawn_at: datetime.datetime
    claim_by: datetime.datetime
    claimed_at: datetime.datetime | None
    attempt: int
    prize_paid_on: datetime.date | None = None

    @property
    def may_redraw(self) -> bool:
        return self.claimed_at is None and self.prize_paid_on is None and timezone.now() >= self.claim_by


def roll_winner_claim(draw: Draw) -> RollWinnerClaim | None:
    """The claim of a finished roll-ticket draw's winner (roll tickets carry no
    name, so the holder must come forward); None for other draws."""
    from licensing.models import SalesChannel
    from raffle.models import PrizeKind, PrizePayment, WinnerSelection

    if draw.state != DrawState.CLOSED or draw.event.licence.sales_channel != SalesChannel.PAPER_ROLL:
        return None
    selection = WinnerSelection.objects.filter(draw=draw, superseded_at__isnull=True).select_related("ticket").first()
    if selection is None:
        return None
    return RollWinnerClaim(
        serial=selection.ticket.serial,
        drawn_at=selection.selected_at,
        attempt=selection.attempt,
        claim_by=selection.selected_at + datetime.timedelta(days=draw.event.claim_period_days),
        claimed_at=selection.claimed_at,
        prize_paid_on=PrizePayment.objects.filter(draw=draw, kind=PrizeKind.DRAW_PRIZE)
        .values_list("paid_on", flat=True)
        .first(),
    )
