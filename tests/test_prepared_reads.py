"""Every signed-in request reads its session, its user and its OTP device
before the view. Those three reads go through prepared statements (#18,
core.prepared.row_by_pk) and must answer exactly as Django's and
django-otp's own: the same rows, and nothing for an expired session, an
inactive user, a key or id of the wrong form, or a model that is no device."""

import datetime

import pytest
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user, get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import RequestFactory
from django.utils import timezone
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

from core.auth_backend import ModelBackend
from core.sessions import SessionStore
from core.twofactor import OTPMiddleware

pytestmark = pytest.mark.django_db


def _prepared_statements() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT string_agg(statement, ' | ') FROM pg_prepared_statements")
        return cursor.fetchone()[0] or ""


def test_a_session_reads_as_djangos_and_an_expired_one_not_at_all():
    stored = DjangoSessionStore()
    stored["cart"] = [1, 2]
    stored.create()
    assert SessionStore(stored.session_key).load() == DjangoSessionStore(stored.session_key).load() == {"cart": [1, 2]}
    assert "FROM django_session" in _prepared_statements()

    Session.objects.filter(pk=stored.session_key).update(expire_date=timezone.now() - datetime.timedelta(seconds=1))
    expired = SessionStore(stored.session_key)
    assert expired.load() == {} and expired.session_key is None
    unknown = SessionStore("x" * 32)
    assert unknown.load() == {} and unknown.session_key is None
    assert SessionStore("short").load() == {}  # a key of the wrong form is never looked up


def test_the_signed_in_user_reads_as_djangos_and_never_an_inactive_one():
    user = get_user_model().objects.create_user("reader", password=None, first_name="Ann")
    found = ModelBackend().get_user(str(user.pk))
    assert found == DjangoModelBackend().get_user(str(user.pk)) == user
    assert (found.username, found.first_name, found.is_active, found._state.adding) == ("reader", "Ann", True, False)
    assert 'FROM "auth_user"' in _prepared_statements()
    assert ModelBackend().get_user("not a number") is None
    assert ModelBackend().get_user(str(user.pk + 1000)) is None
    user.is_active = False
    user.save(update_fields=["is_active"])
    assert ModelBackend().get_user(str(user.pk)) is None


def test_the_sessions_device_reads_as_django_otps_and_only_the_users_confirmed_one():
    user = get_user_model().objects.create_user("holder", password=None)
    other = get_user_model().objects.create_user("other", password=None)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    middleware = OTPMiddleware(lambda request: None)
    found = middleware._device_from_persistent_id(device.persistent_id)
    assert found == Device.from_persistent_id(device.persistent_id) == device and found.key == device.key
    assert 'FROM "otp_totp_totpdevice"' in _prepared_statements()
    for wrong in (f"auth.user/{user.pk}", "otp_totp.totpdevice/abc", "nothing", "no.such/1"):
        assert middleware._device_from_persistent_id(wrong) is None, wrong

    def verified(session_user, persistent_id):
        request = RequestFactory().get("/")
        request.session = {DEVICE_ID_SESSION_KEY: persistent_id}
        return middleware._verify_user_sync(request, session_user).otp_device

    assert verified(user, device.persistent_id) == device
    assert verified(other, device.persistent_id) is None  # another user's device
    TOTPDevice.objects.filter(pk=device.pk).update(confirmed=False)
    assert verified(user, device.persistent_id) is None  # not confirmed


def test_a_session_signed_in_through_djangos_backend_before_the_change_is_signed_out():
    """Sessions name the backend that signed them in; Django's ModelBackend is
    no longer configured (core.auth_backend's replaces it), so such a session
    is signed out once, and one signed in through ours is not."""
    user = get_user_model().objects.create_user("returning", password=None)
    for backend, signed_in in (
        ("django.contrib.auth.backends.ModelBackend", False),
        ("core.auth_backend.ModelBackend", True),
    ):
        stored = DjangoSessionStore()
        stored.update(
            {SESSION_KEY: str(user.pk), BACKEND_SESSION_KEY: backend, HASH_SESSION_KEY: user.get_session_auth_hash()}
        )
        stored.create()
        request = RequestFactory().get("/")
        request.session = SessionStore(stored.session_key)
        assert get_user(request).is_authenticated is signed_in, backend


