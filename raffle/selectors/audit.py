"""Reads behind the integrity registers (deck commitments, destructions, videos, Registrar notices)."""

from raffle.models import Draw, Event


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
