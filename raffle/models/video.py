"""The video register of paper draws (RULES D4): which recording shows the
draw, where it is kept, that it is good enough and shows the four required
shots, and the date before which it must not be deleted."""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, gettext_lazy

from raffle.models.draw import Draw

MIN_RESOLUTION_LINES = 720  # R:D4 at least 720p
MIN_RETENTION_DAYS = 30  # R:D4 kept at least 30 days after the draw
REQUIRED_SHOTS = {
    "shows_ticket_selection": "the ticket selection",
    "shows_envelope_selection": "the envelope selection",
    "shows_card_reveal": "the card reveal",
    "shows_card_destruction": "the card's destruction",
}


def video_upload_to(instance, filename: str) -> str:
    return f"draw-videos/event-{instance.draw.event_id}/draw-{instance.draw.number}/{filename}"


class DrawVideo(models.Model):
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="videos")
    file = models.FileField(
        upload_to=video_upload_to, blank=True, help_text=gettext_lazy("The recording, when the application keeps it.")
    )
    location = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("Where the recording is kept otherwise (drive, shelf, cloud folder)."),
    )
    resolution_lines = models.PositiveIntegerField(help_text=gettext_lazy("Vertical resolution, e.g. 720 or 1080."))
    duration = models.DurationField()
    shows_ticket_selection = models.BooleanField(default=False)
    shows_envelope_selection = models.BooleanField(default=False)
    shows_card_reveal = models.BooleanField(default=False)
    shows_card_destruction = models.BooleanField(default=False)
    keep_until = models.DateField(help_text=gettext_lazy("Earliest date the recording may be deleted."))
    held_by = models.CharField(max_length=150, help_text=gettext_lazy("Who holds the recording."))
    draw_date = models.DateField(
        help_text=gettext_lazy("The draw's date, copied so the retention rule is a constraint.")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["draw__event", "draw__number", "recorded_at"]
        constraints = [
            models.CheckConstraint(condition=Q(resolution_lines__gte=MIN_RESOLUTION_LINES), name="video_at_least_720p"),
            models.CheckConstraint(
                condition=Q(keep_until__gte=F("draw_date") + datetime.timedelta(days=MIN_RETENTION_DAYS)),
                name="video_kept_30_days_after_draw",
            ),
            models.CheckConstraint(condition=~Q(file="") | ~Q(location=""), name="video_has_file_or_location"),
            models.CheckConstraint(condition=Q(duration__gt=datetime.timedelta(0)), name="video_duration_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Video of %(draw)s") % {"draw": self.draw}

    @property
    def reference(self) -> str:
        return self.file.name if self.file else self.location

    @property
    def missing_shots(self) -> list[str]:
        return [label for field, label in REQUIRED_SHOTS.items() if not getattr(self, field)]
