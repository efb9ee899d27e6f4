"""The per-draw detail both reports print, in a fixed number of queries
whatever the number of draws or tickets (RULES R1, T11, D4, D9, E3, P7)."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.db.models import OuterRef, Subquery, Sum

from core.money import ZERO
from raffle.cards import card_name
from raffle.models import (
    CardDestruction,
    Draw,
    DrawPool,
    DrawPostponement,
    DrawState,
    DrawVideo,
    Event,
    MustGoTicket,
    PrizePayment,
    Sale,
    Ticket,
    UnclaimedPrize,
    WinnerSelection,
)
from raffle.reports.builders.periods import held_at, report_day


@dataclass
class TierSale:
    """R:T11 the sales of one price tier in one draw (voids excluded)."""

    quantity: int
    price: Decimal
    units: int
    tickets: int
    amount: Decimal

    @property
    def label(self) -> str:
        return f"{self.quantity} for ${self.price:,.2f}"


@dataclass
class DrawLine:
    draw: Draw
    date: datetime.date
    card: str
    card_name: str
    destroyed_by: str
    verified_by: str
    destroyed_at: datetime.datetime | None
    video: str
    payments: list[PrizePayment]
    unclaimed: list[UnclaimedPrize]
    held_at: datetime.datetime | None = None
    tickets_sold: int | None = None
    void_count: int | None = None
    void_serials: list[str] = field(default_factory=list)
    tiers: list[TierSale] = field(default_factory=list)
    must_go: list[MustGoTicket] = field(default_factory=list)
    claimed_at: datetime.datetime | None = None

    @property
    def outcome(self) -> str:
        return self.draw.outcome

    @property
    def scheduled_at(self) -> datetime.datetime:
        """R:D9 the date and time first advertised (before any postponement;
        `closed_draws` reads it with the draw)."""
        return getattr(self.draw, "first_advertised_at", None) or self.draw.scheduled_at

    @property
    def postponed(self) -> bool:
        """R:D9 the draw was postponed (to `postponed_to`)."""
        return bool(getattr(self.draw, "first_advertised_at", None))

    @property
    def postponed_to(self) -> datetime.datetime | None:
        """The last date and time it was postponed to: the time it was advertised for last."""
        return self.draw.scheduled_at if self.postponed else None

    @property
    def must_go_shares(self) -> Decimal:
        return sum((t.draw_prize_share or ZERO for t in self.must_go if not t.is_ace), ZERO)


def _videos(ids) -> dict[int, str]:
    """R:D4 where each recording is kept and who keeps it."""
    out: dict[int, list[str]] = {}
    for video in DrawVideo.objects.filter(draw__in=ids).order_by("recorded_at"):
        out.setdefault(video.draw_id, []).append(
            f"{video.reference}, kept by {video.held_by} until {video.keep_until:%Y-%m-%d}"
        )
    return {pk: "; ".join(values) for pk, values in out.items()}


def _tiers(ids) -> dict[int, list[TierSale]]:
    out: dict[int, list[TierSale]] = {}
    rows = (
        Sale.objects.filter(draw__in=ids, voided_at__isnull=True)
        .values("draw_id", "tier__quantity", "tier__price")
        .annotate(units=Sum("units"), tickets=Sum("ticket_count"), amount=Sum("amount"))
        .order_by("draw_id", "tier__price")
    )
    for row in rows:
        out.setdefault(row["draw_id"], []).append(
            TierSale(row["tier__quantity"], row["tier__price"], row["units"], row["tickets"], row["amount"])
        )
    return out


def draw_lines(draws: list[Draw]) -> list[DrawLine]:
    ids = [d.pk for d in draws]
    destructions = {c.draw_id: c for c in CardDestruction.objects.filter(draw__in=ids)}
    payments: dict[int, list] = {}
    for p in PrizePayment.objects.filter(draw__in=ids):
        payments.setdefault(p.draw_id, []).append(p)
    unclaimed: dict[int, list] = {}
    for u in UnclaimedPrize.objects.filter(draw__in=ids).prefetch_related("attempts"):
        unclaimed.setdefault(u.draw_id, []).append(u)
    pools = {p.draw_id: p for p in DrawPool.objects.filter(draw__in=ids)}
    voids: dict[int, list[str]] = {}
    for draw_id, serial in (
        Ticket.objects.filter(sale__draw__in=ids, sale__voided_at__isnull=False)
        .order_by("sale__draw_id", "seq")
        .values_list("sale__draw_id", "serial")
    ):
        voids.setdefault(draw_id, []).append(serial)
    must_go: dict[int, list] = {}
    holders = MustGoTicket.objects.filter(draw__in=ids).select_related("envelope").prefetch_related("payments")
    for t in holders.order_by("draw_id", "sequence"):
        must_go.setdefault(t.draw_id, []).append(t)
    claims = dict(
        WinnerSelection.objects.filter(draw__in=ids, claimed_at__isnull=False, superseded_at__isnull=True).values_list(
            "draw_id", "claimed_at"
        )
    )
    tiers = _tiers(ids)
    videos = _videos(ids)
    lines = []
    for d in draws:
        card = d.envelope.card if d.envelope_id and d.envelope.is_open else ""
        destruction = destructions.get(d.pk)
        pool = pools.get(d.pk)
        lines.append(
            DrawLine(
                draw=d,
                date=report_day(d),
                card=card,
                card_name=card_name(card) if card else "",
                destroyed_by=destruction.destroyed_by_name if destruction else "",
                verified_by=destruction.verified_by_name if destruction else "",
                destroyed_at=destruction.destroyed_at if destruction else None,
                video=videos.get(d.pk, ""),
                payments=payments.get(d.pk, []),
                unclaimed=unclaimed.get(d.pk, []),
                held_at=held_at(d),
                tickets_sold=pool.valid_tickets if pool else None,
                void_count=pool.void_tickets if pool else None,
                void_serials=voids.get(d.pk, []),
                tiers=tiers.get(d.pk, []),
                must_go=must_go.get(d.pk, []),
                claimed_at=claims.get(d.pk),
            )
        )
    return lines


def closed_draws(event: Event, numbers=None) -> list[Draw]:
    first_advertised = DrawPostponement.objects.filter(draw=OuterRef("pk")).order_by("recorded_at", "id")
    qs = (
        Draw.objects.filter(event=event, state=DrawState.CLOSED)
        .select_related("envelope")
        .annotate(first_advertised_at=Subquery(first_advertised.values("postponed_from")[:1]))  # R:D9
    )
    if numbers is not None:
        qs = qs.filter(number__in=list(numbers))
    return list(qs.order_by("number"))
