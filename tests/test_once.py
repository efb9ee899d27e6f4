"""One sale per click (#15): every form that creates money or tickets carries
a one-time token; the same form sent twice, six times at once, or again after
its response was lost records ONE sale or payment and shows the first result.
A session that cannot be saved after a committed sale does not turn the sale
into an error page (the seller would sell it again)."""

import re
import threading

import pytest
from django.contrib.auth.models import Group
from django.contrib.sessions.models import Session
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.models import Submission
from licensing.models import Expense, SalesChannel
from raffle import services
from raffle.models import Draw, DrawState, Sale, TicketRoll
from raffle.views import sales as sales_views
from tests.factories import LicenceFactory, UserFactory, event_with_closed_draws, event_with_draw, trust_account_for

TOKEN = re.compile(r'<input type="hidden" name="once" value="([A-Za-z0-9_-]+)">')


def token_of(page: str) -> str:
    return TOKEN.search(page).group(1)


def seller(username="sally"):
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get(name=roles.SELLER))
    return user


def selling_draw(channel=SalesChannel.ELECTRONIC):
    staff = UserFactory(username=f"staff-{channel}")
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=channel))
    return services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))


def sale_form(token):
    return {
        "purchaser_name": "Bo Buyer",
        "purchaser_contact": "bo@example.org",
        "tier": 3,
        "units": 1,
        "envelope_pick": 5,
        "device": "Tablet 2",
        "once": token,
    }


def a_sales_page(client):
    """A seller signed in on a selling draw's sales page: the draw, the page and its form's token."""
    draw = selling_draw()
    client.force_login(seller())
    url = reverse("sales_sell", args=[draw.pk])
    return draw, url, token_of(client.get(url).text)


@pytest.mark.django_db
def test_the_same_sale_form_sent_twice_records_one_sale_and_shows_it_both_times(client):  # R:T3 R:T11
    draw, url, token = a_sales_page(client)
    first = client.post(url, sale_form(token))
    # The response is lost (the wifi drops); the browser sends the same form again.
    again = client.post(url, sale_form(token), follow=True)
    sale = Sale.objects.get(draw=draw)
    assert first.status_code == 302 and first.url == reverse("sale_detail", args=[sale.pk])
    assert again.redirect_chain[-1][0] == first.url
    assert "already sent and recorded" in again.text and "Nothing was recorded twice" in again.text
    assert Sale.objects.filter(draw=draw).count() == 1
    # A new page gives a new token: the next sale is sold.
    client.post(url, sale_form(token_of(client.get(url).text)))
    assert Sale.objects.filter(draw=draw).count() == 2


@pytest.mark.django_db
def test_the_same_sale_form_sent_again_after_sales_closed_shows_the_first_sale(client):  # R:T4
    # The token is recorded last (#18): the repeat is refused by the closed draw, then finds its first sale.
    draw, url, token = a_sales_page(client)
    first = client.post(url, sale_form(token))
    Draw.objects.filter(pk=draw.pk).update(state=DrawState.SALES_CLOSED)  # closed (test_close_sales: how)
    again = client.post(url, sale_form(token), follow=True)
    assert again.redirect_chain[-1][0] == first.url
    assert "already sent and recorded" in again.text
    assert Sale.objects.filter(draw=draw).count() == 1


@pytest.mark.django_db
def test_a_refused_sale_can_be_corrected_and_sent_with_the_same_token(client):  # R:T9
    draw, url, token = a_sales_page(client)
    refused = client.post(url, {**sale_form(token), "purchaser_contact": "   "})
    assert refused.status_code == 200 and not Sale.objects.exists()
    assert client.post(url, sale_form(token)).status_code == 302
    assert Sale.objects.count() == 1


