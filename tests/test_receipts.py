"""#16 e-mailed receipts: a buyer who leaves an e-mail address with a stub or
electronic sale gets the receipt of their tickets, sent by Django's tasks
framework once the sale has committed, so a slow mail server never slows a
sale and a refused sale never sends one."""

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import override_settings
from django.utils import translation
from django_tasks_db.models import DBTaskResult

from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.models import DrawState
from raffle.notifications import email_address
from tests.factories import LicenceFactory, event_with_draw, run_draw

pytestmark = pytest.mark.django_db

DATABASE_QUEUE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture
def selling_draw(staff_user):
    licence = LicenceFactory(sales_channel=SalesChannel.ELECTRONIC)
    event = event_with_draw(actor=staff_user, licence=licence, price_tiers=[(1, "5.00"), (3, "10.00")])
    return services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))


def sell(draw, actor, contact: str, **kwargs):
    return services.ticket_sell(
        actor=actor,
        draw=draw,
        tier_quantity=kwargs.pop("tier_quantity", 3),
        purchaser_name="Ann Buyer",
        purchaser_contact=contact,
        envelope_pick=12,
        device="Hall tablet 2",
        **kwargs,
    )


def test_a_buyer_with_an_e_mail_address_gets_the_receipt_of_their_tickets(
    selling_draw, staff_user, django_capture_on_commit_callbacks
):  # R:T9 R:T10
    with django_capture_on_commit_callbacks(execute=True):
        sale = sell(selling_draw, staff_user, "ann@example.org")
    [receipt] = mail.outbox
    serials = list(sale.tickets.order_by("seq").values_list("serial", flat=True))
    assert receipt.to == ["ann@example.org"]
    assert receipt.subject == f"Your tickets for {selling_draw.event.name}, draw 1"
    assert f"{serials[0]} – {serials[-1]} (3)" in receipt.body
    assert "3 for $10.00: $10.00" in receipt.body and "Envelope picked: 12" in receipt.body
    assert "Eligible for draw 1 only." in receipt.body
    assert f"Licence {selling_draw.event.licence.number}" in receipt.body
    assert "ConnexOntario 1-866-531-2600" in receipt.body  # T10: the helpline on everything a buyer holds


def test_a_phone_number_gets_no_e_mail(selling_draw, staff_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sell(selling_draw, staff_user, "519-555-0101")
    assert mail.outbox == []
    assert email_address("519-555-0101") == "" and email_address(" ann@example.org ") == "ann@example.org"


def test_a_refused_sale_sends_nothing(selling_draw, staff_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(RaffleError):
        sell(selling_draw, staff_user, "ann@example.org", tier_quantity=7)  # no "7 for" tier
    assert callbacks == [] and mail.outbox == []


def test_a_buyer_served_in_french_gets_the_receipt_in_french(
    selling_draw, staff_user, django_capture_on_commit_callbacks
):  # R:R4
    with translation.override("fr"), django_capture_on_commit_callbacks(execute=True):
        sell(selling_draw, staff_user, "ann@example.org")
    [receipt] = mail.outbox
    assert receipt.subject.startswith("Vos billets pour")
    assert "3 pour 10,00\u00a0$" in receipt.body and "Enveloppe choisie : 12" in receipt.body  # no-break spaces
    assert "Aide pour le jeu problématique" in receipt.body


# The worker closes and reopens its database connection, as a separate process would.
@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE_QUEUE)
def test_in_production_the_sale_only_queues_the_receipt_and_the_worker_sends_it(selling_draw, staff_user):
    """The sale commits, its receipt waits in the queue, and the mail server is
    not touched until `manage.py db_worker` picks the task up."""
    sale = sell(selling_draw, staff_user, "ann@example.org")
    assert mail.outbox == []
    [queued] = DBTaskResult.objects.all()
    assert queued.status == "READY" and queued.args_kwargs["args"][0] == sale.pk
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert DBTaskResult.objects.get().status == "SUCCESSFUL"


@pytest.mark.django_db(transaction=True)
@override_settings(TASKS=DATABASE_QUEUE)
def test_a_sale_voided_before_its_receipt_went_out_sends_nothing(selling_draw, staff_user):
    sale = sell(selling_draw, staff_user, "ann@example.org")
    services.sale_void(actor=staff_user, sale=sale, reason="wrong tier entered")
    call_command("db_worker", batch=True, no_startup_delay=True, verbosity=0)
    assert mail.outbox == []


# --- The notice to the winner ---------------------------------------------------------------------


def test_the_holder_of_the_winning_ticket_is_told_by_e_mail(
    selling_draw, staff_user, django_capture_on_commit_callbacks
):  # R:D2 R:T9
    """An electronic raffle's only buyer left an e-mail address; when the RNG
    draws their ticket they get a notice naming the ticket, the draw and the
    envelope they picked, sent once the drawing commits."""
    with django_capture_on_commit_callbacks(execute=True):
        sell(selling_draw, staff_user, "ann@example.org")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        draw = run_draw(selling_draw, actor=staff_user, sales="0", until=DrawState.TICKET_DRAWN)
    [notice] = mail.outbox
    assert notice.to == ["ann@example.org"]
    assert notice.subject == f"Your ticket {draw.winning_serial} won draw 1 of {draw.event.name}"
    assert "The envelope you picked on your ticket, number 12, is opened for you" in notice.body
    assert "will contact you about your prize" in notice.body and "ConnexOntario" in notice.body


def test_a_winner_reached_only_by_phone_gets_no_e_mail(selling_draw, staff_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        sell(selling_draw, staff_user, "519-555-0101")
        run_draw(selling_draw, actor=staff_user, sales="0", until=DrawState.TICKET_DRAWN)
    assert mail.outbox == []
