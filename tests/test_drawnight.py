"""The draw-night wizard: one page per draw, the screen chosen by the draw's
state, every step a POST that carries the state it expects (RULES D8)."""

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from core import roles
from licensing.models import SalesChannel
from raffle.errors import RaffleError
from raffle.models import CardDestruction, Draw, DrawState, EventStatus, Ticket
from tests.factories import (
    PASSWORD,
    SIGNATURES,
    LicenceFactory,
    MemberFactory,
    event_with_draw,
    members_for,
    run_draw,
    sell_tickets,
    user_with_role,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def drawstaff(db):
    return user_with_role(roles.DRAW_STAFF, username="sam")


@pytest.fixture
def staff_client(client, drawstaff):
    client.force_login(drawstaff)
    return client


def night(draw):
    return reverse("draw_night", args=[draw.pk])


def step(client, draw, data, *, expected=None):
    """POST one step as the screen would, following the redirect."""
    draw.refresh_from_db()
    payload = {"expected_state": expected or draw.state, **data}
    return client.post(night(draw), payload, follow=True)


def errors(response):
    return [str(m) for m in response.context["messages"] if m.level_tag == "error"]


def state_of(draw):
    return Draw.objects.get(pk=draw.pk).state


def serials_of(draw):
    return list(Ticket.objects.filter(draw=draw, is_void=False).order_by("seq").values_list("serial", flat=True))


def test_a_full_draw_night_to_rollover_runs_screen_by_screen(staff_user, staff_client, draw):  # R:D8 R:D1 R:E3
    destroyer, verifier = members_for(draw.event)
    second = MemberFactory(organisation=draw.event.licence.organisation, full_name="Sal Second", is_in_charge=True)
    headings = []

    def sell_and_name_members():  # R:L13 the draw's two members in charge, named from the wizard before sales close
        sell_tickets(draw, actor=staff_user, sales="1250.00")
        staff_client.post(
            reverse("draw_members_in_charge", args=[draw.pk]), {"first": verifier.pk, "second": second.pk}
        )
        return {}

    def winner():  # R:D2 the serial drawn from the container, typed twice
        serial = serials_of(draw)[3]
        return {"serial": serial, "serial_again": serial.lower()}

    for data in [
        {},
        sell_and_name_members,
        lambda: {"ticket_sales": "1250.00", "container_count": str(len(serials_of(draw)))},
        lambda: {"ticket_sales": "1250.00", "container_count": str(len(serials_of(draw))), "previewed": "1250.00"},
        {},
        winner,
        {"envelope_number": "17"},
        {"card": "QD", "card_again": "qd"},  # R:E3 typed twice
        {"destroyed_by": destroyer.pk, "verified_by": verifier.pk, **SIGNATURES},
    ]:
        if callable(data):
            data = data()
        page = staff_client.get(night(draw))
        headings.append(page.context["heading"])
        response = step(staff_client, draw, data)
        assert response.status_code == 200
        assert not errors(response), (data, errors(response))
    draw.refresh_from_db()
    assert draw.state == DrawState.CLOSED and draw.outcome == "rollover"
    assert draw.winning_serial == serials_of(draw)[3] and draw.pool.container_count == len(serials_of(draw))
    assert draw.draw_prize == 250 and draw.jackpot_after == 375
    assert CardDestruction.objects.get(draw=draw).verified_by == verifier
    assert (draw.member_in_charge, draw.second_member_in_charge) == (verifier, second)
    assert headings[:2] == ["Open ticket sales", "Close ticket sales"]
    assert "Not the Ace of Spades: destroy the card" in headings
    page = staff_client.get(night(draw)).content.decode()
    next_draw = draw.event.draws.get(number=2)
    assert "rolls over" in page and reverse("draw_night", args=[next_draw.pk]) in page


def test_the_close_sales_screen_shows_the_tickets_sold_and_their_split(staff_user, staff_client, draw):  # R:P1
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    page = staff_client.get(night(draw)).content.decode()
    assert "No valid ticket has been sold for this draw yet" in page
    response = step(staff_client, draw, {})
    assert response.status_code == 400 and "No valid ticket has been sold for draw 1" in response.content.decode()
    sell_tickets(draw, actor=staff_user, sales="1001.99")
    page = staff_client.get(night(draw)).content.decode()
    count = len(serials_of(draw))
    assert f"<td>{count}</td>" in page and "$1,001.99" in page
    assert "$200.39" in page and "$300.59" in page and "$501.01" in page
    assert "$300.59" in page  # the jackpot after: an event starts at $0
    assert state_of(draw) == DrawState.SELLING


def test_closing_sales_shows_the_split_first_and_fixes_nothing_until_confirmed(staff_user, staff_client, draw):  # R:P1
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    sell_tickets(draw, actor=staff_user, sales="1001.99")
    response = step(staff_client, draw, {})
    page = response.content.decode()
    assert "Check the reconciled figures" in page
    assert "$200.39" in page and "$300.59" in page and "$501.01" in page
    assert "Close sales at $1,001.99" in page and 'name="previewed" value="1001.99"' in page
    assert state_of(draw) == DrawState.SELLING
    step(staff_client, draw, {"previewed": "1001.99"})
    draw.refresh_from_db()
    assert draw.state == DrawState.SALES_CLOSED and draw.ticket_sales == Decimal("1001.99")


def test_a_close_while_selling_goes_on_fixes_the_figures_at_that_moment_and_says_so(
    staff_user, staff_client, draw
):  # R:P1 R:T4
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    sell_tickets(draw, actor=staff_user, sales="1001.99")
    assert "Close sales at $1,001.99" in step(staff_client, draw, {}).content.decode()
    # A seller sells while the figures are on screen: the close still succeeds, at the moment it is made.
    sell_tickets(draw, actor=staff_user, sales="98.01")
    response = step(staff_client, draw, {"previewed": "1001.99"})
    draw.refresh_from_db()
    assert draw.state == DrawState.SALES_CLOSED and draw.ticket_sales == 1100
    page = response.content.decode()
    assert "Selling went on after the figures were shown ($1,001.99)" in page
    assert "draw 1 closed at $1,100.00" in page and "$220.00" in page  # the fixed figures, shown
    with pytest.raises(RaffleError, match="are closed"):
        sell_tickets(draw, actor=staff_user, sales="10.00")


def test_a_count_that_does_not_match_the_tickets_is_refused(staff_user, staff_client, draw):  # R:T11 R:L13
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    sell_tickets(draw, actor=staff_user, sales="500.00")
    response = step(staff_client, draw, {"ticket_sales": "480.00"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "add up to $500.00, but $480.00 was counted" in page and 'role="alert"' in page
    assert "Close sales at" not in page
    response = step(staff_client, draw, {"container_count": str(len(serials_of(draw)) - 1)})  # R:L13
    assert response.status_code == 400 and "Recount, or find the missing sale" in response.content.decode()
    # Even a forged confirmation closes nothing: the service checks the count again.
    response = step(staff_client, draw, {"ticket_sales": "480.00", "previewed": "500.00"})
    assert response.status_code == 400
    assert state_of(draw) == DrawState.SELLING
    step(staff_client, draw, {"ticket_sales": "500", "previewed": "500.00"})
    assert state_of(draw) == DrawState.SALES_CLOSED


def test_the_announcement_screen_shows_sales_prize_and_jackpot_in_large_type(staff_user, staff_client, draw):  # R:D1
    run_draw(draw, actor=staff_user, sales="800.00", until=DrawState.SALES_CLOSED)
    page = staff_client.get(night(draw)).content.decode()
    assert 'class="big-figures"' in page
    for figure in ("$800.00", "$160.00", "$240.00"):
        assert figure in page


def test_a_draw_night_to_the_ace_of_spades_awards_the_jackpot_and_concludes(staff_user, staff_client, draw):  # R:P4
    run_draw(draw, actor=staff_user, sales="1000.00", until=DrawState.ENVELOPE_CHOSEN, envelope=5)
    response = step(staff_client, draw, {"card": "AS", "card_again": "AS", "ace_confirmed": "on"})
    assert response.context["screen"] == "ace"
    assert "Award the jackpot and conclude the event" in response.content.decode()
    response = step(staff_client, draw, {})
    assert not errors(response)
    draw.refresh_from_db()
    assert draw.outcome == "jackpot_won" and draw.jackpot_awarded == 300
    assert draw.event.status == EventStatus.CONCLUDED
    assert "Jackpot awarded" in response.content.decode()


def test_refreshing_after_a_step_does_not_repeat_it(staff_client, draw):  # R:D8
    response = step(staff_client, draw, {})
    assert response.redirect_chain[-1][0] == night(draw)  # post/redirect/get
    staff_client.get(night(draw))
    assert state_of(draw) == DrawState.SELLING


def test_closing_sales_twice_is_refused_and_changes_nothing(staff_user, staff_client, draw):  # R:D8
    run_draw(draw, actor=staff_user, until=DrawState.SELLING)
    sell_tickets(draw, actor=staff_user, sales="500.00")
    step(staff_client, draw, {"ticket_sales": "500.00", "previewed": "500.00"})
    response = step(staff_client, draw, {"ticket_sales": "900.00", "previewed": "900.00"}, expected=DrawState.SELLING)
    assert any("already done by someone else" in e for e in errors(response))
    draw.refresh_from_db()
    assert draw.state == DrawState.SALES_CLOSED and draw.ticket_sales == 500


def test_a_stale_screen_never_performs_the_following_step(staff_user, staff_client, draw):  # R:D8
    run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    # A second laptop still shows "announce" and clicks its button.
    response = step(staff_client, draw, {}, expected=DrawState.SALES_CLOSED)
    assert any("already done by someone else" in e for e in errors(response))
    assert state_of(draw) == DrawState.ANNOUNCED


def test_revealing_before_choosing_an_envelope_is_refused(staff_user, staff_client, draw):  # R:D8
    run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
    response = step(staff_client, draw, {"card": "QD"}, expected=DrawState.ENVELOPE_CHOSEN)
    assert errors(response)
    response = step(staff_client, draw, {"card": "QD"})
    # The card is no envelope number: a paper roll's winner must choose one first.
    assert response.status_code == 400
    assert "Type the envelope number the winner chose" in response.content.decode()
    assert state_of(draw) == DrawState.TICKET_DRAWN


def test_choosing_an_opened_envelope_shows_why_and_changes_nothing(staff_user, staff_client, event):  # R:E1
    first = run_draw(event.draws.get(number=1), actor=staff_user, envelope=9, card="3C")
    second = run_draw(event.draws.get(number=2), actor=staff_user, until=DrawState.TICKET_DRAWN)
    response = step(staff_client, second, {"envelope_number": "9"})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Envelope 9 was already opened (3 of Clubs)" in page and 'role="alert"' in page
    assert state_of(second) == DrawState.TICKET_DRAWN
    assert first.state == DrawState.CLOSED


def test_the_verifier_must_be_a_second_person(staff_user, staff_client, draw):  # R:E3
    destroyer, _ = members_for(draw.event)
    run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    response = step(staff_client, draw, {"destroyed_by": destroyer.pk, "verified_by": destroyer.pk, **SIGNATURES})
    assert response.status_code == 400
    assert "verified by a second person" in response.content.decode()
    assert state_of(draw) == DrawState.CARD_REVEALED
    assert not CardDestruction.objects.filter(draw=draw).exists()


def test_every_screen_shows_where_the_draw_stands(staff_user, staff_client, draw):  # R:D8
    run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
    page = staff_client.get(night(draw)).content.decode()
    assert "Where the draw stands: <strong>Winning ticket drawn</strong>" in page
    draw.refresh_from_db()
    assert 'aria-current="step"' in page and f'class="big">{draw.winning_serial}<' in page


def test_only_draw_staff_and_administrators_run_draw_night(client, draw):
    assert client.get(night(draw)).status_code == 302  # to the sign-in page
    client.force_login(user_with_role(roles.SELLER))
    assert client.get(night(draw)).status_code == 403
    assert client.post(night(draw), {"expected_state": "scheduled"}).status_code == 403
    assert state_of(draw) == DrawState.SCHEDULED
    client.force_login(user_with_role(roles.ADMINISTRATOR))
    assert client.get(night(draw)).status_code == 200


@pytest.mark.django_db(transaction=True)
def test_two_laptops_posting_the_same_step_at_once_give_one_success():  # R:D8 R:D2
    from tests.factories import UserFactory, event_with_draw

    actor = UserFactory()
    event = event_with_draw(actor=actor)
    draw = run_draw(event.draws.get(number=1), actor=actor, until=DrawState.ANNOUNCED)
    serials = serials_of(draw)[:2]  # each laptop types another real ticket, twice
    users = [user_with_role(roles.DRAW_STAFF) for _ in range(2)]
    barrier = threading.Barrier(2)
    outcomes = []

    def laptop(i):
        client = Client()
        client.login(username=users[i].username, password=PASSWORD)
        try:
            barrier.wait()
            response = client.post(
                night(draw),
                {"expected_state": DrawState.ANNOUNCED, "serial": serials[i], "serial_again": serials[i]},
                follow=True,
            )
            # The test client's captured context is shared between threads: read the page.
            outcomes.append((response.status_code, "already done by someone else" in response.content.decode()))
        finally:
            connection.close()

    threads = [threading.Thread(target=laptop, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert len(outcomes) == 2, outcomes
    assert sorted(status for status, _ in outcomes) == [200, 200], outcomes
    assert sorted(refused for _, refused in outcomes) == [False, True], outcomes
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial in serials
    assert draw.winner_selections.count() == 1


def test_the_dashboard_shows_the_raffle_at_a_glance(staff_user, client, event):
    run_draw(event.draws.get(number=1), actor=staff_user, sales="400.00")
    run_draw(event.draws.get(number=2), actor=staff_user, sales="600.00", until=DrawState.SELLING)
    client.force_login(user_with_role(roles.TREASURER))
    response = client.get(reverse("event_dashboard", args=[event.pk]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in page and "Draw 1: sales $400.00" in page
    assert "Selling tickets" in page and "51 of 52" in page
    assert "$1,000.00" not in page and "$400.00" in page
    assert f"Licence {event.licence.number} expires" in page
    assert "Run draw night" not in page  # a treasurer watches, draw staff run it
    client.force_login(user_with_role(roles.AUDITOR))
    assert client.get(reverse("event_dashboard", args=[event.pk])).status_code == 200
    client.force_login(user_with_role(roles.SELLER))
    assert client.get(reverse("event_dashboard", args=[event.pk])).status_code == 403


def test_the_dashboard_gives_the_report_deadline_after_every_fourth_draw(client, event, staff_user):  # R:R1
    destroyer, verifier = members_for(event)
    for number in range(1, 5):
        run_draw(event.draws.get(number=number), actor=staff_user, destroyer=destroyer, verifier=verifier)
    client.force_login(user_with_role(roles.TREASURER))
    page = client.get(reverse("event_dashboard", args=[event.pk])).content.decode()
    assert "Four-draw report 1 (draws 1–4) and its fee" in page


def test_the_envelope_screen_shows_the_winning_ticket_announced(staff_client, staff_user, draw):  # R:D2
    run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    page = staff_client.get(night(draw)).content.decode()
    assert "type its serial twice" in page and 'name="serial_again"' in page
    serial = serials_of(draw)[0]
    response = step(staff_client, draw, {"serial": serial, "serial_again": serial})
    page = response.content.decode()
    assert f"Winning ticket {serial}." in page
    assert f'class="big">{serial}<' in page and "Ask the holder for the envelope they choose" in page


def test_serials_that_differ_or_were_not_sold_are_refused(staff_client, staff_user, draw):  # R:D2
    run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    first, second = serials_of(draw)[:2]
    response = step(staff_client, draw, {"serial": first, "serial_again": second})
    assert response.status_code == 400 and "do not match" in response.content.decode()
    response = step(staff_client, draw, {"serial": "999999", "serial_again": "999999"})
    assert response.status_code == 400 and "never sold under this licence" in response.content.decode()
    assert state_of(draw) == DrawState.ANNOUNCED


def test_an_electronic_draw_is_drawn_by_the_rng_and_shows_the_winner_masked(staff_client, staff_user):
    # R:D5 R:T9 the RNG picks; the envelope follows the ticket's pick; draw staff see the contact masked.
    from licensing.models import SalesChannel
    from tests.factories import LicenceFactory, event_with_draw

    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="50.00", envelope=31, until=DrawState.ANNOUNCED)
    page = staff_client.get(night(draw)).content.decode()
    assert "random number generator" in page and 'name="serial"' not in page
    response = step(staff_client, draw, {})
    assert response.status_code == 400 and 'name="confirm"' in response.content.decode()
    response = step(staff_client, draw, {"confirm": "on"})
    page = response.content.decode()
    draw.refresh_from_db()
    assert draw.state == DrawState.TICKET_DRAWN and draw.winning_serial in serials_of(draw)
    assert f'class="big">{draw.winning_serial}<' in page and "Pat Buyer" in page
    assert "0100" in page and "519-555-0100" not in page  # core.privacy masks it for draw staff
    assert "picked envelope <strong>31</strong>" in page
    response = step(staff_client, draw, {"envelope_number": ""})
    draw.refresh_from_db()
    assert draw.state == DrawState.ENVELOPE_CHOSEN and draw.envelope.number == 31


def _queries_for(client, url):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_dashboard_and_the_wizard_cost_the_same_queries_however_many_draws(staff_client, staff_user, event):
    dashboard = reverse("event_dashboard", args=[event.pk])
    before = (_queries_for(staff_client, dashboard), _queries_for(staff_client, night(event.draws.get(number=1))))
    destroyer, verifier = members_for(event)
    for number in range(1, 6):
        run_draw(event.draws.get(number=number), actor=staff_user, destroyer=destroyer, verifier=verifier)
    after = (_queries_for(staff_client, dashboard), _queries_for(staff_client, night(event.draws.get(number=6))))
    assert after == before


def test_a_screen_without_its_own_partial_falls_back_to_the_generic_one(staff_client, staff_user, draw, monkeypatch):
    import dataclasses

    from raffle.models import draw_steps

    run_draw(draw, actor=staff_user, until=DrawState.ANNOUNCED)
    # A row added to the table with a screen that has no partial yet.
    rows = [
        dataclasses.replace(s, screen="some_future_state") if s.name == "draw_ticket" else s
        for s in draw_steps.DRAW_STEPS
    ]
    monkeypatch.setattr(draw_steps, "DRAW_STEPS", tuple(rows))
    page = staff_client.get(night(draw)).content.decode()
    assert "Fill in what the form below asks" in page and 'name="serial"' in page


def test_a_post_without_the_expected_state_performs_nothing(staff_client, draw):  # R:D8
    response = staff_client.post(night(draw), {}, follow=True)
    assert any("out of date" in e for e in errors(response))
    assert state_of(draw) == DrawState.SCHEDULED


# --- T8: "is the holder here?" is asked of roll tickets only -----------------------------------------


def test_the_holder_is_not_here_so_the_draw_waits_and_they_choose_when_they_come(staff_client, drawstaff):  # R:T8
    event = event_with_draw(actor=drawstaff, claim_period_days=7)
    draw = run_draw(event.draws.get(number=1), actor=drawstaff, sales="10", until=DrawState.TICKET_DRAWN)
    response = step(staff_client, draw, {"step": "await_claim"})
    draw.refresh_from_db()
    until = timezone.localtime(draw.claim_until)
    page = response.content.decode()
    assert draw.state == DrawState.AWAITING_CLAIM and draw.envelope is None
    assert f"Awaiting claim: ticket {draw.winning_serial} until {until:%A %-d %B %Y}" in page
    assert "Identification seen" in page and "Tickets drawn for this draw" in page
    # A second laptop still on the envelope screen opens nothing.
    response = step(staff_client, draw, {"envelope_number": "12"}, expected=DrawState.TICKET_DRAWN)
    assert any("already done by someone else" in error for error in errors(response))
    claim = {"holder_name": "Robin Holder", "id_seen": "Health card", "id_checked_by": "Vic Verifier"}
    response = step(staff_client, draw, {**claim, "envelope_number": "12"})
    draw.refresh_from_db()
    assert draw.state == DrawState.ENVELOPE_CHOSEN and draw.envelope.number == 12
    assert f"Ticket {draw.winning_serial} claimed by Robin Holder; envelope 12 chosen." in response.content.decode()


def test_only_a_roll_ticket_draw_asks_whether_the_holder_is_here(staff_client, drawstaff):  # R:T8
    for channel, asked in ((SalesChannel.ELECTRONIC, False), (SalesChannel.PAPER_ROLL, True)):
        event = event_with_draw(actor=drawstaff, licence=LicenceFactory(sales_channel=channel))
        draw = run_draw(event.draws.get(number=1), actor=drawstaff, sales="10", until=DrawState.TICKET_DRAWN)
        page = staff_client.get(night(draw)).content.decode()
        assert (f"Is the holder of ticket {draw.winning_serial} here?" in page) is asked
