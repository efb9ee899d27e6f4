"""A returned roll's tickets are unique by their place in the roll, not on the
serial index (RULES T3; #18, migration 0027): every way a serial is read
still finds them, and every way a duplicate could be written is refused, by
the services in plain words and by PostgreSQL underneath."""

import threading
import time

import pytest
from django.db import IntegrityError, connection, connections, transaction

from licensing.models import SalesChannel
from raffle import services
from raffle.errors import RaffleError
from raffle.models import Sale, Ticket, TicketRoll
from raffle.services.pool import paper_ticket
from raffle.services.rolls import SERIALS_LOCK_CLASS
from tests.factories import LicenceFactory, UserFactory, event_with_draw

pytestmark = pytest.mark.django_db


def _open_draw(channel, actor):
    event = event_with_draw(actor=actor, licence=LicenceFactory(sales_channel=channel))
    return services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))


@pytest.fixture
def roll_draw(staff_user):
    return _open_draw(SalesChannel.PAPER_ROLL, staff_user)


def _returned(draw, actor, first, last, first_unsold, tier_counts):
    roll = services.roll_issue(actor=actor, draw=draw, seller_name="Jo", first_serial=first, last_serial=last)
    services.roll_return(actor=actor, roll=roll, first_unsold=first_unsold, tier_counts=tier_counts)
    roll.refresh_from_db()
    return roll


def _sell_stub(draw, actor, serial):
    return services.ticket_sell(
        actor=actor,
        draw=draw,
        tier_quantity=1,
        serials=[serial],
        purchaser_name="Ann",
        purchaser_contact="519-555-0101",
        envelope_pick=3,
    )


def _widen(sale, count=20):
    """Give a sale room for more tickets, as a database user could (a sale's
    count never changes through the application: its trigger refuses it)."""
    with connection.cursor() as cursor:
        cursor.execute("ALTER TABLE raffle_sale DISABLE TRIGGER raffle_sale_keys_fixed")
        cursor.execute("UPDATE raffle_sale SET ticket_count = %s WHERE id = %s", [count, sale.pk])
        cursor.execute("ALTER TABLE raffle_sale ENABLE TRIGGER raffle_sale_keys_fixed")


def _insert(sql, params):
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


TICKET_SQL = (
    "INSERT INTO raffle_ticket (licence_id, draw_id, sale_id, serial, seq, is_void, in_roll_range) "
    "VALUES (%s, %s, %s, %s, %s, false, %s)"
)


def test_a_returned_rolls_tickets_are_at_their_place_and_off_the_serial_index(roll_draw, staff_user):  # R:T3
    first = _returned(roll_draw, staff_user, 1000, 1099, 1030, {1: 15, 3: 5})  # 15 + 15 = 30 sold
    second = _returned(roll_draw, staff_user, 2000, 2049, 2010, {1: 10})
    tickets = Ticket.objects.filter(draw=roll_draw).order_by("seq")
    assert [t.in_roll_range for t in tickets] == [True] * 40
    assert first.first_seq == 1 and second.first_seq == 31
    assert [(t.seq, t.serial) for t in tickets][:3] == [(1, "1000"), (2, "1001"), (3, "1002")]
    assert [(t.seq, t.serial) for t in tickets][30:32] == [(31, "2000"), (32, "2001")]
    # every ticket's serial is its roll's first serial plus its place after the roll's first seq
    for ticket in tickets:
        roll = first if ticket.seq < 31 else second
        assert int(ticket.serial) == roll.first_serial + ticket.seq - roll.first_seq


def test_every_reader_of_a_serial_finds_a_returned_rolls_ticket(roll_draw, staff_user, client):  # R:T3 R:D2
    _returned(roll_draw, staff_user, 1000, 1099, 1030, {1: 15, 3: 5})
    licence_id = roll_draw.event.licence_id
    wanted = Ticket.objects.filter(draw=roll_draw, seq=13).get()
    assert wanted.serial == "1012"
    assert list(Ticket.objects.with_serial("1012", licence_id=licence_id)) == [wanted]
    assert list(Ticket.objects.with_serial("1012")) == [wanted]  # under every licence
    # sold and unsold, numbers and not: only the sold ones are found
    found = Ticket.objects.with_serials(["1000", "1029", "1030", "1099", "0100", "E001-0000001"], licence_id=licence_id)
    assert sorted(found.values_list("serial", flat=True)) == ["1000", "1029"]
    assert paper_ticket(draw=roll_draw, serial="1012", serial_again="1012") == wanted
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    response = client.get("/admin/raffle/ticket/", {"q": "1012"})
    assert list(response.context["cl"].result_list) == [wanted]


