"""The public envelope board: what it shows, in three queries whatever the event's size."""

from django.utils.translation import gettext as _

from raffle.cards import ACE_OF_SPADES, card_name_for_reader, card_symbol
from raffle.models import Draw, DrawState, Envelope, Event
from raffle.selectors.events import current_of, with_postponement


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
            "seed_jackpot",
            "seed_source",
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
        with_postponement(Draw.objects.filter(event_id=event.pk))
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
            "claim_until",
            "envelope__number",
            "envelope__card",
            "envelope__opened_at",
        )
        .order_by("number")[:2]
    )
    current = current_of(open_draws)
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
        "latest_card_name": card_name_for_reader(latest.card) if latest else "",
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
            "label": _("Envelope %(number)s: opened, %(card)s")
            % {"number": n, "card": card_name_for_reader(envelope.card)},
        }
    if chosen:
        label = _("Envelope %(number)s: chosen, about to be opened") % {"number": n}
        return {"number": n, "face": "", "css": "sealed chosen", "label": label}
    return {"number": n, "face": "", "css": "sealed", "label": _("Envelope %(number)s: sealed") % {"number": n}}
