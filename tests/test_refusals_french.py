"""#16 refusals raised in Python reach a French volunteer in French, with
amounts as French writes them, and a refused step still changes nothing.
One per area: the draw's pool, the per-person limit, the prize board, the
trust account's bank statement; and a draw named in French on the page is
named alike in the audit trail whatever language the actor reads."""

from decimal import Decimal

import pytest
from django.utils import translation

from core import roles
from core.models import AuditEntry
from core.money import format_money_in
from licensing.models import BankStatement, SalesChannel
from licensing.services import bank_statement_import
from licensing.services.trust_ledger import StatementRefused
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, Sale, Ticket
from raffle.services.pool import paper_ticket
from raffle.services.prize_board import prize_board_check
from raffle.services.purchase_limits import PurchaseRefused
from tests.factories import LicenceFactory, event_with_draw, trust_account_for, user_with_role

pytestmark = pytest.mark.django_db


def test_the_pool_refuses_a_serial_in_french_and_draws_nothing(event):  # R:D2
    draw = event.draws.get(number=1)
    audit_entries = AuditEntry.objects.count()
    with translation.override("fr"), pytest.raises(RaffleError) as mistyped:
        paper_ticket(draw=draw, serial="A-0001", serial_again="A-0002")
    assert str(mistyped.value).startswith("Les deux numéros tapés ne correspondent pas"), mistyped.value
    with translation.override("fr"), pytest.raises(RaffleError) as unknown:
        paper_ticket(draw=draw, serial="Z-9999", serial_again="Z-9999")
    assert "Z-9999" in str(unknown.value) and "never sold" not in str(unknown.value)
    assert Draw.objects.get(pk=draw.pk).state == draw.state and AuditEntry.objects.count() == audit_entries
    assert not Ticket.objects.filter(draw=draw).exists()


def test_the_per_person_limit_is_explained_in_french_and_nothing_is_sold(staff_user):  # R:L3
    licence = LicenceFactory(sales_channel=SalesChannel.ONLINE)
    event = event_with_draw(actor=staff_user, licence=licence, max_tickets_per_person=4)
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    sale = dict(actor=staff_user, purchaser_name="Pat Buyer", purchaser_contact="519-555-0100", envelope_pick=5)
    services.ticket_sell(draw=draw, tier_quantity=3, **sale)
    services.ticket_sell(draw=draw, tier_quantity=1, **sale)
    with translation.override("fr"), pytest.raises(PurchaseRefused) as refused:
        services.ticket_sell(draw=draw, tier_quantity=1, **sale)
    message = str(refused.value)
    assert "limite par personne : une personne peut acheter au plus 4 billets pour le tirage 1" in message
    assert message.startswith("Règles du jeu") and "en détiendrait 5" in message and "Rules of Play" not in message
    assert Sale.objects.filter(draw=draw).count() == 2


def test_the_prize_board_names_the_seed_in_french_with_french_money(staff_user):  # R:L3 R:P6
    event = event_with_draw(actor=staff_user, seed_jackpot="1000")
    with translation.override("fr"), pytest.raises(RaffleError) as refused:
        prize_board_check(event=event, extra_sales="100000000")
    message = str(refused.value)
    seed = format_money_in(event.seed_jackpot, "fr")
    assert f", gros lot de départ de {seed} compris" in message, message
    assert seed.replace("\xa0", " ").replace("\u202f", " ") == "1 000,00 $"
    assert "seed jackpot" not in message and refused.value.rule == "L3"
    assert not Sale.objects.exists()


def test_a_bank_statement_that_does_not_add_up_is_refused_in_french_and_nothing_imported(event):  # R:L12
    treasurer = user_with_role(roles.TREASURER, username="terry")
    account = trust_account_for(event, actor=treasurer)
    text = "date,description,amount,balance\n2026-01-09,Deposit,500.00,500.00\n2026-01-10,Deposit,20.00,600.00\n"
    with translation.override("fr"), pytest.raises(StatementRefused) as refused:
        bank_statement_import(actor=treasurer, account=account, text=text)
    assert str(refused.value).startswith("Le relevé bancaire n’a pas été importé : rangée 3 : le solde 600.00")
    assert "le fichier n’est pas le relevé complet" in str(refused.value)
    assert not BankStatement.objects.exists()


def test_a_draw_reads_tirage_in_french_and_the_audit_trail_names_it_in_one_language(staff_user, event):
    draw = event.draws.get(number=1)
    with translation.override("fr"):
        assert str(draw) == "Tirage 1" and str(event.envelopes.get(number=7)) == "Enveloppe 7"
        services.draw_open_sales(actor=staff_user, draw=draw)
    assert str(draw) == "Draw 1"
    entry = AuditEntry.objects.filter(object_type="raffle.draw", object_id=str(draw.pk)).latest("id")
    assert entry.object_repr == "Draw 1"
    assert Draw.objects.get(pk=draw.pk).state == "selling"


def test_an_amount_typed_wrong_is_refused_in_french_naming_what_it_is():
    from core.money import MoneyError, parse_amount

    with translation.override("fr"):
        for typed, said in (("-5", "un montant négatif"), ("12.345", "fractions de cent"), ("douze", "1250,50")):
            with pytest.raises(MoneyError) as refused:
                parse_amount(typed)
            assert str(refused.value).startswith("Le montant : ") and said in str(refused.value), refused.value


def test_sales_tickets_and_rolls_are_named_in_the_readers_language():
    """#16 the names records carry on pages (admin lists, messages) are French too."""
    from raffle.models import Sale, Ticket

    sale, ticket = Sale(pk=5, ticket_count=3, amount=Decimal("1250.00")), Ticket(serial="A1")
    with translation.override("fr"):
        assert str(sale) == "Vente 5 (3 billets, 1\u00a0250,00\u00a0$)"
        assert str(ticket) == "Billet A1"
    with translation.override("en"):
        assert str(sale) == "Sale 5 (3 tickets, $1,250.00)"
