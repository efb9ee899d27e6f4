"""The Rules of Play's per-person maximum per draw and the excluded-persons
list, checked at every sale and in supplier imports."""

import pytest

from licensing.models import ExclusionReason, SalesChannel
from licensing.services import excluded_person_add
from raffle import services
from raffle.models import Sale
from raffle.rules_of_play import rules_of_play
from raffle.services.purchase_limits import PurchaseRefused
from raffle.services.supplier_formats import ImportRefused
from tests.factories import LicenceFactory, event_with_draw
from tests.supplier_files import four_sales, sale_row, sales_file, supplier_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def selling(staff_user):
    licence = LicenceFactory(sales_channel=SalesChannel.ONLINE)
    event = event_with_draw(actor=staff_user, licence=licence, max_tickets_per_person=4)
    return services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))


def _sell(staff_user, draw, tiers, name="Pat Buyer", contact="519-555-0100"):
    return services.ticket_sell(
        actor=staff_user,
        draw=draw,
        tier_quantity=tiers,
        purchaser_name=name,
        purchaser_contact=contact,
        envelope_pick=5,
    )


def test_per_person_maximum_counts_every_sale_of_the_draw(staff_user, selling):
    _sell(staff_user, selling, 3)
    _sell(staff_user, selling, 1, name="  pat   BUYER", contact="(519) 555-0100")  # the same person: 4
    with pytest.raises(
        PurchaseRefused, match="Rules of Play, per-person limit: one person may buy at most 4"
    ) as refused:
        _sell(staff_user, selling, 1, contact="1-519-555-0100")
    assert "would hold 5" in str(refused.value)
    _sell(staff_user, selling, 3, name="Pat Buyer", contact="pat@example.org")  # another contact: another person
    assert Sale.objects.filter(draw=selling).count() == 3


def test_excluded_person_cannot_buy(staff_user, selling):
    organisation = selling.event.licence.organisation
    excluded_person_add(
        actor=staff_user, organisation=organisation, full_name="Dana Board", reason=ExclusionReason.BOARD
    )
    excluded_person_add(
        actor=staff_user,
        organisation=organisation,
        full_name="Ray Household",
        contact="ray@example.org",
        reason=ExclusionReason.HOUSEHOLD,
    )
    with pytest.raises(PurchaseRefused, match="Rules of Play, excluded persons: dana board matches Dana Board"):
        _sell(staff_user, selling, 1, name="dana board")
    with pytest.raises(PurchaseRefused, match=r"household of an excluded person"):
        _sell(staff_user, selling, 1, name="R. Household", contact="RAY@example.org")
    assert not Sale.objects.exists()


def test_rules_of_play_state_the_limit_and_the_exclusions(staff_user, selling):
    text = " ".join(" ".join(s.paragraphs + s.items) for s in rules_of_play(selling.event)["sections"])
    assert "may buy at most 4 tickets for a draw, on every sales channel together" in text
    assert "the staff of the electronic raffle supplier, and the members of their households may not buy" in text


def test_import_refuses_an_excluded_purchaser_naming_the_line(staff_user):
    event, draw = supplier_event(staff_user)
    excluded_person_add(
        actor=staff_user,
        organisation=event.licence.organisation,
        full_name="Chris Staff",
        contact="519-555-0199",
        reason=ExclusionReason.SUPPLIER_STAFF,
    )
    rows = four_sales(draw)
    rows[4]["purchaser_phone"] = "519 555 0199"
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    assert (refused.value.line, refused.value.column) == (6, "purchaser_phone")
    assert "Rules of Play, excluded persons" in str(refused.value) and not Sale.objects.exists()


def test_import_refuses_a_person_over_the_maximum_naming_the_line(staff_user):
    event, draw = supplier_event(staff_user, max_tickets_per_person=2)
    rows = [sale_row(draw, f"C-{n}", str(300000 + n), name="Lee Chan") for n in range(1, 4)]
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    assert (refused.value.line, refused.value.column) == (4, "purchaser_name")
    assert "per-person limit: one person may buy at most 2 tickets for draw 1" in str(refused.value)
