"""The bulk path of a supplier's sales file (issue #17's speed goal): the file
COPYed as it is into a temporary table, checked set-based in SQL, then the
sales and tickets written with INSERT ... SELECT.

It vouches only for files it can prove read alike by PostgreSQL's COPY and by
the row-by-row reader (`supplier_formats.read_rows`): the generic header in
its own order, UTF-8 without control characters, a line per row, quotes only
around whole values that hold a comma. Each check below is the row-by-row
check of `supplier_parse`/`supplier_import` or a stricter one, so a file it
accepts is one they accept, with the same sales, tickets, sequence numbers and
totals. When anything is in doubt (a bad line, a value spelled another way, a
limit reached, a ticket number already sold: the unique constraint refuses it)
it returns None with its savepoint undone, and the caller reads the file row
by row: that path refuses with the file, line and column of the first problem
in the one wording every refusal has. A clean file never pays for the
explanation; a bad one pays a bulk load more and is refused as before.
"""

import re
from dataclasses import dataclass
from decimal import Decimal

from django.db import DatabaseError, connection, transaction
from django.db.models import F, Sum
from django.utils import timezone

from core.errors import DomainError
from core.money import ZERO, parse_amount
from licensing.models import ExcludedPerson
from raffle.errors import RaffleError
from raffle.models import Draw, PriceTier, Sale, Ticket
from raffle.services.pool import draw_sales_channel
from raffle.services.prize_board import prize_board_check, sales_plan_check
from raffle.services.purchase_limits import Purchase, purchase_limits_check
from raffle.services.supplier_formats import SALES_COLUMNS, SupplierFile
from raffle.services.supplier_parse import STATUSES, SalesWindow
from raffle.services.supplier_write import STATUS_REASONS, next_sale_id

CHUNK = 8 << 20
# Bytes the row-by-row reader refuses or reads otherwise: C0 controls but the
# line feed, DEL (core.text) and the carriage return (a line per row, "\n").
_CONTROL_BYTES = bytes([*range(0, 10), *range(11, 32), 127])
# The text columns: what the other columns may hold is checked value by value.
_TEXT = ("order_id", "purchaser_name", "purchaser_address", "purchaser_phone", "purchaser_email")


@dataclass
class BulkSales:
    """What the bulk path wrote: the figures of the import's summary."""

    rows: int
    orders: int
    tickets_sold: int
    tickets_void: int
    amount_sold: Decimal
    amount_void: Decimal


class _NotVouched(Exception):
    """The bulk path cannot vouch for the file: read it row by row."""


@dataclass
class _Bytes:
    """What the file's bytes show, counted while COPY sends them."""

    lines: int = 0
    quotes: int = 0
    quotes_opening: int = 0  # a quote right after a comma or a line break
    clean: bool = True  # no control character
    ascii: bool = True
    work_mem: str = ""  # the transaction's own, put back at the end


STAGE = f"""
CREATE TEMP TABLE supplier_stage (
    n bigint GENERATED ALWAYS AS IDENTITY, {", ".join(f"{c} text" for c in SALES_COLUMNS)}
) ON COMMIT DROP
"""

# Python's str.strip() removes these at either end (Unicode spaces too); a
# value that has one there goes row by row. Only read when the file is not ASCII.
_SPACE = r"[\s\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
_C1 = r"[\u0080-\u009f\u2028\u2029]"
# ISO 8601 with its zone, in the shapes and ranges Python and PostgreSQL read alike:
# the shape of the digits (every digit read as 9), then hours under 24 and
# seconds under 60 (PostgreSQL alone takes 24:00:00 and a leap second).
_MOMENT_SHAPES = [
    f"9999-99-99T99:99:99{fraction}{zone}"
    for fraction in ("", *(("." + "9" * digits) for digits in range(1, 7)))
    for zone in ("Z", "+99:99", "-99:99")
]
_MOMENT = (
    "translate(sold_at, '0123456789', '9999999999') = ANY(%(shapes)s) "
    "AND substr(sold_at, 12, 2) < '24' AND substr(sold_at, 18, 2) < '60'"
)
_SERIAL = "coalesce(nullif(ltrim(ticket_number, '0'), ''), '0')"  # "0042" is ticket 42 (supplier_parse)
_CONTACT = "coalesce(nullif(purchaser_phone, ''), purchaser_email, '')"  # the phone, else the e-mail


