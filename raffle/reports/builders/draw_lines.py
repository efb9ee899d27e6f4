"""The per-draw detail both reports print, in a fixed number of queries
whatever the number of draws or tickets (RULES R1, T11, D4, D9, E3, P7)."""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.contrib.postgres.expressions import ArraySubquery
from django.db import connection
from django.db.models import OuterRef, Subquery, Sum
from django.db.models.functions import JSONObject

from core.money import ZERO
from raffle.cards import card_name
from raffle.models import (
    CardDestruction,
    Draw,
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
from raffle.reports.reconciliation import DEPOSIT_COLUMNS, deposit_columns


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


def _video_text(rows) -> str:
    """R:D4 where each recording is kept and who keeps it (`rows`: the draw's
    `video_rows`; the reference is the kept file's name, else its location, as
    DrawVideo.reference; keep_until comes as an ISO date)."""
    return "; ".join(
        f"{row['file'] or row['location']}, kept by {row['held_by']} until {row['keep_until']}" for row in rows or ()
    )


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


def draw_lines(draws: list[Draw], *, payments=None, unclaimed=None) -> list[DrawLine]:
    """The lines of `draws` (read by `closed_draws`). A report that has read
    the prize payments or the unclaimed prizes of the licence passes them (the
    final report prints no contact attempts, so its unclaimed prizes come
    without them)."""
    ids = [d.pk for d in draws]
    if payments is None:
        payments = PrizePayment.objects.filter(draw__in=ids)
    if unclaimed is None:
        unclaimed = UnclaimedPrize.objects.filter(draw__in=ids).prefetch_related("attempts")
    wanted = set(ids)
    payments_of: dict[int, list] = {}
    for p in payments:
        if p.draw_id in wanted:
            payments_of.setdefault(p.draw_id, []).append(p)
    unclaimed_of: dict[int, list] = {}
    for u in unclaimed:
        if u.draw_id in wanted:
            unclaimed_of.setdefault(u.draw_id, []).append(u)
    draws = _with_line_columns(draws)
    pools = {d.pk: d.pool for d in draws if hasattr(d, "pool")}  # R:T7 read with the draw
    must_go: dict[int, list] = {}
    # R:P7 only a must-go draw has holders of its re-drawn tickets.
    must_go_ids = [d.pk for d in draws if d.must_go]
    holders = MustGoTicket.objects.filter(draw__in=must_go_ids).select_related("envelope").prefetch_related("payments")
    for t in holders.order_by("draw_id", "sequence") if must_go_ids else ():
        must_go.setdefault(t.draw_id, []).append(t)
    tiers = _tiers(ids)
    lines = []
    for d in draws:
        card = d.envelope.card if d.envelope_id and d.envelope.is_open else ""
        pool = pools.get(d.pk)
        lines.append(
            DrawLine(
                draw=d,
                date=report_day(d),
                card=card,
                card_name=card_name(card) if card else "",
                destroyed_by=d.destroyed_by_name or "",
                verified_by=d.verified_by_name or "",
                destroyed_at=d.destroyed_at,
                video=_video_text(d.video_rows),
                payments=payments_of.get(d.pk, []),
                unclaimed=unclaimed_of.get(d.pk, []),
                held_at=held_at(d),
                tickets_sold=pool.valid_tickets if pool else None,
                void_count=pool.void_tickets if pool else None,
                void_serials=list(d.void_serials or ()),
                tiers=tiers.get(d.pk, []),
                must_go=must_go.get(d.pk, []),
                claimed_at=d.claimed_at,
            )
        )
    return lines


SCALAR_COLUMNS = ("first_advertised_at", "claimed_at", "destroyed_by_name", "verified_by_name", "destroyed_at")
ARRAY_COLUMNS = ("void_serials", "video_rows")


def _arrays_in_sql() -> bool:
    """PostgreSQL reads the array columns with the draws (ArraySubquery);
    SQLite (the demo) reads them in two more queries."""
    return connection.vendor == "postgresql"


def _column_names() -> tuple[str, ...]:
    return (*SCALAR_COLUMNS, *ARRAY_COLUMNS, *DEPOSIT_COLUMNS) if _arrays_in_sql() else SCALAR_COLUMNS


def _line_columns(queryset):
    """What each report line prints of a draw, read with it (see `closed_draws`)."""
    first_advertised = DrawPostponement.objects.filter(draw=OuterRef("pk")).order_by("recorded_at", "id")
    claim = WinnerSelection.objects.filter(draw=OuterRef("pk"), claimed_at__isnull=False, superseded_at__isnull=True)
    destruction = CardDestruction.objects.filter(draw=OuterRef("pk")).order_by("-pk")
    columns = {
        "first_advertised_at": Subquery(first_advertised.values("postponed_from")[:1]),  # R:D9
        "claimed_at": Subquery(claim.order_by("-pk").values("claimed_at")[:1]),  # R:T8
        "destroyed_by_name": Subquery(destruction.values("destroyed_by_name")[:1]),  # R:E3
        "verified_by_name": Subquery(destruction.values("verified_by_name")[:1]),
        "destroyed_at": Subquery(destruction.values("destroyed_at")[:1]),
    }
    if _arrays_in_sql():
        voided = Ticket.objects.of_draw(OuterRef("pk")).filter(is_void=True).order_by("pk")
        videos = DrawVideo.objects.filter(draw=OuterRef("pk")).order_by("recorded_at", "pk")
        video_row = JSONObject(file="file", location="location", held_by="held_by", keep_until="keep_until")
        columns["void_serials"] = ArraySubquery(voided.values("serial"))  # R:T11
        columns["video_rows"] = ArraySubquery(videos.values(row=video_row))  # R:D4
        columns.update(deposit_columns())  # R:L12
    return queryset.select_related("envelope", "pool", "supplier_settlement").annotate(**columns)


def _read_arrays(draws: list[Draw]) -> None:
    """The array columns in two queries, where the database cannot read them with the draws."""
    ids = [d.pk for d in draws]
    voids: dict[int, list[str]] = {}
    voided = Ticket.objects.filter(draw_id__in=ids, is_void=True).order_by("draw_id", "seq")
    for draw_id, serial in voided.values_list("draw_id", "serial"):
        voids.setdefault(draw_id, []).append(serial)
    videos: dict[int, list[dict]] = {}
    for v in DrawVideo.objects.filter(draw__in=ids).order_by("recorded_at", "pk"):
        row = {"file": v.file.name or "", "location": v.location, "held_by": v.held_by}
        videos.setdefault(v.draw_id, []).append({**row, "keep_until": v.keep_until.isoformat()})
    for d in draws:
        d.void_serials, d.video_rows = voids.get(d.pk, []), videos.get(d.pk, [])


def _with_line_columns(draws: list[Draw]) -> list[Draw]:
    """`draws` as `closed_draws` reads them: draws read another way are read
    again with the line's columns (one query), keeping any value set on them."""
    names = _column_names()
    if not all(all(name in d.__dict__ for name in names) for d in draws):
        fresh = {d.pk: d for d in _line_columns(Draw.objects.filter(pk__in=[d.pk for d in draws]))}
        for d in draws:
            for name in names:
                if name not in d.__dict__:
                    setattr(d, name, getattr(fresh[d.pk], name))
            for relation in ("pool", "supplier_settlement"):
                if hasattr(fresh[d.pk], relation):
                    setattr(d, relation, getattr(fresh[d.pk], relation))
    lacking = [d for d in draws if not all(name in d.__dict__ for name in ARRAY_COLUMNS)]
    if lacking:
        _read_arrays(lacking)
    return draws


def closed_draws(event: Event, numbers=None) -> list[Draw]:
    """The event's closed draws with what each line prints of them in the same
    query: the envelope, the pool (T7), the supplier's settlement (L12), the
    time first advertised (D9), the time the winner's claim was made (T8) and
    the card's destruction (E3: the last one logged, for a must-go draw)."""
    qs = _line_columns(Draw.objects.filter(event=event, state=DrawState.CLOSED))
    if numbers is not None:
        qs = qs.filter(number__in=list(numbers))
    draws = list(qs.order_by("number"))
    if not _arrays_in_sql() and draws:
        _read_arrays(draws)
    return draws
