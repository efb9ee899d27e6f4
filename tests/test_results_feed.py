"""The results as the charity publishes them beyond its own page (RULES D10):
an Atom feed a newsroom or a feed reader follows, and the announcement for
social media and the local paper, ready to copy in English and French, with
the ticket prices (T1) and the helpline (T10) that print advertising carries."""

import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from raffle.models import DrawState
from raffle.services.results import winner_name_consent_record
from tests.factories import run_draw

pytestmark = pytest.mark.django_db

ATOM = "{http://www.w3.org/2005/Atom}"


def feed_entries(client, event, **headers):
    response = client.get(reverse("public_results_feed", args=[event.pk]), **headers)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/atom+xml")
    return ET.fromstring(response.content).findall(f"{ATOM}entry")


def announcement_page(client, event, **headers):
    response = client.get(reverse("public_announcement", args=[event.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def test_the_feed_publishes_each_winning_number_once_it_is_drawn(client, event, staff_user):  # R:D10
    first = run_draw(event.draws.get(number=1), actor=staff_user, sales="100.00", envelope=7, card="KH")
    second = event.draws.get(number=2)
    run_draw(second, actor=staff_user, sales="250.00", until=DrawState.ANNOUNCED)
    entries = feed_entries(client, event)
    assert [e.find(f"{ATOM}title").text for e in entries] == [f"Draw 1: ticket {first.winning_serial} wins $20.00"]
    run_draw(second, actor=staff_user, until=DrawState.TICKET_DRAWN)
    second.refresh_from_db()
    entries = feed_entries(client, event)
    titles = [e.find(f"{ATOM}title").text for e in entries]
    assert titles[0] == f"Draw 2: ticket {second.winning_serial} wins $50.00"  # the newest first
    links = [e.find(f"{ATOM}link").get("href") for e in entries]
    assert links == [f"http://testserver/results/{event.pk}/#draw-2", f"http://testserver/results/{event.pk}/#draw-1"]
    # Each entry carries the announcement in both languages.
    first_entry = entries[1].find(f"{ATOM}summary").text
    assert "the jackpot of $30.00 rolls over" in first_entry and "Roi de cœur" in first_entry
    assert "m. Tickets: " in first_entry and ".." not in first_entry  # "7:30 p.m. Tickets", not "p.m.. Tickets"
    results_page = client.get(reverse("public_results", args=[event.pk])).content.decode()
    assert 'type="application/atom+xml"' in results_page and f'id="draw-{first.number}"' in results_page


def test_the_feed_names_a_winner_only_with_written_consent(client, event, staff_user):  # R:D10
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="100.00", envelope=3, card="2C")
    summary = feed_entries(client, event)[0].find(f"{ATOM}summary").text
    assert "Pat Buyer" not in summary and "Winner" not in summary
    winner_name_consent_record(
        actor=staff_user, draw=draw, publish=True, name="Pat B.", town="Hearst", consent_reference="form 12"
    )
    summary = feed_entries(client, event)[0].find(f"{ATOM}summary").text
    assert "Winner: Pat B., Hearst." in summary and "Personne gagnante : Pat B., Hearst." in summary
    assert "Pat Buyer" not in summary


def test_the_announcement_is_ready_to_copy_in_english_and_french(client, event, staff_user):  # R:D10 R:T1 R:T10
    event.draw_place = "Legion Hall 142"
    event.save(update_fields=["draw_place"])
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="6172.50", envelope=12, card="QD")
    page = announcement_page(client, event)
    english, french = page.split('id="announcement-en"')[1].split('id="announcement-fr"')
    assert "draw 1 (" in english and f"the winning ticket is {draw.winning_serial}." in english
    assert "It wins the draw prize of $1,234.50." in english
    assert "Envelope 12 held the Queen of Diamonds, so the jackpot of $1,851.75 rolls over." in english
    assert "Next draw:" in english and "(Legion Hall 142). Tickets:" in english
    tiers = ", ".join(f"{t.quantity} for ${t.price:,.2f}" for t in event.price_tiers.all())
    assert f"Tickets: {tiers}." in english  # R:T1 the price is in the advertising
    assert f"Licence {event.licence.number}." in english and "18 or older" in english
    assert "ConnexOntario 1-866-531-2600" in english  # R:T10
    assert f"http://testserver/results/{event.pk}/" in english  # where to check a ticket
    # French: the Canadian French way of writing money and dates, whatever the reader's language.
    assert f"le billet gagnant est le {draw.winning_serial}." in french
    assert "Il remporte le prix du tirage de 1\u00a0234,50\u00a0$." in french
    assert "Dame de carreau" in french and "1\u00a0851,75\u00a0$ est donc reporté" in french
    assert " h " in french.split("Prochain tirage :")[1].split(".")[0]  # 19 h 30
    assert "ConnexOntario 1-866-531-2600" in french and "18 ans ou plus" in french
    # A French reader gets the same two texts around a French page.
    french_page = announcement_page(client, event, HTTP_ACCEPT_LANGUAGE="fr-CA")
    assert '<html lang="fr">' in french_page and "prêt à copier" in french_page
    assert "It wins the draw prize of $1,234.50." in french_page


def test_the_ace_announcement_says_the_jackpot_is_won_and_no_next_draw(client, event, staff_user):  # R:D10
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=5, card="AS")
    page = announcement_page(client, event)
    assert "Envelope 5 held the Ace of Spades: the jackpot of $300.00 is won!" in page
    assert "le gros lot de 300,00\u00a0$ est remporté!" in page
    assert "Next draw" not in page and draw.winning_serial in page


def test_before_any_draw_there_is_nothing_to_announce(client, event):  # R:D10
    assert "No winning ticket has been drawn yet." in announcement_page(client, event)
    assert feed_entries(client, event) == []


def test_an_unknown_event_has_no_feed_and_no_announcement(client):
    assert client.get("/results/999999/feed/").status_code == 404
    assert client.get("/results/999999/announcement/").status_code == 404
