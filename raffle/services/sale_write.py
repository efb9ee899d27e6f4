"""The second half of the sale path (raffle.services.sale_path): writing
a priced and checked batch under the draw's lock (`write_sales`), and moving
a voided sale's totals (`void_totals`). See sale_path's docstring for the
whole path and docs/architecture.md, "Selling at volume"."""

from collections.abc import Sequence
from decimal import Decimal

from django.db import IntegrityError, connection
from django.db.models import F
from django.utils.translation import gettext

from core.audit_chain import chain_of
from core.prepared import prepared_cursor
from core.rows import insert_one
from raffle.errors import RaffleError
from raffle.models import Draw, DrawState, Sale, TicketRoll
from raffle.services.prize_board import prize_board_check, sales_plan_check
from raffle.services.sale_path import SaleBatch, check_selling
from raffle.services.ticket_rows import DrawStoppedSelling, sell_one_in_one_statement, write_tickets

# The draw's lock: its running totals moved, if it still sells (#18).
TAKE_SEQ_SQL = (
    "UPDATE raffle_draw SET sales_amount = sales_amount + %s, sales_valid = sales_valid + %s, "
    "tickets_valid = tickets_valid + %s WHERE id = %s AND state = %s"
)


def _take_seq_statement(batch: SaleBatch) -> tuple[str, list]:
    return TAKE_SEQ_SQL, [batch.amount, len(batch.sales), batch.tickets, batch.draw.pk, DrawState.SELLING]


def _take_seq(batch: SaleBatch) -> tuple[int, Decimal]:
    """Lock the draw by moving its running totals, if it still sells. Returns
    the last seq taken before this batch and the draw's valid sales after it."""
    draw, tickets, amount = batch.draw, batch.tickets, batch.amount
    if connection.vendor == "postgresql":
        sql, params = _take_seq_statement(batch)
        with prepared_cursor() as cursor:
            cursor.execute(f"{sql} RETURNING tickets_valid + tickets_void, sales_amount", params)
            row = cursor.fetchone()
    else:  # SQLite (the demo) locks the whole database for the write anyway
        row = None
        if Draw.objects.filter(pk=draw.pk, state=DrawState.SELLING).update(
            sales_amount=F("sales_amount") + amount,
            sales_valid=F("sales_valid") + len(batch.sales),
            tickets_valid=F("tickets_valid") + tickets,
        ):
            fresh = Draw.objects.get(pk=draw.pk)
            row = (fresh.last_seq, fresh.sales_amount)
    if row is None:
        _stopped_selling(draw)
    return row[0] - tickets, row[1]


def _stopped_selling(draw: Draw):
    """The draw stopped selling since it was read: say why."""
    fresh = Draw.objects.select_related("event").get(pk=draw.pk)
    check_selling(fresh)
    raise RaffleError(gettext("Sales for draw %(number)s are closed.") % {"number": fresh.number}, rule="T4")


def write_sales(batch: SaleBatch) -> list[Sequence[str] | range]:
    """Under the draw's lock: take the seq numbers and move the totals, check
    the prize board (L3), insert the sales and their tickets. Returns each
    sale's serials. Runs inside the service's transaction: one sale at the
    counter is written by the same statement that takes the lock, and the
    checks follow it, so a refusal rolls the sale back with the transaction."""
    try:
        with connection.wrap_database_errors:  # psycopg's own errors from COPY, as Django's
            one = _write_one_sale(batch)
            if one is not None:
                sold, serials_out = one
                _check_prizes(batch, sold)  # after its write: a refusal rolls it back with the transaction
            else:
                seq, sold = _take_seq(batch)
                _check_prizes(batch, sold)
                serials_out = _number_and_insert(batch, seq)
    except IntegrityError as error:  # R:T3 the serial index caught a serial sold at the same moment
        diag = getattr(error.__cause__, "diag", None)
        if diag is not None and diag.constraint_name != SERIAL_INDEX:
            raise  # another constraint: not a serial sold twice, not this message's to explain
        raise RaffleError(
            gettext(
                "%(serial)s is already sold under this licence: someone else sold it at the same moment; "
                "nothing was recorded. Check the serials and sell again."
            )
            % {"serial": _refused_serial(diag) or gettext("One of these serials")},
            rule="T3",
        ) from None
    return serials_out


# T3's unique index (raffle.models.ticket), keyed (licence, length(serial), serial).
SERIAL_INDEX = "ticket_serial_unique_per_licence"


