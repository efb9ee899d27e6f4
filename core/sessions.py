"""Django's session middleware, except that a session that cannot be saved
after the view has answered does not turn the answer into an error page.

When a request's work is committed (a sale, a payment) and only the session
save fails afterwards (the session was deleted by a sign-out in another tab:
`SessionInterrupted`; or the database dropped the connection), Django would
answer 400 or 500 and the seller would believe the sale failed and sell it
again. Here the view's answer (the sale's page) is sent as it is, without the
session's changes, which are only conveniences (the last device used, the
pages viewed); a lost sign-in shows at the next page as a sign-in form.

Also Django's database sessions (`SESSION_ENGINE = "core.sessions"`), each
request's session read by a prepared statement (core.prepared, #18)."""

import logging

from django.contrib.sessions.backends import db
from django.contrib.sessions.exceptions import SessionInterrupted
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.db import DatabaseError, connection
from django.utils import timezone
from django.utils.cache import patch_vary_headers

from core.prepared import prepared_cursor

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


class SessionStore(db.SessionStore):
    def _get_session_from_db(self):
        if connection.vendor != "postgresql":
            return super()._get_session_from_db()
        row = None
        if self.session_key is not None:  # a key of the wrong form was already set to None
            with prepared_cursor() as cursor:
                cursor.execute(
                    "SELECT session_data FROM django_session WHERE session_key = %s AND expire_date > %s",
                    [self.session_key, timezone.now()],
                )
                row = cursor.fetchone()
        if row is None:  # as Django's: no such session, or expired
            self._session_key = None
            return None
        return self.model(session_key=self.session_key, session_data=row[0])
