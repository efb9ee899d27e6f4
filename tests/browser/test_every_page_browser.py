"""#16 every page of every role, in English and in French, on a phone, a
tablet, a laptop and a full-HD screen: no page scrolls sideways, and axe-core
finds no serious or critical accessibility problem on any of them.

The pages are those of tests/test_url_matrix.py: every URL of the project
whose row in docs/roles.md says `yes` for the role (anonymous visitors: the
public pages), filled from the same demo-like world. Left out, and why:
the records (`admin:*`, Django's own admin with its own design) and what is
not a web page (PDF, CSV, iCalendar, Atom, the health check), found by the
type of the response, never by a list.

One browser context per visitor, signed in with a session made by Django's
test client; the width changes with `set_viewport_size` on the page already
loaded. The main pages of each role are saved as screenshots at 1366 px in
both languages (test-artifacts/), five of them for the guides (`picture`)."""

import pathlib

import pytest
from django.conf import settings
from django.test import Client

from core import roles
from core.roles import ANONYMOUS, matrix_row
from tests import factories
from tests.browser.conftest import axe_check
from tests.factories import login_verified, user_with_role
from tests.test_url_matrix import MATRIX, PAGES, _build_world, url_for

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = [(390, 844), (768, 1024), (1366, 768), (1920, 1080)]
LANGUAGES = ["en", "fr"]
SIDEWAYS = (pathlib.Path(__file__).parent / "sideways.js").read_text()

# The pages whose screenshots show what each visitor does (test-artifacts/).
MAIN_PAGES = {
    ANONYMOUS: ["home", "public_board", "public_results", "rules_of_play", "login"],
    roles.SELLER: ["home", "sales_sell", "sales_rolls", "event_detail"],
    roles.DRAW_STAFF: ["event_dashboard", "draw_night", "audit_destructions"],
    roles.TREASURER: ["treasury_home", "treasury_overview", "treasury_deposits", "treasury_trust_ledger"],
    roles.AUDITOR: ["audit_trail", "treasury_spending", "application_list"],
    roles.ADMINISTRATOR: ["application_list", "exit_strategy", "sales_rolls"],
}


# Four of the five pictures of the guides (docs/img/, `DOCS_PICTURES=1`; the fifth is the announcement
# of test_big_numbers_browser.py): (visitor, page, language) -> (name, width).
GUIDE_PICTURES = {
    (ANONYMOUS, "public_board", "en"): ("screen-public-board", 1366),
    (ANONYMOUS, "public_results", "fr"): ("screen-public-results-fr", 1366),
    (roles.SELLER, "sale_detail", "en"): ("screen-seller-sale-phone", 390),
    (roles.DRAW_STAFF, "event_dashboard", "en"): ("screen-event-dashboard", 1366),
}


@pytest.fixture
def world(db):
    users = {role: user_with_role(role, username=role.replace(" ", "")) for role in roles.ALL_ROLES}
    yield _build_world(users, name="Harbour Lions Catch the Ace")
    factories.EVERY_ORGANISATION.clear()


def pages_of(visitor: str):
    """The pages of the matrix this visitor may open, records (admin) left out."""
    return [
        page
        for page in PAGES
        if not page.key.startswith("admin") and MATRIX[matrix_row(MATRIX, page.key)][visitor] == roles.ALLOWED
    ]


def signed_in_context(browser, live_server, visitor, world):
    context = browser.new_context(bypass_csp=True)  # axe-core is injected into each page
    if visitor != ANONYMOUS:
        client = Client()
        login_verified(client, world["users"][visitor])
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])
    return context


def speak(context, live_server, language):
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])


