"""E-mails to ticket buyers, sent by Django's tasks framework after the sale
commits, never inside it: a slow or broken mail server can neither slow a
sale nor undo one (config/settings.py TASKS; docs/deploy.md for the worker).

- a receipt for every stub or electronic sale whose contact is an e-mail
  address (T9: those sales record the purchaser);
- a notice to the holder of the winning ticket, on the same conditions;
- nothing for a phone number, a paper roll (its buyers are not recorded) or
  a refused sale (the task is queued only when the sale commits).

Each e-mail is written in the language of the page the sale was made on."""

import logging
from functools import partial

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import transaction
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from licensing.models import SalesChannel
from raffle.models import Sale, Ticket
from raffle.rules_of_play import HELPLINE
from raffle.selectors.sales import sale_serial_ranges

logger = logging.getLogger(__name__)

# Channels whose sales record who bought (T9); roll tickets carry no name.
RECEIPT_CHANNELS = {SalesChannel.PAPER_STUB, SalesChannel.ELECTRONIC}


def email_address(contact: str) -> str:
    """The contact if it is an e-mail address, else "" (phone numbers stay unsent)."""
    contact = (contact or "").strip()
    if "@" not in contact:  # a phone number: refused by the validator too, without its exception
        return ""
    try:
        validate_email(contact)
    except ValidationError:
        return ""
    return contact


def receipt_after_commit(sale: Sale) -> bool:
    """Queue the sale's e-mailed receipt for when the surrounding transaction
    commits. Returns whether one will be sent."""
    if sale.channel not in RECEIPT_CHANNELS or not email_address(sale.purchaser_contact):
        return False
    language = translation.get_language() or settings.LANGUAGE_CODE
    transaction.on_commit(partial(send_sale_receipt.enqueue, sale.pk, language))
    return True


def winner_notice_after_commit(ticket) -> bool:
    """Queue the notice to the winning ticket's holder for when the drawing
    commits. Returns whether one will be sent."""
    sale = ticket.sale
    if sale.channel not in RECEIPT_CHANNELS or not email_address(sale.purchaser_contact):
        return False
    language = translation.get_language() or settings.LANGUAGE_CODE
    transaction.on_commit(partial(send_winner_notice.enqueue, ticket.pk, language))
    return True


def _public_url(path: str) -> str:
    base = getattr(settings, "PUBLIC_BASE_URL", "")
    return f"{base.rstrip('/')}{path}" if base else ""


@task()
def send_sale_receipt(sale_id: int, language: str) -> int:
    """E-mail one sale's receipt: its serials, draw, price and envelope pick,
    the helpline and where results are published. Returns the e-mails sent."""
    sale = Sale.objects.select_related("draw__event__licence__organisation", "tier").filter(pk=sale_id).first()
    if sale is None or sale.voided_at is not None:
        return 0
    address = email_address(sale.purchaser_contact)
    if not address:
        return 0
    event = sale.draw.event
    with translation.override(language):
        context = {
            "sale": sale,
            "draw": sale.draw,
            "event": event,
            "licence": event.licence,
            "ranges": sale_serial_ranges(sale),
            "results_url": _public_url(reverse("public_results", args=[event.pk])),
            "helpline": HELPLINE,
        }
        subject = _("Your tickets for %(event)s, draw %(number)s") % {"event": event.name, "number": sale.draw.number}
        body = render_to_string("email/sale_receipt.txt", context)
    sent = send_mail(subject, body, None, [address])
    logger.info("receipt of sale %s e-mailed (%s)", sale_id, sent)
    return sent


@task()
def send_winner_notice(ticket_id: int, language: str) -> int:
    """Tell the holder their ticket was drawn: which draw, the envelope they
    picked, and that the organisation will contact them about the prize.
    Nothing when the ticket is no longer the draw's winning ticket."""
    ticket = Ticket.objects.select_related("sale", "draw__event__licence__organisation").filter(pk=ticket_id).first()
    if ticket is None or ticket.draw.winning_serial != ticket.serial:
        return 0
    address = email_address(ticket.sale.purchaser_contact)
    if not address:
        return 0
    draw, event = ticket.draw, ticket.draw.event
    with translation.override(language):
        context = {
            "ticket": ticket,
            "sale": ticket.sale,
            "draw": draw,
            "event": event,
            "licence": event.licence,
            "results_url": _public_url(reverse("public_results", args=[event.pk])),
            "helpline": HELPLINE,
        }
        subject = _("Your ticket %(serial)s won draw %(number)s of %(event)s") % {
            "serial": ticket.serial,
            "number": draw.number,
            "event": event.name,
        }
        body = render_to_string("email/winner_notice.txt", context)
    return send_mail(subject, body, None, [address])
