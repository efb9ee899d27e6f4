"""Publishing a draw's winner (RULES D10): the winner's consent to show their name."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.audit import audit_record
from raffle.errors import RaffleError
from raffle.models import Draw, WinnerNameConsent


def _plain_text(value: str, *, what: str, max_length: int) -> str:
    text = " ".join(str(value or "").split())
    if any(not ch.isprintable() for ch in text):
        raise RaffleError(_("%(what)s may hold letters, digits and punctuation only.") % {"what": what})
    if len(text) > max_length:
        raise RaffleError(_("%(what)s is longer than %(max)s characters.") % {"what": what, "max": max_length})
    return text


@transaction.atomic
def winner_name_consent_record(
    *, actor, draw: Draw, publish: bool, name: str = "", town: str = "", consent_reference: str = ""
) -> WinnerNameConsent:
    """R:D10 record whether the winner gave written consent to publish their
    name and town. Without it the results page shows the winning number and
    the prize only. Withdrawing consent later hides the name again."""
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    if not draw.winning_serial:
        raise RaffleError(
            _("Draw %(number)s has no winning ticket yet; record the winner's consent after the draw.")
            % {"number": draw.number},
            rule="D10",
        )
    name = _plain_text(name, what=_("The name to publish"), max_length=150)
    town = _plain_text(town, what=_("The town"), max_length=100)
    consent_reference = _plain_text(consent_reference, what=_("Where the signed consent is kept"), max_length=120)
    if publish and not name:
        raise RaffleError(_("Type the name exactly as the winner agreed to have it published."), rule="D10")
    if publish and not consent_reference:
        raise RaffleError(
            _("A winner's name is published only with their written consent: say where the signed consent is kept."),
            rule="D10",
        )
    consent, _created = WinnerNameConsent.objects.select_for_update().update_or_create(
        draw=draw,
        defaults={
            "publish": publish,
            "published_name": name if publish else "",
            "published_town": town if publish else "",
            "written_consent_reference": consent_reference,
            "recorded_at": timezone.now(),
            "recorded_by": actor,
        },
    )
    audit_record(
        actor=actor,
        action="raffle.draw.winner_name_consent",
        obj=draw,
        data={
            "draw": draw.number,
            "publish": publish,
            "name": consent.published_name,
            "town": consent.published_town,
            "consent_reference": consent_reference,
        },
    )
    return consent