@pytest.mark.parametrize("visitor", [ANONYMOUS, *roles.ALL_ROLES])
def test_every_page_of_every_role_fits_every_width_and_passes_axe_in_both_languages(
    browser, live_server, world, visitor, shoot, picture
):
    context = signed_in_context(browser, live_server, visitor, world)
    page = context.new_page()
    problems, checked, not_html, shot = [], 0, [], set()
    for language in LANGUAGES:
        speak(context, live_server, language)
        for entry in pages_of(visitor):
            url = live_server.url + url_for(entry, world)
            head = context.request.get(url)
            if "text/html" not in head.headers.get("content-type", ""):
                not_html.append(entry.key)
                continue
            assert head.status < 400, f"{entry.key} as {visitor}: {head.status}"
            page.set_viewport_size({"width": 1366, "height": 768})
            page.goto(url)
            assert page.locator("html").get_attribute("lang") == language, f"{entry.key} ({language})"
            for width, height in WIDTHS:
                page.set_viewport_size({"width": width, "height": height})
                wider = page.evaluate(SIDEWAYS)
                if wider:
                    problems.append(f"{entry.key} ({language}) at {width}px scrolls sideways: {wider}")
            page.set_viewport_size({"width": 1366, "height": 768})
            for violation in axe_check(page):
                problems.append(f"{entry.key} ({language}) axe: {violation}")
            if entry.key in MAIN_PAGES[visitor]:
                shoot(page, f"{visitor.replace(' ', '-')}-{entry.key}-{language}")
                shot.add(entry.key)
            if (visitor, entry.key, language) in GUIDE_PICTURES:
                name, width = GUIDE_PICTURES[visitor, entry.key, language]
                page.set_viewport_size({"width": width, "height": 900})
                picture(page, name)
            checked += 1
    context.close()
    assert shot == set(MAIN_PAGES[visitor]), f"main pages not reached as {visitor}: {set(MAIN_PAGES[visitor]) - shot}"
    assert checked > 2 * len(MAIN_PAGES[visitor]), (checked, not_html)
    assert problems == [], "\n".join(problems)


def records_pages(visitor: str):
    return [
        page
        for page in PAGES
        if page.key.startswith("admin") and MATRIX[matrix_row(MATRIX, page.key)][visitor] == roles.ALLOWED
    ]


# How many records pages each role opens, at least (the administrator the most; the auditor reads them all).
RECORDS_AT_LEAST = {roles.ADMINISTRATOR: 100, roles.AUDITOR: 100, roles.TREASURER: 100, roles.DRAW_STAFF: 100}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("visitor", roles.ALL_ROLES)
def test_every_records_page_of_every_role_fits_a_phone_and_passes_axe(browser, live_server, world, visitor, language):
    """The records (Django's admin, its own design) as each role, since each
    sees them differently (the auditor reads every one without a Save
    button): the same checks, at every width, in English and in French
    (Django's admin speaks French itself, our models' names and fields
    through locale/fr). Two pieces of Django's admin markup are mended for
    it: the search box's label (templates/admin/search_form.html) and the
    autocomplete box's name (core.admin.NamedAutocompleteSelect)."""
    context = signed_in_context(browser, live_server, visitor, world)
    speak(context, live_server, language)
    page = context.new_page()
    problems, checked = [], 0
    for entry in records_pages(visitor):
        url = live_server.url + url_for(entry, world)
        head = context.request.get(url)
        if "text/html" not in head.headers.get("content-type", ""):
            continue
        page.set_viewport_size({"width": 1366, "height": 768})
        page.goto(url)
        assert page.locator("html").get_attribute("lang") == language, f"{entry.key} ({language})"
        for violation in axe_check(page):
            problems.append(f"{entry.key} axe: {violation}")
        for width, height in WIDTHS:
            page.set_viewport_size({"width": width, "height": height})
            wider = page.evaluate(SIDEWAYS)
            if wider:
                problems.append(f"{entry.key} at {width}px scrolls sideways: {wider}")
        checked += 1
    context.close()
    assert checked >= RECORDS_AT_LEAST.get(visitor, 1), checked
    assert problems == [], "\n".join(problems)
