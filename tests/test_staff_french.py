"""#16 French beyond the public pages: a volunteer whose browser speaks French
gets the staff pages, the refusals a service raises, and the whole Rules of
Play (page and PDF) in French, figures and dates written the Canadian French
way. Every test here runs in French and leaves English behind it (conftest)."""

import datetime
import re
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import translation

from core import roles
from core.money import format_money_in
from core.pdf import pdf_text
from licensing.errors import LicensingError
from licensing.services import trust_guard
from raffle import services
from raffle.errors import RaffleError
from raffle.reports.builders import four_draw_report
from raffle.reports.render import four_draw_pdf
from raffle.rules_text import day
from raffle.services.supplier_formats import ImportRefused
from raffle.views import rules as rules_views
from tests.factories import event_with_closed_draws, run_draw, user_with_role
from tests.supplier_files import four_sales, result_file, sales_file, supplier_event

pytestmark = pytest.mark.django_db

FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr-CA,fr;q=0.9"}


def _page(client, name, *args) -> str:
    response = client.get(reverse(name, args=args), **FRENCH)
    assert response.status_code == 200, name
    return response.content.decode()


def test_the_dashboard_reads_french_with_french_money(client, staff_user, event):  # R:R4
    run_draw(event.draws.get(number=1), actor=staff_user)
    client.force_login(user_with_role(roles.TREASURER))
    page = _page(client, "event_dashboard", event.pk)
    assert '<html lang="fr">' in page
    for french in (
        "Gros lot progressif",
        "Ventes de billets à ce jour",
        "Conservé par l’organisme",
        "Plafond des prix",
    ):
        assert french in page, french
    for english in ("Progressive jackpot", "Ticket sales to date", "Kept by the charity", "Prize board"):
        assert english not in page, english
    assert re.search(r"\d,\d\d\xa0\$", page)  # 1 234,50 $, never $1,234.50


def test_draw_night_reads_french(client, event):  # R:R4
    client.force_login(user_with_role(roles.DRAW_STAFF))
    page = _page(client, "draw_night", event.draws.get(number=1).pk)
    assert "Étapes du tirage" in page and "Où en est le tirage" in page
    assert "Steps of the draw" not in page and "Where the draw stands" not in page


def test_the_sales_page_offers_its_envelopes_in_french(client, staff_user):  # R:R4
    from licensing.models import SalesChannel
    from tests.factories import LicenceFactory, event_with_draw

    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    client.force_login(user_with_role(roles.SELLER, organisation=event.licence.organisation))
    page = _page(client, "sales_sell", draw.pk)
    assert "— choisir —" in page and ">Enveloppe 52</option>" in page
    assert "choose" not in page and ">Envelope 52<" not in page


def test_the_treasury_overview_reads_french(client, staff_user, event):  # R:R4
    run_draw(event.draws.get(number=1), actor=staff_user)
    client.force_login(user_with_role(roles.TREASURER))
    page = _page(client, "treasury_overview", event.pk)
    assert "Rapports et échéances" in page and "Rapports des quatre tirages" in page
    assert "Reports and deadlines" not in page and "Four-draw reports" not in page
    assert "<td>à venir</td>" in page and "<td>upcoming</td>" not in page  # a deadline's status word


def test_a_refusal_reaches_a_french_volunteer_in_french(staff_user, event):
    """A service's refusal is translated when it is raised, in the request's language."""
    draw = event.draws.get(number=1)
    with translation.override("fr"), pytest.raises(RaffleError) as refused:
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number="60")
    assert str(refused.value) == (
        "Impossible de choisir l’enveloppe pour le tirage 1 pour l’instant : le tirage est à l’étape « prévu »; "
        "l’étape suivante : ouvrir la vente des billets."
    )


def test_a_refused_supplier_file_is_explained_in_french(staff_user):  # R:T11
    """The treasurer is told in French which file, line and column to fix."""
    event, draw = supplier_event(staff_user)
    with translation.override("fr"), pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(
            actor=staff_user, draw=draw, sales=sales_file(four_sales(draw)), result=result_file(draw, "100006")
        )
    assert str(refused.value) == (
        "result.csv, ligne 2, colonne winning_ticket_number : le billet 100006 est « refunded »; un billet annulé "
        "ou remboursé ne peut pas gagner. Rien n’a été importé."
    )


