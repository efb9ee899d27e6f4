"""Django's PostgreSQL backend, with a health check that needs no round trip (#18).

With `CONN_HEALTH_CHECKS`, Django checks a kept connection before the first
query of every request by sending `SELECT 1`: one more round trip to the
database on every page and every sale. A server that ends a session (a
restart, `pg_terminate_backend`, an idle timeout) says so on the socket
before it closes it, so an idle connection whose socket has nothing to read
is one the server has not ended: it is used as it is. Anything on the socket
(the server's goodbye, or any message nobody asked for) sends the check to
Django's own `SELECT 1`, which then decides. A connection psycopg already
knows to be closed or broken is unusable without asking.

What this does not see, Django's check would not have seen sooner either: a
server host that vanished without closing its sockets makes `SELECT 1` wait
for the network's timeout just as the request's first query does.
"""

import select

from django.db.backends.postgresql import base


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        raw = self.connection
        if raw is None or raw.closed or raw.broken:
            return False
        poller = select.poll()
        poller.register(raw.fileno(), select.POLLIN | select.POLLPRI)
        if not poller.poll(0):  # nothing to read: the server has not ended this session
            return True
        return super().is_usable()