def test_a_serial_lookup_stays_on_indexes(roll_draw, staff_user):  # R:T3 #18
    _returned(roll_draw, staff_user, 1, 5000, 4001, {1: 4000})
    queryset = Ticket.objects.with_serials(["17", "3999"], licence_id=roll_draw.event.licence_id)
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")  # a plan that needs a scan shows one anyway
        sql, params = queryset.query.sql_with_params()
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Seq Scan" not in plan and "ticket_serial_unique_per_licence" in plan, plan
    assert sorted(queryset.values_list("serial", flat=True)) == ["17", "3999"]


def test_a_roll_cannot_be_issued_over_a_serial_already_sold(staff_user):  # R:T3
    draw = _open_draw(SalesChannel.PAPER_STUB, staff_user)
    services.roll_issue(actor=staff_user, draw=draw, seller_name="Jo", first_serial=500, last_serial=599, kind="book")
    _sell_stub(draw, staff_user, "512")
    # a roll over serial 512 is refused by the ticket sold (and by the book's range:
    # the book is moved out of the way so that only the ticket stands in it)
    TicketRoll.objects.filter(draw=draw).update(first_serial=513)
    with pytest.raises(RaffleError, match="Ticket 512 is already sold"):
        services.roll_issue(actor=staff_user, draw=draw, seller_name="Al", first_serial=400, last_serial=512)
    assert TicketRoll.objects.filter(draw=draw).count() == 1


def test_a_stub_typed_inside_a_rolls_range_is_refused_in_plain_words(staff_user):  # R:T3
    draw = _open_draw(SalesChannel.PAPER_STUB, staff_user)
    services.roll_issue(actor=staff_user, draw=draw, seller_name="Jo", first_serial=1, last_serial=100, kind="roll")
    with pytest.raises(RaffleError, match=r"Serial 42 is printed on Roll of tickets 1–100 \(Jo\), issued for draw 1"):
        _sell_stub(draw, staff_user, "42")
    assert not Ticket.objects.filter(draw=draw).exists()


def test_postgresql_refuses_a_roll_ticket_away_from_its_place(roll_draw, staff_user):  # R:T3
    roll = _returned(roll_draw, staff_user, 1000, 1099, 1010, {1: 10})
    sale = Sale.objects.get(draw=roll_draw)
    licence, draw = roll_draw.event.licence_id, roll_draw.pk
    with pytest.raises(IntegrityError, match="raffle_ticket_pkey"):  # "1005" again, at its place: seq 6 is taken
        _insert(TICKET_SQL, [licence, draw, sale.pk, "1005", 6, True])
    _widen(sale)  # past the services: room in the sale's run for more of the roll's tickets
    # seq 12 is the place of 1011, in the roll's unsold part: refused as it is, and
    # as 1003 again, as 1011 written otherwise, as 1012
    assert (roll.first_serial + 12 - roll.first_seq, roll.first_unsold) == (1011, 1010)
    for serial in ("1011", "1003", "01011", "1012"):
        with pytest.raises(IntegrityError, match="not at its place in its returned roll"):
            _insert(TICKET_SQL, [licence, draw, sale.pk, serial, 12, True])
    _insert(TICKET_SQL, [licence, draw, sale.pk, "E001-0000012", 12, False])  # another serial: accepted (the control)


def test_postgresql_refuses_a_ticket_on_the_serial_index_that_a_roll_carries(roll_draw, staff_user):  # R:T3
    _returned(roll_draw, staff_user, 1000, 1099, 1010, {1: 10})
    sale = Sale.objects.get(draw=roll_draw)
    licence, draw = roll_draw.event.licence_id, roll_draw.pk
    _widen(sale)
    for serial in ("1003", "1050"):  # sold, and in the roll's unsold part
        with pytest.raises(IntegrityError, match="ticket_serial_unique_per_licence") as refused:
            _insert(TICKET_SQL, [licence, draw, sale.pk, serial, 11, False])
        assert f"=({licence}, 4, {serial}) already exists" in str(refused.value.__cause__.diag.message_detail)
    _insert(TICKET_SQL, [licence, draw, sale.pk, "01003", 11, False])  # another serial as written: accepted