def _row_check(ascii_only: bool) -> str:
    """The rows the checks do not vouch for (R:T4 R:T9 R:T11), the values that
    hold a comma (each must be the one quoted value that holds it) or a quote."""
    trimmed = " AND ".join(
        f"btrim({c}) = {c}" + ("" if ascii_only else f" AND {c} !~ '^{_SPACE}|{_SPACE}$' AND {c} !~ '{_C1}'")
        for c in ("order_id", "purchaser_name", _CONTACT, "coalesce(purchaser_address, '')")
    )
    commas = " + ".join(f"(strpos(coalesce({c}, ''), ',') > 0)::int" for c in _TEXT)
    quotes = " OR ".join(f"strpos(coalesce({c}, ''), '\"') > 0" for c in _TEXT)
    return f"""
SELECT count(*),
    count(*) FILTER (WHERE NOT coalesce(
        ticket_number ~ '^[0-9]+$' AND length(ticket_number) <= 40
        AND {_MOMENT} AND sold_at::timestamptz BETWEEN %(opens)s AND %(closes)s
        AND order_id <> '' AND purchaser_name <> '' AND {_CONTACT} <> ''
        AND {trimmed}, false)),
    coalesce(sum({commas}), 0),
    count(*) FILTER (WHERE {quotes})
FROM supplier_stage
"""


# The few distinct spellings of the tier, amount, envelope and status: each is
# checked once, in Python, as the row-by-row reader checks it.
SPELLINGS = "SELECT DISTINCT price_tier, amount, envelope_pick, status FROM supplier_stage"

# One sale per order, tier and status, numbered in the order of its first line
# (as the row-by-row path numbers them).
GROUPS = """
CREATE TEMP TABLE supplier_groups ON COMMIT DROP AS
SELECT {sale_id} AS sale_id, g.*
FROM (
    SELECT order_id, price_tier::int AS quantity, status, min(n) AS first_n, max(n) AS last_n, count(*) AS tickets,
        sum(amount::numeric(12, 2)) AS amount
    FROM supplier_stage GROUP BY order_id, price_tier::int, status ORDER BY min(n)
) g
"""

# R:T1 an order's tickets at a tier are whole purchases of it at its price.
GROUP_CHECK = """
SELECT count(*) FILTER (WHERE g.tickets %% t.quantity <> 0 OR g.amount <> t.price * (g.tickets / t.quantity)),
    count(DISTINCT g.order_id),
    coalesce(sum(g.tickets) FILTER (WHERE g.status = 'sold'), 0),
    coalesce(sum(g.tickets) FILTER (WHERE g.status <> 'sold'), 0),
    coalesce(sum(g.amount) FILTER (WHERE g.status = 'sold'), 0),
    coalesce(sum(g.amount) FILTER (WHERE g.status <> 'sold'), 0),
    count(*) FILTER (WHERE g.status = 'sold'),
    count(*) FILTER (WHERE g.status <> 'sold'),
    count(*) FILTER (WHERE g.last_n - g.first_n + 1 <> g.tickets)
FROM supplier_groups g JOIN unnest(%(quantities)s::int[], %(prices)s::numeric[]) AS t(quantity, price)
    ON t.quantity = g.quantity
"""

PURCHASERS = f"""
SELECT left(s.purchaser_name, 150), left({_CONTACT}, 200), sum(g.tickets)
FROM supplier_groups g JOIN supplier_stage s ON s.n = g.first_n
WHERE g.status = 'sold' GROUP BY 1, 2
"""

# A sale's first seq (its tickets are one run of seqs, below): the tickets of
# the sales before it in the order of their first lines, plus one.
INSERT_SALES = f"""
INSERT INTO raffle_sale (id, licence_id, draw_id, channel, tier_id, units, ticket_count, amount, purchaser_name,
    purchaser_contact, purchaser_address, supplier_order, envelope_pick, device, sold_by_id, sold_at, voided_at,
    voided_by_id, void_reason, print_count, first_seq)
SELECT g.sale_id, %(licence)s, %(draw)s, %(channel)s, t.tier_id, g.tickets / g.quantity, g.tickets, g.amount,
    left(s.purchaser_name, 150), left({_CONTACT}, 200), left(coalesce(s.purchaser_address, ''), 300),
    left(g.order_id, 60), s.envelope_pick::int, 'supplier', %(seller)s, s.sold_at::timestamptz,
    CASE WHEN g.status <> 'sold' THEN %(now)s::timestamptz END,
    CASE WHEN g.status <> 'sold' THEN %(seller)s END,
    CASE g.status WHEN 'void' THEN replace(%(void)s, '{{order}}', g.order_id)
        WHEN 'refunded' THEN replace(%(refunded)s, '{{order}}', g.order_id) ELSE '' END,
    0, %(seq)s + sum(g.tickets) OVER (ORDER BY g.first_n) - g.tickets + 1
FROM supplier_groups g
JOIN supplier_stage s ON s.n = g.first_n
JOIN unnest(%(quantities)s::int[], %(tier_ids)s::bigint[]) AS t(quantity, tier_id) ON t.quantity = g.quantity
"""

