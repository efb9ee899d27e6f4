import pytest
from django.utils import translation

from tests.factories import UserFactory, event_with_draw


@pytest.fixture
def staff_user(db):
    return UserFactory(username="drawstaff", is_staff=True)


@pytest.fixture
def treasurer(db):
    return UserFactory(username="treasurer")


@pytest.fixture
def event(db, staff_user):
    return event_with_draw(actor=staff_user)


@pytest.fixture
def draw(event):
    return event.draws.get(number=1)


@pytest.fixture(autouse=True)
def _english_after_each_test():
    """A request in French leaves French active in the test's thread (Django's
    LocaleMiddleware activates the visitor's language and a real server's
    next request activates its own); the next test starts in English again,
    as a management command or a fresh request would."""
    yield
    translation.deactivate()


@pytest.fixture(autouse=True, scope="session")
def _flush_past_truncate_triggers():
    """The append-only tables refuse TRUNCATE (core.append_only); the test
    runner empties the database between `transaction=True` tests with one. Its
    superuser connection flushes in replica mode, where triggers do not fire;
    the runtime role of production cannot set that mode."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.execute_sql_flush

    def execute_sql_flush(self, sql_list):
        with self.connection.cursor() as cursor:
            cursor.execute("SET session_replication_role = replica")
        try:
            original(self, sql_list)
        finally:
            with self.connection.cursor() as cursor:
                cursor.execute("SET session_replication_role = DEFAULT")

    DatabaseOperations.execute_sql_flush = execute_sql_flush
    yield
    DatabaseOperations.execute_sql_flush = original
