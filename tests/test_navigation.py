"""#16 the navigation bar: Bootstrap's navbar that folds behind a menu button
on a phone, offering each visitor only the pages their role may open (a link
never leads to a 403), with the language switch and sign-out kept."""

import re

import pytest
from django.urls import reverse

from core import roles
from tests.factories import login_verified, user_with_role

pytestmark = pytest.mark.django_db


def _nav(html: str) -> str:
    return re.search(r'<nav class="navbar.*?</nav>', html, re.S).group(0)


@pytest.mark.parametrize(
    "role, shown",
    [
        (roles.SELLER, False),
        (roles.DRAW_STAFF, False),
        (roles.TREASURER, True),
        (roles.AUDITOR, True),
        (roles.ADMINISTRATOR, True),
    ],
)
def test_the_header_offers_licensing_treasury_and_audit_only_to_those_who_may_open_them(client, role, shown):
    client.force_login(user_with_role(role))
    page = client.get("/").content.decode()
    for label in ("Licensing</a>", "Treasury</a>", "Audit trail</a>"):
        assert (label in page) is shown, (role, label)


@pytest.mark.parametrize("role", [roles.ANONYMOUS, *roles.ALL_ROLES])
def test_every_link_of_the_navigation_bar_opens_for_the_role_it_is_shown_to(client, settings, role):
    settings.REQUIRE_2FA_ROLES = [roles.TREASURER, roles.ADMINISTRATOR]
    if role != roles.ANONYMOUS:
        login_verified(client, user_with_role(role))
    nav = _nav(client.get(reverse("home")).content.decode())
    links = re.findall(r'<a class="[^"]*" href="([^"]+)"', nav)
    assert reverse("home") in links
    for href in links:
        response = client.get(href)
        assert response.status_code in (200, 302), (role, href, response.status_code)
        if response.status_code == 302:  # only the anonymous visitor's sign-in may redirect, and not to a 403
            assert role == roles.ANONYMOUS or href == reverse("home"), (role, href)


def test_the_navigation_folds_behind_a_labelled_menu_button_and_keeps_the_switch_and_sign_out(client):
    client.force_login(user_with_role(roles.TREASURER))
    nav = _nav(client.get(reverse("home")).content.decode())
    assert 'class="navbar-toggler"' in nav and 'aria-controls="site-menu"' in nav
    assert '<span class="visually-hidden">Menu</span>' in nav
    assert 'id="site-menu"' in nav and "collapse navbar-collapse" in nav
    assert f'action="{reverse("set_language")}"' in nav and 'value="fr"' in nav
    assert f'action="{reverse("logout")}"' in nav and "Sign out</button>" in nav


def test_the_current_area_is_marked_for_screen_readers(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    client.force_login(user_with_role(roles.AUDITOR))
    nav = _nav(client.get(reverse("treasury_home")).content.decode())
    assert f'href="{reverse("treasury_home")}" aria-current="page">Treasury</a>' in nav
    assert f'href="{reverse("audit_trail")}">Audit trail</a>' in nav


def test_the_language_switch_names_the_other_language_in_that_language(client):
    french = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert 'lang="en" class="nav-link">English</button>' in _nav(french)
    english = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en-CA").content.decode()
    assert 'lang="fr" class="nav-link">Français</button>' in _nav(english)