# R:T3 a ticket number twice in the file or already sold under the licence:
# the unique constraint refuses the statement, and the row-by-row path names the line.
# The tickets are numbered by their sale's first line, then their own; when each
# sale's lines follow one another in the file (as exports write them), that is
# the order of the lines, and the line's number gives the seq without a sort.
_TICKETS = f"""
INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void)
SELECT %(licence)s, %(draw)s, g.sale_id, {_SERIAL}, %(seq)s + {{seq}}, g.status <> 'sold'
FROM supplier_stage s JOIN supplier_groups g
    ON g.order_id = s.order_id AND g.quantity = s.price_tier::int AND g.status = s.status
"""
INSERT_TICKETS = {
    True: _TICKETS.format(seq="s.n"),  # n counts the lines from 1 (a new identity)
    False: _TICKETS.format(seq="row_number() OVER (ORDER BY g.first_n, s.n)"),
}
# Sized for the statements below (a hash of the file's orders, not spilled to
# disk), for this transaction only; put back when the path is done.
WORK_MEM = "SELECT current_setting('work_mem'), set_config('work_mem', '256MB', true)"


def _header_is_generic(content: bytes) -> bool:
    end = content.find(b"\n")
    first = content[: end if end >= 0 else len(content)]
    try:
        header = first.decode("utf-8-sig")
    except UnicodeDecodeError:
        return False
    return tuple(h.strip() for h in header.split(",")) == SALES_COLUMNS and '"' not in header


def _copy_into_stage(cursor, content: bytes) -> _Bytes:
    """COPY the file; each chunk's bytes are counted while the server reads the one before."""
    cursor.execute(STAGE)
    seen = _Bytes()
    cursor.execute(WORK_MEM)
    seen.work_mem = cursor.fetchone()[0]
    with cursor.copy(
        f"COPY supplier_stage ({', '.join(SALES_COLUMNS)}) FROM STDIN WITH (FORMAT csv, HEADER true)"
    ) as copy:
        for start in range(0, len(content), CHUNK):
            chunk = content[start : start + CHUNK]
            copy.write(chunk)
            edge = content[max(start - 1, 0) : start + 1] if start else b""  # a pair split between two chunks
            seen.lines += chunk.count(b"\n")
            seen.quotes += chunk.count(b'"')
            seen.quotes_opening += chunk.count(b',"') + chunk.count(b'\n"') + edge.count(b',"') + edge.count(b'\n"')
            seen.clean = seen.clean and len(chunk.translate(None, _CONTROL_BYTES)) == len(chunk)
            seen.ascii = seen.ascii and chunk.isascii()
    return seen


def _spellings_vouched(cursor, tiers, sealed) -> bool:
    """Each distinct tier, amount, envelope and status, read as the row-by-row
    reader reads it, and in the plain spelling PostgreSQL casts alike (R:T1 R:T9 R:T11)."""
    cursor.execute(SPELLINGS)
    for tier, amount, pick, status in cursor.fetchall():
        plain = (
            re.fullmatch(r"[0-9]{1,6}", tier or "")
            and re.fullmatch(r"[0-9]{1,9}(\.[0-9]{1,2})?", amount or "")
            and re.fullmatch(r"[0-9]{1,2}", pick or "")
        )
        if not plain or int(tier) not in tiers or int(pick) not in sealed or status not in STATUSES:
            return False
        try:
            parse_amount(amount, what="The amount")
        except DomainError:
            return False
    return True


