"""Behind the reverse proxy the deploy guide describes, the sign-in lockout
counts failures per username AND real client address (X-Forwarded-For as
`DJANGO_TRUSTED_PROXY_COUNT` says), so an attacker's guesses from one address
never lock the treasurer out at another; the sign-in log shows the real
addresses (RULES D7)."""

import pytest
from axes.models import AccessAttempt, AccessLog
from django.test import RequestFactory
from django.urls import reverse

from core.client_ip import client_address
from core.models import AuditEntry
from tests.factories import PASSWORD, UserFactory

PROXY = "127.0.0.1"  # nginx on the same machine: every request arrives from it
ATTACKER = "203.0.113.66"
TREASURER_HOME = "198.51.100.23"


@pytest.fixture
def behind_one_proxy(settings):
    settings.AXES_ENABLED = True
    settings.TRUSTED_PROXY_COUNT = 1


def sign_in(client, username, password, forwarded_for):
    # nginx's $proxy_add_x_forwarded_for appends the address it saw to what the client sent.
    return client.post(
        reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR=forwarded_for,
    )


@pytest.mark.django_db
def test_an_attackers_failures_do_not_lock_the_treasurer_out_at_another_address(client, behind_one_proxy):  # R:D7
    UserFactory(username="terry")
    for _ in range(5):
        sign_in(client, "terry", "not-the-password", ATTACKER)
    assert sign_in(client, "terry", PASSWORD, ATTACKER).status_code == 429  # the attacker's address is locked
    assert AccessAttempt.objects.get(username="terry").ip_address == ATTACKER
    # The treasurer at home, through the same proxy, signs in.
    assert sign_in(client, "terry", PASSWORD, TREASURER_HOME).status_code == 302
    # The sign-in log and the audit trail show the real addresses, never the proxy's.
    assert AccessLog.objects.get(username="terry").ip_address == TREASURER_HOME
    logged_in = AuditEntry.objects.filter(action="core.user.login").latest("pk")
    assert logged_in.data["ip"] == TREASURER_HOME
    failures = AuditEntry.objects.filter(action="core.user.login_failed")
    assert {entry.data["ip"] for entry in failures} == {ATTACKER}


@pytest.mark.django_db
def test_a_forged_forwarded_address_does_not_escape_the_lockout(client, behind_one_proxy):  # R:D7
    UserFactory(username="terry")
    # The attacker writes a new address into the header each time; the proxy appends the real one.
    for n in range(5):
        sign_in(client, "terry", "not-the-password", f"10.9.8.{n}, {ATTACKER}")
    assert sign_in(client, "terry", PASSWORD, f"10.9.8.99, {ATTACKER}").status_code == 429


def request_from(remote, forwarded=None):
    meta = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        meta["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().get("/", **meta)


@pytest.mark.parametrize(
    ("proxies", "remote", "forwarded", "client"),
    [
        (0, "198.51.100.1", "203.0.113.5", "198.51.100.1"),  # no proxy trusted: the header is ignored
        (1, PROXY, "203.0.113.5", "203.0.113.5"),
        (1, PROXY, "1.2.3.4, 203.0.113.5", "203.0.113.5"),  # the client's own part is not believed
        (2, "10.0.0.2", "1.2.3.4, 203.0.113.5, 10.0.0.1", "203.0.113.5"),  # load balancer + nginx
        (1, PROXY, None, PROXY),  # not through the proxy: the connection's address
        (2, PROXY, "203.0.113.5", PROXY),  # fewer hops than proxies: not believed
        (1, PROXY, "not-an-address", PROXY),
        (1, PROXY, "[2001:db8::7]:443", "2001:db8::7"),
        (1, PROXY, "203.0.113.5:5555", "203.0.113.5"),
    ],
)
def test_the_client_address_is_read_as_the_trusted_proxies_say(settings, proxies, remote, forwarded, client):
    settings.TRUSTED_PROXY_COUNT = proxies
    assert client_address(request_from(remote, forwarded)) == client


def test_the_header_the_proxy_writes_can_be_named(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_HEADER = "HTTP_X_REAL_IP"
    request = RequestFactory().get("/", REMOTE_ADDR=PROXY, HTTP_X_REAL_IP="203.0.113.8", HTTP_X_FORWARDED_FOR="9.9.9.9")
    assert client_address(request) == "203.0.113.8"
