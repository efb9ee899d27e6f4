"""The card destruction (paper) or deletion (electronic) log of RULES E2/E3:
the two members, each signing with their own password at the time, and the
audit of refused signatures. Used by the rollover and by the must-go re-draw."""

import functools
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.contrib.auth import hashers
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.models import AuditEntry
from licensing.models import BonaFideMember
from licensing.services.members import check_member_may_act
from raffle.errors import RaffleError
from raffle.models import CardDestruction, DeckKind, DestructionMethod, Draw, Envelope, Event


def _member(member_or_id, *, event: Event, role: str) -> BonaFideMember:
    if member_or_id is None:
        raise RaffleError(gettext("Name the bona fide member who %(role)s.") % {"role": role}, rule="E3")
    pk = getattr(member_or_id, "pk", member_or_id)
    member = BonaFideMember.objects.filter(pk=pk).select_related("user").first()
    if member is None or member.organisation_id != event.licence.organisation_id or not member.is_active:
        raise RaffleError(
            gettext("The person who %(role)s must be an active bona fide member of %(organisation)s.")
            % {"role": role, "organisation": event.licence.organisation},
            rule="E3",
        )
    return member


class MemberPasswordRefused(RaffleError):
    """A member's own password did not match at a card destruction (E3)."""

    def __init__(self, message: str, *, member: BonaFideMember, role: str):
        super().__init__(message, rule="E3")
        self.member = member
        self.role = role


SIGNATURE_REFUSED = "raffle.card.signature_refused"


def _check_not_locked_out(member: BonaFideMember, *, role: str) -> None:
    """After as many refused signatures as a sign-in allows (AXES_FAILURE_LIMIT),
    the member cannot sign for the same cool-off (AXES_COOLOFF_TIME), whatever
    the password: a destruction screen must not be a way round the sign-in
    lockout. The refusals are counted from the audit trail, where
    `log_signature_refusals` writes them."""
    limit, cooloff = settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME
    recent = list(
        AuditEntry.objects.filter(
            action=SIGNATURE_REFUSED,
            at__gte=timezone.now() - cooloff,
            data__member_id=member.pk,
        )
        .order_by("-at")
        .values_list("at", flat=True)[:limit]
    )
    if len(recent) == limit:
        # The lock ends when the oldest of these refusals leaves the cool-off window.
        until = timezone.localtime(recent[-1] + cooloff)
        raise RaffleError(
            gettext(
                "%(full_name)s, who %(role)s, gave a wrong password too many times and cannot sign until "
                "%(until)s. Another member can sign instead, or an administrator can check the audit trail."
            )
            % {"full_name": member.full_name, "role": role, "until": format(until, "%H:%M")},
            rule="E3",
        )


# Both members' passwords are checked at once, on two threads.
# Security: each is checked against the account's own stored hash at its full
# cost (the project's password hasher, as at sign-in); nothing weaker is
# stored or accepted, so a guess costs an attacker exactly what it did. Only
# the volunteers' wait changes: the two slow hashes (PBKDF2, scrypt, Argon2
# all release the GIL while hashing) run side by side instead of one after
# the other. The threads only hash: no database, no session, no hash upgrade.
_SIGNATURES = ThreadPoolExecutor(max_workers=2, thread_name_prefix="member-signature")


def _password_matches(user, password: str) -> bool:
    return bool(password) and user.is_active and hashers.check_password(password, user.password)


def _authenticate_members(*signers: tuple[BonaFideMember, str, str]) -> list:
    """R:E3 each member proves it is them with their own password, now:
    `signers` are (member, password, role). Returns the time each was
    authenticated; refuses with the first wrong password, in order.

    The members are already known, so this checks those accounts' passwords
    directly rather than going through `authenticate()`: the login backends
    (django-axes) need the HTTP request of a sign-in, and a signature is not a
    sign-in. Refusals are audited by `log_signature_refusals`, and too many of
    them lock the member's signature for a while."""
    for member, _password, role in signers:
        _check_not_locked_out(member, role=role)
    checks = [_SIGNATURES.submit(_password_matches, member.user, password) for member, password, _role in signers]
    results = [check.result() for check in checks]
    now = timezone.now()
    for (member, _password, role), matches in zip(signers, results, strict=True):
        if not matches:
            raise MemberPasswordRefused(
                gettext(
                    "The password given for %(name)s, who %(role)s, is not right. %(name)s must type their own "
                    "password."
                )
                % {"name": member.full_name, "role": role},
                member=member,
                role=role,
            )
    return [now for _ in signers]