def _check_limits(draw: Draw, cursor, valid: Decimal) -> None:
    """R:L3 the prize board and the sales plan; the purchase limits only when
    the event sets one or the organisation lists excluded persons."""
    sold = Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(s=Sum("amount"))["s"] or ZERO
    try:
        prize_board_check(event=draw.event, extra_sales=sold + valid)
        sales_plan_check(draw=draw, total=sold + valid)
        limited = (
            draw.event.max_tickets_per_person
            or ExcludedPerson.objects.filter(organisation_id=draw.event.licence.organisation_id).exists()
        )
        if limited:  # each person's tickets summed: over the limit at the end is over it at some line
            cursor.execute(PURCHASERS)
            purchases = [Purchase(name, contact, tickets) for name, contact, tickets in cursor.fetchall()]
            purchase_limits_check(draw=draw, purchases=purchases)
    except RaffleError:
        raise _NotVouched from None


def _vouch_and_write(*, actor, draw: Draw, file: SupplierFile, tiers, sealed, window: SalesWindow) -> BulkSales:
    content = file.content
    if not _header_is_generic(content):
        raise _NotVouched
    quantities = sorted(tiers)
    params = {
        "opens": window.opens,
        "closes": window.closes,
        "shapes": _MOMENT_SHAPES,
        "quantities": quantities,
        "prices": [tiers[q].price for q in quantities],
        "tier_ids": [tiers[q].pk for q in quantities],
        "licence": draw.event.licence_id,
        "draw": draw.pk,
    }
    with connection.cursor() as cursor:
        seen = _copy_into_stage(cursor, content)
        if not seen.clean:
            raise _NotVouched
        cursor.execute(_row_check(seen.ascii), params)
        rows, unvouched, commas, quoted = cursor.fetchone()
        records = seen.lines - 1 + (0 if content.endswith(b"\n") else 1)
        # Quotes only around whole values that hold a comma: then COPY and csv read every line alike.
        quoting_plain = seen.quotes == 2 * commas and seen.quotes_opening == commas
        if unvouched or quoted or not quoting_plain or rows == 0 or rows != records:
            raise _NotVouched
        if not _spellings_vouched(cursor, tiers, sealed):
            raise _NotVouched
        cursor.execute(GROUPS.format(sale_id=next_sale_id(cursor)))
        cursor.execute(GROUP_CHECK, params)
        (wrong, orders, tickets_sold, tickets_void, amount_sold, amount_void, sales_valid, sales_void, apart) = (
            cursor.fetchone()
        )
        if wrong:
            raise _NotVouched
        _check_limits(draw, cursor, amount_sold)
        seller = actor.pk if getattr(actor, "is_authenticated", False) else None
        seq = Ticket.objects.last_seq(draw.pk)
        cursor.execute(
            INSERT_SALES,
            {
                **params,
                "seq": seq,
                "channel": draw_sales_channel(draw),  # R:L5 the channel in force on the draw's day
                "seller": seller,
                "now": timezone.now(),
                "void": STATUS_REASONS["void"],
                "refunded": STATUS_REASONS["refunded"],
            },
        )
        cursor.execute(INSERT_TICKETS[apart == 0], {**params, "seq": seq})
        cursor.execute("DROP TABLE supplier_groups, supplier_stage")
        cursor.execute("SELECT set_config('work_mem', %s, true)", [seen.work_mem])
    # The draw's running totals (issue #18) move with the imported rows; the draw is locked.
    Draw.objects.filter(pk=draw.pk).update(
        sales_amount=F("sales_amount") + amount_sold,
        sales_valid=F("sales_valid") + int(sales_valid),
        sales_void=F("sales_void") + int(sales_void),
        tickets_valid=F("tickets_valid") + int(tickets_sold),
        tickets_void=F("tickets_void") + int(tickets_void),
    )
    return BulkSales(int(rows), int(orders), int(tickets_sold), int(tickets_void), amount_sold, amount_void)


def bulk_sales_import(
    *, actor, draw: Draw, file: SupplierFile, tiers: dict[int, PriceTier], sealed: set[int], window: SalesWindow
) -> BulkSales | None:
    """Check and write a sales file set-based, inside the import's transaction
    with the event and draw locked; None, nothing kept, when the row-by-row
    path must read it."""
    if connection.vendor != "postgresql" or not tiers:
        return None
    try:
        with transaction.atomic():
            return _vouch_and_write(actor=actor, draw=draw, file=file, tiers=tiers, sealed=sealed, window=window)
    except (_NotVouched, DatabaseError):
        return None