def test_the_users_role_groups_come_with_the_user_in_its_one_statement(client):
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from core import roles
    from tests.factories import give_role, user_with_role

    treasurer = give_role(user_with_role(roles.TREASURER), roles.AUDITOR)
    found = ModelBackend().get_user(str(treasurer.pk))
    assert sorted(getattr(found, roles.GROUPS_READ_WITH_USER)) == [roles.AUDITOR, roles.TREASURER]
    assert roles.request_user_roles(found) == roles.user_roles(treasurer) == {roles.AUDITOR, roles.TREASURER}
    nobody = ModelBackend().get_user(str(get_user_model().objects.create_user("nobody", password=None).pk))
    assert getattr(nobody, roles.GROUPS_READ_WITH_USER) == [] and roles.request_user_roles(nobody) == set()

    # A staff page's role check (core.roles.role_required) reads no statement of its own.
    client.force_login(treasurer)
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("treasury_home")).status_code == 200
    reads = [q["sql"] for q in captured.captured_queries if "auth_user_groups" in q["sql"]]
    assert len(reads) == 1 and 'FROM "auth_user" WHERE' in reads[0], reads

    # A role taken away is gone on the next request: the names are read with the user, every request.
    treasurer.groups.remove(*treasurer.groups.filter(name=roles.TREASURER))
    assert roles.request_user_roles(ModelBackend().get_user(str(treasurer.pk))) == {roles.AUDITOR}


def test_the_sessions_device_comes_with_the_user_in_its_one_statement(client, settings):
    """The user's confirmed authenticators are read in the user's statement
    (core.auth_backend, core.twofactor): the device the session names is
    found among them as the ORM would build it, with no statement of its
    own, and one that is not a confirmed device of this user verifies
    nothing and is forgotten, as django-otp's own check does."""
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from core import roles
    from core.twofactor import DEVICES_READ_WITH_USER
    from tests.factories import login_verified, user_with_role

    settings.REQUIRE_2FA_ROLES = [roles.TREASURER]
    treasurer = user_with_role(roles.TREASURER)
    other = get_user_model().objects.create_user("other-holder", password=None)
    device = TOTPDevice.objects.create(user=treasurer, name="phone", confirmed=True, drift=-1)
    TOTPDevice.objects.filter(pk=device.pk).update(
        throttling_failure_count=2, throttling_failure_timestamp=timezone.now(), last_used_at=timezone.now()
    )
    unconfirmed = TOTPDevice.objects.create(user=treasurer, name="tablet", confirmed=False)
    others = TOTPDevice.objects.create(user=other, name="theirs", confirmed=True)
    middleware = OTPMiddleware(lambda request: None)

    def verified(persistent_id):
        session_user = ModelBackend().get_user(str(treasurer.pk))
        request = RequestFactory().get("/")
        request.session = {DEVICE_ID_SESSION_KEY: persistent_id}
        with CaptureQueriesContext(connection) as captured:
            found = middleware._verify_user_sync(request, session_user).otp_device
        return found, len(captured.captured_queries), DEVICE_ID_SESSION_KEY in request.session

    stored = TOTPDevice.objects.get(pk=device.pk)
    found, statements, kept = verified(device.persistent_id)
    assert (found, statements, kept) == (stored, 0, True)
    fields = [field.attname for field in TOTPDevice._meta.concrete_fields]
    assert [getattr(found, name) for name in fields] == [getattr(stored, name) for name in fields]
    assert found._state.adding is False and found.user == treasurer and found.bin_key == stored.bin_key
    assert found.verify_is_allowed() == stored.verify_is_allowed()  # the throttle as stored

    for wrong in (unconfirmed.persistent_id, others.persistent_id, f"{TOTPDevice.model_label()}/abc", "nothing"):
        assert verified(wrong) == (None, 0, False), wrong
    assert [len(r) for r in [getattr(ModelBackend().get_user(str(other.pk)), DEVICES_READ_WITH_USER)]] == [1]
    assert getattr(ModelBackend().get_user(str(treasurer.pk)), DEVICES_READ_WITH_USER)[0][0] == device.pk
    nobody = get_user_model().objects.create_user("no-device", password=None)
    assert getattr(ModelBackend().get_user(str(nobody.pk)), DEVICES_READ_WITH_USER) is None

    # A verified session's page reads no device statement; with its device removed since, the
    # session is verified no more (this user, with no authenticator left, is sent to enrol one).
    login_verified(client, treasurer)
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(reverse("treasury_home")).status_code == 200
    statements = [q["sql"] for q in captured.captured_queries]
    assert any("d.user_id = auth_user.id" in sql for sql in statements), statements
    assert not [sql for sql in statements if '"otp_totp_totpdevice"."id"' in sql]  # no read of the device by itself
    TOTPDevice.objects.filter(pk=device.pk).delete()
    response = client.get(reverse("treasury_home"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("two_factor_setup"))
