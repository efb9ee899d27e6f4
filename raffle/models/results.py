"""What the public may learn of a draw's winner (RULES D10)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, gettext_lazy

from raffle.models.draw import Draw


class WinnerNameConsent(models.Model):
    """R:D10 the winner's written consent to publish their name and town.

    Without a row (or with `publish` off) the results page shows the draw's
    winning ticket number and prize only. The row keeps the name and town as
    the winner agreed to have them shown, not the name on the sale, so a
    winner may ask for "J. Smith, Hearst"."""

    draw = models.OneToOneField(Draw, on_delete=models.PROTECT, related_name="name_consent")
    publish = models.BooleanField(default=False)
    published_name = models.CharField(max_length=150, blank=True)
    published_town = models.CharField(max_length=100, blank=True)
    written_consent_reference = models.CharField(
        max_length=120, blank=True, help_text=gettext_lazy("Where the signed consent is kept (form number, file).")
    )
    recorded_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        constraints = [
            # R:D10 a name is published only on written consent, and only a name the winner gave.
            models.CheckConstraint(
                condition=models.Q(publish=False)
                | (~models.Q(published_name="") & ~models.Q(written_consent_reference="")),
                name="winner_name_published_only_with_written_consent",
            ),
        ]

    def __str__(self) -> str:
        if self.publish:
            return gettext("%(draw)s: publish %(name)s") % {"draw": self.draw, "name": self.published_name}
        return gettext("%(draw)s: do not publish") % {"draw": self.draw}
