"""Kept database connections are checked before each request's first query
(CONN_HEALTH_CHECKS) without a round trip while the server has said nothing
(core/postgresql/base.py, #18); a connection the server ended is found and
replaced, as Django's own `SELECT 1` would."""

import select
import time

import pytest
from django.db import connection, connections
from django.db.backends.postgresql import base as django_postgresql

pytestmark = pytest.mark.django_db


@pytest.fixture
def kept_connection():
    """A second connection to the test database, as a worker keeps between requests."""
    kept = connections.create_connection("default")
    kept.ensure_connection()
    yield kept
    kept.close()


def _ask_server(monkeypatch) -> list[str]:
    """Record each time the check falls back to Django's own `SELECT 1`."""
    asked = []
    original = django_postgresql.DatabaseWrapper.is_usable

    def recording(self):
        asked.append("SELECT 1")
        return original(self)

    monkeypatch.setattr(django_postgresql.DatabaseWrapper, "is_usable", recording)
    return asked


def test_the_settings_use_the_backend_and_keep_health_checks():
    default = connections["default"]
    assert type(default).__module__ == "core.postgresql.base"
    assert default.settings_dict["CONN_HEALTH_CHECKS"] is True


def test_an_idle_connection_the_server_keeps_is_used_without_asking(kept_connection, monkeypatch):
    asked = _ask_server(monkeypatch)
    assert kept_connection.is_usable() is True
    kept_connection.health_check_done = False
    kept_connection.close_if_health_check_failed()
    assert kept_connection.connection is not None and asked == []
    with kept_connection.cursor() as cursor:
        cursor.execute("SELECT 41 + 1")
        assert cursor.fetchone() == (42,)


def test_a_connection_the_server_ended_is_found_and_replaced(kept_connection, monkeypatch):
    asked = _ask_server(monkeypatch)
    raw = kept_connection.connection
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [raw.info.backend_pid])
    # The server's goodbye reaches the socket; wait for it (not a timing: the
    # check below is what is tested, once the server has spoken).
    poller = select.poll()
    poller.register(raw.fileno(), select.POLLIN)
    deadline = time.monotonic() + 10
    while not poller.poll(100) and time.monotonic() < deadline:
        pass
    assert kept_connection.is_usable() is False
    assert asked == ["SELECT 1"]  # something on the socket: the server was asked, and it was gone

    kept_connection.health_check_done = False
    kept_connection.close_if_health_check_failed()
    assert kept_connection.connection is None
    with kept_connection.cursor() as cursor:  # the next query opens a new connection
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def test_a_connection_psycopg_knows_is_closed_is_unusable_without_asking(kept_connection, monkeypatch):
    asked = _ask_server(monkeypatch)
    kept_connection.connection.close()
    assert kept_connection.is_usable() is False and asked == []
