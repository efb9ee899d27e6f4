"""What happens when the winner's envelope is already open (RULES T9, R4):
one sentence per case, read by the service that resolves the envelope
(`raffle.services.pool.resolve_envelope`, `draw_choose_envelope`), by the
wizard's envelope screen and by the Rules of Play, so what the volunteer is
told, what the players are promised and what the system does are the same.

- A ticket that carries the envelope its buyer picked (stubs, electronic):
  the event's `envelope_taken_procedure` decides.
- A roll ticket carries none: its holder chooses, and an opened envelope is
  never chosen (the service refuses it), whatever the setting.
"""

from django.utils.translation import gettext as _

from raffle.models import EnvelopeTakenProcedure, Event


def opened_envelope_rule(event: Event, *, picked_on_ticket: bool) -> str:
    """The sentence ending "If the chosen envelope has already been opened, ..."."""
    if not picked_on_ticket:
        return _("the holder chooses another envelope that is still sealed: an opened envelope cannot be chosen")
    return {
        EnvelopeTakenProcedure.NEXT_HIGHER: _(
            "the next higher-numbered envelope still sealed is opened (after 52, counting resumes at 1)"
        ),
        EnvelopeTakenProcedure.HOLDER_CHOOSES: _("the winner chooses another envelope that is still sealed"),
        EnvelopeTakenProcedure.RANDOM: _("an envelope still sealed is chosen at random by the system"),
    }[event.envelope_taken_procedure]


def opened_envelope_sentence(event: Event, *, picked_on_ticket: bool) -> str:
    return _("If the chosen envelope has already been opened, %(rule)s.") % {
        "rule": opened_envelope_rule(event, picked_on_ticket=picked_on_ticket)
    }
