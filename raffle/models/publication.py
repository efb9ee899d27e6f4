"""R:D10 where and when the winning ticket number and prize of a draw were
published (the municipal "advertising of the winners"), for the four-draw
report."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from raffle.models.draw import Draw


class WinnersPublication(models.Model):
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="publications")
    published_on = models.DateField()
    where = models.CharField(max_length=200, help_text=gettext_lazy("The website, newspaper, board or social account."))
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["draw__number", "published_on", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "where", "published_on"], name="publication_recorded_once")
        ]

    def __str__(self) -> str:
        return gettext("%(draw)s: published %(day)s on %(where)s") % {
            "draw": self.draw,
            "day": f"{self.published_on:%Y-%m-%d}",
            "where": self.where,
        }
