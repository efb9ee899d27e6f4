"""The electronic raffle supplier on the licence (RULES D5, E4): named in the
Rules of Play, tickets and reports; this software's own RNG and electronic
deck only under the approval the licence records."""

import datetime

import pytest

from core.models import AuditEntry
from core.pdf import pdf_text, render_pdf
from licensing.errors import LicensingError
from licensing.models import SalesChannel
from licensing.services import licence_record_supplier
from raffle import services
from raffle.errors import RaffleError
from raffle.models import DrawState, SelectionMethod, WinnerSelection
from raffle.rules_of_play import HELPLINE, rules_of_play
from raffle.services.pool import draws_by_rng, draws_by_supplier
from tests.factories import LicenceFactory, event_with_draw, name_members_in_charge, sell_tickets, without_approval

pytestmark = pytest.mark.django_db


def _rules_text(event) -> str:
    return " ".join(" ".join(s.paragraphs + s.items) for s in rules_of_play(event)["sections"])


def _announced_supplier_draw(staff_user, **licence_kwargs):
    event = event_with_draw(actor=staff_user, licence=without_approval(**licence_kwargs))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    sell_tickets(draw, actor=staff_user, sales="20.00")
    name_members_in_charge(draw, actor=staff_user)  # R:L13 named before sales close
    draw = services.draw_close_sales(actor=staff_user, draw=draw)
    return services.draw_announce(actor=staff_user, draw=draw)


def test_electronic_licence_without_approval_cannot_deal_an_electronic_deck(staff_user):  # R:E4
    with pytest.raises(RaffleError, match="no approval of this software's electronic deck") as refused:
        event_with_draw(actor=staff_user, licence=without_approval(), deck_kind="electronic")
    assert refused.value.rule == "E4"


def test_electronic_licence_with_approval_deals_an_electronic_deck(staff_user):  # R:E4
    event = event_with_draw(
        actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ONLINE), deck_kind="electronic"
    )
    assert event.envelopes.exclude(card="").count() == 52


def test_electronic_draw_without_approval_does_not_use_the_built_in_rng(staff_user):  # R:D5
    draw = _announced_supplier_draw(staff_user)
    assert not draws_by_rng(draw) and draws_by_supplier(draw)
    # Without the supplier's ticket and reference nothing is drawn: this software never picks one.
    with pytest.raises(RaffleError, match="supplier system's reference"):
        services.draw_record_winning_ticket(actor=staff_user, draw=draw)
    assert not WinnerSelection.objects.filter(draw=draw).exists()
    assert draw.__class__.objects.get(pk=draw.pk).state == DrawState.ANNOUNCED


def test_supplier_winner_typed_twice_with_its_rng_reference_is_recorded(staff_user):  # R:D5
    draw = _announced_supplier_draw(staff_user)
    serial = draw.tickets.order_by("seq").values_list("serial", flat=True)[2]
    draw = services.draw_record_winning_ticket(
        actor=staff_user, draw=draw, serial=serial, serial_again=serial, rng_reference="RC-DRAW-88121"
    )
    selection = WinnerSelection.objects.get(draw=draw)
    assert (draw.state, draw.winning_serial) == (DrawState.TICKET_DRAWN, serial)
    assert (selection.method, selection.rng_reference, selection.rng_picks) == (
        SelectionMethod.SUPPLIER,
        "RC-DRAW-88121",
        [],
    )
    entry = AuditEntry.objects.filter(action="raffle.draw.draw_ticket").latest("id")
    assert entry.data["rng_reference"] == "RC-DRAW-88121"


def test_approved_licence_still_draws_with_the_built_in_rng(staff_user):  # R:D5
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ONLINE))
    draw = event.draws.get(number=1)
    assert draws_by_rng(draw) and not draws_by_supplier(draw)


def test_rules_of_play_name_the_supplier_and_never_call_this_system_registered(staff_user):  # R:D5
    event = event_with_draw(actor=staff_user, licence=without_approval())
    text = _rules_text(event)
    assert "RaffleCloud version 5.1" in text
    assert (
        "Northern Raffle Systems Inc., a gaming supplier registered with the AGCO (registration AGCO-GS-0042)" in text
    )
    assert "the one that system draws with its cryptographic random number generator" in text
    assert "registered gaming system" not in text
    # "registered" appears only about the supplier.
    assert text.count("registered") == text.count("a gaming supplier registered with the AGCO")
    assert "approval" not in text.lower()
    assert HELPLINE in text


def test_rules_of_play_of_an_approved_licence_name_the_approval(staff_user):  # R:D5
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    text = _rules_text(event)
    assert "Under approval AGCO approval EL-2026-117 of" in text
    assert "registered gaming system" not in text


def test_selling_is_refused_until_the_supplier_is_recorded(staff_user):  # R:D5
    licence = without_approval(supplier_name="", supplier_registration_number="")
    event = event_with_draw(actor=staff_user, licence=licence)
    assert "NOT YET STATED: the AGCO-registered supplier" in _rules_text(event)
    with pytest.raises(RaffleError, match="record its AGCO-registered supplier") as refused:
        services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    assert refused.value.rule == "D5"
    licence_record_supplier(
        actor=staff_user,
        licence=licence,
        supplier_name="Lakeside Gaming Ltd.",
        supplier_registration_number="GS-7",
        supplier_system_name="TicketLoop",
        supplier_system_version="2.0",
    )
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    assert draw.state == DrawState.SELLING
    assert AuditEntry.objects.filter(action="licensing.licence.record_supplier").count() == 1


def test_supplier_record_needs_every_field_and_an_approval_with_its_date(staff_user):  # R:D5
    licence = without_approval()
    details = dict(
        supplier_name="Lakeside Gaming Ltd.",
        supplier_registration_number="",
        supplier_system_name="TicketLoop",
        supplier_system_version="2.0",
    )
    with pytest.raises(LicensingError, match="missing: supplier registration number"):
        licence_record_supplier(actor=staff_user, licence=licence, **details)
    details["supplier_registration_number"] = "GS-7"
    with pytest.raises(LicensingError, match="reference and its date"):
        licence_record_supplier(actor=staff_user, licence=licence, system_approval_reference="X-1", **details)
    licence = licence_record_supplier(
        actor=staff_user,
        licence=licence,
        system_approval_reference="X-1",
        system_approval_on=datetime.date(2026, 11, 2),
        **details,
    )
    assert licence.has_system_approval


def test_ticket_and_report_name_the_supplier(staff_user):  # R:D5
    event = event_with_draw(actor=staff_user, licence=without_approval())
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    [sale] = sell_tickets(draw, actor=staff_user, sales="5.00")
    pdf = render_pdf(
        "pdf/ticket.html",
        {"sale": sale, "serials": ["E001"], "helpline": HELPLINE, "draw": draw, "event": event, "reprint": False},
    )
    text = "".join(pdf_text(pdf).split())  # the PDF wraps lines where it likes
    assert "RaffleCloud5.1ofNorthernRaffleSystemsInc.(AGCOregistrationAGCO-GS-0042)" in text
