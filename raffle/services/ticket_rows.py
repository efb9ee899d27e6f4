"""Writing a batch of sales' ticket rows (#18): a sale at the counter in the
statement that takes its seqs, the few of several sales in one prepared
INSERT, the many of a returned roll or an import by COPY, the SQLite demo's
through the ORM. The rows' guarantees are the
database's (docs/architecture.md, "Ticket rows")."""

from collections.abc import Sequence

from django.db import connection
from psycopg.copy import QueuedLibpqWriter

from core.audit import LOCK_AND_LAST_CALL, LockedHead, lock_and_last_params
from core.prepared import prepared_cursor
from core.rows import insert_select_statement, inserted
from raffle.models import Ticket

# Up to this many tickets go in one prepared INSERT: one round trip to the
# database while the draw is locked, where COPY takes two (#18).
FEW_TICKETS = 1000
FEW_TICKETS_SQL = (
    "INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) "
    "SELECT %s, %s, t.sale_id, t.serial, t.seq, false FROM unnest(%s::bigint[], %s::text[], %s::integer[]) "
    "AS t(sale_id, serial, seq)"
)


def _insert_few_tickets(*, licence_id: int, draw_id: int, groups: list[tuple[int, int, list[str]]]) -> None:
    sales, serials_in, seqs = [], [], []
    for sale_id, first_seq, serials in groups:
        sales.extend([sale_id] * len(serials))
        serials_in.extend(serials)
        seqs.extend(range(first_seq, first_seq + len(serials)))
    with prepared_cursor() as cursor:
        cursor.execute(FEW_TICKETS_SQL, [licence_id, draw_id, sales, serials_in, seqs])


def write_tickets(
    *, licence_id: int, draw_id: int, groups: list[tuple[int, int, Sequence[str] | range]], in_roll_range: bool = False
) -> None:
    """Insert each (sale, first seq, serials) group's tickets: a few in one
    prepared INSERT, more by PostgreSQL COPY (each row built from its sale's
    fixed prefix; PostgreSQL computes the key), or the ORM on SQLite (the demo,
    where every ticket stays on the serial index). `in_roll_range`: the
    tickets of a returned roll, each at its place in it (migration 0027),
    whose serials may come as a range of their numbers.
    The COPY's rows are formatted here while a second thread sends the
    previous ones (psycopg's QueuedLibpqWriter): on two cores the formatting
    runs beside PostgreSQL's work instead of before it (a million tickets'
    roll about 9% faster, docs/benchmarks.md); a refusal still comes back
    to the caller at the end of the COPY."""
    if connection.vendor == "postgresql":
        if not in_roll_range and sum(len(serials) for _sale, _first, serials in groups) <= FEW_TICKETS:
            _insert_few_tickets(licence_id=licence_id, draw_id=draw_id, groups=groups)
            return
        columns = "licence_id, draw_id, sale_id, serial, seq, is_void, in_roll_range"
        flags = "f\tt\n" if in_roll_range else "f\tf\n"
        with (
            connection.cursor() as cursor,
            cursor.copy(f"COPY raffle_ticket ({columns}) FROM STDIN", writer=QueuedLibpqWriter(cursor.cursor)) as copy,
        ):
            for sale_id, first_seq, serials in groups:
                prefix = f"{licence_id}\t{draw_id}\t{sale_id}\t"
                for start in range(0, len(serials), 100_000):
                    chunk = serials[start : start + 100_000]
                    copy.write(
                        "".join(
                            f"{prefix}{serial}\t{seq}\t{flags}" for seq, serial in enumerate(chunk, first_seq + start)
                        )
                    )
        return
    Ticket.objects.bulk_create(
        [
            Ticket(licence_id=licence_id, draw_id=draw_id, sale_id=sale_id, serial=str(serial), seq=seq)
            for sale_id, first_seq, serials in groups
            for seq, serial in enumerate(serials, first_seq)
        ],
        batch_size=2000,
    )


# A sale at the counter in ONE statement (#18): the draw's UPDATE that takes its
# seqs (`take_seq`, which returns no row once the draw stops selling), the sale
# and its tickets, then the lock of the audit chain the sale's entry goes to
# and the chain's head (core.audit, `LOCK_AND_LAST_CALL`). A ticket with no
# serial given is numbered as the sale path numbers it: the prefix, then its
# seq in at least 7 digits. The chain's lock is taken after the draw's, as
# every other append takes them, and not at all when the draw no longer
# sells: the lateral subquery needs the UPDATE's row, and OFFSET 0 keeps the
# planner from pulling it up into a join it could run first.
SELL_ONE_SQL = """
WITH d AS ({take_seq} RETURNING tickets_valid + tickets_void - %s::integer + 1 AS first_seq, sales_amount),
s AS ({insert_sale}),
t AS (
    INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void)
    SELECT %s, %s, s.id, coalesce(g.serial, %s || lpad(k.seq::text, greatest(7, length(k.seq::text)), '0')),
        k.seq, false
    FROM d, s, unnest(coalesce(%s::text[], array_fill(NULL::text, ARRAY[%s::integer]))) WITH ORDINALITY AS g(serial, n),
        LATERAL (SELECT d.first_seq + g.n - 1 AS seq) AS k
    RETURNING serial, seq
)
SELECT d.first_seq, d.sales_amount, s.id, ARRAY(SELECT serial FROM t ORDER BY seq), h.head_seq, h.head_hash
FROM d, s, LATERAL (SELECT head_seq, head_hash FROM {lock_chain} WHERE d.first_seq IS NOT NULL OFFSET 0) AS h
"""


def sell_one_in_one_statement(
    sale, *, take_seq: tuple[str, list], serials: list[str] | None, serial_prefix: str, chain: int
) -> tuple[int, object, list[str], LockedHead] | None:
    """Take the draw's seqs for `sale`, insert it and its few tickets, and
    lock the audit `chain` its entry goes to, in one round trip while the
    draw is locked. Returns (its first seq, the draw's valid sales after it,
    its serials, the chain's head for that entry); None where this cannot be
    done so (SQLite, too many tickets, a sale the ORM must write): the caller
    takes the seqs and inserts apart. Raises `DrawStoppedSelling`, having
    written nothing, when the draw no longer sells."""
    if connection.vendor != "postgresql" or sale.ticket_count > FEW_TICKETS:
        return None
    statement = insert_select_statement(sale, source="d", expressions={"first_seq": "d.first_seq"})
    if statement is None:
        return None
    sale_sql, sale_params = statement
    take_sql, take_params = take_seq
    sql = SELL_ONE_SQL.format(take_seq=take_sql, insert_sale=sale_sql, lock_chain=LOCK_AND_LAST_CALL)
    with prepared_cursor() as cursor:
        cursor.execute(
            sql,
            [
                *take_params,
                sale.ticket_count,
                *sale_params,
                sale.licence_id,
                sale.draw_id,
                serial_prefix,
                serials or None,  # none given: as many NULLs, numbered by the statement (no list to send)
                sale.ticket_count,
                *lock_and_last_params(chain),
            ],
        )
        row = cursor.fetchone()
    if row is None:
        raise DrawStoppedSelling
    first_seq, sold, pk, written, head_seq, head_hash = row
    sale.first_seq = first_seq
    inserted(sale, pk)
    return first_seq, sold, written, LockedHead.of_row(chain, head_seq, head_hash)


class DrawStoppedSelling(Exception):
    """The draw's UPDATE found it no longer selling: nothing was written."""
