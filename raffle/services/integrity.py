"""Registers kept for the auditor: draw videos (D4) and issues notified to
the Registrar (D6). The card destruction log is written by `draw_roll_over`
and the deck commitments by `event_setup` (see `raffle.services.deck`)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from raffle.errors import RaffleError
from raffle.models import (
    MIN_RESOLUTION_LINES,
    MIN_RETENTION_DAYS,
    REQUIRED_SHOTS,
    DeckKind,
    Draw,
    DrawState,
    DrawVideo,
    Event,
    IssueKind,
    NotificationMethod,
    RegistrarNotification,
)


def _draw_date(draw: Draw) -> datetime.date:
    moment = draw.card_revealed_at or draw.envelope_chosen_at or draw.scheduled_at
    return timezone.localdate(moment)


def _parse_duration(value) -> datetime.timedelta:
    if isinstance(value, datetime.timedelta):
        return value
    text = str(value or "").strip()
    parts = text.split(":")
    try:
        numbers = [int(p) for p in parts]
    except ValueError:
        numbers = []
    if not numbers or len(numbers) > 3 or any(n < 0 for n in numbers):
        raise RaffleError(
            gettext(
                "Give the recording's length as minutes:seconds or hours:minutes:seconds, for example "
                "42:30; %(text)s is not one."
            )
            % {"text": repr(text)}
        )
    seconds = 0
    for number in numbers:
        seconds = seconds * 60 + number
    return datetime.timedelta(seconds=seconds)


@transaction.atomic
def video_register(
    *,
    actor,
    draw: Draw,
    resolution_lines,
    duration,
    held_by: str,
    location: str = "",
    file=None,
    keep_until: datetime.date | None = None,
    shows_ticket_selection: bool = False,
    shows_envelope_selection: bool = False,
    shows_card_reveal: bool = False,
    shows_card_destruction: bool = False,
) -> DrawVideo:
    """Register the recording of a paper draw (D4)."""
    Event.objects.select_for_update().get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().select_related("event").get(pk=draw.pk)
    if draw.event.deck_kind != DeckKind.PAPER:  # R:D5 electronic draws are logged, not filmed
        raise RaffleError(gettext("Only paper draws are filmed; an electronic draw is logged by the system (D5)."))
    if draw.state in (DrawState.SCHEDULED, DrawState.SELLING):
        raise RaffleError(
            gettext("Draw %(number)s has not taken place yet; register its video after the draw.")
            % {"number": draw.number}
        )
    try:
        lines = int(str(resolution_lines).lower().removesuffix("p").strip())
    except ValueError:
        raise RaffleError(
            gettext("Give the resolution as the number of lines, e.g. 720 or 1080; %(resolution_lines)s is not one.")
            % {"resolution_lines": repr(resolution_lines)}
        ) from None
    if lines < MIN_RESOLUTION_LINES:  # R:D4
        raise RaffleError(
            gettext(
                "A draw must be filmed in at least 720p; %(lines)sp is too low. Keep the recording, but "
                "notify the Registrar of the issue."
            )
            % {"lines": lines},
            rule="D4",
        )
    length = _parse_duration(duration)
    if length <= datetime.timedelta(0):
        raise RaffleError(gettext("The recording's length must be more than zero."))
    location = (location or "").strip()
    if not file and not location:
        raise RaffleError(gettext("Upload the recording or say where it is kept."))
    held_by = (held_by or "").strip()
    if not held_by:
        raise RaffleError(gettext("Say who holds the recording."))
    draw_date = _draw_date(draw)
    earliest = draw_date + datetime.timedelta(days=MIN_RETENTION_DAYS)
    keep_until = keep_until or earliest
    if keep_until < earliest:  # R:D4
        raise RaffleError(
            gettext("The recording must be kept at least 30 days after the draw, so until %(earliest)s or later.")
            % {"earliest": format(earliest, "%Y-%m-%d")},
            rule="D4",
        )
    video = DrawVideo(
        draw=draw,
        location=location[:300],
        resolution_lines=lines,
        duration=length,
        shows_ticket_selection=bool(shows_ticket_selection),
        shows_envelope_selection=bool(shows_envelope_selection),
        shows_card_reveal=bool(shows_card_reveal),
        shows_card_destruction=bool(shows_card_destruction),
        keep_until=keep_until,
        held_by=held_by[:150],
        draw_date=draw_date,
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    if file:
        video.file.save(file.name, file, save=False)
    video.full_clean()
    video.save()
    audit_record(
        actor=actor,
        action="raffle.video.register",
        obj=video,
        data={
            "draw": draw.number,
            "reference": video.reference,
            "resolution_lines": lines,
            "duration_seconds": int(length.total_seconds()),
            "keep_until": keep_until,
            "held_by": video.held_by,
            "shots": {name: getattr(video, name) for name in REQUIRED_SHOTS},
        },
    )
    return video


@transaction.atomic
def registrar_notification_record(
    *,
    actor,
    event: Event,
    occurred_on: datetime.date,
    kind: str,
    description: str,
    method: str,
    notified_at: datetime.datetime,
    reference: str = "",
) -> RegistrarNotification:
    """Add an issue notified to the Registrar to the register (D6)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if kind not in IssueKind.values:
        raise RaffleError(gettext("Choose what kind of issue it was."))
    if method not in NotificationMethod.values:
        raise RaffleError(gettext("Choose how the Registrar was notified."))
    description = (description or "").strip()
    if not description:
        raise RaffleError(gettext("Describe the issue as it was reported to the Registrar."))
    if occurred_on is None or notified_at is None:
        raise RaffleError(gettext("Give the date of the issue and when the Registrar was notified."))
    if occurred_on > timezone.localdate():
        raise RaffleError(gettext("The issue's date is in the future; check it."))
    if timezone.localdate(notified_at) < occurred_on:
        raise RaffleError(
            gettext("The Registrar cannot have been notified before the issue happened; check the dates.")
        )
    if notified_at > timezone.now() + datetime.timedelta(minutes=5):
        raise RaffleError(gettext("The notification time is in the future; record it once the Registrar is notified."))
    entry = RegistrarNotification.objects.create(
        event=event,
        occurred_on=occurred_on,
        kind=kind,
        description=description,
        method=method,
        notified_at=notified_at,
        reference=(reference or "").strip()[:100],
        recorded_by=actor,
        recorded_at=timezone.now(),
    )
    audit_record(
        actor=actor,
        action="raffle.registrar.notify",
        obj=entry,
        data={
            "occurred_on": occurred_on,
            "kind": kind,
            "description": description,
            "method": method,
            "notified_at": notified_at,
            "reference": entry.reference,
        },
    )  # R:D6
    return entry
