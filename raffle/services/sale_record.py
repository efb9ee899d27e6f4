"""What every sale's service shares beyond the sale path
(`raffle.services.sale_path`): the refusal before a channel amendment takes
effect (L5), the bingo hall's attestation (T12) and the sales' audit entry.
Used by the sale services (`tickets.py`) and the roll and book returns
(`rolls.py`)."""

from django.utils import timezone
from django.utils.translation import gettext

from core.audit import LockedHead, audit_record
from licensing.models import LicenceAmendment, SalesChannel
from raffle.errors import RaffleError
from raffle.models import Draw, Sale
from raffle.services.pool import draw_place_of


def refuse_before_amendment(draw: Draw, pending: LicenceAmendment) -> None:
    raise RaffleError(
        gettext(
            "Draw %(number)s is on %(localdate)s, before the amendment to %(lower)s takes effect on "
            "%(effective_on)s; sell its tickets as %(lower2)s."
        )
        % {
            "number": draw.number,
            "localdate": format(timezone.localdate(draw.scheduled_at), "%Y-%m-%d"),
            "lower": pending.get_to_channel_display().lower(),
            "effective_on": format(pending.effective_on, "%Y-%m-%d"),
            "lower2": pending.get_from_channel_display().lower(),
        },
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
            gettext(
                "%(event)s is a bingo revenue model event: it sells stub tickets only, inside %(hall)s; "
                "%(lower)s cannot be sold for it."
            )
            % {"event": event, "hall": hall, "lower": SalesChannel(channel).label.lower()},
            rule="T12",
        )
    if place.strip() and " ".join(place.split()).casefold() != " ".join(hall.split()).casefold():
        raise RaffleError(
            gettext(
                "%(event)s is a bingo revenue model event: its tickets are sold inside %(hall)s only, not at %(strip)s."
            )
            % {"event": event, "hall": hall, "strip": place.strip()},
            rule="T12",
        )
    return {"place": hall}


def audit_sales(
    *,
    actor,
    draw: Draw,
    sales: list[Sale],
    action: str,
    data: dict | None = None,
    locked_head: LockedHead | None = None,
) -> None:
    # the organisation of the licence the sale already read: its chain, without reading the licence again (#18)
    organisation = draw.event.licence.organisation_id
    if len(sales) == 1:
        sale = sales[0]
        audit_record(
            actor=actor,
            action=action,
            obj=sale,
            organisation=organisation,
            locked_head=locked_head,  # read by the sale's own statement (`write_sales`), else read here
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
            organisation=organisation,
            data={
                "draw": draw.number,
                "sales": len(sales),
                "tickets": sum(s.ticket_count for s in sales),
                "amount": sum(s.amount for s in sales),
                **(data or {}),
            },
        )
