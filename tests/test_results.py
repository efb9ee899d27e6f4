"""The public results page and "did I win?" (RULES D10), and the French the
public pages speak (R4 asks the public texts in English and French)."""

import datetime

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle.errors import RaffleError
from raffle.models import DrawState, WinnerNameConsent
from raffle.services.results import winner_name_consent_record
from tests.catalogue import read_po_entries
from tests.factories import LicenceFactory, event_with_draw, login_verified, run_draw, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_lookup_limit():
    cache.clear()
    yield
    cache.clear()


def results(event, **query):
    url = reverse("public_results", args=[event.pk])
    return url + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def test_a_winning_number_is_published_only_once_the_ticket_is_drawn(client, event, staff_user):  # R:D10
    draw = event.draws.get(number=1)
    run_draw(draw, actor=staff_user, sales="100.00", until=DrawState.ANNOUNCED)
    draw.refresh_from_db()
    page = client.get(results(event)).content.decode()
    assert "No winning ticket has been drawn yet." in page
    run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
    draw.refresh_from_db()
    page = client.get(results(event)).content.decode()
    assert draw.winning_serial in page and "$20.00" in page  # the draw prize is published with the number
    assert "envelope not yet opened" in page


def test_a_winners_name_is_shown_only_with_written_consent(client, event, staff_user):  # R:D10
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="100.00", envelope=9, card="7D")
    page = client.get(results(event)).content.decode()
    assert "Pat Buyer" not in page  # the name on the sale is never published by itself
    assert draw.winning_serial in page and "7 of Diamonds" in page
    with pytest.raises(RaffleError, match="written consent"):
        winner_name_consent_record(actor=staff_user, draw=draw, publish=True, name="Pat B.")
    assert not WinnerNameConsent.objects.exists()
    winner_name_consent_record(
        actor=staff_user, draw=draw, publish=True, name="Pat B.", town="Hearst", consent_reference="form 12"
    )
    page = client.get(results(event)).content.decode()
    assert "Pat B., Hearst" in page and "Pat Buyer" not in page
    winner_name_consent_record(actor=staff_user, draw=draw, publish=False, consent_reference="withdrawn by phone")
    assert "Pat B." not in client.get(results(event)).content.decode()
    assert AuditEntry.objects.filter(action="raffle.draw.winner_name_consent").count() == 2


def test_consent_refuses_control_characters_and_a_draw_not_yet_drawn(event, staff_user):  # R:D10
    draw = event.draws.get(number=1)
    with pytest.raises(RaffleError, match="no winning ticket yet"):
        winner_name_consent_record(actor=staff_user, draw=draw, publish=True, name="A", consent_reference="f")
    run_draw(draw, actor=staff_user, until=DrawState.TICKET_DRAWN)
    with pytest.raises(RaffleError, match="letters, digits and punctuation"):
        winner_name_consent_record(actor=staff_user, draw=draw, publish=True, name="A\x00B", consent_reference="f")
    assert not WinnerNameConsent.objects.exists()


def test_did_i_win_answers_for_a_winning_and_a_losing_ticket(client, event, staff_user):  # R:D10
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="100.00")
    loser = draw.tickets.exclude(serial=draw.winning_serial).first().serial
    won = client.get(results(event, ticket=draw.winning_serial))
    assert won.status_code == 200
    assert f"Ticket {draw.winning_serial} is the winning ticket of draw 1." in won.content.decode()
    lost = client.get(results(event, ticket=loser)).content.decode()
    assert f"Ticket {loser} is not a winning ticket of any draw held so far." in lost
    # A serial never sold gets the same answer as a losing one: the page does not reveal sales.
    assert "is not a winning ticket" in client.get(results(event, ticket="424242")).content.decode()
    refused = client.get(results(event, ticket="12;DROP")).content.decode()
    assert "letters, digits and dashes" in refused


