"""Django's session middleware, except that a session that cannot be saved
after the view has answered does not turn the answer into an error page.

When a request's work is committed (a sale, a payment) and only the session
save fails afterwards (the session was deleted by a sign-out in another tab:
`SessionInterrupted`; or the database dropped the connection), Django would
answer 400 or 500 and the seller would believe the sale failed and sell it
again. Here the view's answer (the sale's page) is sent as it is, without the
session's changes, which are only conveniences (the last device used, the
pages viewed); a lost sign-in shows at the next page as a sign-in form."""

import logging

from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.db import DatabaseError
from django.utils.cache import patch_vary_headers

log = logging.getLogger(__name__)


class SessionMiddleware(DjangoSessionMiddleware):
    def process_response(self, request, response):
        try:
            return super().process_response(request, response)
        except (SessionInterrupted, DatabaseError) as error:
            log.warning(
                "Session not saved after %s %s answered %s: %r",
                request.method,
                request.path,
                response.status_code,
                error,
            )
            patch_vary_headers(response, ("Cookie",))
            return response