def test_the_four_draw_report_prints_in_french(treasurer):  # R:R1
    """A treasurer working in French issues the regulator's report in French."""
    event, _draws = event_with_closed_draws(["795.00", "430.00", "405.00", "385.00"], actor=treasurer)
    with translation.override("fr"):
        text = " ".join(pdf_text(four_draw_pdf(four_draw_report(event, 1))).split())
    for french in ("Billets vendus (annulations exclues)", "Contributions au gros lot (30 %)", "Paiements des prix"):
        assert french in text, french
    for english in ("Tickets sold (voids excluded)", "Jackpot allocations", "Prize payments"):
        assert english not in text, english


# --- The Rules of Play, body included --------------------------------------------------------------------

# Sentences of the body (not the page's frame) in each language.
ENGLISH_BODY = ("Players must be 18 years of age or older.", "The draw schedule", "Help with gambling")
FRENCH_BODY = ("Les joueurs doivent avoir 18 ans ou plus.", "Le calendrier des tirages", "Aide pour le jeu")


def test_the_rules_of_play_page_reads_french_in_full(client, event):  # R:R4 R:T10
    page = _page(client, "rules_of_play", event.pk)
    for french in FRENCH_BODY:
        assert french in page, french
    for english in ENGLISH_BODY:
        assert english not in page, english
    assert re.search(
        r"Tirage 1 : \w+ \d{1,2}(er)? \w+ 20\d\d à \d{1,2} h \d\d", page
    )  # jeudi 10 décembre 2026 à 19 h 30
    assert re.search(r"\d,\d\d\xa0\$", page)  # the ticket prices and the prize board


def test_rules_of_play_dates_are_written_as_each_language_writes_them():
    first, tenth = datetime.date(2026, 12, 1), datetime.date(2026, 12, 10)
    assert (day(first), day(tenth)) == ("December 1, 2026", "December 10, 2026")
    with translation.override("fr"):
        assert (day(first), day(tenth)) == ("1er décembre 2026", "10 décembre 2026")


def test_the_rules_of_play_pdf_reads_french_and_is_kept_apart_from_the_english_one(client, event, monkeypatch):
    """R:T10 the PDF is stored per version AND language: an English reader
    and a French one each get their own file, and a shared cache is told the
    file varies with the language."""  # R:R4
    made = []
    render = rules_views.html_to_pdf
    monkeypatch.setattr(rules_views, "html_to_pdf", lambda html, **kw: made.append(html) or render(html, **kw))
    url = reverse("rules_of_play_pdf", args=[event.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    french = client.get(url, **FRENCH)
    text = " ".join(pdf_text(french.content).split())
    for sentence in FRENCH_BODY:
        assert sentence in text, sentence
    for sentence in ENGLISH_BODY:
        assert sentence not in text, sentence
    assert "Players must be 18 years of age or older." in " ".join(pdf_text(english.content).split())
    assert english["ETag"] != french["ETag"] and french["ETag"].startswith('"fr')
    assert "Accept-Language" in french["Vary"] and "Cookie" in french["Vary"]
    client.get(url, **FRENCH)
    client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert len(made) == 2  # one rendering per language, then the stored files


def test_a_refusal_writes_its_amounts_as_the_readers_language_does(monkeypatch):  # R:L10
    """#16 the amounts inside a refusal follow the reader's language: a French
    treasurer reads "1 234,50 $", never "$1,234.50" inside a French sentence."""
    held = trust_guard.TrustPosition(balance=Decimal("1500.00"), jackpot=Decimal("1234.50"), unpaid_prizes=Decimal(0))
    monkeypatch.setattr(trust_guard, "_providers", [lambda licence: held])
    with translation.override("fr"), pytest.raises(LicensingError) as refused:
        trust_guard.check_spending(None, Decimal("1000.00"))
    said = str(refused.value)
    assert format_money_in(Decimal("1234.50"), "fr") in said and "$1" not in said and "compte en fiducie" in said
    with pytest.raises(LicensingError) as in_english:
        trust_guard.check_spending(None, Decimal("1000.00"))
    assert "$1,234.50" in str(in_english.value)