@pytest.mark.django_db
def test_another_users_token_is_refused_and_sells_nothing(client):
    draw, url, token = a_sales_page(client)
    client.post(url, sale_form(token))
    other = Client()
    other.force_login(seller("sid"))
    response = other.post(url, sale_form(token), follow=True)
    assert "belongs to someone else" in response.text
    assert Sale.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_six_clicks_at_once_over_real_connections_give_one_sale():  # R:T3
    draw = selling_draw()
    user = seller()
    url = reverse("sales_sell", args=[draw.pk])
    browser = Client()
    browser.force_login(user)
    token = token_of(browser.get(url).text)
    cookies = browser.cookies
    barrier, answers, lock = threading.Barrier(6), [], threading.Lock()

    def click():
        tab = Client()
        tab.cookies = cookies  # the same browser: the same session, the same form
        try:
            barrier.wait()
            response = tab.post(url, sale_form(token))
            with lock:
                answers.append((response.status_code, response.get("Location")))
        finally:
            connection.close()

    threads = [threading.Thread(target=click) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    sale = Sale.objects.get(draw=draw)
    assert answers == [(302, reverse("sale_detail", args=[sale.pk]))] * 6
    assert Submission.objects.get(token=token).result == reverse("sale_detail", args=[sale.pk])


@pytest.mark.django_db
def test_a_lost_session_after_a_committed_sale_still_shows_the_sale(client, monkeypatch):  # R:T11
    draw, url, token = a_sales_page(client)
    sell = services.ticket_sell

    def sell_then_sign_out_elsewhere(**kwargs):
        sale = sell(**kwargs)
        Session.objects.all().delete()  # the seller signs out in another tab while this sale commits
        return sale

    monkeypatch.setattr(sales_views.services, "ticket_sell", sell_then_sign_out_elsewhere)
    response = client.post(url, sale_form(token))  # a new device: the session is written after the sale
    sale = Sale.objects.get()
    assert response.status_code == 302 and response.url == reverse("sale_detail", args=[sale.pk])


# --- the other forms that create tickets or money ----------------------------


@pytest.mark.django_db
def test_a_roll_issue_sent_twice_issues_one_roll(client):  # R:T3 R:T7
    draw = selling_draw(SalesChannel.PAPER_ROLL)
    staff = UserFactory(username="dana")
    staff.groups.add(Group.objects.get(name=roles.DRAW_STAFF))
    client.force_login(staff)
    url = reverse("sales_rolls", args=[draw.pk])
    token = token_of(client.get(url).text)
    form = {"action": "issue", "seller_name": "Jo", "first_serial": 1, "last_serial": 100, "once": token}
    assert client.post(url, form).status_code == 302
    again = client.post(url, form, follow=True)
    assert "already sent and recorded" in again.text
    assert TicketRoll.objects.filter(draw=draw).count() == 1


@pytest.mark.django_db
def test_an_expense_sent_twice_is_recorded_once(client):  # R:L11
    treasurer = UserFactory(username="terry")
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    event, _ = event_with_closed_draws(["500.00"], actor=treasurer)
    client.force_login(treasurer)
    token = token_of(client.get(reverse("treasury_spending", args=[event.pk])).text)
    form = {
        "kind": "expense",
        "paid_on": timezone.localdate(),
        "amount": "100",
        "payee": "Printer",
        "description": "Tickets",
        "reference": "CHQ 1",
        "once": token,
    }
    url = reverse("treasury_expense_add", args=[event.pk])
    assert "Payment recorded." in client.post(url, form, follow=True).text
    again = client.post(url, form, follow=True)
    assert "already sent and recorded once" in again.text
    assert Expense.objects.filter(licence=event.licence).count() == 1


@pytest.mark.django_db
def test_every_form_that_creates_money_or_tickets_carries_a_one_time_token(client):
    treasurer = UserFactory(username="terry")
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER), Group.objects.get(name=roles.DRAW_STAFF))
    event, _ = event_with_closed_draws(["500.00"], actor=treasurer)
    trust_account_for(event, actor=treasurer)
    client.force_login(treasurer)
    pages = {
        "treasury_deposits": 2,  # signing officers, deposit
        "treasury_spending": 3,  # approved use, expense, donated prize
        "treasury_prizes": 2,  # prize payment, unclaimed hold
        "treasury_trust_ledger": 3,  # statement, deduction, interest
    }
    for name, forms in pages.items():
        page = client.get(reverse(name, args=[event.pk])).text
        assert len(set(TOKEN.findall(page))) >= forms, name
    draw = selling_draw()
    assert TOKEN.search(client.get(reverse("sales_sell", args=[draw.pk])).text)
    rolls = selling_draw(SalesChannel.PAPER_ROLL)
    services.roll_issue(actor=treasurer, draw=rolls, seller_name="Jo", first_serial=1, last_serial=100, kind="roll")
    # issue, return, declare lost (R:T7)
    assert len(set(TOKEN.findall(client.get(reverse("sales_rolls", args=[rolls.pk])).text))) == 3