def log_signature_refusals(service):
    """Run a service that logs a card destruction; when a member's password is
    refused, nothing of the service is kept, but the refused attempt is written
    to the audit trail in its own transaction (D7: failed authentications are
    logged), so repeated guessing is visible."""

    @functools.wraps(service)
    def wrapped(*, actor, draw, **kwargs):
        try:
            return service(actor=actor, draw=draw, **kwargs)
        except MemberPasswordRefused as refused:
            with transaction.atomic():
                audit_record(
                    actor=actor,
                    action=SIGNATURE_REFUSED,
                    obj=draw,
                    data={"member": refused.member.full_name, "member_id": refused.member.pk, "role": refused.role},
                )  # R:D7
            raise

    return wrapped


def member_role(member) -> str:
    """The role a member signs in, as the log keeps it."""
    return "bona fide member in charge" if member.is_in_charge else "bona fide member"


def log_card_destruction(
    *,
    actor,
    event: Event,
    draw: Draw,
    envelope: Envelope,
    destroyed_by,
    verified_by,
    destroyer_password: str,
    verifier_password: str,
) -> CardDestruction:
    """R:E2 R:E3 log a non-ace card's destruction (paper) or deletion
    (electronic), verified by a second member in charge, each authenticated
    with their own password at the time. Runs inside the caller's transaction,
    with the event and the draw locked."""
    destroyer = _member(destroyed_by, event=event, role="destroyed the card")
    verifier = _member(verified_by, event=event, role="verified the destruction")
    check_member_may_act(destroyer, role=gettext("destroy the card"))  # R:L13
    check_member_may_act(verifier, role=gettext("verify the card's destruction"))  # R:L13
    if destroyer.pk == verifier.pk or destroyer.user_id == verifier.user_id:  # R:E3
        raise RaffleError(
            gettext("The destruction must be verified by a second person, not the one who destroyed the card."),
            rule="E3",
        )
    if not verifier.is_in_charge:  # R:E3
        raise RaffleError(
            gettext("%(full_name)s is not a member in charge of the lottery; the verifier must be.")
            % {"full_name": verifier.full_name},
            rule="E3",
        )
    destroyer_at, verifier_at = _authenticate_members(
        (destroyer, destroyer_password, "destroyed the card"),
        (verifier, verifier_password, "verified the destruction"),
    )
    now = timezone.now()
    # R:E2 destroyed (paper) or deleted (electronic) at once.
    method = DestructionMethod.DESTROYED if event.deck_kind == DeckKind.PAPER else DestructionMethod.DELETED
    destruction = CardDestruction.objects.create(
        draw=draw,
        envelope=envelope,
        card=envelope.card,
        method=method,
        destroyed_by=destroyer,
        verified_by=verifier,
        destroyed_at=now,
        verified_at=now,
        recorded_by=actor,
        destroyer_authenticated_at=destroyer_at,
        verifier_authenticated_at=verifier_at,
        destroyed_by_name=destroyer.full_name,
        destroyed_by_role=member_role(destroyer),
        verified_by_name=verifier.full_name,
        verified_by_role=member_role(verifier),
    )
    audit_record(
        actor=actor,
        action="raffle.card.destroy",
        obj=destruction,
        data={
            "draw": draw.number,
            "envelope": envelope.number,
            "card": envelope.card,
            "method": method,
            "destroyed_by": destroyer.full_name,
            "destroyed_by_role": destruction.destroyed_by_role,
            "verified_by": verifier.full_name,
            "verified_by_role": destruction.verified_by_role,
            "destroyer_authenticated_at": destroyer_at,
            "verifier_authenticated_at": verifier_at,
        },
    )
    return destruction
