"""What every treasurer's page shares: who reads and who writes, the event,
the page context and the one way a write is made (parse the form, call one
service, report the result). CSV files go out by core.csvsafe.csv_attachment."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext, gettext_lazy

from core import once
from core.errors import DomainError
from core.roles import ADMINISTRATOR, AUDITOR, TREASURER, user_has_role
from core.scope import own
from raffle import selectors
from raffle.models import Event
from raffle.reports.reconciliation import trust_account_of

READ = (TREASURER, AUDITOR, ADMINISTRATOR)
WRITE = (TREASURER, ADMINISTRATOR)


def event_for(request, event_id: int) -> Event:
    return own(request, selectors.event_list(), pk=event_id)


def page_context(request, event: Event, **extra) -> dict:
    return {
        "event": event,
        "licence": event.licence,
        "can_write": user_has_role(request.user, *WRITE, organisation=event.licence.organisation_id),
        "account": extra.pop("account") if "account" in extra else trust_account_of(event),
        **extra,
    }


ALREADY_DONE = gettext_lazy("That form was already sent and recorded once; nothing was recorded twice.")


def write_and_back(request, form, call, *, done: str, back: str):
    """Validate the form, call one service, report the result, go back. A
    form sent again with the same one-time token (core.once) is recorded once."""
    token = once.posted_token(request)
    try:
        repeated = once.first_result(actor=request.user, token=token) is not None
    except DomainError as error:
        messages.error(request, str(error))
        return redirect(back)
    if repeated:
        messages.info(request, ALREADY_DONE)
    elif not form.is_valid():
        problems = "; ".join(
            f"{form.fields[f].label if f in form.fields else ''} {' '.join(e)}".strip() for f, e in form.errors.items()
        )
        messages.error(request, gettext("Nothing was saved. %(problems)s") % {"problems": problems})
    else:

        def perform() -> str:
            call(form.cleaned_data)
            return back

        try:
            _, first = once.submission_once(actor=request.user, token=token, perform=perform)
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, done) if first else messages.info(request, ALREADY_DONE)
    return redirect(back)