def test_a_roll_ticket_holder_learns_to_come_forward_before_the_claim_time_ends(client, staff_user):  # R:D10 R:T8
    event = event_with_draw(
        actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_ROLL), claim_period_days=7
    )
    draw = run_draw(event.draws.get(number=1), actor=staff_user, sales="10", until=DrawState.AWAITING_CLAIM)
    page = client.get(results(event, ticket=draw.winning_serial)).content.decode()
    deadline = timezone.localtime(draw.winner_selections.get().selected_at + datetime.timedelta(days=7))
    assert deadline.strftime("%Y-%m-%d %H:%M") == timezone.localtime(draw.claim_until).strftime("%Y-%m-%d %H:%M")
    assert "Bring the ticket to" in page and deadline.strftime("%Y-%m-%d") in page


def test_a_flood_of_lookups_is_refused(client, event, settings):  # R:D10
    settings.TICKET_CHECKS_PER_WINDOW = 3
    statuses = [client.get(results(event, ticket=str(100000 + n))).status_code for n in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert "Too many look-ups" in client.get(results(event, ticket="1")).content.decode()
    # Another address is not held back by the first one's flood.
    assert client.get(results(event, ticket="1"), REMOTE_ADDR="203.0.113.9").status_code == 200


def test_the_results_page_costs_the_same_queries_however_many_draws(
    client, event, staff_user, django_assert_max_num_queries
):  # R:D10
    for number in range(1, 5):
        run_draw(event.draws.get(number=number), actor=staff_user)
    with django_assert_max_num_queries(5):
        response = client.get(results(event))
    assert response.content.decode().count('<th scope="row">') == 4


def test_an_unknown_event_has_no_results(client):
    assert client.get("/results/999999/").status_code == 404


def test_staff_record_the_winners_consent_on_its_page(client, event, staff_user):  # R:D10
    draw = run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.TICKET_DRAWN)
    staff = user_with_role("draw staff")
    login_verified(client, staff)
    url = reverse("winner_consent", args=[draw.pk])
    refused = client.post(url, {"publish": "on", "name": "Pat B."})
    assert refused.status_code == 200 and "written consent" in refused.content.decode()
    done = client.post(url, {"publish": "on", "name": "Pat B.", "town": "Timmins", "consent_reference": "form 3"})
    assert done.status_code == 302
    assert "Pat B., Timmins" in client.get(results(event)).content.decode()


# --- French -----------------------------------------------------------------------------------------


def test_a_browser_asking_for_canadian_french_gets_the_board_and_results_in_french(client, event, staff_user):  # R:R4
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1000.00", envelope=7, card="KH")
    board = client.get(reverse("public_board", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9")
    page = board.content.decode()
    assert '<html lang="fr">' in page
    assert "Gros lot progressif" in page and "Vous devez avoir 18 ans ou plus pour jouer." in page
    assert "Enveloppe 7 : ouverte, Roi de cœur" in page
    page = client.get(results(event), HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert "Ai-je gagné?" in page and "Billets gagnants" in page and "Roi de cœur" in page
    english = client.get(reverse("public_board", args=[event.pk]), HTTP_ACCEPT_LANGUAGE="en-CA").content.decode()
    assert '<html lang="en' in english and "Progressive jackpot" in english


def test_the_language_switch_is_remembered(client, event):  # R:R4
    response = client.post(reverse("set_language"), {"language": "fr", "next": results(event)})
    assert response.status_code == 302
    page = client.get(reverse("public_board", args=[event.pk])).content.decode()  # no Accept-Language
    assert "Les 52 enveloppes" in page
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert "The 52 envelopes" in client.get(reverse("public_board", args=[event.pk])).content.decode()


def test_every_french_message_is_translated_and_compiled():  # R:R4
    """locale/fr: no empty translation, and the compiled catalogue holds what
    the .po says (run `make messages` after changing a string)."""
    import gettext
    from pathlib import Path

    from django.conf import settings

    folder = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"
    entries = read_po_entries(folder / "django.po")
    assert entries and all(e.translated for e in entries), [e.msgid for e in entries if not e.translated]
    with open(folder / "django.mo", "rb") as compiled:
        catalogue = gettext.GNUTranslations(compiled)
    for e in entries:
        if e.msgid_plural:  # French: form 0 for 0 and 1, form 1 from 2
            assert [catalogue.ngettext(e.msgid, e.msgid_plural, n) for n in (1, 2)] == e.msgstrs, e.msgid
        else:
            assert catalogue.gettext(e.msgid) == e.msgstrs[0], e.msgid
