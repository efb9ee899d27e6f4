"""The inputs that gave a 500 or hung a worker (#15) get a clear message and
change nothing: a roll serial of 10^20 or 2^63, a winning serial "²", a
licence number with a newline, a CSV field over 128 KB, an import that
overflows the jackpot, a roll-return count of 10^20; and every form's text
field refuses control characters, so none reaches a PDF or a CSV export."""

import datetime
from decimal import Decimal

import pytest
from django import forms
from django.contrib import admin
from django.contrib.auth.models import Group
from django.test import RequestFactory
from django.urls import reverse

from core import roles
from core.models import AuditEntry
from core.text import MESSAGE
from licensing.errors import LicensingError
from licensing.models import BankStatement, Licence, SalesChannel
from licensing.services import bank_statement_import
from licensing.services.trust_ledger import StatementRefused
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Event, Sale, TicketRoll
from raffle.reports.ledger import ImportRefused
from raffle.services.supplier_formats import SupplierFile, read_rows
from tests.factories import (
    LicenceFactory,
    UserFactory,
    event_with_closed_draws,
    event_with_draw,
    once,
    run_draw,
    trust_account_for,
    user_with_role,
)

pytestmark = pytest.mark.django_db
HEADER = "draw_number,draw_date,ticket_sales,envelope,card"
HUGE_FIELD = "x" * (200 * 1024)


@pytest.fixture
def staff():
    return user_with_role(roles.DRAW_STAFF, username="dana")


def selling(staff, channel):
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=channel))
    return services.draw_open_sales(actor=staff, draw=event.draws.get(number=1))


@pytest.mark.parametrize("serial", [10**20, 2**63, 2**63 - 1])
def test_a_roll_serial_too_large_to_record_is_refused_on_the_page_and_by_the_service(client, staff, serial):  # R:T3
    draw = selling(staff, SalesChannel.PAPER_ROLL)
    client.force_login(staff)
    response = client.post(
        reverse("sales_rolls", args=[draw.pk]),
        once(action="issue", seller_name="Jo", first_serial=serial, last_serial=serial),
    )
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 999999999999" in response.text
    with pytest.raises(RaffleError, match="must be at most 999,999,999,999"):
        services.roll_issue(actor=staff, draw=draw, seller_name="Jo", first_serial=serial, last_serial=serial)
    assert not TicketRoll.objects.exists()


def test_a_roll_return_counting_10_to_the_20_sales_is_refused_at_once(client, staff):  # R:T7 R:L13
    draw = selling(staff, SalesChannel.PAPER_ROLL)
    roll = services.roll_issue(actor=staff, draw=draw, seller_name="Jo", first_serial=1, last_serial=100)
    client.force_login(staff)
    entries = AuditEntry.objects.count()
    with pytest.raises(RaffleError, match="Recount the stubs") as refused:
        services.roll_return(actor=staff, roll=roll, first_unsold=51, tier_counts={1: 10**20})
    assert refused.value.rule == "L13"
    response = client.post(
        reverse("sales_rolls", args=[draw.pk]),
        once(action="return", roll=roll.pk, first_unsold=51, tier_1=str(10**20)),
    )
    assert response.status_code == 200 and "Ensure this value is less than or equal to" in response.text
    roll.refresh_from_db()
    assert roll.first_unsold is None and not Sale.objects.exists() and AuditEntry.objects.count() == entries


@pytest.mark.parametrize("serial", ["²", "١٢", "Ⅻ", "12\n3"])
def test_a_winning_serial_that_is_not_plain_digits_or_letters_is_refused(staff, serial):  # R:D2
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = run_draw(event.draws.get(number=1), actor=staff, until=DrawState.ANNOUNCED)
    with pytest.raises(RaffleError, match="is not a ticket serial"):
        services.draw_record_winning_ticket(actor=staff, draw=draw, serial=serial, serial_again=serial)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.ANNOUNCED


