"""The electronic deck: shuffled with a cryptographic RNG, committed before
the first sale, hidden until opened, verifiable by anyone (RULES E4)."""

import hashlib

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.urls import reverse

from core.models import AuditEntry
from core.pdf import pdf_text
from raffle import selectors, services
from raffle.cards import ACE_OF_SPADES, DECK
from raffle.errors import RaffleError
from raffle.models import DeckCommitment, DrawState, EventStatus, deck_commitment_hash
from tests.factories import UserFactory, event_with_draw, members_for, run_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck_event(staff_user):
    return event_with_draw(actor=staff_user, deck_kind="electronic")


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


def _swap_card(envelope, card):
    with connection.cursor() as cursor:
        cursor.execute("UPDATE raffle_envelope SET card = %s WHERE id = %s", [card, envelope.pk])


def _sealed_secrets(event):
    """Every sealed envelope's card name and salt: none may appear anywhere."""
    from raffle.cards import card_name

    rows = DeckCommitment.objects.filter(envelope__event=event, envelope__opened_at__isnull=True)
    return [(card_name(r.envelope.card), r.salt) for r in rows.select_related("envelope")]


def test_an_electronic_deck_deals_all_52_cards_and_commits_to_each_envelope(deck_event):  # R:E4 R:E1
    envelopes = list(deck_event.envelopes.order_by("number"))
    assert sorted(e.card for e in envelopes) == sorted(DECK)
    commitments = DeckCommitment.objects.filter(envelope__event=deck_event).select_related("envelope")
    assert commitments.count() == 52
    assert len({c.salt for c in commitments}) == 52 and all(len(c.salt) == 32 for c in commitments)
    for c in commitments:
        message = f"catch-the-ace/deck/v1\n{deck_event.pk}\n{c.envelope.number}\n{c.envelope.card}\n{c.salt}"
        assert c.commitment == hashlib.sha256(message.encode()).hexdigest()


def test_the_commitments_are_recorded_in_the_audit_trail_before_the_first_sale(deck_event):  # R:E4
    entry = AuditEntry.objects.get(action="raffle.event.setup", object_id=str(deck_event.pk))
    assert entry.data["commitments"] == [row["commitment"] for row in selectors.deck_commitments(deck_event)]
    assert "AS" not in str(entry.data) and not any(c["salt"] for c in selectors.deck_commitments(deck_event))


def test_two_electronic_decks_are_shuffled_differently(staff_user):  # R:E4
    first = event_with_draw(actor=staff_user, deck_kind="electronic")
    second = event_with_draw(actor=staff_user, deck_kind="electronic")
    order = [list(e.envelopes.order_by("number").values_list("card", flat=True)) for e in (first, second)]
    assert order[0] != order[1]


def test_a_paper_deck_has_no_cards_and_no_commitments(event):  # R:E4
    assert not event.envelopes.exclude(card="").exists()
    assert not DeckCommitment.objects.exists()


def test_the_commitments_cannot_be_changed_in_raw_sql(deck_event):  # R:E4
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE raffle_deckcommitment SET salt = 'x'")


def test_a_reveal_opens_the_envelope_itself_and_publishes_its_salt(deck_event, staff_user):  # R:E4
    draw = run_draw(deck_event.draws.get(number=1), actor=staff_user, until=DrawState.CARD_REVEALED)
    row = selectors.deck_commitments(deck_event)[draw.envelope.number - 1]
    assert row["opened"] and row["card"] == draw.envelope.card and len(row["salt"]) == 32
    entry = AuditEntry.objects.get(action="raffle.draw.reveal_card", object_id=str(draw.pk))
    assert entry.data["salt"] == row["salt"] and entry.data["commitment"] == row["commitment"]
    assert sum(1 for r in selectors.deck_commitments(deck_event) if r["salt"]) == 1


