"""Ticket rows built for bulk (docs/architecture.md, "Ticket rows"): no
per-row foreign key checks, yet the database still refuses a ticket that does
not belong to a sale of its own draw and licence, and a ticket's or a sale's
keys never change (RULES T3, T4, T11)."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from licensing.models import SalesChannel
from raffle import services
from raffle.models import Sale, Ticket
from raffle.models.ticket_reads import ticket_key
from tests.factories import LicenceFactory, event_with_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def sold(staff_user):
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    return services.ticket_sell(
        actor=staff_user,
        draw=draw,
        tier_quantity=1,
        purchaser_name="Ann",
        purchaser_contact="519-555-0101",
        envelope_pick=3,
        device="POS-1",
    )


def _insert(**values):
    with transaction.atomic():
        Ticket.objects.create(**values)


def _sale_like(sale, *, first_seq, ticket_count):
    """A sale row like `sale` whose tickets are seqs first_seq .. first_seq + ticket_count - 1."""
    fields = {f.attname: getattr(sale, f.attname) for f in Sale._meta.concrete_fields if f.name != "id"}
    return Sale.objects.create(**{**fields, "first_seq": first_seq, "ticket_count": ticket_count})


def test_a_ticket_of_another_draw_than_its_sale_is_refused(sold, staff_user):  # R:T4
    second = sold.draw.event.draws.create(number=2, scheduled_at=sold.draw.scheduled_at)
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=sold.licence_id, draw=second, sale=sold, serial="X-1", seq=1)


def test_a_ticket_under_another_licence_than_its_sale_is_refused(sold):  # R:T3
    other = LicenceFactory()
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=other.pk, draw=sold.draw, sale=sold, serial="X-2", seq=99)


def test_a_ticket_without_a_sale_is_refused(sold):
    with pytest.raises(IntegrityError, match="does not belong to a sale"):
        _insert(licence_id=sold.licence_id, draw=sold.draw, sale_id=sold.pk + 1000, serial="X-3", seq=98)


def test_a_ticket_of_its_sale_is_accepted(sold):
    spare = _sale_like(sold, first_seq=97, ticket_count=1)
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial="X-4", seq=97)
    assert Ticket.objects.filter(sale=spare).count() == 1


def test_a_ticket_outside_its_sales_run_of_seqs_is_refused(sold):  # R:T4
    """A sale's tickets are the seqs first_seq .. first_seq + ticket_count - 1
    of its draw (migration 0026), so `of_sale` reads them as one key range."""
    sale = _sale_like(sold, first_seq=10, ticket_count=2)
    for seq in (9, 12):
        with pytest.raises(IntegrityError, match="within the sale's seqs"):
            _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sale, serial=f"R-{seq}", seq=seq)
    with pytest.raises(IntegrityError, match="within the sale's seqs"), transaction.atomic():
        Ticket.objects.bulk_create(
            [
                Ticket(licence_id=sold.licence_id, draw=sold.draw, sale=sale, serial=f"R-{s}", seq=s)
                for s in (10, 11, 12)
            ]
        )
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sale, serial="R-11", seq=11)
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sale, serial="R-10", seq=10)
    assert [t.serial for t in Ticket.objects.of_sale(sale).order_by("pk")] == ["R-10", "R-11"]
    assert [t.seq for t in Ticket.objects.of_sale(sold)] == [1]


@pytest.mark.parametrize("change", [{"serial": "Z-9"}, {"seq": 500}, {"sale_id": 0}, {"draw_id": 0}])
def test_a_tickets_serial_number_and_keys_never_change(sold, change):  # R:T11
    with pytest.raises(DatabaseError, match="never changes"), transaction.atomic():
        Ticket.objects.filter(sale=sold).update(**change)


def test_a_ticket_is_still_voided_in_place(sold, staff_user):  # R:T11
    services.sale_void(actor=staff_user, sale=sold, reason="wrong tier")
    assert list(Ticket.objects.filter(sale=sold).values_list("is_void", flat=True)) == [True]


def test_a_sales_draw_never_changes(sold):
    second = sold.draw.event.draws.create(number=2, scheduled_at=sold.draw.scheduled_at)
    with pytest.raises(DatabaseError, match="never changes"), transaction.atomic():
        Sale.objects.filter(pk=sold.pk).update(draw=second)


@pytest.mark.parametrize("change", [{"first_seq": 2}, {"ticket_count": 2}])
def test_a_sales_run_of_seqs_never_changes(sold, change):  # R:T4
    with pytest.raises(DatabaseError, match="never changes"), transaction.atomic():
        Sale.objects.filter(pk=sold.pk).update(**change)


def test_a_seq_taken_twice_in_one_draw_is_refused(sold):  # R:T4 the primary key is (draw, seq)
    with pytest.raises(IntegrityError, match="raffle_ticket_pkey"):
        _insert(licence_id=sold.licence_id, draw=sold.draw, sale=sold, serial="X-5", seq=1)


def test_a_tickets_key_is_its_place_in_its_draw_and_never_set_by_hand(sold):
    ticket = Ticket.objects.get(sale=sold)
    assert ticket.pk == ticket_key(sold.draw_id, ticket.seq) == sold.draw_id * 2**32 + 1
    assert list(Ticket.objects.of_draw(sold.draw_id)) == list(Ticket.objects.at(sold.draw_id, [1])) == [ticket]
    assert Ticket.objects.last_seq(sold.draw_id) == 1 and Ticket.objects.last_seq(sold.draw_id + 1) == 0
    with pytest.raises(DatabaseError, match="generated"), transaction.atomic():
        Ticket.objects.filter(pk=ticket.pk).update(id=ticket.pk + 1)


def test_a_serial_taken_twice_under_a_licence_is_refused_by_the_serial_index(sold):  # R:T3
    serial = Ticket.objects.get(sale=sold).serial
    spare = _sale_like(sold, first_seq=2, ticket_count=3)
    with pytest.raises(IntegrityError, match="ticket_serial_unique_per_licence"):
        _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial=serial, seq=2)
    # Serials of the same length and serials that only look alike as numbers are different serials.
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial=serial[:-1] + "x", seq=3)
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial="0" + serial, seq=4)


def test_serials_are_looked_up_on_the_serial_index_by_licence_and_length(sold):  # R:T3
    """The unique serial index is keyed (licence, length(serial), serial), so a
    roll's numeric serials enter it in order (#18); `with_serial(s)` gives the
    index the licence (every licence in turn for the admin's search) and the
    length, and the look-up is an index condition, not a scan."""
    spare = _sale_like(sold, first_seq=5, ticket_count=2)
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial="12", seq=5)
    _insert(licence_id=sold.licence_id, draw=sold.draw, sale=spare, serial="345", seq=6)
    licence = sold.licence_id
    assert [t.seq for t in Ticket.objects.with_serial("12", licence_id=licence)] == [5]
    assert sorted(t.seq for t in Ticket.objects.with_serials(["345", "12", "999", "1"], licence_id=licence)) == [5, 6]
    assert [t.seq for t in Ticket.objects.with_serial("345")] == [6]  # any licence: the admin's search
    assert not Ticket.objects.with_serial("12", licence_id=LicenceFactory().pk).exists()
    assert not Ticket.objects.with_serials([], licence_id=licence).exists()
    assert not Ticket.objects.with_serial("21", licence_id=licence).exists()
    lookups = [
        Ticket.objects.with_serial("12", licence_id=licence),
        Ticket.objects.with_serials(["345", "346"], licence_id=licence),
        Ticket.objects.with_serial("12"),
    ]
    # The plans of a table with tickets in it, as in a season: on a near-empty one, an index scan on the
    # licence alone costs the planner as little as one on licence, length and serial, and either may come.
    season = _sale_like(sold, first_seq=100, ticket_count=3000)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void) "
            "SELECT %s, %s, %s, 'S' || n, n, false FROM generate_series(100, 3099) AS n",
            [licence, sold.draw_id, season.pk],
        )
        cursor.execute("ANALYZE raffle_ticket")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        for lookup in lookups:
            plan = lookup.explain()
            assert "ticket_serial_unique_per_licence" in plan, plan
            assert "length((serial)::text) =" in plan.split("Index Cond:", 1)[1], plan


def _sell_one(draw, actor, **fields):
    return services.ticket_sell(
        actor=actor,
        draw=draw,
        tier_quantity=1,
        purchaser_name=fields.pop("purchaser_name", "Bo"),
        purchaser_contact="519-555-0102",
        envelope_pick=4,
        device="POS-2",
        **fields,
    )


def test_a_sale_at_the_counter_takes_its_seqs_and_writes_its_rows_in_one_statement(sold, staff_user):  # R:T4
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        sale = _sell_one(sold.draw, staff_user)
    statements = [q["sql"] for q in captured.captured_queries]
    [write] = [sql for sql in statements if "UPDATE raffle_draw" in sql]
    assert 'INSERT INTO "raffle_sale"' in write and "INSERT INTO raffle_ticket" in write
    assert [sql for sql in statements if "raffle_ticket (" in sql or '"raffle_sale" (' in sql] == [write]
    [ticket] = Ticket.objects.of_sale(sale)
    assert (sale.first_seq, ticket.seq, ticket.serial, ticket.sale_id) == (2, 2, "E001-0000002", sale.pk)
    assert Sale.objects.get(pk=sale.pk).first_seq == 2
    sold.draw.refresh_from_db()
    assert (sold.draw.tickets_valid, sold.draw.sales_valid, sold.draw.sales_amount) == (2, 2, 2 * sale.amount)


def test_electronic_serials_numbered_in_one_statement_read_as_the_steps_number_them(sold, staff_user):  # R:T3
    from django.db.models import F

    from raffle.models import Draw

    # The draw as far as its 9,999,998th ticket (only its counter: seqs are taken from it).
    Draw.objects.filter(pk=sold.draw_id).update(tickets_valid=F("tickets_valid") + 9_999_997)
    serials = [Ticket.objects.of_sale(_sell_one(sold.draw, staff_user)).get().serial for _ in range(2)]
    assert serials == [f"E001-{n:07d}" for n in (9_999_999, 10_000_000)] == ["E001-9999999", "E001-10000000"]


def test_a_sale_the_database_cannot_hold_is_refused_whole_never_cut_short(sold):
    # The one statement's values are cast to their columns' types without length: a value
    # longer than its column is refused by the INSERT, never shortened by the cast.
    from raffle.models import DrawState
    from raffle.services.ticket_rows import sell_one_in_one_statement

    fields = {f.attname: getattr(sold, f.attname) for f in Sale._meta.concrete_fields if f.name != "id"}
    too_long = Sale(**{**fields, "device": "D" * 61, "first_seq": 1})
    take_seq = (
        "UPDATE raffle_draw SET tickets_valid = tickets_valid + 1 WHERE id = %s AND state = %s",
        [sold.draw_id, DrawState.SELLING],
    )
    before = (Sale.objects.count(), Ticket.objects.count())
    with pytest.raises(DatabaseError, match="too long"), transaction.atomic():
        sell_one_in_one_statement(too_long, take_seq=take_seq, serials=None, serial_prefix="E001-", chain=0)
    assert (Sale.objects.count(), Ticket.objects.count()) == before
    fine = Sale(**{**fields, "device": "D" * 60, "first_seq": 1})
    with transaction.atomic():
        first_seq, _sold, serials, _head = sell_one_in_one_statement(
            fine, take_seq=take_seq, serials=None, serial_prefix="E001-", chain=0
        )
    assert (first_seq, serials, Sale.objects.get(pk=fine.pk).device) == (2, ["E001-0000002"], "D" * 60)


def test_tickets_sent_by_copy_that_the_database_refuses_raise_and_write_nothing(sold):  # R:T7
    # More than FEW_TICKETS go by COPY, formatted while a second thread sends them (psycopg's
    # QueuedLibpqWriter): a refusal the server makes at the end of the COPY still reaches the caller,
    # nothing is written, and the connection serves the next statement.
    from raffle.services.ticket_rows import FEW_TICKETS, write_tickets

    count = FEW_TICKETS + 500
    big = _sale_like(sold, first_seq=2, ticket_count=count)
    serials = [str(10_000 + n) for n in range(count)]
    before = Ticket.objects.count()
    # not a returned roll's sale: its tickets cannot be at their place in one
    with pytest.raises(IntegrityError, match="not at its place in its returned roll"), transaction.atomic():
        with connection.wrap_database_errors:
            write_tickets(
                licence_id=big.licence_id, draw_id=big.draw_id, groups=[(big.pk, 2, serials)], in_roll_range=True
            )
    assert Ticket.objects.count() == before
    with transaction.atomic():
        write_tickets(licence_id=big.licence_id, draw_id=big.draw_id, groups=[(big.pk, 2, serials)])
    assert Ticket.objects.filter(sale=big).count() == count
