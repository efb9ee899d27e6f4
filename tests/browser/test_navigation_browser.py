"""#16 the navigation bar on a 390 px phone: folded behind the menu button,
which opens it (Bootstrap's collapse, served from our static files), and
without JavaScript shown open, so "Sign out" is always within reach."""

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from tests.factories import user_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def signed_in(browser, live_server, **options):
    client = Client()
    client.force_login(user_with_role(roles.TREASURER))
    context = browser.new_context(viewport=PHONE, **options)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}])
    return context


def test_on_a_phone_the_menu_button_opens_the_navigation(browser, live_server, shoot):
    context = signed_in(browser, live_server)
    page = context.new_page()
    page.goto(live_server.url + reverse("home"))
    sign_out = page.get_by_role("button", name="Sign out")
    expect(sign_out).to_be_hidden()
    menu = page.get_by_role("button", name="Menu")
    expect(menu).to_have_attribute("aria-expanded", "false")
    menu.click()
    expect(sign_out).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(page.locator("#site-menu")).to_have_class("navbar-collapse collapse show")  # done unfolding
    expect(page.get_by_role("link", name="Treasury")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "menu-open-390")
    context.close()


def test_without_javascript_the_navigation_is_shown_open(browser, live_server, shoot):
    context = signed_in(browser, live_server, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server.url + reverse("home"))
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    expect(page.get_by_role("link", name="Audit trail")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shoot(page, "menu-no-js-390")
    context.close()


def test_on_a_laptop_the_navigation_is_open_without_a_menu_button(browser, live_server):
    context = signed_in(browser, live_server)
    page = context.new_page()
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(live_server.url + reverse("home"))
    expect(page.get_by_role("button", name="Sign out")).to_be_visible()
    expect(page.get_by_role("button", name="Menu")).to_be_hidden()
    context.close()
