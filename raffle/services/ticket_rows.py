"""Writing a batch of sales' ticket rows (#18): the few of a sale at the
counter in one prepared INSERT, the many of a returned roll or an import by
COPY, the SQLite demo's through the ORM. The rows' guarantees are the
database's (docs/architecture.md, "Ticket rows")."""

from django.db import connection

from core.prepared import prepared_cursor
from core.rows import insert_statement, inserted
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


def insert_sale_with_tickets(sale, *, first_seq: int, serials: list[str]) -> bool:
    """INSERT one sale and its few tickets in one statement (one round trip
    under the draw's lock instead of two, #18); the tickets' trigger checks
    them against the sale at the statement's end, as for any insert. False
    where this cannot be done so (SQLite, too many tickets, a sale the ORM
    must write): the caller inserts them apart."""
    statement = insert_statement(sale) if len(serials) <= FEW_TICKETS else None
    if statement is None:
        return False
    sale_sql, params = statement
    sql = (
        f"WITH s AS ({sale_sql}) INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) "
        "SELECT %s, %s, s.id, t.serial, t.seq, false FROM s, unnest(%s::text[], %s::integer[]) AS t(serial, seq) "
        "RETURNING sale_id"
    )
    seqs = list(range(first_seq, first_seq + len(serials)))
    with prepared_cursor() as cursor:
        cursor.execute(sql, [*params, sale.licence_id, sale.draw_id, serials, seqs])
        inserted(sale, cursor.fetchone()[0])
    return True


def write_tickets(*, licence_id: int, draw_id: int, groups: list[tuple[int, int, list[str]]]) -> None:
    """Insert each (sale, first seq, serials) group's tickets: a few in one
    prepared INSERT, more by PostgreSQL COPY (each row built from its sale's
    fixed prefix; PostgreSQL computes the key), or the ORM on SQLite (the demo)."""
    if connection.vendor == "postgresql":
        if sum(len(serials) for _sale, _first, serials in groups) <= FEW_TICKETS:
            _insert_few_tickets(licence_id=licence_id, draw_id=draw_id, groups=groups)
            return
        columns = "licence_id, draw_id, sale_id, serial, seq, is_void"
        with connection.cursor() as cursor, cursor.copy(f"COPY raffle_ticket ({columns}) FROM STDIN") as copy:
            for sale_id, first_seq, serials in groups:
                prefix = f"{licence_id}\t{draw_id}\t{sale_id}\t"
                for start in range(0, len(serials), 100_000):
                    chunk = serials[start : start + 100_000]
                    copy.write(
                        "".join(f"{prefix}{serial}\t{seq}\tf\n" for seq, serial in enumerate(chunk, first_seq + start))
                    )
        return
    Ticket.objects.bulk_create(
        [
            Ticket(licence_id=licence_id, draw_id=draw_id, sale_id=sale_id, serial=serial, seq=seq)
            for sale_id, first_seq, serials in groups
            for seq, serial in enumerate(serials, first_seq)
        ],
        batch_size=2000,
    )
