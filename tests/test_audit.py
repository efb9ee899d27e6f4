"""The audit trail is append-only and tamper-evident."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from core.audit import audit_record, audit_verify
from core.models import AuditEntry
from raffle.models import CardDestruction
from tests.factories import run_draw

pytestmark = pytest.mark.django_db


def _record(n=3):
    with transaction.atomic():
        for i in range(n):
            audit_record(actor=None, action="test.thing.do", data={"i": i, "amount": "12.50"})


def test_an_update_of_an_audit_row_in_raw_sql_is_refused():
    _record(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE core_auditentry SET action = 'x'")


def test_a_delete_of_an_audit_row_in_raw_sql_is_refused():
    _record(1)
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM core_auditentry")


def test_the_orm_refuses_to_change_audit_rows():
    _record(1)
    entry = AuditEntry.objects.get()
    with pytest.raises(PermissionError):
        entry.save()
    with pytest.raises(PermissionError):
        AuditEntry.objects.all().delete()


def test_an_untouched_chain_verifies(capsys):
    _record(5)
    assert audit_verify().intact
    call_command("verify_audit")
    assert "intact, 5 entries" in capsys.readouterr().out


def test_a_row_altered_behind_the_applications_back_is_named():
    _record(4)
    target = AuditEntry.objects.order_by("id")[2]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE core_auditentry DISABLE TRIGGER core_auditentry_append_only")
        cursor.execute("UPDATE core_auditentry SET data = '{\"i\": 99}' WHERE id = %s", [target.pk])
        cursor.execute("ALTER TABLE core_auditentry ENABLE TRIGGER core_auditentry_append_only")
    report = audit_verify()
    assert not report.intact and report.first_bad_id == target.pk
    with pytest.raises(CommandError, match=f"BROKEN at entry #{target.pk}"):
        call_command("verify_audit")


def test_a_deleted_row_is_detected():
    _record(4)
    target = AuditEntry.objects.order_by("id")[1]
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE core_auditentry DISABLE TRIGGER core_auditentry_append_only")
        cursor.execute("DELETE FROM core_auditentry WHERE id = %s", [target.pk])
        cursor.execute("ALTER TABLE core_auditentry ENABLE TRIGGER core_auditentry_append_only")
    report = audit_verify()
    assert not report.intact and report.first_bad_id > target.pk


def test_the_card_destruction_log_is_append_only(draw, staff_user):  # R:E3
    run_draw(draw, actor=staff_user)
    assert CardDestruction.objects.count() == 1
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE raffle_carddestruction SET card = 'KH'")
