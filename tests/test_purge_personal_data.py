"""`manage.py purge_personal_data --before YYYY-MM-DD [--dry-run]`: purchasers'
details are kept for the four-year retention period (RULES L14) and then
blanked, keeping every figure and recording an audit entry."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale, Ticket
from raffle.services.retention import retention_start
from tests.factories import LicenceFactory, event_with_draw, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def sales(staff_user):
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    made = [
        services.ticket_sell(
            actor=staff_user,
            draw=draw,
            tier_quantity=3,
            purchaser_name=f"Buyer {n}",
            purchaser_contact=f"519-555-010{n}",
            envelope_pick=1 + n,
            device="POS-1",
        )
        for n in range(3)
    ]
    five_years_ago = timezone.now() - datetime.timedelta(days=5 * 366)
    Sale.objects.filter(pk__in=[made[0].pk, made[1].pk]).update(sold_at=five_years_ago)
    return made


def run(*args):
    out = io.StringIO()
    call_command("purge_personal_data", *args, stdout=out)
    return out.getvalue()


def charity(made) -> str:
    return made[0].draw.event.licence.organisation.name


def test_the_dry_run_says_what_would_be_blanked_and_changes_nothing(sales):  # R:L14
    entries = AuditEntry.objects.count()
    before = retention_start(timezone.localdate()).isoformat()
    out = run("--before", before, "--dry-run", "--organisation", charity(sales))
    assert "2 sale(s) made before" in out and "would be blanked" in out
    assert Sale.objects.exclude(purchaser_name="").count() == 3
    assert AuditEntry.objects.count() == entries


def test_contacts_of_sales_older_than_four_years_are_blanked_and_the_figures_kept(sales):  # R:L14
    figures = list(Sale.objects.order_by("pk").values_list("amount", "ticket_count", "envelope_pick", "draw_id"))
    serials = list(Ticket.objects.order_by("pk").values_list("serial", flat=True))
    before = retention_start(timezone.localdate()).isoformat()
    out = run("--before", before, "--organisation", charity(sales))
    assert "2 sale(s) made before" in out and "blanked" in out
    old, kept = Sale.objects.get(pk=sales[0].pk), Sale.objects.get(pk=sales[2].pk)
    assert (old.purchaser_name, old.purchaser_contact, old.purchaser_address) == ("", "", "")
    assert (kept.purchaser_name, kept.purchaser_contact) == ("Buyer 2", "519-555-0102")
    assert (
        list(Sale.objects.order_by("pk").values_list("amount", "ticket_count", "envelope_pick", "draw_id")) == figures
    )
    assert list(Ticket.objects.order_by("pk").values_list("serial", flat=True)) == serials
    entry = AuditEntry.objects.get(action="raffle.sale.personal_data_purged")
    assert entry.data["sales"] == 2 and entry.data["before"] == before and entry.actor_label == "system"
    assert entry.chain == sales[0].draw.event.licence.organisation_id
    assert "0 sale(s)" in run("--before", before, "--organisation", charity(sales))  # a second run finds nothing left


def test_a_date_inside_the_four_year_retention_period_is_refused(sales):  # R:L14
    keep_from = retention_start(timezone.localdate())
    with pytest.raises(CommandError, match=f"within the 4-year retention period.*{keep_from:%Y-%m-%d} or earlier"):
        run("--before", (keep_from + datetime.timedelta(days=1)).isoformat(), "--organisation", charity(sales))
    with pytest.raises(CommandError, match="not a date"):
        run("--before", "last year", "--organisation", charity(sales))
    assert Sale.objects.exclude(purchaser_name="").count() == 3


def test_the_retention_period_is_four_calendar_years():  # R:L14
    assert retention_start(datetime.date(2028, 2, 29)) == datetime.date(2024, 2, 29)
    assert retention_start(datetime.date(2104, 2, 29)) == datetime.date(2100, 2, 28)  # 2100 is no leap year
    assert retention_start(datetime.date(2029, 3, 1)) == datetime.date(2025, 3, 1)
    assert retention_start(datetime.date(2030, 2, 28)) == datetime.date(2026, 2, 28)


def _old_sale_of_another_charity(staff_user):
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    sale = services.ticket_sell(
        actor=staff_user,
        draw=draw,
        tier_quantity=3,
        purchaser_name="Hospice Buyer",
        purchaser_contact="613-555-0199",
        envelope_pick=9,
        device="POS-9",
    )
    Sale.objects.filter(pk=sale.pk).update(sold_at=timezone.now() - datetime.timedelta(days=5 * 366))
    return sale


def test_an_administrator_purges_only_the_organisations_they_administer(sales, staff_user):  # R:L14
    """#15 the purge acts per organisation: another charity's purchasers are left to its own administrator."""
    theirs = _old_sale_of_another_charity(staff_user)
    ours = sales[0].draw.event.licence.organisation
    administrator = user_with_role(roles.ADMINISTRATOR, organisation=ours, username="lee")
    before = retention_start(timezone.localdate()).isoformat()
    out = run("--before", before, "--as", "lee")
    assert f"{ours.name}: 2 sale(s) blanked" in out and theirs.licence.organisation.name not in out
    assert Sale.objects.get(pk=sales[0].pk).purchaser_contact == ""
    assert Sale.objects.get(pk=theirs.pk).purchaser_contact == "613-555-0199"  # the other charity's, untouched
    (entry,) = AuditEntry.objects.filter(action="raffle.sale.personal_data_purged")
    assert entry.actor == administrator and entry.chain == ours.pk and entry.data["sales"] == 2


def test_the_purge_names_whose_sales_and_refuses_anyone_else(sales):  # R:L14
    before = retention_start(timezone.localdate()).isoformat()
    user_with_role(roles.TREASURER, organisation=sales[0].draw.event.licence.organisation, username="pat")
    with pytest.raises(CommandError, match="pat administers no organisation"):
        run("--before", before, "--as", "pat")
    with pytest.raises(CommandError, match="No organisation is named 'Nowhere'"):
        run("--before", before, "--organisation", "Nowhere")
    with pytest.raises(CommandError, match="--organisation"):
        run("--before", before)  # one of --organisation or --as
    assert Sale.objects.exclude(purchaser_contact="").count() == 3
