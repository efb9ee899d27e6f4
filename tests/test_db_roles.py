"""The runtime database role: it reads and inserts into the append-only
tables and can neither change, delete, truncate them nor disable their
triggers (R:E3, R:D7). Proven over a real connection as that role."""

import psycopg
import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from psycopg import errors

from core.audit import audit_record
from core.checks import check_runtime_database_role
from core.db_roles import append_only_tables, role_ownership, runtime_privileges

APPEND_ONLY = {
    "core_auditentry",
    "licensing_reportreturn",  # a report the licensing officer sent back, as recorded (R1, R2)
    "raffle_carddestruction",
    "raffle_deckcommitment",
    "raffle_drawpostponement",
    "raffle_registrarnotification",
}


def _role_name() -> str:
    # Roles belong to the whole server: one per test database, so parallel suites do not meet.
    return f"runtime_{connection.settings_dict['NAME']}"[:60]


@pytest.fixture
def runtime_role(transactional_db):
    role = _role_name()
    quoted = connection.ops.quote_name(role)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone():  # left by an interrupted run
            cursor.execute(f"DROP OWNED BY {quoted}")
            cursor.execute(f"DROP ROLE {quoted}")
        cursor.execute(f"CREATE ROLE {quoted} LOGIN")
    call_command("grant_runtime_role", role)
    yield role
    with connection.cursor() as cursor:
        cursor.execute(f"DROP OWNED BY {quoted}")
        cursor.execute(f"DROP ROLE {quoted}")


def _connect(role):
    settings = connection.settings_dict
    return psycopg.connect(
        host=settings["HOST"] or "127.0.0.1",
        port=settings["PORT"] or 5432,
        dbname=settings["NAME"],
        user=role,
        autocommit=False,
    )


def test_the_append_only_tables_are_found_from_their_triggers(db):
    with connection.cursor() as cursor:
        assert set(append_only_tables(cursor)) == APPEND_ONLY
        plan = {item.table: item.privileges for item in runtime_privileges(cursor)}
    assert all(plan[table] == ("SELECT", "INSERT") for table in APPEND_ONLY)
    assert plan["raffle_ticket"] == ("SELECT", "INSERT", "UPDATE")  # never deleted (R:T11)
    assert plan["django_migrations"] == ("SELECT",)
    assert plan["django_session"] == ("SELECT", "INSERT", "UPDATE", "DELETE")


@pytest.mark.parametrize("table", sorted(APPEND_ONLY))
def test_the_runtime_role_cannot_change_truncate_or_untrigger_an_append_only_table(runtime_role, table):  # R:E3
    with transaction.atomic():
        audit_record(actor=None, action="test.thing.do")  # at least one row to aim at
    attempts = {
        "update": f"UPDATE {table} SET id = id",
        "delete": f"DELETE FROM {table}",
        "truncate": f"TRUNCATE {table}",
        "disable trigger": f"ALTER TABLE {table} DISABLE TRIGGER USER",
        "drop trigger": f"DROP TRIGGER {table}_append_only ON {table}",
    }
    with _connect(runtime_role) as conn:
        with conn.cursor() as cursor:
            cursor.execute(f"SELECT count(*) FROM {table}")  # it may read
            conn.rollback()
            for what, statement in attempts.items():
                # The privilege refuses it, not only the trigger (which says "append-only").
                with pytest.raises(errors.InsufficientPrivilege, match="permission denied|must be owner"):
                    cursor.execute(statement)
                    pytest.fail(f"the runtime role could {what} {table}")
                conn.rollback()


def test_the_runtime_role_appends_to_the_audit_trail(runtime_role):
    with _connect(runtime_role) as conn, conn.cursor() as cursor:
        cursor.execute(
            "INSERT INTO core_auditentry (chain, seq, at, actor_label, action, object_type, object_id, "
            "object_repr, data, prev_hash, hash) VALUES (0, 1, now(), 'system', 'test.thing.do', '', '', '', "
            "'{}', %s, %s) RETURNING id",
            ["0" * 64, "f" * 64],
        )
        assert cursor.fetchone()[0] > 0
        role, superuser, owned = role_ownership(cursor)
    assert (role, superuser, owned) == (runtime_role, False, 0)


def test_an_entry_the_runtime_role_inserts_by_hand_is_named_by_verify_audit(runtime_role):  # R:E3
    """The runtime role may insert (it must, to append), but without the key
    its row cannot carry the chain's HMAC: verify_audit names it."""
    from core.audit import audit_verify
    from core.models import AuditEntry

    with transaction.atomic():
        last = audit_record(actor=None, action="test.thing.do")
    with _connect(runtime_role) as conn, conn.cursor() as cursor:
        cursor.execute(
            "INSERT INTO core_auditentry (chain, seq, at, actor_label, action, object_type, object_id, "
            "object_repr, data, prev_hash, hash) VALUES (%s, %s, now(), 'system', 'core.user.login', '', '', '', "
            "'{}', %s, %s) RETURNING id",
            [last.chain, last.seq + 1, last.hash, "f" * 64],
        )
        forged = cursor.fetchone()[0]
        conn.commit()
    report = audit_verify()
    assert not report.intact and report.first_bad_id == forged
    assert AuditEntry.objects.filter(pk=forged).exists()


def test_the_owner_cannot_truncate_an_append_only_table_either(db):  # R:E3
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("TRUNCATE core_auditentry")


def test_the_deploy_check_warns_when_the_app_is_served_by_a_role_that_owns_its_tables(db):
    # The test suite connects as the superuser that owns everything.
    assert [w.id for w in check_runtime_database_role(None)] == ["core.W002"]


def test_granting_to_a_superuser_or_an_unknown_role_is_refused(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No database role"):
        call_command("grant_runtime_role", "no_such_role_here")
    with pytest.raises(CommandError, match="superuser"):
        call_command("grant_runtime_role", "postgres")
