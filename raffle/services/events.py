"""Setting up an event: the event, its price tiers, 52 envelopes, draw 1."""

import datetime

from django.db import transaction
from django.utils import timezone

from core.audit import audit_record
from core.money import Rounding, parse_amount
from licensing.models import Licence, LicenceStatus
from raffle.errors import RaffleError
from raffle.services.deck import deck_root, deck_shuffle_and_commit
from raffle.models import (
    ENVELOPE_COUNT,
    DeckKind,
    Draw,
    Envelope,
    EnvelopeTakenProcedure,
    Event,
    PriceTier,
)

DEFAULT_PRICE_TIERS = [(1, "5.00"), (3, "10.00")]


def _parse_price_tiers(price_tiers) -> list[tuple[int, object]]:
    parsed = []
    for quantity, price in price_tiers:
        try:
            quantity = int(quantity)
        except (TypeError, ValueError):
            raise RaffleError(f"A price tier's ticket count must be a whole number, not {quantity!r}.") from None
        if quantity < 1:
            raise RaffleError("A price tier must sell at least one ticket.")
        parsed.append((quantity, parse_amount(price, what=f"The price of {quantity} ticket(s)", allow_zero=False)))
    if not parsed:
        raise RaffleError("Give at least one ticket price, for example 1 for $5.")
    if len({q for q, _ in parsed}) != len(parsed):
        raise RaffleError("Two price tiers sell the same number of tickets; keep one price per quantity.")
    return parsed


@transaction.atomic
def event_setup(
    *,
    actor,
    licence: Licence,
    name: str,
    first_draw_at: datetime.datetime,
    price_tiers=DEFAULT_PRICE_TIERS,
    deck_kind: str = DeckKind.PAPER,
    rounding: str = Rounding.CENT,
    envelope_taken_procedure: str = EnvelopeTakenProcedure.NEXT_HIGHER,
    claim_period_days: int = 7,
    draw_interval_days: int = 7,
    draw_place: str = "",
    seed_jackpot="0",
) -> Event:
    """Create the event of a licence with its 52 envelopes and its first draw."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    if licence.status != LicenceStatus.ACTIVE:
        raise RaffleError(f"Licence {licence.number} is {licence.get_status_display().lower()}; "
                          "a new event needs a new licence.", rule="P4")
    if Event.objects.filter(licence=licence).exists():
        raise RaffleError(f"Licence {licence.number} already has its event; one licence runs one event.")
    if deck_kind not in DeckKind.values:
        raise RaffleError("The deck must be 'paper' or 'electronic'.")
    Rounding.quantum(rounding)
    if envelope_taken_procedure not in EnvelopeTakenProcedure.values:
        raise RaffleError("Choose what happens when the picked envelope is already open.")
    if draw_interval_days < 1:
        raise RaffleError("Draws must be at least one day apart.")
    if timezone.localdate(first_draw_at) > licence.expires_on:
        raise RaffleError(f"The first draw is after the licence expires ({licence.expires_on:%Y-%m-%d}).")
    tiers = _parse_price_tiers(price_tiers)
    seed = parse_amount(seed_jackpot, what="The seed jackpot")

    event = Event(
        licence=licence,
        name=(name or "").strip() or f"Catch the Ace - {licence.organisation.name}",
        deck_kind=deck_kind,
        rounding=rounding,
        envelope_taken_procedure=envelope_taken_procedure,
        claim_period_days=claim_period_days,
        first_draw_at=first_draw_at,
        draw_interval_days=draw_interval_days,
        draw_place=draw_place,
        jackpot=seed,
        seed_jackpot=seed,
    )
    event.full_clean()
    event.save()
    PriceTier.objects.bulk_create([PriceTier(event=event, quantity=q, price=p) for q, p in tiers])
    # R:E1 52 envelopes numbered 1 to 52.
    Envelope.objects.bulk_create(
        [Envelope(event=event, number=n) for n in range(1, ENVELOPE_COUNT + 1)]
    )
    deck = {}
    if deck_kind == DeckKind.ELECTRONIC:  # R:E4 shuffled and committed before the first sale
        commitments = deck_shuffle_and_commit(event=event)
        deck = {"deck_root": deck_root(commitments), "commitments": commitments}
    Draw.objects.create(event=event, number=1, scheduled_at=first_draw_at)
    audit_record(
        actor=actor,
        action="raffle.event.setup",
        obj=event,
        data={
            "licence": licence.number,
            "deck_kind": deck_kind,
            "rounding": rounding,
            "price_tiers": [[q, p] for q, p in tiers],
            "first_draw_at": first_draw_at,
            "seed_jackpot": seed,
            **deck,
        },
    )
    return event
