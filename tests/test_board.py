"""The public envelope board: no login, fixed queries, what the room needs."""

import pytest
from django.urls import reverse

from raffle.models import DrawState
from tests.factories import run_draw

pytestmark = pytest.mark.django_db


def board(event):
    return reverse("public_board", args=[event.pk])


def test_the_board_is_public_and_shows_what_the_room_needs(client, event, staff_user):  # R:T10
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=7, card="KH")
    response = client.get(board(event))
    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('<li class="sealed') == 51 and page.count('<li class="open') == 1
    assert "Envelope 7: opened, King of Hearts" in page
    assert "$300.00" in page  # the jackpot after draw 1
    assert f"Licence {event.licence.number}" in page
    assert "ConnexOntario" in page and "1-866-531-2600" in page
    assert "Rules of Play" in page
    assert "no-cache" in response["Cache-Control"]
    assert 'data-refresh-seconds="' in page


def test_the_board_shows_the_current_draw_prize_once_sales_close(client, event, staff_user):  # R:D1
    draw = event.draws.get(number=1)
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    page = client.get(board(event)).content.decode()
    assert "announced when sales close" in page
    run_draw(draw, actor=staff_user, sales="250.00", until=DrawState.TICKET_DRAWN)
    page = client.get(board(event)).content.decode()
    assert "Draw prize (draw 1)" in page and "$50.00" in page and "$75.00" in page


def test_the_board_shows_the_chosen_envelope_before_it_is_opened(client, event, staff_user):
    run_draw(event.draws.get(number=1), actor=staff_user, envelope=30, until=DrawState.ENVELOPE_CHOSEN)
    page = client.get(board(event)).content.decode()
    assert "Envelope 30: chosen, about to be opened" in page


def test_the_board_after_the_ace_says_the_raffle_is_over(client, event, staff_user):  # R:P4
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=3, card="AS")
    page = client.get(board(event)).content.decode()
    assert "The Ace of Spades has been found" in page and "Jackpot won" in page and "$300.00" in page


def test_an_unknown_board_is_not_found(client):
    assert client.get("/board/999999/").status_code == 404


def test_the_board_costs_the_same_three_queries_however_many_draws(
    client, event, staff_user, django_assert_num_queries
):
    with django_assert_num_queries(3):
        client.get(board(event))
    for number in range(1, 6):
        run_draw(event.draws.get(number=number), actor=staff_user)
    run_draw(event.draws.get(number=6), actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    with django_assert_num_queries(3):
        response = client.get(board(event))
    assert response.content.decode().count('<li class="open') == 5


def test_the_csp_never_sends_the_literal_nonce_source(client, event):
    # Django adds 'nonce-<value>' only when a page uses {{ csp_nonce }}; the
    # literal 'nonce' is an invalid source that browsers report and drop.
    policy = client.get(board(event))["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "'nonce'" not in policy
