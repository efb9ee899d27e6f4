import pytest
from django.utils import translation

from tests import factories
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


@pytest.fixture(autouse=True)
def _role_holders_work_for_every_organisation():
    """A user given a role group while they work for no organisation works for
    every organisation of the test, made before or after (tests/factories.py
    EVERY_ORGANISATION): the hundreds of one-charity tests keep their shape;
    memberships made by the services are left alone."""
    from django.contrib.auth import get_user_model
    from django.db.models.signals import m2m_changed, post_save

    from core.roles import ALL_ROLES
    from licensing.models import Membership, Organisation

    User = get_user_model()

    def on_groups_added(sender, instance, action, reverse, pk_set, **kwargs):
        if action != "post_add" or reverse or not isinstance(instance, User):
            return
        if instance.pk not in factories.EVERY_ORGANISATION and Membership.objects.filter(user=instance).exists():
            return
        names = set(instance.groups.filter(pk__in=pk_set, name__in=ALL_ROLES).values_list("name", flat=True))
        if names:
            factories.works_for_every_organisation(instance, names)

    def on_organisation_made(sender, instance, created, **kwargs):
        if not created:
            return
        for user_pk, names in factories.EVERY_ORGANISATION.items():
            for role in names:
                Membership.objects.get_or_create(user_id=user_pk, organisation=instance, role=role)

    m2m_changed.connect(on_groups_added, sender=User.groups.through, dispatch_uid="tests.every_organisation.groups")
    post_save.connect(on_organisation_made, sender=Organisation, dispatch_uid="tests.every_organisation.made")
    yield
    m2m_changed.disconnect(sender=User.groups.through, dispatch_uid="tests.every_organisation.groups")
    post_save.disconnect(sender=Organisation, dispatch_uid="tests.every_organisation.made")
    factories.EVERY_ORGANISATION.clear()
