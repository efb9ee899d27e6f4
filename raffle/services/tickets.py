"""Selling tickets on every channel: rolls and books issued to sellers, stub
and electronic sales with tiers and envelope picks, bulk issue, voids and
printing.

Every sale locks its draw (`select_for_update`), so concurrent sellers are
serialised per draw: each gets the next dense `seq` and no sale is lost. The
serial's uniqueness across the licence is the database's job (T3); the
services check first so the volunteer gets a clear message.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.text import ascii_digits
from licensing.models import SalesChannel
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Sale, Ticket, TicketRoll
from raffle.notifications import receipt_after_commit
from raffle.services.pool import draw_sales_channel, normalise_serial, pending_amendment
from raffle.services.sale_path import (
    SaleLine,
    prepare_sales,
    selling_draw,
)
from raffle.services.sale_record import audit_sales, check_bingo_sale, refuse_before_amendment
from raffle.services.sale_write import void_totals, write_sales


@transaction.atomic
def ticket_sell(
    *,
    actor,
    draw: Draw,
    tier_quantity,
    units=1,
    purchaser_name: str = "",
    purchaser_contact: str = "",
    envelope_pick=None,
    device: str = "",
    serials: list | None = None,
    place: str = "",
) -> Sale:
    """Sell one tier (e.g. 3 for $10, `units` times) on the licence's channel.

    Electronic and online: serials are generated, the device is recorded (T11).
    Paper stub: the stub serials are typed and must lie in a book issued for
    this draw. Stub and electronic: purchaser and envelope pick (T9). A bingo
    revenue model event sells stubs inside its hall only (`place`, when the
    seller gives it, must be that hall; T12).
    """
    draw = selling_draw(draw)
    # R:L5 a draw before an approved amendment's effective day still sells on the
    # channel it replaced (stub serials typed); its electronic sales are refused,
    # a bingo event's as electronic sales first (T12).
    pending = pending_amendment(draw)
    channel = draw_sales_channel(draw)
    attempted = pending.to_channel if pending and not serials else channel
    bingo = check_bingo_sale(draw, channel=attempted, place=place)
    if pending and not serials:
        refuse_before_amendment(draw, pending)
    if channel == SalesChannel.PAPER_ROLL:
        raise RaffleError(
            gettext(
                "Roll tickets are recorded when the seller returns the roll (the sold part of the serial "
                "range), not one by one."
            )
        )
    paper = channel == SalesChannel.PAPER_STUB
    if paper:
        if not serials:
            raise RaffleError(gettext("Type the serial number of each stub sold."))
        serials = [normalise_serial(s) for s in serials]
        _check_in_issued_books(draw, serials)
    else:
        serials = None
        if channel == SalesChannel.ELECTRONIC and not device.strip():  # R:T11
            raise RaffleError(gettext("Name the point-of-sale device (or seller) that issues this ticket."), rule="T11")
    line = SaleLine(
        tier_quantity=tier_quantity,
        units=units,
        serials=serials,
        purchaser_name=purchaser_name,
        purchaser_contact=purchaser_contact,
        envelope_pick=envelope_pick,
        device=device,
    )
    batch = prepare_sales(actor=actor, draw=draw, channel=channel, lines=[line], needs_purchaser=True)
    [serials] = write_sales(batch)
    [sale] = batch.sales
    audit_sales(
        actor=actor,
        draw=draw,
        sales=[sale],
        action="raffle.ticket.sell",
        data={"serials": serials, **bingo},
        locked_head=batch.locked_head,
    )
    receipt_after_commit(sale)  # e-mailed once the sale commits, never inside it
    return sale


def ticket_sell_in_transaction(**sale) -> Sale:
    """`ticket_sell` in a transaction its caller opened and rolls back whole
    on any error (the sales page's `core.once.submission_once`): the same sale
    without a savepoint of its own, which nothing would roll back to (two
    statements less per sale, one of them under the draw's lock; #18)."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("ticket_sell_in_transaction needs its caller's transaction; call ticket_sell.")
    return ticket_sell.__wrapped__(**sale)  # the function under @transaction.atomic


def _check_in_issued_books(draw: Draw, serials: list[str]) -> None:
    books = list(TicketRoll.objects.filter(draw=draw).values_list("first_serial", "last_serial", "lost_at"))
    for serial in serials:
        number = int(serial) if ascii_digits(serial) else None
        lost = [at for first, last, at in books if at is not None and number is not None and first <= number <= last]
        if lost:  # R:T7 a book declared lost: its unsold stubs are void
            raise RaffleError(
                gettext("Serial %(serial)s is in a book declared lost: its unsold stubs are void and cannot be sold.")
                % {"serial": serial},
                rule="T7",
            )
        if number is None or not any(first <= number <= last for first, last, _ in books):
            raise RaffleError(
                gettext(
                    "Serial %(serial)s is not in any book issued for draw %(number)s; check the stub, or issue "
                    "its book first."
                )
                % {"serial": serial, "number": draw.number},
                rule="T7",
            )


@transaction.atomic
def tickets_import(*, actor, draw: Draw, device: str, lines: list[SaleLine]) -> list[Sale]:
    """Bulk issue from an electronic sales device's export: every line is a
    sale with its purchaser and envelope pick; serials are generated."""
    draw = selling_draw(draw)
    channel = draw_sales_channel(draw)
    pending = pending_amendment(draw)
    check_bingo_sale(draw, channel=pending.to_channel if pending else channel)  # R:T12 an electronic import
    if pending:  # R:L5 electronic sales only for draws from the effective day
        refuse_before_amendment(draw, pending)
    if channel not in (SalesChannel.ELECTRONIC, SalesChannel.ONLINE):
        raise RaffleError(gettext("Only electronic or online sales are imported from a device."), rule="L5")
    if not device.strip():
        raise RaffleError(gettext("Name the device the sales come from."), rule="T11")
    for line in lines:
        line.device, line.serials = device, None
    batch = prepare_sales(actor=actor, draw=draw, channel=channel, lines=lines, needs_purchaser=True)
    write_sales(batch)
    sales = batch.sales
    audit_sales(actor=actor, draw=draw, sales=sales, action="raffle.ticket.import", data={"device": device})
    return sales


@transaction.atomic
def sale_void(*, actor, sale: Sale, reason: str) -> Sale:
    """R:T11 a void is recorded with its reason, never deleted; void tickets
    neither count in the sales nor win."""
    draw = Draw.objects.select_for_update().get(pk=sale.draw_id)
    sale = Sale.objects.select_for_update().get(pk=sale.pk)
    reason = (reason or "").strip()
    if not reason:
        raise RaffleError(gettext("Give the reason for the void (e.g. 'wrong tier entered')."), rule="T11")
    if sale.is_void:
        raise RaffleError(gettext("Sale %(pk)s is already void.") % {"pk": sale.pk}, rule="T11")
    if draw.state != DrawState.SELLING:
        raise RaffleError(
            gettext("Sales for draw %(number)s are closed and its pool is fixed; a sale can no longer be voided.")
            % {"number": draw.number},
            rule="T11",
        )
    sale.voided_at, sale.voided_by, sale.void_reason = timezone.now(), actor, reason[:300]
    sale.save(update_fields=["voided_at", "voided_by", "void_reason"])
    Ticket.objects.of_sale(sale).update(is_void=True)
    void_totals(draw=draw, sale=sale)
    audit_record(
        actor=actor,
        action="raffle.ticket.void",
        obj=sale,
        data={
            "draw": draw.number,
            "serials": list(Ticket.objects.of_sale(sale).order_by("pk").values_list("serial", flat=True)[:100]),
            "amount": sale.amount,
            "reason": sale.void_reason,
        },
    )
    return sale


@transaction.atomic
def sale_print(*, actor, sale: Sale) -> tuple[Sale, bool]:
    """Count a print of the sale's ticket; every print after the first is a
    REPRINT (T11). Returns the sale and whether this print is a reprint."""
    sale = Sale.objects.select_for_update().get(pk=sale.pk)
    if sale.is_void:
        raise RaffleError(gettext("Sale %(pk)s is void; a void ticket is not printed.") % {"pk": sale.pk}, rule="T11")
    reprint = sale.print_count > 0
    sale.print_count += 1
    sale.save(update_fields=["print_count"])
    audit_record(
        actor=actor,
        action="raffle.ticket.reprint" if reprint else "raffle.ticket.print",
        obj=sale,
        data={"print": sale.print_count},
    )
    return sale, reprint
