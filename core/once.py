"""One sale per click: every form that creates money or tickets carries a
one-time token (`{% once_token %}`, core.templatetags.once). The first POST
with a token records it (`Submission`) in the same transaction as the sale or
payment it makes; a second POST with the same token (a double click, six
impatient clicks, a retry after the response was lost) gets the first
result instead of a second sale.

Concurrent POSTs of one token meet at the token's unique index: the second
insert waits for the first transaction and then fails if it committed (the
result is read and returned) or goes ahead if it rolled back (a refusal
changes nothing, so the corrected form may be sent again)."""

import re
import secrets
from collections.abc import Callable

from django.db import IntegrityError, transaction

from core.errors import DomainError
from core.models import Submission

FIELD = "once"
_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,64}$")


class SubmissionRefused(DomainError):
    pass


def new_token() -> str:
    return secrets.token_urlsafe(24)


def posted_token(request) -> str | None:
    """The form's token, or None for a form without one (performed as before)."""
    value = request.POST.get(FIELD, "")
    return value if _SHAPE.match(value) else None


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
        raise SubmissionRefused("That form belongs to someone else's page; reload the page and try again.")


@transaction.atomic
def submission_once(*, actor, token: str | None, perform: Callable[[], str]) -> tuple[str, bool]:
    """Run `perform` (which makes the change and returns where its result is
    shown) once per token. Returns (that place, True) the first time and
    (the first time's place, False) for every repeat."""
    if not token:
        return perform(), True
    try:
        with transaction.atomic():
            Submission.objects.create(token=token, user=actor)
    except IntegrityError:  # made (and committed) by an earlier POST of the same form
        first = Submission.objects.values_list("user_id", "result").get(token=token)
        _check_owner(first[0], actor)
        return first[1], False
    result = perform()
    Submission.objects.filter(token=token).update(result=result)
    return result, True
