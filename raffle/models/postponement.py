"""A draw's postponement (RULES D9): the reason, the new date and time, and
the notice given to the licensing authority. Append-only: a draw postponed
twice has two rows, the first of which keeps the time first advertised."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext, gettext_lazy

from core.models import AppendOnlyModel
from raffle.models.compliance import NotificationMethod
from raffle.models.draw import Draw


class DrawPostponement(AppendOnlyModel):
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="postponements")
    postponed_from = models.DateTimeField(help_text=gettext_lazy("The date and time advertised until now."))
    postponed_to = models.DateTimeField(help_text=gettext_lazy("The new date and time of the draw."))
    reason = models.TextField()
    # R:D9 the notice given to the licensing authority: to whom, when, how.
    notice_to = models.CharField(max_length=150, help_text=gettext_lazy("Who at the licensing authority was told."))
    notice_at = models.DateTimeField(help_text=gettext_lazy("When the licensing authority was told."))
    notice_method = models.CharField(max_length=20, choices=NotificationMethod.choices)
    notice_reference = models.CharField(
        max_length=100, blank=True, help_text=gettext_lazy("The authority's reference, if any.")
    )
    later_draws_move = models.BooleanField(
        default=False, help_text=gettext_lazy("The later draws moved by the same time (else they kept their dates).")
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["draw", "recorded_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(postponed_to__gt=F("postponed_from")), name="postponement_is_later"),
            models.CheckConstraint(
                condition=Q(notice_method__in=NotificationMethod.values), name="postponement_notice_method_valid"
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(draw)s postponed") % {"draw": self.draw}
