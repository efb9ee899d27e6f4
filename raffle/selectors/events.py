"""Reads behind the event pages and the staff dashboard, each a fixed number of queries."""

from django.db.models import Count, OuterRef, Q, Subquery, Sum

from raffle.models import Draw, DrawPostponement, DrawState, Envelope, Event


def event_list():
    # The trust account (one-to-one, may be missing) too: the treasurer's pages read it.
    return Event.objects.select_related("licence", "licence__organisation", "licence__trust_account").order_by(
        "-created_at"
    )


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


def with_postponement(draws):
    """R:D9 each draw with, when it was postponed, the time first advertised
    (`first_advertised_at`) and the latest reason (`postponement_reason`),
    in the same query."""
    postponements = DrawPostponement.objects.filter(draw=OuterRef("pk"))
    return draws.annotate(
        first_advertised_at=Subquery(postponements.order_by("recorded_at", "id").values("postponed_from")[:1]),
        postponement_reason=Subquery(postponements.order_by("-recorded_at", "-id").values("reason")[:1]),
    )


def draw_history(event: Event):
    return with_postponement(Draw.objects.filter(event=event).select_related("envelope").order_by("number"))


def current_of(draws) -> Draw | None:
    """Among draws ordered by number: the one under way, else the first
    scheduled, else the last."""
    draws = list(draws)
    return (
        next((d for d in draws if d.state not in (DrawState.SCHEDULED, DrawState.CLOSED)), None)
        or next((d for d in draws if d.state == DrawState.SCHEDULED), None)
        or (draws[-1] if draws else None)
    )


def event_dashboard(event: Event) -> dict:
    """The staff dashboard: totals (two aggregate queries), every draw with
    its envelope (one query) and the current draw taken from that list."""
    draws = list(draw_history(event))
    return {
        "summary": event_summary(event),
        "draws": draws,
        "current": current_of(draws),
    }
