"""Writing an imported draw's sales and tickets in bulk (PostgreSQL COPY).

Runs inside `supplier_draw_import`'s transaction with the draw locked, after
every check passed. Sale ids are taken from the table's sequence in one
statement so the tickets can name their sale without a round trip per sale.
"""

from decimal import Decimal

from django.core.files.base import ContentFile
from django.db import connection
from django.db.models import F
from django.utils import timezone

from licensing.models import Deposit
from raffle.models import DepositCoverage, Draw, Sale, SupplierSettlement, Ticket
from raffle.services.pool import draw_sales_channel
from raffle.services.supplier_formats import SupplierFile
from raffle.services.supplier_parse import ParsedSettlement

STATUS_REASONS = {
    "void": "Voided in the supplier's system (order {order})",
    "refunded": "Refunded in the supplier's system (order {order})",
}


_COPY_TEXT = str.maketrans({"\\": "\\\\", "\t": " ", "\n": " ", "\r": " "})


def _clean(text: str) -> str:
    """A value safe inside COPY's text format (one pass in C)."""
    return text.translate(_COPY_TEXT)


def next_sale_id(cursor) -> str:
    """The SQL of the next sale id: the sequence named once by its oid, so a
    statement of a million rows does not look it up by name for each row."""
    cursor.execute("SELECT pg_get_serial_sequence('raffle_sale', 'id')::regclass::oid")
    return f"nextval({int(cursor.fetchone()[0])}::regclass)"


def copy_sales_and_tickets(*, actor, draw: Draw, groups) -> None:
    _write_rows(actor=actor, draw=draw, groups=groups)
    # The draw's running totals (issue #18) move with the imported rows; the draw is locked.
    valid = [g for g in groups if g.status == "sold"]
    void = [g for g in groups if g.status != "sold"]
    Draw.objects.filter(pk=draw.pk).update(
        sales_amount=F("sales_amount") + sum((g.amount for g in valid), Decimal(0)),
        sales_valid=F("sales_valid") + len(valid),
        sales_void=F("sales_void") + len(void),
        tickets_valid=F("tickets_valid") + sum(len(g.serials) for g in valid),
        tickets_void=F("tickets_void") + sum(len(g.serials) for g in void),
    )


def _write_rows(*, actor, draw: Draw, groups) -> None:
    licence_id = draw.event.licence_id
    channel = draw_sales_channel(draw)  # R:L5 the channel in force on the draw's day
    seller = actor.pk if getattr(actor, "is_authenticated", False) else None
    seq = Ticket.objects.last_seq(draw.pk)
    now = timezone.now()
    if connection.vendor != "postgresql":  # the SQLite demo
        for group in groups:
            _write_one(draw, group, channel, seller, now, seq)
            seq += len(group.serials)
        return
    # COPY runs on psycopg's cursor: its errors become Django's (IntegrityError for T3).
    with connection.wrap_database_errors, connection.cursor() as cursor:
        cursor.execute(f"SELECT {next_sale_id(cursor)} FROM generate_series(1, %s)", [len(groups)])
        ids = [row[0] for row in cursor.fetchall()]
        sale_columns = (
            "id, licence_id, draw_id, channel, tier_id, units, ticket_count, amount, purchaser_name, "
            "purchaser_contact, purchaser_address, supplier_order, envelope_pick, device, sold_by_id, sold_at, "
            "voided_at, voided_by_id, void_reason, print_count, first_seq"
        )
        first_seq = seq + 1
        null = "\\N"
        with cursor.copy(f"COPY raffle_sale ({sale_columns}) FROM STDIN") as copy:
            buffer = []
            for sale_id, group in zip(ids, groups, strict=True):
                void = group.status != "sold"
                reason = STATUS_REASONS[group.status].format(order=group.order_id) if void else ""
                buffer.append(
                    f"{sale_id}\t{licence_id}\t{draw.pk}\t{channel}\t{group.tier.pk}\t"
                    f"{len(group.serials) // group.tier.quantity}\t{len(group.serials)}\t{group.amount}\t"
                    f"{_clean(group.name)}\t{_clean(group.contact)}\t{_clean(group.address)}\t"
                    f"{_clean(group.order_id)[:60]}\t{group.envelope_pick}\tsupplier\t{seller or null}\t"
                    f"{group.sold_at.isoformat()}\t{now.isoformat() if void else null}\t"
                    f"{(seller or null) if void else null}\t{_clean(reason)}\t0\t{first_seq}\n"
                )
                first_seq += len(group.serials)
                if len(buffer) >= 10_000:
                    copy.write("".join(buffer))
                    buffer = []
            copy.write("".join(buffer))
        with cursor.copy("COPY raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) FROM STDIN") as copy:
            buffer = []
            for sale_id, group in zip(ids, groups, strict=True):
                void = "t" if group.status != "sold" else "f"
                for serial in group.serials:
                    seq += 1
                    buffer.append(f"{licence_id}\t{draw.pk}\t{sale_id}\t{serial}\t{seq}\t{void}\n")
                if len(buffer) >= 100_000:
                    copy.write("".join(buffer))
                    buffer = []
            copy.write("".join(buffer))


def _write_one(draw: Draw, group, channel: str, seller, now, seq: int) -> None:
    void = group.status != "sold"
    sale = Sale.objects.create(
        first_seq=seq + 1,
        licence_id=draw.event.licence_id,
        draw=draw,
        channel=channel,
        tier=group.tier,
        units=len(group.serials) // group.tier.quantity,
        ticket_count=len(group.serials),
        amount=group.amount,
        purchaser_name=group.name,
        purchaser_contact=group.contact,
        purchaser_address=group.address,
        supplier_order=group.order_id[:60],
        envelope_pick=group.envelope_pick,
        device="supplier",
        sold_by_id=seller,
        sold_at=group.sold_at,
        voided_at=now if void else None,
        voided_by_id=seller if void else None,
        void_reason=STATUS_REASONS[group.status].format(order=group.order_id) if void else "",
    )
    Ticket.objects.bulk_create(
        [
            Ticket(licence_id=sale.licence_id, draw=draw, sale=sale, serial=serial, seq=seq + i, is_void=void)
            for i, serial in enumerate(group.serials, start=1)
        ]
    )


def write_settlement(*, draw: Draw, record, parsed: ParsedSettlement, file: SupplierFile) -> None:
    """R:L12 the settlement, its fees as deductions of their kind with the
    settlement file as evidence, and the net allocated to the deposit that
    holds it."""
    deposit = Deposit.objects.get(account__licence_id=draw.event.licence_id, slip_number=parsed.deposit_reference)
    settlement = SupplierSettlement(
        draw=draw,
        supplier_import=record,
        settlement_date=parsed.settlement_date,
        gross=parsed.gross,
        processing_fees=parsed.processing_fees,
        supplier_fees=parsed.supplier_fees,
        net_deposited=parsed.net_deposited,
        deposit_reference=parsed.deposit_reference,
        deposit=deposit,
    )
    settlement.evidence.save(file.name, ContentFile(file.content), save=False)
    settlement.save()
    if parsed.net_deposited:
        DepositCoverage.objects.create(deposit=deposit, draw=draw, amount=parsed.net_deposited)