def test_a_winning_serial_typed_as_a_superscript_is_refused_on_the_draw_night_page(client, staff):  # R:D2
    event = event_with_draw(actor=staff, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = run_draw(event.draws.get(number=1), actor=staff, until=DrawState.ANNOUNCED)
    client.force_login(staff)
    response = client.post(
        reverse("draw_night", args=[draw.pk]),
        {"expected_state": DrawState.ANNOUNCED, "serial": "²", "serial_again": "²"},
    )
    assert response.status_code == 400 and "is not a ticket serial" in response.text
    assert Draw.objects.get(pk=draw.pk).state == DrawState.ANNOUNCED


@pytest.mark.parametrize("number", ["ON-2026\n-001", "ON-2026\r001", "ON-2026\x00", "ON\u20282026", "ON-2026\t1"])
def test_a_licence_number_with_a_control_character_is_refused_by_the_admin_form(number):  # R:T11
    request = RequestFactory().get("/")
    request.user = user_with_role(roles.ADMINISTRATOR)
    form_class = admin.site._registry[Licence].get_form(request, None)
    form = form_class({"number": number})
    assert not form.is_valid()
    assert MESSAGE in form.errors["number"] or "Null characters are not allowed." in form.errors["number"]


@pytest.mark.parametrize("number", ["ON-2026\n-001", "ON-2026\x1b"])
def test_a_licence_number_with_a_control_character_is_refused_by_the_service_too(number):  # R:T11
    from licensing.models import AuthorityKind, Organisation
    from licensing.services import licence_create
    from tests.factories import OrganisationFactory

    today = datetime.date.today()
    with pytest.raises(LicensingError, match="on one line, without control characters"):
        licence_create(
            actor=None,
            organisation=OrganisationFactory(),
            number=number,
            authority_kind=AuthorityKind.MUNICIPALITY,
            authority_name="Town of Cobourg",
            sales_channel=SalesChannel.PAPER_ROLL,
            prize_board="50000.00",
            issued_on=today,
            expires_on=today + datetime.timedelta(days=365),
        )
    assert not Licence.objects.filter(number__startswith="ON-2026").exists() and Organisation.objects.exists()


def test_every_single_line_text_field_refuses_control_characters_and_a_textarea_keeps_its_lines():
    class Note(forms.Form):
        name = forms.CharField()
        email = forms.EmailField(required=False)
        note = forms.CharField(widget=forms.Textarea, required=False)

    assert Note({"name": "Ann Buyer", "note": "line one\nline two\ttabbed"}).is_valid()
    for bad in ("Ann\nBuyer", "Ann\x07", "Ann\x1b[31m", "Ann\x85Buyer", "Ann\u2029Buyer"):
        form = Note({"name": bad})
        assert not form.is_valid() and MESSAGE in form.errors["name"], repr(bad)
    assert not Note({"name": "Ann", "note": "bell\x07"}).is_valid()


def test_a_purchasers_name_with_a_line_break_is_refused_on_the_sales_page_and_nothing_is_sold(client, staff):  # R:T9
    draw = selling(staff, SalesChannel.ELECTRONIC)
    seller = UserFactory(username="sally")
    seller.groups.add(Group.objects.get(name=roles.SELLER))
    client.force_login(seller)
    response = client.post(
        reverse("sales_sell", args=[draw.pk]),
        once(
            {
                "purchaser_name": "Bo\nBuyer",
                "purchaser_contact": "bo@example.org",
                "tier": 3,
                "units": 1,
                "envelope_pick": 5,
                "device": "Tablet\x072",
            }
        ),
    )
    assert response.status_code == 200 and response.text.count("without control characters") == 2
    assert not Sale.objects.exists()


# --- files: a field over 128 KB, a jackpot past what can be recorded -----------------


def test_a_history_file_with_a_field_over_128_kb_is_refused_whole(staff):
    event = event_with_draw(actor=staff)
    text = f'{HEADER}\n1,2026-01-08,400.00,7,QD\n2,2026-01-15,400.00,8,"{HUGE_FIELD}"\n'
    with pytest.raises(ImportRefused, match="a field is longer than 131,072 characters"):
        services.history_import(actor=staff, licence=event.licence, text=text)
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()


def test_a_supplier_file_with_a_field_over_128_kb_is_refused_naming_the_file():  # R:D5
    content = f'draw_number,winning_ticket_number,drawn_at,rng_reference\n1,"{HUGE_FIELD}",x,y\n'.encode()
    with pytest.raises(RaffleError, match=r"result\.csv.*a field is longer than 131,072 characters"):
        list(read_rows(SupplierFile(name="result.csv", content=content), "result"))


def test_a_bank_statement_with_a_field_over_128_kb_is_refused_and_nothing_imported(staff):  # R:L12
    treasurer = user_with_role(roles.TREASURER, username="terry")
    event, _ = event_with_closed_draws(["500.00"], actor=treasurer)
    account = trust_account_for(event, actor=treasurer)
    text = f'date,description,amount,balance\n2026-01-09,"{HUGE_FIELD}",500.00,500.00\n'
    with pytest.raises(StatementRefused, match="a field is longer than 131,072 characters"):
        bank_statement_import(actor=treasurer, account=account, text=text)
    assert not BankStatement.objects.exists()


def test_an_import_that_would_overflow_the_jackpot_is_refused_with_a_clear_message(staff):  # R:P1 R:L3 R:P6
    """The jackpot can only grow from the seed and the 30% shares, both inside
    the prize board (#13): a huge opening jackpot is refused as not the seed,
    and huge sales stop at the prize board, before any figure overflows."""
    licence = LicenceFactory(issued_on=datetime.date(2025, 12, 1), prize_board=Decimal("9999999999.99"))
    event = event_with_draw(actor=staff, licence=licence)
    text = f"{HEADER}\n1,2026-01-08,9999999999.00,7,QD\n2,2026-01-15,9999999999.00,8,KD\n"
    with pytest.raises(ImportRefused, match=r"opening jackpot \$9,999,999,000.00 is not its seed jackpot"):
        services.history_import(actor=staff, licence=licence, text=text, opening_jackpot="9999999000.00")
    text += "3,2026-01-22,9999999999.00,9,JD\n"
    with pytest.raises(ImportRefused, match=r"row 4 \(draw 3\): Sales of .* past licence .*'s prize board"):
        services.history_import(actor=staff, licence=licence, text=text)
    assert Event.objects.get(pk=event.pk).jackpot == event.jackpot
    assert not Draw.objects.filter(event=event, state=DrawState.CLOSED).exists()


@pytest.mark.parametrize(
    ("column", "text"), [("purchaser_name", "Pat\rBuyer"), ("purchaser_address", "12 King\x07 St")]
)
def test_a_supplier_sales_file_with_control_characters_in_a_purchaser_is_refused_whole(staff, column, text):  # R:T9
    from tests.supplier_files import four_sales, sales_file, supplier_event

    event, draw = supplier_event(staff)
    rows = four_sales(draw)
    rows[0][column] = text  # the first line of order A-1
    with pytest.raises(RaffleError, match="control characters") as refused:
        services.supplier_draw_import(actor=staff, draw=draw, sales=sales_file(rows))
    assert (refused.value.line, refused.value.column) == (2, column)
    assert not Sale.objects.filter(draw=draw).exists()
