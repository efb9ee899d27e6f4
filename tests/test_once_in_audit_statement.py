"""A form's one-time token recorded by the statement of its change's audit
entry (#18, core.once `result_for`, core.audit): one round trip fewer a
sale, with the same guarantees as a record of its own (tests/test_once.py
shows them through the sales page)."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from core import once
from core.audit import audit_record
from core.models import AuditEntry, Submission
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def place_of(obj):
    return f"/things/{obj.pk}/" if obj.username.startswith("thing") else None


def change(actor, thing, *, in_savepoint=False, shown=None):
    """A change whose audit entry names `thing`; returns where it is shown."""

    def perform():
        if in_savepoint:
            with transaction.atomic():
                audit_record(actor=actor, action="thing.made", obj=thing)
        else:
            audit_record(actor=actor, action="thing.made", obj=thing)
        return shown or f"/things/{thing.pk}/"

    return perform


def submitted(token, actor, perform):
    with CaptureQueriesContext(connection) as captured:
        outcome = once.submission_once(actor=actor, token=token, perform=perform, result_for=place_of)
    return outcome, [q["sql"] for q in captured.captured_queries if "core_submission" in q["sql"]]


def test_the_token_is_recorded_by_the_entrys_own_statement():
    actor, thing = UserFactory(username="actor"), UserFactory(username="thing-1")
    token = once.new_token()
    (place, first), statements = submitted(token, actor, change(actor, thing))
    assert (place, first) == (f"/things/{thing.pk}/", True)
    assert len(statements) == 1 and '"core_auditentry"' in statements[0]
    assert Submission.objects.get(token=token).result == place
    assert AuditEntry.objects.filter(action="thing.made").count() == 1


def test_a_token_recorded_before_rolls_back_the_repeat_whole():
    actor, thing = UserFactory(username="actor"), UserFactory(username="thing-1")
    token = once.new_token()
    submitted(token, actor, change(actor, thing))
    (place, first), _ = submitted(token, actor, change(actor, thing))
    assert (place, first) == (f"/things/{thing.pk}/", False)
    assert AuditEntry.objects.filter(action="thing.made").count() == 1  # the repeat's entry rolled back
    assert Submission.objects.filter(token=token).count() == 1


def test_an_entry_in_a_savepoint_leaves_the_token_to_its_own_statement():
    # a savepoint that may roll back cannot carry the token's record
    actor, thing = UserFactory(username="actor"), UserFactory(username="thing-1")
    token = once.new_token()
    (place, first), statements = submitted(token, actor, change(actor, thing, in_savepoint=True))
    assert first and len(statements) == 1 and "core_auditentry" not in statements[0]
    assert Submission.objects.get(token=token).result == place


def test_an_entry_of_another_object_leaves_the_token_to_its_own_statement():
    actor, other = UserFactory(username="actor"), UserFactory(username="other")
    token = once.new_token()
    (place, first), statements = submitted(token, actor, change(actor, other))
    assert first and len(statements) == 1 and "core_auditentry" not in statements[0]
    assert Submission.objects.get(token=token).result == place


def test_a_change_shown_elsewhere_than_its_token_says_records_nothing():
    actor, thing = UserFactory(username="actor"), UserFactory(username="thing-1")
    token = once.new_token()
    entries = AuditEntry.objects.count()
    with pytest.raises(RuntimeError):
        once.submission_once(
            actor=actor, token=token, perform=change(actor, thing, shown="/elsewhere/"), result_for=place_of
        )
    assert not Submission.objects.filter(token=token).exists()
    assert AuditEntry.objects.count() == entries
