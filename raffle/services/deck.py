"""The electronic deck (RULES E4): shuffle and commit at set-up, verify later.

The commitment format is documented in `raffle.models.deck`. Shuffling uses
the operating system's cryptographic RNG (`secrets.SystemRandom`); salts are
128 random bits from `secrets.token_hex`.
"""

import hashlib
import secrets
from dataclasses import dataclass, field

from django.utils import timezone
from django.utils.translation import gettext

from raffle.cards import DECK
from raffle.models import DeckCommitment, Envelope, Event, deck_commitment_hash


def deck_root(commitments: list[str]) -> str:
    """One fingerprint of the whole published list, in envelope order:
    SHA-256 over the 52 hexadecimal commitments joined by LF."""
    return hashlib.sha256("\n".join(commitments).encode("ascii")).hexdigest()


def deck_shuffle_and_commit(*, event: Event) -> list[str]:
    """Deal the 52 cards into the event's sealed envelopes at random and write
    one commitment per envelope. Runs inside `event_setup`'s transaction;
    returns the commitments in envelope order (for the audit entry)."""
    cards = list(DECK)
    secrets.SystemRandom().shuffle(cards)  # R:E4 a cryptographic RNG
    envelopes = list(Envelope.objects.select_for_update().filter(event=event).order_by("number"))
    now = timezone.now()
    rows = []
    for envelope, card in zip(envelopes, cards, strict=True):
        envelope.card = card
        salt = secrets.token_hex(16)
        rows.append(
            DeckCommitment(
                envelope=envelope,
                salt=salt,
                created_at=now,
                commitment=deck_commitment_hash(
                    event_id=event.pk, envelope_number=envelope.number, card=card, salt=salt
                ),
            )
        )
    Envelope.objects.bulk_update(envelopes, ["card"])
    DeckCommitment.objects.bulk_create(rows)
    return [row.commitment for row in rows]


@dataclass(frozen=True)
class EnvelopeCheck:
    number: int
    commitment: str
    opened: bool
    card: str = ""  # only for opened envelopes
    salt: str = ""  # only for opened envelopes
    recomputed: str = ""
    ok: bool | None = None  # None while sealed


@dataclass
class DeckReport:
    event: Event
    checks: list[EnvelopeCheck] = field(default_factory=list)
    root: str = ""
    published_root: str = ""  # the fingerprint written in the audit trail at set-up
    problems: list[str] = field(default_factory=list)

    @property
    def revealed(self) -> int:
        return sum(1 for c in self.checks if c.opened)

    @property
    def intact(self) -> bool:
        return not self.problems

    def __str__(self) -> str:
        if self.intact:
            return f"{self.event}: deck verified, {self.revealed} of {len(self.checks)} revealed commitments match"
        return f"{self.event}: deck verification FAILED: " + "; ".join(self.problems)


def deck_verify(*, event: Event) -> DeckReport:
    """Recompute the commitment of every opened envelope from its card and its
    published salt, and check the list still matches the fingerprint recorded
    in the audit trail when the event was set up."""
    from core.models import AuditEntry

    report = DeckReport(event=event)
    commitments = list(
        DeckCommitment.objects.filter(envelope__event=event).select_related("envelope").order_by("envelope__number")
    )
    if event.deck_kind != "electronic":
        report.problems.append(gettext("this event uses a paper deck; there are no commitments to verify"))
        return report
    if len(commitments) != 52:
        report.problems.append(gettext("%(count)s commitments found instead of 52") % {"count": len(commitments)})
    for row in commitments:
        envelope = row.envelope
        if not envelope.is_open:
            report.checks.append(EnvelopeCheck(envelope.number, row.commitment, opened=False))
            continue
        recomputed = deck_commitment_hash(
            event_id=event.pk, envelope_number=envelope.number, card=envelope.card, salt=row.salt
        )
        ok = recomputed == row.commitment
        report.checks.append(
            EnvelopeCheck(envelope.number, row.commitment, True, envelope.card, row.salt, recomputed, ok)
        )
        if not ok:
            report.problems.append(
                gettext("envelope %(number)s: the revealed card does not match its commitment")
                % {"number": envelope.number}
            )
    report.root = deck_root([row.commitment for row in commitments])
    setup = (
        AuditEntry.objects.filter(action="raffle.event.setup", object_type="raffle.event", object_id=str(event.pk))
        .order_by("id")
        .first()
    )
    report.published_root = setup.data.get("deck_root", "") if setup else ""
    if report.published_root != report.root:
        report.problems.append(
            gettext(
                "the list of commitments differs from the one recorded in the audit trail when the event was set up"
            )
        )
    return report
