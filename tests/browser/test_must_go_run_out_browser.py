"""A must-go final draw that runs out of tickets and still ends at the Ace of
Spades, clicked through the real pages in Chromium, then both holders paid
their own shares on the prizes page (RULES P7, E3, P3).

Two stub tickets are sold for $5.05 each, both picking envelope 10, on top of
a $100.00 seed: a $2.02 draw prize and a $103.03 jackpot. Ticket 100001
opens envelope 10 (7 of Hearts), ticket 100002 envelope 11 (Queen of
Diamonds). No ticket is left, so envelope 1 is opened (2 of Clubs), then
envelope 2: the Ace of Spades. Nobody's ticket found it: the two holders
share the draw prize ($1.01 each) and the jackpot ($51.52 and $51.51)."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from core import roles
from licensing.models import BonaFideMember, SalesChannel
from raffle.models import DrawState, EventStatus, MustGoPayout, MustGoReason, PrizePayment
from raffle.services import draw_set_must_go
from tests.browser.conftest import axe_violations
from tests.factories import (
    PASSWORD,
    LicenceFactory,
    UserFactory,
    event_with_draw,
    members_for,
    run_draw,
    user_with_role,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _sign_in(page, live_server, username, next_url):
    page.goto(f"{live_server.url}{reverse('login')}?next={next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(re.escape(next_url) + "$"))


def _click(page, name):
    page.get_by_role("button", name=name).click()
    page.wait_for_load_state()


def _member(name):
    return str(BonaFideMember.objects.get(full_name=name))


def _sign_destruction(page):
    page.get_by_label("Member who destroyed the card", exact=True).select_option(label=_member("Dana Destroyer"))
    page.get_by_label("Password of the member who destroyed the card").fill(PASSWORD)
    page.get_by_label("Member in charge who verified it", exact=True).select_option(label=_member("Vic Verifier"))
    page.get_by_label("Password of the member in charge who verified it").fill(PASSWORD)


def _reveal(page, card):
    expect(page.get_by_role("heading", level=1)).to_contain_text("Reveal the card")
    page.get_by_label("Card in the envelope").fill(card)
    page.get_by_label("The same card again, to confirm").fill(card)  # R:E3 typed twice
    _click(page, "Record the card")


def test_a_must_go_draw_runs_out_of_tickets_ends_at_the_ace_and_both_holders_are_paid(
    page, axe_context, live_server, shoot
):  # R:P7 R:E3 R:P3 R:P4
    actor = UserFactory()
    event = event_with_draw(
        actor=actor,
        licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB),
        name="Harbourview Catch the Ace",
        price_tiers=[(1, "5.05")],
        seed_jackpot="100.00",
        must_go_payout=MustGoPayout.SHARE_NON_ACE,
    )
    members_for(event)  # Dana Destroyer and Vic Verifier (in charge)
    draw = draw_set_must_go(actor=actor, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=actor, sales="10.10", envelope=10, until=DrawState.ANNOUNCED)
    assert (str(draw.draw_prize), str(draw.jackpot_after)) == ("2.02", "103.03")
    staff = user_with_role(roles.DRAW_STAFF, username="sam", first_name="Sam")
    night = reverse("draw_night", args=[draw.pk])
    url = f"{live_server.url}{night}"
    axe_page = axe_context.new_page()
    _sign_in(page, live_server, staff.username, night)
    _sign_in(axe_page, live_server, staff.username, night)

    page.get_by_label("Serial of the ticket drawn from the container").fill("100001")
    page.get_by_label("The same serial again, to confirm").fill("100001")
    _click(page, "Record the winning ticket")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Choose the envelope")
    _click(page, "Choose this envelope")  # the envelope the stub picked: 10
    _reveal(page, "7H")

    # The must-go draw goes on: the card destroyed, the second ticket drawn from the container.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Not the Ace of Spades")
    expect(page.locator("main")).to_contain_text("the next winning ticket is drawn")
    _sign_destruction(page)
    page.get_by_label("Next winning ticket serial").fill("100002")
    page.get_by_label("The same serial again, to confirm").fill("100002")
    _click(page, "Log the destruction and draw the next ticket")
    _click(page, "Choose this envelope")  # 10 is open: the next higher, 11 (T9)
    _reveal(page, "QD")

    # No ticket is left: the lowest sealed envelope is opened next, as the Rules of Play say.
    expect(page.get_by_role("heading", level=1)).to_contain_text("Not the Ace of Spades")
    expect(page.locator("main")).to_contain_text("no valid ticket is left")
    expect(page.get_by_label("Next winning ticket serial")).to_have_count(0)
    shoot(page, "run-out-open-lowest")
    assert axe_violations(axe_page, url) == []
    _sign_destruction(page)
    page.get_by_label("I confirm the card is destroyed: open the lowest sealed envelope next").check()
    _click(page, "Log the destruction and open the lowest sealed envelope")
    expect(page.get_by_role("status").first).to_contain_text("envelope 1, the lowest still sealed")
    _reveal(page, "2C")
    _sign_destruction(page)
    page.get_by_label("I confirm the card is destroyed: open the lowest sealed envelope next").check()
    _click(page, "Log the destruction and open the lowest sealed envelope")
    expect(page.get_by_role("status").first).to_contain_text("envelope 2, the lowest still sealed")
    _reveal(page, "AS")
    page.get_by_label("Yes: the card shown is the Ace of Spades.").check()  # R:P4 confirmed
    _click(page, "Record the card")

    expect(page.get_by_role("heading", level=1)).to_contain_text("The Ace of Spades!")
    expect(page.locator(".announce")).to_contain_text("The Ace of Spades, in envelope 2")
    expect(page.locator(".announce")).to_contain_text("the holders of all the tickets drawn share the jackpot")
    shoot(page, "run-out-ace")
    _click(page, "Award the jackpot and conclude the event")
    holders = page.locator("#must-go-holders")
    expect(holders.get_by_role("row", name=re.compile("100001"))).to_contain_text("$51.52")
    expect(holders.get_by_role("row", name=re.compile("100002"))).to_contain_text("$51.51")
    expect(holders).to_contain_text("not paid yet")
    shoot(page, "run-out-concluded")
    assert axe_violations(axe_page, url) == []
    event.refresh_from_db()
    assert event.status == EventStatus.CONCLUDED

    # The treasurer pays each holder their own share, by their own cheque.
    treasurer = user_with_role(roles.TREASURER, username="terry")
    prizes = reverse("treasury_prizes", args=[event.pk])
    page.context.clear_cookies()
    _sign_in(page, live_server, treasurer.username, prizes)
    today = f"{timezone.localdate() + datetime.timedelta(days=1):%Y-%m-%d}"

    def pay(serial, kind, amount, reference):
        form = page.locator("form", has=page.get_by_role("button", name="Record the payment"))
        form.get_by_label(re.compile(r"^Draw")).select_option(label="Draw 1")
        form.get_by_label(re.compile(r"^Prize")).select_option(kind)
        form.get_by_label("Holder (must-go draw)").select_option(label=f"Draw 1, ticket {serial} (Pat Buyer)")
        form.get_by_label("Amount of the cheque or transfer ($)").fill(amount)
        form.get_by_label("Paid to").fill("Pat Buyer")
        form.get_by_label("Paid by").select_option("cheque")
        form.get_by_label("Cheque number or transfer reference").fill(reference)
        form.get_by_label("Paid on").fill(today)
        _click(page, "Record the payment")

    pay("100001", "jackpot", "103.03", "501")  # the whole jackpot to one holder: refused
    expect(page.locator("main")).to_contain_text("$103.03 is more than the share of the progressive jackpot")
    shoot(page, "over-payment-refused")
    pay("100001", "draw_prize", "1.01", "501")
    pay("100001", "jackpot", "51.52", "502")
    pay("100002", "draw_prize", "1.01", "503")
    pay("100002", "jackpot", "51.51", "504")
    shares = page.locator("#must-go-shares")
    expect(shares).not_to_contain_text("not paid yet")
    expect(shares.get_by_role("row", name=re.compile("100002"))).to_contain_text("cheque 504")
    shoot(page, "both-holders-paid")
    paid = PrizePayment.objects.filter(draw=draw).order_by("reference")
    assert [(p.must_go_ticket.winning_serial, str(p.amount)) for p in paid] == [
        ("100001", "1.01"),
        ("100001", "51.52"),
        ("100002", "1.01"),
        ("100002", "51.51"),
    ]
