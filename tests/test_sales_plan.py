"""The approved sales plan's maximum sales per draw (RULES L3), enforced like
the prize board on every channel, at the close of sales and in imports, with
the same plain message."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from core.models import AuditEntry
from licensing import services as licensing_services
from licensing.models import (
    AmendmentKind,
    ApplicantKind,
    Application,
    AuthorityKind,
    LicenceAmendment,
    SalesChannel,
)
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Sale, Ticket
from raffle.services.supplier_formats import ImportRefused
from tests.factories import LicenceFactory, event_with_draw, sell_tickets, without_approval
from tests.supplier_files import sale_row, sales_file

pytestmark = pytest.mark.django_db
D = Decimal
TODAY = timezone.localdate()
PLAN_MESSAGE = r"would pass licence {number}'s approved sales plan, which allows at most \$2,000.00 for this draw"


def with_sales_plan(licence, maxima):
    """The licence granted on an application whose sales plan approves these
    maximum sales for draws 1, 2, ... (L3)."""
    application = licensing_services.application_create(
        actor=None,
        organisation=licence.organisation,
        applicant_kind=ApplicantKind.RETURNING,
        authority_kind=licence.authority_kind,
        authority_name=licence.authority_name,
        sales_channel=licence.sales_channel,
        prize_board=licence.prize_board,
    )
    licensing_services.application_set_schedule(
        actor=None,
        application=application,
        draws=[(TODAY + datetime.timedelta(days=7 * n), amount) for n, amount in enumerate(maxima, start=1)],
    )
    Application.objects.filter(pk=application.pk).update(licence=licence)  # granted on this application
    return licence


def _planned_event(user, channel=SalesChannel.PAPER_ROLL, maxima=("2000", "3000")):
    licence = with_sales_plan(LicenceFactory(sales_channel=channel, prize_board=D("50000.00")), maxima)
    event = event_with_draw(actor=user, licence=licence, first_draw_at=timezone.now() + datetime.timedelta(hours=2))
    return event, services.draw_open_sales(actor=user, draw=event.draws.get(number=1))


@pytest.mark.parametrize(
    "channel", [SalesChannel.PAPER_ROLL, SalesChannel.PAPER_STUB, SalesChannel.ELECTRONIC, SalesChannel.ONLINE]
)
def test_a_sale_past_the_draws_approved_maximum_is_refused_on_every_channel(staff_user, channel):  # R:L3
    """The plan approves $2,000 of sales for draw 1. The sellers reach it
    exactly (a roll returned, stub sales or a device import); the next $5
    ticket is refused with the same message on every channel, and nothing of
    it is recorded."""
    event, draw = _planned_event(staff_user, channel)
    sell_tickets(draw, actor=staff_user, sales="2000")
    sales, tickets = Sale.objects.count(), Ticket.objects.count()
    audit = AuditEntry.objects.exclude(action="raffle.roll.issue").count()
    with pytest.raises(RaffleError, match=PLAN_MESSAGE.format(number=event.licence.number)) as refused:
        sell_tickets(draw, actor=staff_user, sales="5")
    assert refused.value.rule == "L3"
    assert "Sales of $2,005.00 in draw 1" in str(refused.value)
    assert (Sale.objects.count(), Ticket.objects.count()) == (sales, tickets)
    assert AuditEntry.objects.exclude(action="raffle.roll.issue").count() == audit
    assert Draw.objects.get(pk=draw.pk).sales_amount == D("2000.00")


def test_the_close_of_an_imported_draw_past_its_approved_maximum_is_refused(staff_user):  # R:L3
    """A draw brought in from another system closes on its recorded total;
    the plan's $2,000 holds there too."""
    event, draw = _planned_event(staff_user)
    Draw.objects.filter(pk=draw.pk).update(is_imported=True)
    with pytest.raises(RaffleError, match=PLAN_MESSAGE.format(number=event.licence.number)):
        services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="2000.01")
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SELLING
    assert services.draw_close_sales(actor=staff_user, draw=draw, ticket_sales="2000").ticket_sales == D("2000.00")


def test_the_suppliers_sales_file_past_the_approved_maximum_is_refused_whole(staff_user):  # R:L3 R:D5
    """The supplier's file for draw 1 sells 401 tickets at $5 ($2,005): the
    import is refused at its last line with the same message; nothing is kept."""
    licence = with_sales_plan(without_approval(prize_board=D("50000.00")), ["2000"])
    event = event_with_draw(
        actor=staff_user, licence=licence, first_draw_at=timezone.now() - datetime.timedelta(hours=1)
    )
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    rows = [sale_row(draw, f"A-{n}", str(100000 + n)) for n in range(1, 402)]
    with pytest.raises(ImportRefused) as refused:
        services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows))
    assert (refused.value.line, refused.value.column, refused.value.rule) == (402, "amount", "L3")
    assert "approved sales plan, which allows at most $2,000.00 for this draw" in str(refused.value)
    assert not Sale.objects.filter(draw=draw).exists()
    services.supplier_draw_import(actor=staff_user, draw=draw, sales=sales_file(rows[:400]))
    assert Draw.objects.get(pk=draw.pk).sales_amount == D("2000.00")


def test_a_draw_the_plan_does_not_list_sells_nothing(staff_user):  # R:L3
    """The plan approves one draw; draw 2 has no approved sales, so its first
    ticket is refused until the authority amends the plan."""
    licence = with_sales_plan(LicenceFactory(sales_channel=SalesChannel.PAPER_STUB), ["2000"])
    event = event_with_draw(
        actor=staff_user, licence=licence, first_draw_at=timezone.now() - datetime.timedelta(hours=1)
    )
    Draw.objects.filter(event=event, number=1).update(number=2)  # the event's first draw here is draw 2
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=2))
    with pytest.raises(RaffleError, match="Draw 2 is not in licence .*'s approved sales plan") as refused:
        sell_tickets(draw, actor=staff_user, sales="5")
    assert refused.value.rule == "L3"


def test_an_approved_amendment_of_the_sales_plan_takes_over_from_its_effective_date(staff_user):  # R:L3
    event, draw = _planned_event(staff_user, SalesChannel.PAPER_STUB)
    licence = event.licence
    amendment = LicenceAmendment.objects.create(
        licence=licence,
        kind=AmendmentKind.SCHEDULE,
        status="approved",
        notice_given_on=TODAY - datetime.timedelta(days=20),
        approved_on=TODAY - datetime.timedelta(days=1),
        effective_on=TODAY,
    )
    amendment.draws.create(number=1, draw_on=TODAY + datetime.timedelta(days=7), max_sales=D("2500.00"))
    sell_tickets(draw, actor=staff_user, sales="2500")
    with pytest.raises(RaffleError, match=r"allows at most \$2,500.00 for this draw"):
        sell_tickets(draw, actor=staff_user, sales="5")
    assert licence.authority_kind == AuthorityKind.AGCO