def test_a_wrong_card_typed_at_reveal_is_refused_without_naming_the_sealed_card(deck_event, staff_user):  # R:E4
    draw = run_draw(deck_event.draws.get(number=1), actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    real = draw.envelope.card
    wrong = next(c for c in DECK if c != real)
    from raffle.cards import card_name

    with pytest.raises(RaffleError) as refused:
        services.draw_reveal_card(actor=staff_user, draw=draw, card=wrong, card_again=wrong)
    assert card_name(real) not in str(refused.value) and real not in str(refused.value).split()
    draw.envelope.refresh_from_db()
    assert not draw.envelope.is_open


def test_a_sealed_card_swapped_behind_the_applications_back_is_refused_at_reveal(deck_event, staff_user):  # R:E4
    draw = run_draw(deck_event.draws.get(number=1), actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    other = deck_event.envelopes.exclude(pk=draw.envelope_id).first()
    a, b = draw.envelope.card, other.card
    with connection.cursor() as cursor:  # swap the two cards, as a tamperer would
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("UPDATE raffle_envelope SET card = '' WHERE id = %s", [other.pk])
        cursor.execute("UPDATE raffle_envelope SET card = %s WHERE id = %s", [b, draw.envelope_id])
        cursor.execute("UPDATE raffle_envelope SET card = %s WHERE id = %s", [a, other.pk])
    with pytest.raises(RaffleError, match="does not match the commitment"):
        services.draw_reveal_card(actor=staff_user, draw=draw, card="")


def test_every_commitment_verifies_after_the_event_ends_and_a_swapped_card_fails(
    deck_event, staff_user, capsys
):  # R:E4
    destroyer, verifier = members_for(deck_event)
    number = 1
    ace_envelope = deck_event.envelopes.get(card=ACE_OF_SPADES).number
    while True:
        # By draw 5 the winner picks the ace's envelope: a deck that hides the
        # ace in the last envelopes would otherwise outlast the licence (P7).
        envelope = ace_envelope if number >= 5 else None
        draw = run_draw(
            deck_event.draws.get(number=number),
            actor=staff_user,
            destroyer=destroyer,
            verifier=verifier,
            envelope=envelope,
        )
        deck_event.refresh_from_db()
        if deck_event.status == EventStatus.CONCLUDED:
            break
        number += 1
    assert draw.envelope.card == ACE_OF_SPADES
    report = services.deck_verify(event=deck_event)
    assert report.intact and report.revealed == number
    call_command("verify_deck", event=deck_event.pk)
    assert f"{number} of 52 revealed commitments match" in capsys.readouterr().out

    opened = deck_event.envelopes.filter(opened_at__isnull=False).exclude(card=ACE_OF_SPADES).first()
    if opened is None:  # the ace came first: tamper with the ace's envelope itself
        opened = draw.envelope
    sealed_card = next(c for c in DECK if not deck_event.envelopes.filter(card=c, opened_at__isnull=False).exists())
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(
            "UPDATE raffle_envelope SET card = '' WHERE event_id = %s AND card = %s", [deck_event.pk, sealed_card]
        )
    _swap_card(opened, sealed_card)
    report = services.deck_verify(event=deck_event)
    assert not report.intact and f"envelope {opened.number}" in str(report)
    with pytest.raises(CommandError, match="failed verification"):
        call_command("verify_deck")


def test_a_commitment_list_altered_since_set_up_is_detected(deck_event, staff_user):  # R:E4
    run_draw(deck_event.draws.get(number=1), actor=staff_user, until=DrawState.CARD_REVEALED)
    row = DeckCommitment.objects.filter(envelope__event=deck_event, envelope__opened_at__isnull=False).get()
    forged = deck_commitment_hash(
        event_id=deck_event.pk, envelope_number=row.envelope.number, card=row.envelope.card, salt="0" * 32
    )
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE raffle_deckcommitment DISABLE TRIGGER raffle_deckcommitment_append_only")
        cursor.execute(
            "UPDATE raffle_deckcommitment SET salt = %s, commitment = %s WHERE id = %s", ["0" * 32, forged, row.pk]
        )
        cursor.execute("ALTER TABLE raffle_deckcommitment ENABLE TRIGGER raffle_deckcommitment_append_only")
    report = services.deck_verify(event=deck_event)
    assert not report.intact and "audit trail" in str(report)


def test_no_admin_page_shows_a_sealed_card_or_salt(admin_client, deck_event, staff_user):  # R:E4
    run_draw(deck_event.draws.get(number=1), actor=staff_user, until=DrawState.CARD_REVEALED)
    secrets = _sealed_secrets(deck_event)
    envelope = deck_event.envelopes.filter(opened_at__isnull=True).first()
    commitment = DeckCommitment.objects.get(envelope=envelope)
    pages = [
        "/admin/raffle/envelope/",
        f"/admin/raffle/envelope/{envelope.pk}/change/",
        "/admin/raffle/deckcommitment/",
        f"/admin/raffle/deckcommitment/{commitment.pk}/change/",
        "/admin/core/auditentry/",
        f"/events/{deck_event.pk}/",
        f"/events/{deck_event.pk}/deck/",
        "/audit/",
    ]
    for url in pages:
        html = admin_client.get(url).content.decode()
        for name, salt in secrets:
            assert salt not in html, url
            assert name not in html, (url, name)


@pytest.mark.parametrize("lookup", ["card", "card__startswith", "envelope__card", "salt"])
def test_the_admin_refuses_to_filter_envelopes_by_their_sealed_card(admin_client, deck_event, lookup):  # R:E4
    url = "/admin/raffle/envelope/" if not lookup.startswith(("envelope", "salt")) else "/admin/raffle/deckcommitment/"
    response = admin_client.get(url, {lookup: "AS"})
    # Django answers a refused lookup with a redirect to "?e=1", never a filtered list.
    assert response.status_code in (302, 400)


def test_the_public_deck_page_needs_no_sign_in_and_shows_the_verification(client, deck_event, staff_user):  # R:E4
    run_draw(deck_event.draws.get(number=1), actor=staff_user)
    response = client.get(reverse("deck_public", args=[deck_event.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Verified:" in html and "1 of 52 envelopes" in html and "matches" in html
    for row in selectors.deck_commitments(deck_event):
        assert row["commitment"] in html


def test_the_printable_commitments_pdf_lists_every_commitment(client, deck_event):  # R:E4
    response = client.get(reverse("deck_public", args=[deck_event.pk]), {"format": "pdf"})
    text = pdf_text(response.content).replace("\n", "")
    assert response["Content-Type"] == "application/pdf"
    assert "Electronic deck commitments" in text
    for row in selectors.deck_commitments(deck_event):
        assert row["commitment"] in text
    for name, _ in _sealed_secrets(deck_event):
        assert name not in text


def test_verify_deck_with_no_electronic_event_says_so(capsys):
    call_command("verify_deck")
    assert "No electronic-deck event" in capsys.readouterr().out