def test_postgresql_keeps_a_returned_rolls_range_and_its_tickets_fixed(roll_draw, staff_user):  # R:T3 R:T7
    roll = _returned(roll_draw, staff_user, 1000, 1099, 1010, {1: 10})
    changes = [
        "UPDATE raffle_ticketroll SET first_serial = 990 WHERE id = %s",
        "UPDATE raffle_ticketroll SET first_seq = 2 WHERE id = %s",
        "UPDATE raffle_ticketroll SET kind = 'book' WHERE id = %s",
        "UPDATE raffle_ticketroll SET first_unsold = 1050 WHERE id = %s",  # more of it sold, after the return
    ]
    for sql in changes:
        with pytest.raises(IntegrityError):
            _insert(sql, [roll.pk])
    with pytest.raises(IntegrityError, match="never changes"):
        _insert("UPDATE raffle_ticket SET in_roll_range = false WHERE draw_id = %s", [roll_draw.pk])
    # an overlapping roll written past the service is refused by the exclusion constraint
    with pytest.raises(IntegrityError, match="roll_ranges_never_overlap"):
        _insert(
            "INSERT INTO raffle_ticketroll (licence_id, draw_id, kind, seller_name, first_serial, last_serial, "
            "issued_at, lost_reason) VALUES (%s, %s, 'roll', 'X', 1099, 1200, now(), '')",
            [roll.licence_id, roll_draw.pk],
        )
    _insert("UPDATE raffle_ticketroll SET seller_name = 'Jo Smith' WHERE id = %s", [roll.pk])  # allowed


@pytest.mark.django_db(transaction=True)
def test_a_typed_serial_waits_for_a_roll_being_issued_and_is_then_refused():  # R:T3
    """The race the services cannot show (a stub's book check sees no roll not
    yet committed): a ticket typed while a roll over its serial is being
    issued waits for the roll's lock, then sees the roll and is refused."""
    user = UserFactory()
    draw = _open_draw(SalesChannel.PAPER_STUB, user)
    services.roll_issue(actor=user, draw=draw, seller_name="Jo", first_serial=1, last_serial=10, kind="book")
    sale = _sell_stub(draw, user, "1")
    licence = draw.event.licence_id
    _widen(sale, 2)
    issuing = connections.create_connection("default")
    issuing.set_autocommit(False)
    with issuing.cursor() as cursor:  # as roll_issue does: the licence's serials' lock, then the roll
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [SERIALS_LOCK_CLASS, licence])
        cursor.execute(
            "INSERT INTO raffle_ticketroll (licence_id, draw_id, kind, seller_name, first_serial, last_serial, "
            "issued_at, lost_reason) VALUES (%s, %s, 'roll', 'X', 500, 599, now(), '')",
            [licence, draw.pk],
        )
    outcome = []

    def type_serial():  # a second ticket of the sale's run, past the services
        try:
            _insert(TICKET_SQL, [licence, draw.pk, sale.pk, "550", sale.first_seq + 1, False])
            outcome.append("written")
        except IntegrityError as error:
            outcome.append(str(error))
        finally:
            connection.close()

    typist = threading.Thread(target=type_serial)
    typist.start()
    with issuing.cursor() as cursor:
        for _ in range(100):  # until the ticket's insert waits on the lock
            cursor.execute(
                "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND classid = %s",
                [SERIALS_LOCK_CLASS],
            )
            if cursor.fetchone()[0]:
                break
            time.sleep(0.05)
        else:
            pytest.fail("the typed ticket did not wait for the roll's lock")
    assert outcome == []
    issuing.commit()
    issuing.close()
    typist.join(timeout=30)
    assert len(outcome) == 1 and "ticket_serial_unique_per_licence" in outcome[0], outcome
    assert not Ticket.objects.filter(serial="550").exists()


def test_a_roll_returned_over_a_ticket_typed_before_the_migration_is_refused(roll_draw, staff_user):  # R:T3
    """A ticket on the serial index inside a roll's range could be written
    before migration 0027 (the index then refused the roll's tickets at the
    return); the return looks for it again, having no index to refuse it."""
    earlier = _returned(roll_draw, staff_user, 1, 10, 11, {1: 10})
    roll = services.roll_issue(actor=staff_user, draw=roll_draw, seller_name="Al", first_serial=1000, last_serial=1099)
    sale = Sale.objects.get(roll=earlier)
    with connection.cursor() as cursor:  # as the database held it before the trigger's check of roll ranges
        cursor.execute("ALTER TABLE raffle_ticket DISABLE TRIGGER raffle_ticket_sales_match")
        cursor.execute(TICKET_SQL, [roll.licence_id, roll_draw.pk, sale.pk, "1005", 50, False])
        cursor.execute("ALTER TABLE raffle_ticket ENABLE TRIGGER raffle_ticket_sales_match")
    with pytest.raises(RaffleError, match="Ticket 1005 is already sold under this licence"):
        services.roll_return(actor=staff_user, roll=roll, first_unsold=1010, tier_counts={1: 10})
    roll.refresh_from_db()
    assert roll.first_seq is None and not Ticket.objects.filter(draw=roll_draw, serial="1000").exists()
