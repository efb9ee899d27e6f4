"""The public envelope board is kept rendered for BOARD_CACHE_SECONDS (#15:
sixteen anonymous visitors reloading it must not slow a seller): within those
seconds a visitor's request costs no query, after them a change shows; each
language has its own copy; the language switch keeps a token of its own.
Visitors without a session share the whole page, token aside."""

import re
import time
from types import SimpleNamespace

import pytest
from django.contrib import messages
from django.contrib.messages.storage.cookie import CookieStorage
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.cache.backends import base, locmem
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import run_draw

pytestmark = pytest.mark.django_db

SECONDS = 5


@pytest.fixture
def kept(settings):
    """The board kept SECONDS seconds, from an empty cache."""
    settings.BOARD_CACHE_SECONDS = SECONDS
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def later(monkeypatch):
    """The cache's clock (what the copy's expiry is set and read by), stopped
    and moved forward by the test alone, however slow the machine."""
    now = [time.time()]
    clock = SimpleNamespace(time=lambda: now[0])
    monkeypatch.setattr(base, "time", clock)
    monkeypatch.setattr(locmem, "time", clock)

    def advance(seconds: float) -> None:
        now[0] += seconds

    return advance


def board(event):
    return reverse("public_board", args=[event.pk])


def test_an_opened_envelope_shows_once_the_copy_is_older_than_the_setting(
    client, event, staff_user, kept, later
):  # R:T10
    before = client.get(board(event)).content.decode()
    assert before.count('<li class="open') == 0
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=7, card="KH")
    later(SECONDS - 1)  # within the bound: the copy the visitors were given
    assert client.get(board(event)).content.decode().count('<li class="open') == 0
    later(2)  # past the bound: the draw closed and envelope 7 opened
    after = client.get(board(event)).content.decode()
    assert after.count('<li class="open') == 1 and "Envelope 7: opened, King of Hearts" in after
    assert "$300.00" in after


def test_a_kept_board_costs_no_query_and_creates_no_session(client, event, kept, django_assert_num_queries):
    first = client.get(board(event))
    with django_assert_num_queries(0):
        again = client.get(board(event))
    assert again.status_code == 200 and again.content.count(b'<li class="sealed') == 52
    assert "sessionid" not in again.cookies and "sessionid" not in first.cookies
    assert not Session.objects.exists()
    assert "no-cache" in again["Cache-Control"] and "private" in again["Cache-Control"]
    assert {"Cookie", "Accept-Language"} <= {v.strip() for v in again["Vary"].split(",")}


def test_french_and_english_readers_each_get_their_own_copy(client, event, kept):
    english = client.get(board(event)).content.decode()
    french = client.get(board(event), HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert "Envelope 1: sealed" in english and "Enveloppe 1 : scellée" not in english
    assert "Enveloppe 1 : scellée" in french and "Envelope 1: sealed" not in french
    assert '<html lang="fr">' in french
    assert "Envelope 1: sealed" in client.get(board(event)).content.decode()  # English is still English


def test_the_language_switch_on_a_kept_board_carries_its_own_token_and_works(event, kept):
    visitor = Client(enforce_csrf_checks=True)
    visitor.get(board(event))
    page = visitor.get(board(event))
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    other = Client(enforce_csrf_checks=True).get(board(event)).content.decode()
    assert token not in other  # each reader's token, not one kept with the board
    switch = {"language": "fr", "next": board(event), "csrfmiddlewaretoken": token}
    answer = visitor.post(reverse("set_language"), switch)
    assert answer.status_code == 302
    assert "Enveloppe 1 : scellée" in visitor.get(board(event)).content.decode()
    refused = Client(enforce_csrf_checks=True).post(reverse("set_language"), switch)
    assert refused.status_code == 403  # a reader without the token's cookie is refused


def test_signed_in_staff_read_the_board_afresh_and_refresh_the_visitors_copy(
    client, event, staff_user, kept, django_assert_num_queries
):
    client.get(board(event))  # the visitors' copy: every envelope sealed
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=7, card="KH")
    staff = Client()
    staff.force_login(staff_user)
    page = staff.get(board(event)).content.decode()
    assert "Envelope 7: opened, King of Hearts" in page and "Signed in as drawstaff" in page
    with django_assert_num_queries(0):
        visitor = client.get(board(event)).content.decode()
    assert "Envelope 7: opened, King of Hearts" in visitor and "Signed in as" not in visitor
    assert "Sign in" in visitor


def _without_token(page: str) -> str:
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", page)


def test_visitors_without_a_session_share_one_kept_page_but_each_gets_their_own_token(event, kept):
    first, second = Client(), Client()
    one, two = first.get(board(event)), second.get(board(event))
    assert one.cookies["csrftoken"].value != two.cookies["csrftoken"].value
    tokens = [re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', r.content.decode()).group(1) for r in (one, two)]
    assert tokens[0] != tokens[1] and "csrftokenofthisvisitorgoeshere" not in one.content.decode()
    assert _without_token(one.content.decode()) == _without_token(two.content.decode())


def test_a_visitor_with_a_query_string_or_a_pending_message_gets_their_own_page(client, event, kept):
    client.get(board(event))  # the shared page is kept
    asked = client.get(board(event) + "?from=poster").content.decode()
    assert f'name="next" value="/board/{event.pk}/?from=poster"' in asked
    storage = CookieStorage(RequestFactory().get("/"))
    storage.add(messages.INFO, "You are signed out.")
    carrier = HttpResponse()
    storage.update(carrier)
    client.cookies["messages"] = carrier.cookies["messages"].value
    assert "You are signed out." in client.get(board(event)).content.decode()
