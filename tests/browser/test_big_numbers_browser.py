"""Real jackpots reach millions (Inverness, Nova Scotia: $1,771,256.76). The
public board in the hall and the announcement read out before the draw must
lay out $1,234,567.89 and $12,345,678.90 on a phone, a tablet, a laptop and a
projector: every figure inside its own box, no two boxes over each other,
and no page scrolling sideways. The type shrinks to fit; it never spills.

The draw's figures are written straight into the row (consistent with the
database's own split checks, R:P1) because selling $9.8 million of tickets
through the pages would take the test all night."""

import pathlib
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from core import roles
from raffle.models import Draw, DrawState, Event
from tests.factories import PASSWORD, UserFactory, event_with_draw, run_draw, user_with_role

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Phone, tablet, small laptop, common laptop, projector / full HD.
VIEWPORTS = [(390, 844), (768, 1024), (1024, 768), (1366, 768), (1920, 1080)]

# The figures, as the split checks want them: sales = prize + jackpot share + licensee share,
# jackpot after = jackpot before + jackpot share.
SALES = Decimal("9876543.21")
DRAW_PRIZE = Decimal("1234567.89")
JACKPOT_SHARE = Decimal("2962962.96")
JACKPOT_BEFORE = Decimal("9382715.94")
JACKPOT_AFTER = JACKPOT_BEFORE + JACKPOT_SHARE  # $12,345,678.90

# Every problem with the layout of the figure boxes (tests/browser/layout_problems.js).
LAYOUT_PROBLEMS = (pathlib.Path(__file__).parent / "layout_problems.js").read_text()


@pytest.fixture
def big_draw():
    """Draw 1 of a raffle whose sales have just closed at $9,876,543.21: draw
    prize $1,234,567.89, jackpot $12,345,678.90."""
    actor = UserFactory()
    event = event_with_draw(actor=actor, name="Inverness Catch the Ace", draw_place="Inverness Legion")
    draw = run_draw(event.draws.get(number=1), actor=actor, sales="10.00", until=DrawState.SALES_CLOSED)
    Draw.objects.filter(pk=draw.pk).update(
        ticket_sales=SALES,
        draw_prize=DRAW_PRIZE,
        jackpot_contribution=JACKPOT_SHARE,
        licensee_share=SALES - DRAW_PRIZE - JACKPOT_SHARE,
        jackpot_before=JACKPOT_BEFORE,
        jackpot_after=JACKPOT_AFTER,
    )
    Event.objects.filter(pk=event.pk).update(jackpot=JACKPOT_AFTER)
    return Draw.objects.get(pk=draw.pk)


def check_every_width(page, url, selector, shoot, name):
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(url)
        expect(page.locator(selector).first).to_be_visible()
        problems = page.evaluate(LAYOUT_PROBLEMS, selector)
        shoot(page, f"{name}-{width}")
        assert problems == [], f"{name} at {width}px: {problems}"


def test_the_public_board_fits_a_millionaire_jackpot_at_every_width(page, live_server, big_draw, shoot):
    url = f"{live_server.url}{reverse('public_board', args=[big_draw.event_id])}"
    page.goto(url)
    expect(page.locator(".board-figures .jackpot dd.money")).to_have_text("$12,345,678.90")
    expect(page.locator(".board-figures dd.money").nth(1)).to_have_text("$1,234,567.89")
    check_every_width(page, url, ".board-figures > div", shoot, "board")


def sign_in(page, live_server, next_url):
    user_with_role(roles.DRAW_STAFF, username="sam")
    page.goto(f"{live_server.url}{reverse('login')}?next={next_url}")
    page.get_by_label("Username").fill("sam")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(re.escape(next_url) + "$"))


def test_the_announcement_and_its_projector_mode_fit_at_every_width(page, live_server, big_draw, shoot, picture):
    night = reverse("draw_night", args=[big_draw.pk])
    sign_in(page, live_server, night)
    figures = page.locator(".announce .big-figures dd.money")
    expect(figures).to_have_text(["$9,876,543.21", "$1,234,567.89", "$12,345,678.90"])
    page.set_viewport_size({"width": 1366, "height": 900})
    picture(page, "screen-announcement-big-jackpot")  # docs/draw-night.md
    check_every_width(page, f"{live_server.url}{night}", ".announce .big-figures > div", shoot, "announcement")

    page.get_by_role("link", name=re.compile("Projector mode")).click()
    expect(page).to_have_url(re.compile(r"\?projector=1$"))
    # Only the figures for the room: no menus, no step form, a way back.
    expect(page.locator(".site-header")).to_be_hidden()
    expect(page.locator("form.step-form")).to_have_count(0)
    expect(page.get_by_role("link", name="Leave projector mode")).to_be_visible()
    check_every_width(page, page.url, ".announce .big-figures > div", shoot, "projector")
    # On the projector the jackpot is read across the hall: larger than on the laptop's screen.
    projected = figures.nth(2).evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    page.goto(f"{live_server.url}{night}")
    normal = figures.nth(2).evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert projected > 1.5 * normal
