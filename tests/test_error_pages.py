"""#16 the error pages a volunteer may meet (403, 404, 400, 500, an expired
form) are in the site's design, say what happened in plain words, offer a way
back to the start page, and speak French when the browser asks for it."""

import pytest
from django.test import Client, RequestFactory
from django.urls import reverse
from django.views import defaults
from django.views.csrf import csrf_failure

from core.roles import SELLER
from tests.factories import login_verified, user_with_role

pytestmark = pytest.mark.django_db


def _shows_error_page(html: str, heading: str) -> None:
    assert heading in html
    assert f'href="{reverse("home")}"' in html  # the way back
    assert "site-header" in html and "site-footer" in html  # the site's own design


def test_an_unknown_address_gets_the_designed_404_with_a_way_back(client):
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    _shows_error_page(response.content.decode(), "Page not found")


def test_the_404_speaks_french_to_a_french_browser(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    html = response.content.decode()
    assert response.status_code == 404
    assert '<html lang="fr">' in html
    _shows_error_page(html, "Page introuvable")
    assert "Retour à la page d’accueil" in html


def test_a_seller_opening_the_treasury_gets_the_designed_403(client):
    seller = user_with_role(SELLER)
    login_verified(client, seller)
    response = client.get(reverse("treasury_home"))
    assert response.status_code == 403
    _shows_error_page(response.content.decode(), "Not part of your role")


def test_a_crash_gets_the_designed_500_without_needing_the_request_or_the_database():
    """Django renders 500.html with no context (the database may be the
    cause), so the page must render from the template alone."""
    response = defaults.server_error(RequestFactory().get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    _shows_error_page(html, "Something went wrong on our side")
    assert "look for it before you try again" in html


def test_a_bad_request_gets_the_designed_400():
    response = defaults.bad_request(RequestFactory().get("/"), exception=None)
    assert response.status_code == 400
    _shows_error_page(response.content.decode(), "Request not understood")


def test_an_expired_form_says_so_and_how_to_recover():
    response = csrf_failure(RequestFactory().post("/"), reason="CSRF token missing.")
    html = response.content.decode()
    assert response.status_code == 403
    _shows_error_page(html, "This form has expired")
    assert "reload the page" in html


def test_a_form_posted_without_its_csrf_token_reaches_the_expired_form_page():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "x", "password": "y"})
    assert response.status_code == 403
    assert "This form has expired" in response.content.decode()
