"""One sale per click: every form that creates money or tickets carries a
one-time token (`{% once_token %}`, core.templatetags.once). The first POST
with a token records it (`Submission`) in the same transaction as the sale or
payment it makes; a second POST with the same token (a double click, six
impatient clicks, a retry after the response was lost) gets the first
result instead of a second sale.

The token is recorded with its result in the change's transaction: by the
statement of the change's audit entry where the caller says which entry
(`result_for`), else last, by a statement of its own.
Concurrent POSTs of one token meet at the token's unique index: the second
insert waits for the first transaction and then records nothing if it
committed (`ON CONFLICT DO NOTHING`: the second's change is rolled back, the
first's result is read and returned) or goes ahead if it rolled back (a
refusal changes nothing, so the corrected form may be sent again).

The token is required (#15): a POST without one (a page cached before the
token existed, a script, a form posted by hand) is refused with `MISSING` and
nothing is recorded. A token says when its page was made and is good for
`TOKEN_LIFETIME` (a day); an older one is refused the same way. So the record
of a used token is needed for a day only: `purge_used_tokens` (run by
`python manage.py purge_submissions`, docs/deploy.md) removes older ones, and
a page older than that cannot be sent again to make a second sale."""

import datetime
import re
import secrets
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from core.errors import DomainError
from core.models import Submission
from core.prepared import prepared_cursor

FIELD = "once"
_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")
TOKEN_LIFETIME = datetime.timedelta(days=1)
MISSING = _(
    "This form arrived without a valid one-time code (it is missing, or the page is more than a day old), "
    "so nothing was recorded. Reload the page and send the form again."
)


class SubmissionRefused(DomainError):
    pass


def new_token(*, now: float | None = None) -> str:
    """A fresh token: when its page was made (seconds, hex), then 32 random characters."""
    made = int(time.time() if now is None else now)
    return f"{made:x}-{secrets.token_urlsafe(24)}"


def token_is_fresh(value: str, *, now: float | None = None) -> bool:
    """Whether `value` is a token of the right shape made within `TOKEN_LIFETIME`."""
    made, _sep, rest = value.partition("-")
    if not (_SHAPE.match(value) and rest and made.isascii() and made.isalnum() and len(made) <= 12):
        return False
    try:
        age = (time.time() if now is None else now) - int(made, 16)
    except ValueError:
        return False
    return -60 <= age <= TOKEN_LIFETIME.total_seconds()  # a minute of clock drift between workers


def posted_token(request) -> str | None:
    """The form's token, or None for a form without a fresh one (refused by `submission_once`)."""
    value = request.POST.get(FIELD, "")
    return value if token_is_fresh(value) else None


def first_result(*, actor, token: str | None) -> str | None:
    """Where an earlier submission of this token was sent, if it was made."""
    if not token:
        return None
    found = Submission.objects.filter(token=token).values_list("user_id", "result").first()
    if found is None:
        return None
    _check_owner(found[0], actor)
    return found[1]


def _check_owner(user_id: int, actor) -> None:
    if user_id != actor.pk:
        raise SubmissionRefused(gettext("That form belongs to someone else's page; reload the page and try again."))


class _MadeBefore(Exception):
    """The token was recorded by an earlier POST: roll back what this one made."""


def submission_once(
    *, actor, token: str | None, perform: Callable[[], str], result_for: Callable[[object], str | None] | None = None
) -> tuple[str, bool]:
    """Run `perform` (which makes the change and returns where its result is
    shown) once per token. Returns (that place, True) the first time and
    (the first time's place, False) for every repeat. Without a token,
    nothing is performed: SubmissionRefused(MISSING).

    The token is recorded, with its result, in `perform`'s transaction: a
    repeat makes its change again, finds the token recorded, and is rolled
    back whole. A repeat that `perform` refuses (the draw closed since) also
    gets the first time's place.

    `result_for(obj)`: where the result of the change whose audit entry names
    `obj` is shown, or None for any other object. With it, the token is
    recorded by the statement that writes that entry (`core.audit`, #18: one
    round trip fewer); without it, or when no such entry is written, by a
    statement of its own after `perform`. `perform` must return the same
    place."""
    if not token:
        raise SubmissionRefused(str(MISSING))
    pending = PendingToken(token=token, actor=actor, result_for=result_for) if result_for else None
    context = _PENDING.set(pending)
    try:
        with transaction.atomic():
            if pending is not None:  # only an entry written at this level, not in a savepoint that may roll back
                pending.depth = len(connection.savepoint_ids)
            result = perform()
            if pending is not None and pending.recorded is not None:
                if pending.result != result:  # a caller's mistake: the token would point elsewhere
                    raise RuntimeError(f"the token was recorded for {pending.result}, the change shows {result}")
                recorded = pending.recorded
            else:
                recorded = _record_token(token, actor, result)
            if not recorded:
                raise _MadeBefore
        return result, True
    except _MadeBefore:
        pass
    except DomainError:
        done = first_result(actor=actor, token=token)
        if done is None:
            raise
        return done, False
    finally:
        _PENDING.reset(context)
    return first_result(actor=actor, token=token), False


@dataclass
class PendingToken:
    """A token `submission_once` is to record, and whether the statement of
    an audit entry recorded it (`recorded`: None until one tried)."""

    token: str
    actor: object
    result_for: Callable[[object], str | None]
    result: str | None = None
    recorded: bool | None = None
    depth: int = 0


_PENDING: ContextVar[PendingToken | None] = ContextVar("once_pending_token", default=None)


def token_record_for(obj) -> tuple[PendingToken, list] | None:
    """For `core.audit`: the token to record with the audit entry of `obj`, and
    the parameters of `RECORD_SQL`; None when no token waits for that entry."""
    pending = _PENDING.get()
    if pending is None or pending.recorded is not None or connection.vendor != "postgresql":
        return None
    if len(connection.savepoint_ids) != pending.depth:
        return None
    result = pending.result_for(obj)
    if result is None:
        return None
    pending.result = result
    return pending, [pending.token, pending.actor.pk, timezone.now(), result]


# The token's record with its result, unless the token has one: the insert waits for a
# transaction that inserted the same token, then records nothing if it committed (#18).
RECORD_SQL = (
    "INSERT INTO core_submission (token, user_id, made_at, result) VALUES (%s, %s, %s, %s) "
    "ON CONFLICT (token) DO NOTHING RETURNING id"
)


def _record_token(token: str, actor, result: str) -> bool:
    """Record the token's first use and its result; False when an earlier POST recorded it."""
    if connection.vendor == "postgresql":
        with prepared_cursor() as cursor:
            cursor.execute(RECORD_SQL, [token, actor.pk, timezone.now(), result])
            return cursor.fetchone() is not None
    try:
        with transaction.atomic():
            Submission.objects.create(token=token, user=actor, result=result)
    except IntegrityError:
        return False
    return True


def purge_used_tokens(*, now: datetime.datetime | None = None) -> int:
    """Remove the records of tokens used more than `TOKEN_LIFETIME` ago: such
    a token is no longer fresh, so sending its form again is refused anyway
    (`posted_token`). Returns how many records were removed."""
    before = (now or timezone.now()) - TOKEN_LIFETIME
    removed, _counts = Submission.objects.filter(made_at__lt=before).delete()
    return removed
