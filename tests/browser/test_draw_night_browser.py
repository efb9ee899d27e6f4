"""A draw night clicked through the real pages of a live server in Chromium,
the public board watched from another browser, and axe-core on every screen.

The event sells paper rolls: a roll is issued and returned on the rolls page
so the draw has real tickets, sales close on their total, and the serial drawn
from the container is typed twice."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from licensing.models import BonaFideMember
from raffle.models import CardDestruction, Draw, DrawState, EventStatus, Ticket
from tests.browser.conftest import axe_violations
from tests.factories import (
    PASSWORD,
    MemberFactory,
    UserFactory,
    event_with_draw,
    members_for,
    run_draw,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def night_setup(settings):
    settings.BOARD_REFRESH_SECONDS = 1
    actor = UserFactory()
    event = event_with_draw(actor=actor, name="Harbourview Catch the Ace", draw_place="Legion Hall 142")
    user = user_with_role(roles.DRAW_STAFF, username="sam", first_name="Sam")
    members_for(event)  # Dana Destroyer and Vic Verifier (in charge)
    MemberFactory(organisation=event.licence.organisation, full_name="Ivy In-Charge", is_in_charge=True)
    return event, user


def name_members_in_charge(page):
    """R:L13 the first screen says the draw has no members in charge yet;
    the volunteer names Vic and Ivy there, before sales close."""
    expect(page.locator(".members-in-charge")).to_contain_text("Draw 1 has no members in charge yet")
    page.get_by_label("First member in charge").select_option(label="Vic Verifier")
    page.get_by_label("Second member in charge").select_option(label="Ivy In-Charge")
    click_step(page, "Name them")
    expect(page.get_by_role("status").first).to_contain_text("Vic Verifier and Ivy In-Charge")


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


def sell_a_roll(page, *, first: int, last: int, sold_threes: int):
    """From the close-sales screen: issue a roll, return it with `sold_threes`
    sales at 3 for $10.00 (tickets first..first + 3 * sold_threes - 1 sold),
    and come back to the draw night (R:T7 R:L13)."""
    night_url = page.url
    page.get_by_role("link", name=re.compile("Issue and return the rolls")).click()
    page.get_by_label("Seller the roll is issued to").fill("Sam Seller")
    page.get_by_label("First serial on the roll").fill(str(first))
    page.get_by_label("Last serial on the roll").fill(str(last))
    click_step(page, "Issue the roll")
    page.get_by_label("First unsold serial").fill(str(first + 3 * sold_threes))
    page.get_by_label("Sales at 3 for $10.00").fill(str(sold_threes))
    click_step(page, "Record the return")
    expect(page.get_by_role("status").first).to_contain_text("returned")
    page.goto(night_url)


def run_draw_night(page, axe_page, live_server, shoot, draw, *, card: str, envelope: str):
    """Click one draw from scheduled to its last screen, checking each screen."""
    url = f"{live_server.url}{reverse('draw_night', args=[draw.pk])}"
    page.goto(url)

    def screen(name, heading):
        expect(page.get_by_role("heading", level=1)).to_contain_text(heading)
        shoot(page, name)
        check_a11y(axe_page, url)

    screen("open-sales", "Open ticket sales")
    name_members_in_charge(page)
    click_step(page, "Open ticket sales")
    expect(page.get_by_role("status").first).to_contain_text("Ticket sales are open")

    expect(page.get_by_role("heading", level=1)).to_contain_text("Close ticket sales")
    expect(page.locator("main")).to_contain_text("No valid ticket has been sold for this draw yet")
    sell_a_roll(page, first=100001, last=100400, sold_threes=125)  # 375 tickets, $1,250.00

    screen("close-sales", "Close ticket sales")
    expect(page.get_by_role("row", name=re.compile("Valid tickets sold"))).to_contain_text("375")
    expect(page.get_by_role("row", name=re.compile("Ticket sales for draw 1"))).to_contain_text("$1,250.00")
    page.get_by_label("Cash and payments counted for this draw ($)").fill("1200.00")
    page.get_by_label("Tickets counted in the container").fill("375")
    click_step(page, "Check the figures")
    expect(page.get_by_role("alert")).to_contain_text("add up to $1,250.00, but $1,200.00 was counted")
    shoot(page, "close-sales-count-refused")
    page.get_by_label("Cash and payments counted for this draw ($)").fill("1250.00")
    click_step(page, "Check the figures")
    expect(page.get_by_role("row", name=re.compile("Draw prize"))).to_contain_text("$250.00")
    expect(page.get_by_role("row", name=re.compile("Jackpot at stake"))).to_contain_text("$375.00")
    shoot(page, "close-sales-check")
    click_step(page, "Close sales at $1,250.00")

    screen("announce", "Announce the draw")
    expect(page.locator(".big-figures")).to_contain_text("$1,250.00")
    expect(page.get_by_role("button", name="Print the announcement")).to_be_visible()
    click_step(page, "Announced: go to the ticket draw")

    screen("draw-ticket", "Draw the winning ticket")
    page.get_by_label("Serial of the ticket drawn from the container").fill("100123")
    page.get_by_label("The same serial again, to confirm").fill("100132")
    click_step(page, "Record the winning ticket")
    expect(page.get_by_role("alert")).to_contain_text("do not match")
    page.get_by_label("The same serial again, to confirm").fill("100123")
    click_step(page, "Record the winning ticket")

    screen("choose-envelope", "Choose the envelope")
    expect(page.locator(".winner .big").first).to_have_text("100123")
    page.get_by_label("Envelope number (1 to 52)").fill(envelope)
    click_step(page, "Choose this envelope")

    screen("reveal-card", "Reveal the card")
    page.get_by_label("Card in the envelope").fill(card)
    page.get_by_label("The same card again, to confirm").fill(card)  # R:E3 typed twice
    click_step(page, "Record the card")
    if card == "AS":  # R:P4 the Ace only once confirmed, told what it does next
        expect(page.get_by_role("alert")).to_contain_text("awards the jackpot of $375.00")
        expect(page.get_by_role("alert")).to_contain_text("ends the event and licence")
        shoot(page, "ace-confirm")
        page.get_by_label("Yes: the card shown is the Ace of Spades.").check()
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


def test_a_full_draw_night_to_the_ace_of_spades_in_the_browser(
    page, axe_context, live_server, shoot, night_setup
):  # R:P4
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


def test_the_public_board_updates_itself_after_a_reveal(
    page, browser, axe_context, live_server, shoot, night_setup, request
):  # R:T10
    event, user = night_setup
    draw = run_draw(
        event.draws.get(number=1), actor=user, sales="2000.00", envelope=23, until=DrawState.ENVELOPE_CHOSEN
    )
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
    page.get_by_label("The same card again, to confirm").fill("7S")
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
    serials = list(Ticket.objects.filter(draw=draw).order_by("seq").values_list("serial", flat=True)[:2])
    for username, serial in zip((user.username, other.username), serials, strict=True):
        context = browser.new_context()
        request.addfinalizer(context.close)
        laptop = context.new_page()
        sign_in(laptop, live_server, username, url)
        laptop.get_by_label("Serial of the ticket drawn from the container").fill(serial)
        laptop.get_by_label("The same serial again, to confirm").fill(serial)
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
    assert sum("Winning ticket" in t for t in texts) == 1, texts
    assert sum("already done by someone else" in t for t in texts) == 1, texts
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN
    assert draw.winning_serial in serials


def test_draw_night_and_the_board_work_without_javascript(browser, live_server, shoot, night_setup, request):
    event, user = night_setup
    draw = event.draws.get(number=1)
    context = browser.new_context(java_script_enabled=False)
    request.addfinalizer(context.close)
    page = context.new_page()
    sign_in(page, live_server, user.username, reverse("draw_night", args=[draw.pk]))
    name_members_in_charge(page)
    click_step(page, "Open ticket sales")
    sell_a_roll(page, first=200001, last=200300, sold_threes=64)  # 192 tickets, $640.00
    click_step(page, "Check the figures")
    click_step(page, "Close sales at $640.00")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Announce the draw")
    shoot(page, "announce-no-js")
    page.goto(f"{live_server.url}{reverse('public_board', args=[event.pk])}")
    expect(page.locator(".board-figures")).to_contain_text("$192.00")
    expect(page.get_by_role("button", name="Pause updates")).to_have_count(0)
    shoot(page, "board-no-js")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SALES_CLOSED
