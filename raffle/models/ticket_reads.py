"""Reads of tickets that keep to their indexes (#18): a draw's tickets as a
primary-key range, a serial on the serial index or at its place in its
returned roll (docs/architecture.md, "Ticket rows")."""

from django.db import connection, models
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.db.models.functions import Length

# A ticket's primary key is its place in its draw: draw id x 2**32 + seq (on
# PostgreSQL a generated column, migration 0024), so the primary-key index is
# also the unique (draw, seq) index and a draw's tickets are one key range.
SEQ_SPAN = 2**32


def ticket_key(draw_id: int, seq: int) -> int:
    return draw_id * SEQ_SPAN + seq


# A serial a roll can carry: a whole number as `roll_issue` writes it (no
# sign, no leading zero, at most 12 digits; MAX_SERIAL). "0500" is another
# serial than "500" (R:T3 compares serials as written).
ROLL_NUMBER_PATTERN = r"^[1-9][0-9]{0,11}$"


def is_roll_number(serial: str) -> bool:
    return serial.isascii() and serial.isdigit() and serial[0] != "0" and len(serial) <= 12


# The tickets with the serials %s (text[]) under the licences, from the
# serial index, then the returned rolls' tickets at their place for the serials
# that are numbers (bigint[]): the roll's range on its exclusion constraint's
# index, the ticket one primary-key probe (draw x 2**32 + seq).
WITH_SERIALS_SQL = """
SELECT t.id FROM unnest(%s::text[]) AS s(serial)
JOIN raffle_ticket t ON t.licence_id {licences} AND length(t.serial) = length(s.serial) AND t.serial = s.serial
WHERE NOT t.in_roll_range
UNION ALL
SELECT r.draw_id * 4294967296 + r.first_seq + (n.number - r.first_serial)
FROM unnest(%s::bigint[]) AS n(number)
JOIN raffle_ticketroll r ON r.licence_id {licences} AND int8range(r.first_serial, r.last_serial, '[]') @> n.number
WHERE r.first_seq IS NOT NULL AND n.number < r.first_unsold
"""


class TicketQuerySet(models.QuerySet):
    """Reads of a draw's tickets on the primary key (PostgreSQL); the SQLite
    demo keeps its (draw, seq) index and reads the columns."""

    def of_draw(self, draw_id):
        """The draw's tickets; order them by "pk" (= by seq) to stay on the index.
        `draw_id` may be an expression (`OuterRef("pk")`)."""
        if connection.vendor == "postgresql":
            return self.filter(pk__gt=ticket_key(draw_id, 0), pk__lt=ticket_key(draw_id + 1, 0))
        return self.filter(draw_id=draw_id)

    def at(self, draw_id: int, seqs):
        """The draw's tickets with these seq numbers, one key lookup each."""
        if connection.vendor == "postgresql":
            return self.filter(pk__in=[ticket_key(draw_id, seq) for seq in seqs])
        return self.filter(draw_id=draw_id, seq__in=list(seqs))

    def of_sale(self, sale):
        """The sale's tickets: its seq range of its draw, one primary-key range
        (order them by "pk" = by seq)."""
        low, high = sale.first_seq, sale.first_seq + sale.ticket_count
        if connection.vendor == "postgresql":
            in_range = Q(pk__gte=ticket_key(sale.draw_id, low), pk__lt=ticket_key(sale.draw_id, high))
        else:
            in_range = Q(draw_id=sale.draw_id, seq__gte=low, seq__lt=high)
        return self.filter(in_range, sale_id=sale.pk)

    def with_serials(self, serials, *, licence_id: int | None = None):
        """The tickets with these serials under the licence (at most one each,
        R:T3), or under every licence. On PostgreSQL one statement reads both
        kinds: a ticket on the unique serial index, keyed (licence,
        length(serial), serial) (migration 0025), and a returned roll's ticket
        at its place in its roll (`in_roll_range`, migration 0027)."""
        serials = list(dict.fromkeys(serials))
        if not serials:
            return self.none()
        if connection.vendor != "postgresql":  # the demo: no partial index to keep to
            return self.filter(serial__in=serials, **({} if licence_id is None else {"licence_id": licence_id}))
        numbers = [int(serial) for serial in serials if is_roll_number(serial)]
        if licence_id is None:  # each licence in turn: the index is the licence's first
            licences, params = "IN (SELECT id FROM licensing_licence)", []
        else:
            licences, params = "= %s", [licence_id]
        sql = WITH_SERIALS_SQL.format(licences=licences)
        return self.filter(pk__in=RawSQL(sql, [serials, *params, numbers, *params]))

    def with_serial(self, serial: str, *, licence_id: int | None = None):
        return self.with_serials([serial], licence_id=licence_id)

    def numbered_between(self, *, licence_id: int, first: int, last: int):
        """The tickets of the serial index whose serial is a number from
        `first` to `last` (R:T3: serials a roll of that range would carry),
        read on the index one serial length at a time: equal-length digits
        sort as their numbers do. Not a returned roll's tickets."""
        by_length = Q()
        for length in range(len(str(first)), len(str(last)) + 1):
            low, high = max(first, 10 ** (length - 1)), min(last, 10**length - 1)
            by_length |= Q(serial_length=length, serial__gte=str(low), serial__lte=str(high))
        return (
            self.alias(serial_length=Length("serial"))
            .filter(by_length, licence_id=licence_id, in_roll_range=False)
            .filter(serial__regex=ROLL_NUMBER_PATTERN)
        )

    def last_seq(self, draw_id: int) -> int:
        """The highest seq taken in the draw (0 when none): one backward index step."""
        return self.of_draw(draw_id).order_by("-pk").values_list("seq", flat=True).first() or 0
