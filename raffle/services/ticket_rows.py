"""Writing a batch of sales' ticket rows (#18): the few of a sale at the
counter in one prepared INSERT, the many of a returned roll or an import by
COPY, the SQLite demo's through the ORM. The rows' guarantees are the
database's (docs/architecture.md, "Ticket rows")."""

from django.db import connection

from core.prepared import prepared_cursor
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
