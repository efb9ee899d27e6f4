"""What every sale's service shares beyond the sale path
(`raffle.services.sale_path`): the refusal before a channel amendment takes
effect (L5), the bingo hall's attestation (T12) and the sales' audit entry.
Used by the sale services (`tickets.py`) and the roll and book returns
(`rolls.py`)."""

from django.utils import timezone

from core.audit import audit_record
from licensing.models import LicenceAmendment, SalesChannel
from raffle.errors import RaffleError
from raffle.models import Draw, Sale
from raffle.services.pool import draw_place_of


def refuse_before_amendment(draw: Draw, pending: LicenceAmendment) -> None:
    raise RaffleError(
        f"Draw {draw.number} is on {timezone.localdate(draw.scheduled_at):%Y-%m-%d}, before the amendment to "
        f"{pending.get_to_channel_display().lower()} takes effect on {pending.effective_on:%Y-%m-%d}; sell "
        f"its tickets as {pending.get_from_channel_display().lower()}.",
        rule="L5",
    )


def check_bingo_sale(draw: Draw, *, channel: str, place: str = "") -> dict:
    """R:T12 a bingo revenue model event sells stub tickets only, inside its
    bingo hall only. Returns what the sale's audit entry records of it."""
    event = draw.event
    if not event.is_bingo:
        return {}
    hall = draw_place_of(draw).strip()  # R:L5 an amended draw place from its effective day
    if channel != SalesChannel.PAPER_STUB:
        raise RaffleError(
            f"{event} is a bingo revenue model event: it sells stub tickets only, inside "
            f"{hall}; {SalesChannel(channel).label.lower()} cannot be sold for it.",
            rule="T12",
        )
    if place.strip() and " ".join(place.split()).casefold() != " ".join(hall.split()).casefold():
        raise RaffleError(
            f"{event} is a bingo revenue model event: its tickets are sold inside {hall} only, not at {place.strip()}.",
            rule="T12",
        )
    return {"place": hall}


def audit_sales(*, actor, draw: Draw, sales: list[Sale], action: str, data: dict | None = None) -> None:
    if len(sales) == 1:
        sale = sales[0]
        audit_record(
            actor=actor,
            action=action,
            obj=sale,
            data={
                "draw": draw.number,
                "channel": sale.channel,
                "tickets": sale.ticket_count,
                "amount": sale.amount,
                "envelope_pick": sale.envelope_pick,
                "device": sale.device,
                **(data or {}),
            },
        )
    else:
        audit_record(
            actor=actor,
            action=action,
            obj=draw,
            data={
                "draw": draw.number,
                "sales": len(sales),
                "tickets": sum(s.ticket_count for s in sales),
                "amount": sum(s.amount for s in sales),
                **(data or {}),
            },
        )
