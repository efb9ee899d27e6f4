"""The electronic deck's commitments (RULES E4).

When an electronic-deck event is set up, the system shuffles the 52 cards
into the envelopes with a cryptographic RNG and, per envelope, stores a
random salt and a commitment:

    SHA-256( "catch-the-ace/deck/v1" LF event id LF envelope number LF card LF salt )

every field written as ASCII text, the card as its short code (`AS`, `10H`),
the salt as 32 lowercase hexadecimal digits, LF a single 0x0A byte, no
trailing newline. The commitments are published before the first sale; the
salt of an envelope is published when it is opened, so anyone can recompute
the commitment and see that the card was the one committed to. Until then the
card (kept on the envelope) and the salt are shown to nobody, administrators
included. The rows are append-only in PostgreSQL.
"""

import hashlib

from django.db import models
from django.utils.translation import gettext

from core.models import AppendOnlyModel
from raffle.models.event import Envelope

COMMITMENT_DOMAIN = "catch-the-ace/deck/v1"


def deck_commitment_hash(*, event_id: int, envelope_number: int, card: str, salt: str) -> str:
    """The canonical commitment (see the module's docstring)."""
    message = "\n".join([COMMITMENT_DOMAIN, str(event_id), str(envelope_number), card, salt])
    return hashlib.sha256(message.encode("ascii")).hexdigest()


class DeckCommitment(AppendOnlyModel):
    envelope = models.OneToOneField(Envelope, on_delete=models.PROTECT, related_name="commitment")
    commitment = models.CharField(max_length=64)
    # Secret until the envelope is opened: never shown, exported or logged before then.
    salt = models.CharField(max_length=32)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["envelope__event", "envelope__number"]
        constraints = [
            models.UniqueConstraint(fields=["commitment"], name="deck_commitment_unique"),
        ]

    def __str__(self) -> str:
        return gettext("Commitment of %(envelope)s (%(hash)s…)") % {
            "envelope": self.envelope,
            "hash": self.commitment[:12],
        }

    @property
    def published_salt(self) -> str:
        """The salt, once the envelope is open; empty while it is sealed."""
        return self.salt if self.envelope.is_open else ""
