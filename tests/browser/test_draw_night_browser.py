"""A draw night clicked through the real pages of a live server in Chromium,
the public board watched from another browser, and axe-core on every screen."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from licensing.models import BonaFideMember
from raffle.models import CardDestruction, Draw, DrawState, EventStatus
from tests.browser.conftest import axe_violations
from tests.factories import PASSWORD, UserFactory, event_with_draw, members_for, run_draw, user_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night_setup(settings):
    settings.BOARD_REFRESH_SECONDS = 1
    actor = UserFactory()
    event = event_with_draw(actor=actor, name="Harbourview Catch the Ace", draw_place="Legion Hall 142")
    user = user_with_role(roles.DRAW_STAFF, username="sam", first_name="Sam")
    members_for(event)  # Dana Destroyer and Vic Verifier (in charge)
    return event, user


def sign_in(page, live_server, username, next_url):
    page.goto(f"{live_server.url}{reverse('login')}?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(re.escape(next_url) + "$"))


def watch_csp(page) -> list[str]:
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def member(name):
    """How the destruction form lists a member."""
    return str(BonaFideMember.objects.get(full_name=name))


def check_a11y(axe_page, url):
    assert axe_violations(axe_page, url) == []


def click_step(page, name):
    page.get_by_role("button", name=name).click()
    page.wait_for_load_state()


def run_draw_night(page, axe_page, live_server, shoot, draw, *, card: str, envelope: str):
    """Click one draw from scheduled to its last screen, checking each screen."""
    url = f"{live_server.url}{reverse('draw_night', args=[draw.pk])}"
    page.goto(url)

    def screen(name, heading):
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
        shoot(page, name)
        check_a11y(axe_page, url)

    screen("open-sales", "Open ticket sales")
    click_step(page, "Open ticket sales")
    expect(page.get_by_role("status").first).to_contain_text("Ticket sales are open")

    screen("close-sales", "Close ticket sales")
    page.get_by_label("Ticket sales for this draw ($)").fill("1250.00")
    click_step(page, "Check the figures")
    expect(page.get_by_role("row", name=re.compile("Draw prize"))).to_contain_text("$250.00")
    shoot(page, "close-sales-check")
    click_step(page, "Close sales at $1,250.00")

    screen("announce", "Announce the draw")
    expect(page.locator(".big-figures")).to_contain_text("$1,250.00")
    expect(page.get_by_role("button", name="Print the announcement")).to_be_visible()
    click_step(page, "Announced: go to the ticket draw")

    screen("draw-ticket", "Draw the winning ticket")
    page.get_by_label("Winning ticket serial").fill("A-004711")
    page.get_by_label("Winner's name").fill("Robin Holder")
    click_step(page, "Record the winning ticket")

    screen("choose-envelope", "Choose the envelope")
    expect(page.locator(".winner")).to_contain_text("A-004711")
    page.get_by_label("Envelope number (1 to 52)").fill(envelope)
    click_step(page, "Choose this envelope")

    screen("reveal-card", "Reveal the card")
    page.get_by_label("Card in the envelope").fill(card)
    click_step(page, "Record the card")
    return url


def test_a_full_draw_night_to_rollover_in_the_browser(page, axe_context, live_server, shoot, night_setup):  # R:D8 R:E3
    event, user = night_setup
    draw = event.draws.get(number=1)
    csp_errors = watch_csp(page)
    axe_page = axe_context.new_page()
    sign_in(page, live_server, user.username, reverse("event_dashboard", args=[event.pk]))
    sign_in(axe_page, live_server, user.username, reverse("event_dashboard", args=[event.pk]))
    shoot(page, "dashboard")
    check_a11y(axe_page, page.url)
    page.get_by_role("link", name="Run draw night for draw 1").click()

    url = run_draw_night(page, axe_page, live_server, shoot, draw, card="QD", envelope="17")

    expect(page.get_by_role("heading", level=1)).to_contain_text("Not the Ace of Spades")
    shoot(page, "destroy-card")
    check_a11y(axe_page, url)
    def sign_destruction(destroyer, verifier, verifier_password=PASSWORD):
        page.get_by_label("Member who destroyed the card", exact=True).select_option(label=member(destroyer))
        page.get_by_label("Password of the member who destroyed the card").fill(PASSWORD)
        page.get_by_label("Member in charge who verified it", exact=True).select_option(label=member(verifier))
        page.get_by_label("Password of the member in charge who verified it").fill(verifier_password)
        click_step(page, "Log the destruction and roll the jackpot over")

    sign_destruction("Dana Destroyer", "Dana Destroyer")
    expect(page.get_by_role("alert")).to_contain_text("verified by a second person")
    shoot(page, "destroy-card-refused")
    sign_destruction("Dana Destroyer", "Vic Verifier", verifier_password="not-the-password")
    expect(page.get_by_role("alert")).to_contain_text("must type their own password")
    shoot(page, "destroy-card-wrong-password")
    assert not CardDestruction.objects.exists()
    sign_destruction("Dana Destroyer", "Vic Verifier")

    expect(page.get_by_role("heading", level=1)).to_contain_text("Draw finished")
    expect(page.locator("main")).to_contain_text("rolls over")
    shoot(page, "rolled-over")
    check_a11y(axe_page, url)
    page.go_back()  # back, then refresh: nothing is repeated
    page.reload()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Draw finished")
    draw.refresh_from_db()
    assert draw.state == DrawState.CLOSED and draw.outcome == "rollover" and draw.jackpot_after == 375
    assert Draw.objects.get(event=event, number=2).state == DrawState.SCHEDULED
    page.get_by_role("link", name=re.compile("Go to draw 2")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Draw 2: Open ticket sales")
    assert not [e for e in csp_errors if "Content Security Policy" in e], csp_errors


def test_a_full_draw_night_to_the_ace_of_spades_in_the_browser(page, axe_context, live_server, shoot,
                                                               night_setup):  # R:P4
    event, user = night_setup
    draw = event.draws.get(number=1)
    axe_page = axe_context.new_page()
    sign_in(page, live_server, user.username, reverse("draw_night", args=[draw.pk]))
    sign_in(axe_page, live_server, user.username, reverse("draw_night", args=[draw.pk]))

    url = run_draw_night(page, axe_page, live_server, shoot, draw, card="AS", envelope="52")

    expect(page.get_by_role("heading", level=1)).to_contain_text("The Ace of Spades!")
    expect(page.locator(".announce")).to_contain_text("$375.00")
    shoot(page, "ace-award")
    check_a11y(axe_page, url)
    click_step(page, "Award the jackpot and conclude the event")
    expect(page.locator("main")).to_contain_text("Jackpot awarded")
    shoot(page, "event-concluded")
    event.refresh_from_db()
    assert event.status == EventStatus.CONCLUDED


def test_the_public_board_updates_itself_after_a_reveal(page, browser, axe_context, live_server, shoot,
                                                        night_setup, request):  # R:T10
    event, user = night_setup
    draw = run_draw(event.draws.get(number=1), actor=user, sales="2000.00", envelope=23,
                    until=DrawState.ENVELOPE_CHOSEN)
    board_url = f"{live_server.url}{reverse('public_board', args=[event.pk])}"
    public = browser.new_context(viewport={"width": 1600, "height": 900})
    request.addfinalizer(public.close)  # stop the board polling once the test ends
    room = public.new_page()
    csp_errors = watch_csp(room)
    room.goto(board_url)
    expect(room.locator("#board-live")).to_contain_text("envelope 23 has been chosen")
    expect(room.locator(".helpline")).to_contain_text("ConnexOntario 1-866-531-2600")
    shoot(room, "board-before-reveal")
    assert axe_violations(axe_context.new_page(), board_url) == []

    sign_in(page, live_server, user.username, reverse("draw_night", args=[draw.pk]))
    page.get_by_label("Card in the envelope").fill("7S")
    click_step(page, "Record the card")

    # No reload: the board's own script fetches the new state.
    expect(room.locator("#board-live")).to_contain_text("Envelope 23: opened, 7 of Spades", timeout=10_000)
    expect(room.get_by_role("status")).to_contain_text("Updated at")
    shoot(room, "board-after-reveal")
    phone_context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    request.addfinalizer(phone_context.close)
    phone = phone_context.new_page()
    phone.goto(board_url)
    shoot(phone, "board-phone")
    assert axe_violations(axe_context.new_page(), board_url) == []
    assert not [e for e in csp_errors if "Content Security Policy" in e], csp_errors


def test_a_second_browser_on_the_same_step_is_refused(browser, live_server, shoot, night_setup, request):  # R:D8
    event, user = night_setup
    other = user_with_role(roles.DRAW_STAFF, username="alex")
    draw = run_draw(event.draws.get(number=1), actor=user, until=DrawState.ANNOUNCED)
    url = reverse("draw_night", args=[draw.pk])
    laptops = []
    for username in (user.username, other.username):
        context = browser.new_context()
        request.addfinalizer(context.close)
        laptop = context.new_page()
        sign_in(laptop, live_server, username, url)
        laptop.get_by_label("Winning ticket serial").fill(f"SERIAL-{username}")
        laptops.append(laptop)

    # Both press the button at the same moment.
    for laptop in laptops:
        laptop.evaluate("document.querySelector('form.step-form').requestSubmit()")
    for laptop in laptops:
        laptop.wait_for_load_state()
        expect(laptop.get_by_role("heading", level=1)).to_contain_text("Choose the envelope")

    texts = [laptop.locator(".messages").inner_text() for laptop in laptops]
    for n, laptop in enumerate(laptops):
        shoot(laptop, f"laptop-{n + 1}")
    assert sum("recorded" in t for t in texts) == 1, texts
    assert sum("already done by someone else" in t for t in texts) == 1, texts
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN
    assert draw.winning_serial in ("SERIAL-sam", "SERIAL-alex")


def test_draw_night_and_the_board_work_without_javascript(browser, live_server, shoot, night_setup, request):
    event, user = night_setup
    draw = event.draws.get(number=1)
    context = browser.new_context(java_script_enabled=False)
    request.addfinalizer(context.close)
    page = context.new_page()
    sign_in(page, live_server, user.username, reverse("draw_night", args=[draw.pk]))
    click_step(page, "Open ticket sales")
    page.get_by_label("Ticket sales for this draw ($)").fill("640")
    click_step(page, "Check the figures")
    click_step(page, "Close sales at $640.00")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Announce the draw")
    shoot(page, "announce-no-js")
    page.goto(f"{live_server.url}{reverse('public_board', args=[event.pk])}")
    expect(page.locator(".board-figures")).to_contain_text("$192.00")
    expect(page.get_by_role("button", name="Pause updates")).to_have_count(0)
    shoot(page, "board-no-js")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SALES_CLOSED