def _refused_serial(diag) -> str | None:
    """The serial in PostgreSQL's detail of the serial index's refusal:
    'Key (licence_id, length(serial::text), serial)=(1, 4, 5001) already
    exists.' The serial is the last of the three values (it may hold commas)."""
    detail = (getattr(diag, "message_detail", None) or "").partition(")=(")[2]
    values = detail.rpartition(") already exists")[0].split(", ", 2)
    return values[2] if len(values) == 3 else None


def _check_prizes(batch: SaleBatch, sold: Decimal) -> None:
    # R:L3 the draw's valid sales so far plus these must keep the prizes within the prize board.
    prize_board_check(event=batch.draw.event, extra_sales=sold, committed=batch.committed)
    sales_plan_check(draw=batch.draw, total=sold, planned=batch.max_sales)  # R:L3 and the draw's approved maximum


def _electronic_serial_prefix(draw: Draw) -> str:
    """An electronic ticket's serial: this prefix, then its seq in at least 7 digits."""
    return f"E{draw.number:03d}-"


def _write_one_sale(batch: SaleBatch) -> tuple[Decimal, list[list[str]]] | None:
    """One sale's seqs, row and tickets in one statement (ticket_rows), or None
    where the sale is written in steps. Returns the draw's valid sales after
    it and its serials."""
    if len(batch.sales) != 1 or batch.roll_range is not None:
        return None
    try:
        written = sell_one_in_one_statement(
            batch.sales[0],
            take_seq=_take_seq_statement(batch),
            serials=batch.serial_lists[0],
            serial_prefix=_electronic_serial_prefix(batch.draw),
            chain=chain_of(None, batch.draw.event.licence.organisation_id),  # the sale's entry's (`audit_sales`)
        )
    except DrawStoppedSelling:
        _stopped_selling(batch.draw)
    if written is None:
        return None
    _first_seq, sold, serials, head = written
    batch.locked_head = head  # for the sale's audit entry (`audit_sales`)
    return sold, [serials]


def _number_and_insert(batch: SaleBatch, seq: int) -> list[Sequence[str] | range]:
    """Give each sale its run of seqs after `seq` (and electronic serials), insert them."""
    draw = batch.draw
    serials_out, first_seqs = [], []
    for sale, serials in zip(batch.sales, batch.serial_lists, strict=True):
        if not serials:
            prefix = _electronic_serial_prefix(draw)
            serials = [f"{prefix}{n:07d}" for n in range(seq + 1, seq + sale.ticket_count + 1)]
        sale.first_seq = seq + 1  # its tickets: one primary-key range of the draw's (migration 0026)
        first_seqs.append(sale.first_seq)
        seq += sale.ticket_count
        serials_out.append(serials)
    roll = batch.roll_range
    if roll is not None:  # R:T3 its serials are its tickets' places from here (migration 0027)
        roll.first_seq = first_seqs[0]
        TicketRoll.objects.filter(pk=roll.pk).update(first_seq=roll.first_seq, first_unsold=roll.first_unsold)
    _insert_sales_and_tickets(batch.sales, first_seqs, serials_out, in_roll_range=roll is not None)
    return serials_out


def _insert_sales_and_tickets(
    sales: list[Sale], first_seqs: list[int], serial_lists: list[Sequence[str] | range], *, in_roll_range: bool
) -> None:
    """The sales (a bulk INSERT), then their tickets (one INSERT or COPY).
    One sale at the counter is written with its seqs instead (`_write_one_sale`)."""
    if len(sales) == 1:  # its INSERT written once, not compiled (#18)
        insert_one(sales[0])
    else:
        Sale.objects.bulk_create(sales, batch_size=5000)
    groups = [(sale.pk, first, serials) for sale, first, serials in zip(sales, first_seqs, serial_lists, strict=True)]
    write_tickets(
        licence_id=sales[0].licence_id,
        draw_id=sales[0].draw_id,
        groups=groups,
        in_roll_range=in_roll_range and connection.vendor == "postgresql",
    )


def void_totals(*, draw: Draw, sale: Sale) -> None:
    """Move a voided sale from the draw's valid totals to its void totals
    (the draw is locked by the void)."""
    Draw.objects.filter(pk=draw.pk).update(
        sales_amount=F("sales_amount") - sale.amount,
        sales_valid=F("sales_valid") - 1,
        sales_void=F("sales_void") + 1,
        tickets_valid=F("tickets_valid") - sale.ticket_count,
        tickets_void=F("tickets_void") + sale.ticket_count,
    )
