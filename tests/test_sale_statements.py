"""One sale's SQL statements are counted, so the sale path cannot grow again
silently (#18: one sale through the service within 4x of the same rows
written with hand-written SQL; docs/benchmarks.md, "One sale")."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from core import roles
from core.audit import LockedHead, audit_record, audit_verify, locked_chain_last
from core.audit_chain import LOCK_CLASS
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.services.sale_path import read_sale_draw
from tests.factories import LicenceFactory, event_with_draw, once, user_with_role

pytestmark = pytest.mark.django_db

# The statements of one electronic sale on PostgreSQL, BEGIN and COMMIT aside (5 with them: docs/benchmarks.md):
# the draw's totals (its lock) with the sale, its tickets and the audit chain's lock and head in one, the
# audit entry, and one read of the draw.
SALE_STATEMENTS = 3
# A part only the read of the draw for a sale has (raffle.services.sale_read).
DRAW_READ = "FROM licensing_excludedperson x"


def sell_one(actor, draw):
    return services.ticket_sell(
        actor=actor,
        draw=draw,
        tier_quantity=1,
        purchaser_name="Ann Buyer",
        purchaser_contact="519-555-0101",
        envelope_pick=10,
        device="POS-1",
    )


def test_one_sale_takes_a_fixed_number_of_statements(staff_user):  # #18
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    with CaptureQueriesContext(connection) as captured:
        sale = sell_one(staff_user, draw)
    # the test's own transaction turns the service's atomic block into a savepoint: not counted
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert sale.tickets.count() == 1
    assert len(statements) <= SALE_STATEMENTS, "\n".join(statements)


def test_the_draw_read_for_the_sales_page_serves_one_sale_only(staff_user):  # #18
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    read = read_sale_draw(draw.pk)
    with CaptureQueriesContext(connection) as first:
        sell_one(staff_user, read)
    with CaptureQueriesContext(connection) as second:
        sell_one(staff_user, read)  # the same object again: read afresh, as any other draw
    reads = [len([q for q in c.captured_queries if DRAW_READ in q["sql"]]) for c in (first, second)]
    assert reads == [0, 1]


def test_a_sale_locks_its_audit_chain_in_the_statement_that_writes_it(staff_user):  # #18 R:E3
    # One round trip fewer while the draw is locked: the chain's lock and head come back with the
    # sale's own statement, after the draw's lock; its entry follows the head read so, and a second
    # sale in another transaction appends after the first.
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    chain = event.licence.organisation_id
    with CaptureQueriesContext(connection) as captured:
        first = sell_one(staff_user, draw)
    locking = [q["sql"] for q in captured.captured_queries if "core_audit_chain_lock_head" in q["sql"]]
    assert len(locking) == 1 and "UPDATE raffle_draw" in locking[0]
    assert locking[0].index("UPDATE raffle_draw") < locking[0].index("core_audit_chain_lock_head")
    second = sell_one(staff_user, draw)
    entries = list(AuditEntry.objects.filter(chain=chain).order_by("-seq")[:2])
    assert [e.object_id for e in entries] == [str(second.pk), str(first.pk)]
    assert entries[0].seq == entries[1].seq + 1 and entries[0].prev_hash == entries[1].hash
    assert audit_verify().intact


def test_a_sale_refused_by_a_closed_draw_never_locks_the_audit_chain(staff_user):  # #18 R:T4
    # The chain's lock follows the draw's UPDATE in the sale's statement: when that UPDATE finds
    # the draw no longer selling, the statement writes nothing and takes no chain lock.
    from raffle.models import Sale
    from raffle.services.ticket_rows import DrawStoppedSelling, sell_one_in_one_statement

    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    sold = sell_one(staff_user, draw)
    fields = {f.attname: getattr(sold, f.attname) for f in Sale._meta.concrete_fields if f.name != "id"}
    closed = ("UPDATE raffle_draw SET tickets_valid = tickets_valid + 1 WHERE id = %s AND state = %s", [draw.pk, "x"])
    chain = 987_654  # a chain nothing else in this test's transaction has locked
    chain_locks = (
        "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() "
        "AND classid = %s AND objid = %s"
    )
    with transaction.atomic():
        with pytest.raises(DrawStoppedSelling):
            sell_one_in_one_statement(Sale(**fields), take_seq=closed, serials=None, serial_prefix="E001-", chain=chain)
        with connection.cursor() as cursor:
            cursor.execute(chain_locks, [LOCK_CLASS, chain])
            assert cursor.fetchone()[0] == 0
        open_ = (
            "UPDATE raffle_draw SET tickets_valid = tickets_valid + 1 WHERE id = %s AND state = %s",
            [draw.pk, "selling"],
        )
        sell_one_in_one_statement(Sale(**fields), take_seq=open_, serials=None, serial_prefix="E001-", chain=chain)
        with connection.cursor() as cursor:
            cursor.execute(chain_locks, [LOCK_CLASS, chain])
            assert cursor.fetchone()[0] == 1


def test_a_head_read_for_one_append_cannot_serve_a_second(staff_user):  # #18 R:E3
    # Used twice, a head read under the lock gives the second entry a position already taken:
    # the chain's unique position refuses it instead of forking the chain.
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    chain = event.licence.organisation_id
    with transaction.atomic():
        head = LockedHead(chain=chain, last=locked_chain_last(chain))
        audit_record(actor=staff_user, action="test.first", organisation=chain, locked_head=head)
        with pytest.raises(IntegrityError), transaction.atomic():
            audit_record(actor=staff_user, action="test.second", organisation=chain, locked_head=head)
    assert audit_verify().intact


def test_a_head_of_another_chain_is_refused_before_anything_is_written(staff_user):  # #18 R:E3
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    chain = event.licence.organisation_id
    before = AuditEntry.objects.count()
    with pytest.raises(RuntimeError, match="head of chain"), transaction.atomic():
        audit_record(actor=staff_user, action="test", organisation=chain, locked_head=LockedHead(chain + 1, None))
    assert AuditEntry.objects.count() == before


def test_a_sale_from_the_sales_page_takes_a_fixed_number_of_statements(client, staff_user):  # #18
    # The page reads the draw, and whether it is the seller's, once; the sale uses that read.
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    seller = user_with_role(roles.SELLER, organisation=event.licence.organisation)
    client.force_login(seller)
    url = reverse("sales_sell", args=[draw.pk])
    form = once(tier="1", units="1", purchaser_name="Ann", purchaser_contact="519-555-0101", envelope_pick="10")
    with CaptureQueriesContext(connection) as captured:
        response = client.post(url, {**form, "device": "POS-1"})
    assert response.status_code == 302, response.content[:500]
    # the sale runs in the one-time token's transaction (no savepoint of its own); the token is
    # recorded, with its result, by the statement of the sale's audit entry (core.once, core.audit)
    sent = [q["sql"] for q in captured.captured_queries]
    [draw_lock] = [i for i, sql in enumerate(sent) if "UPDATE raffle_draw" in sql]
    [token_write] = [i for i, sql in enumerate(sent) if "core_submission" in sql]
    assert "INSERT INTO core_submission" in sent[token_write] and '"core_auditentry"' in sent[token_write]
    assert draw_lock < token_write and not any("SAVEPOINT" in sql for sql in sent[draw_lock:token_write])
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    # the session, the user with their roles (core.auth_backend) and the authenticator; the sale with
    # its one read of the draw and the token in its audit entry's statement; the session's write (the
    # device remembered)
    assert len(statements) <= 3 + SALE_STATEMENTS + 1, "\n".join(statements)
    assert sum(DRAW_READ in sql for sql in statements) == 1


def test_the_sale_paths_statements_are_planned_once_per_connection(staff_user):  # #18
    # core.prepared: after its first executions PostgreSQL keeps one generic plan of the draw
    # read and of the statement that takes the draw's lock and writes the sale, instead of planning
    # them for every sale.
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.ELECTRONIC))
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    for _ in range(8):
        sell_one(staff_user, draw)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement, generic_plans FROM pg_prepared_statements WHERE statement LIKE %s OR statement LIKE %s",
            [f"%{DRAW_READ}%", "%WITH d AS (UPDATE raffle_draw SET sales_amount%"],
        )
        plans = cursor.fetchall()
    assert len(plans) == 2 and all(generic >= 2 for _statement, generic in plans), plans
