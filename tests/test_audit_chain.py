"""The audit chains: one per organisation, HMAC-SHA-256 under a key kept out
of the database, anchors printed on issued reports and checked by
`verify_audit`, and incremental verification from a checkpoint (R:E3, R:D7)."""

import hashlib
import json

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection, transaction
from django.urls import reverse

from core import roles
from core.audit import audit_record, audit_verify, chain_head, verify_anchor, verify_incremental
from core.audit_chain import GENESIS_HASH, SYSTEM_CHAIN, chain_of
from core.checks import check_audit_chain_key
from core.models import AuditCheckpoint, AuditEntry
from licensing.models import IssuedReport, ReportKind
from licensing.services import report_issue
from raffle.reports.builders import four_draw_report
from raffle.reports.render import four_draw_csv, four_draw_pdf
from tests.factories import OrganisationFactory, event_with_closed_draws, user_with_role

pytestmark = pytest.mark.django_db


def _record(n=3, organisation=None):
    with transaction.atomic():
        for i in range(n):
            audit_record(actor=None, action="test.thing.do", data={"i": i}, organisation=organisation)


def _as_owner(*statements):
    """What someone connected as the tables' owner can do: disable the trigger and write."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE core_auditentry DISABLE TRIGGER USER")
        for sql, params in statements:
            cursor.execute(sql, params)
        cursor.execute("ALTER TABLE core_auditentry ENABLE TRIGGER USER")


def _rechain(first_id, key: bytes | None):
    """Rewrite entry `first_id`'s data and recompute every later hash of its
    chain, with SHA-256 (key None) or an HMAC under `key`: what an attacker
    with the database but not the real key would do."""
    from core import audit_chain

    entries = list(AuditEntry.objects.filter(chain=AuditEntry.objects.get(pk=first_id).chain).order_by("seq"))
    statements, prev = [], GENESIS_HASH
    for entry in entries:
        if entry.pk < first_id:
            prev = entry.hash  # the entries before it are left as they are
            continue
        if entry.pk == first_id:
            entry.data = {"i": 999}
        entry.prev_hash = prev
        original = audit_chain.chain_key
        audit_chain.chain_key = lambda: key or b""
        try:
            payload_mac = audit_chain.mac_of(entry)
        finally:
            audit_chain.chain_key = original
        if key is None:
            payload_mac = hashlib.sha256(payload_mac.encode()).hexdigest()
        statements.append(
            (
                "UPDATE core_auditentry SET data = %s::jsonb, prev_hash = %s, hash = %s WHERE id = %s",
                [json.dumps(entry.data), prev, payload_mac, entry.pk],
            )
        )
        prev = payload_mac
    _as_owner(*statements)


def test_each_organisation_has_its_own_chain_and_the_rest_goes_to_the_system_chain():
    first, second = OrganisationFactory(), OrganisationFactory()
    _record(2, first)
    _record(3, second)
    _record(1)
    assert list(AuditEntry.objects.filter(chain=first.pk).values_list("seq", flat=True)) == [1, 2]
    assert list(AuditEntry.objects.filter(chain=second.pk).values_list("seq", flat=True)) == [1, 2, 3]
    assert AuditEntry.objects.get(chain=SYSTEM_CHAIN).prev_hash == GENESIS_HASH
    report = audit_verify()
    assert report.intact and report.entries == 6


def test_an_entry_about_a_draw_goes_to_its_organisations_chain(event):
    draw = event.draws.get(number=1)
    organisation_id = event.licence.organisation_id
    assert chain_of(draw) == chain_of(event) == chain_of(event.licence) == organisation_id
    assert AuditEntry.objects.filter(action="raffle.event.setup", chain=organisation_id).exists()


def test_a_chain_recomputed_with_plain_sha256_is_reported_at_the_first_changed_entry():  # R:E3
    _record(5)
    target = AuditEntry.objects.order_by("id")[2]
    _rechain(target.pk, key=None)
    report = audit_verify()
    assert not report.intact and report.first_bad_id == target.pk
    with pytest.raises(CommandError, match=f"BROKEN at entry #{target.pk}"):
        call_command("verify_audit")


def test_a_chain_recomputed_under_a_guessed_key_is_reported_at_the_first_changed_entry():  # R:E3
    _record(5)
    target = AuditEntry.objects.order_by("id")[1]
    _rechain(target.pk, key=b"guessed-key")
    report = audit_verify()
    assert not report.intact and report.first_bad_id == target.pk


def test_the_chain_does_not_verify_under_another_key(settings):
    _record(2)
    settings.AUDIT_CHAIN_KEY = "another-key-of-enough-length-0123456789"
    report = audit_verify()
    assert not report.intact and report.first_bad_id == AuditEntry.objects.order_by("id").first().pk


def test_without_the_key_nothing_is_written_and_the_deploy_check_says_so(settings):
    settings.AUDIT_CHAIN_KEY = ""
    with pytest.raises(ImproperlyConfigured, match="AUDIT_CHAIN_KEY"), transaction.atomic():
        audit_record(actor=None, action="test.thing.do")
    assert not AuditEntry.objects.exists()
    assert [e.id for e in check_audit_chain_key(None)] == ["core.E001"]
    settings.AUDIT_CHAIN_KEY = "short"
    assert [e.id for e in check_audit_chain_key(None)] == ["core.W001"]


# --- anchors --------------------------------------------------------------


def test_an_anchor_written_down_is_checked_by_verify_audit(capsys):
    organisation = OrganisationFactory()
    _record(3, organisation)
    anchor = chain_head(organisation)
    assert anchor.seq == 3
    call_command("verify_audit", "--anchor", str(anchor))
    assert "1 anchor(s) hold" in capsys.readouterr().out
    wrong = f"{anchor.entry_id}:{'a' * 64}"
    with pytest.raises(CommandError, match="1 anchor"):
        call_command("verify_audit", "--anchor", wrong)
    assert "no longer has the anchored hash" in capsys.readouterr().out


@pytest.fixture
def issued(treasurer):
    """A four-draw report issued as a PDF and one as a CSV, each printing its anchor."""
    event, _ = event_with_closed_draws(["100.00", "100.00", "100.00", "100.00"], actor=treasurer)
    report = four_draw_report(event, 1)
    reports = [
        report_issue(
            actor=treasurer,
            licence=event.licence,
            kind=ReportKind.FOUR_DRAW,
            file_format=fmt,
            content=content,
            period=1,
            fee=report.fee,
            due_on=report.due_on,
        )
        for fmt, content in (("pdf", four_draw_pdf(report)), ("csv", four_draw_csv(report).encode()))
    ]
    return event, [IssuedReport.objects.get(pk=r.pk) for r in reports]


def test_an_issued_report_prints_its_organisations_chain_head_and_keeps_it(issued):
    event, (pdf, csv) = issued
    organisation_id = event.licence.organisation_id
    for report in (pdf, csv):
        entry = AuditEntry.objects.get(pk=report.anchor_entry_id)
        assert (report.anchor_hash, report.anchor_chain, report.anchor_seq) == (entry.hash, organisation_id, entry.seq)
    assert f"Audit anchor {csv.anchor_entry_id}:{csv.anchor_hash}" in csv.file.read().decode()
    report = audit_verify()
    assert report.intact
    call_command("verify_audit")


def test_deleting_the_newest_entries_is_reported_against_the_reports_anchors(issued):  # R:E3
    event, (pdf, csv) = issued
    chain = event.licence.organisation_id
    newest = AuditEntry.objects.filter(chain=chain).order_by("-seq")[:3]
    first_deleted = min(e.seq for e in newest)
    _as_owner(("DELETE FROM core_auditentry WHERE id = ANY(%s)", [[e.pk for e in newest]]))
    assert audit_verify().intact  # what is left still chains: only the anchors show it
    with pytest.raises(CommandError, match="anchor"):
        call_command("verify_audit")
    check = verify_anchor(csv.anchor_entry_id, csv.anchor_hash, chain=chain, seq=csv.anchor_seq)
    assert not check.ok and f"first entry that differs is position {first_deleted} of its chain" in check.reason


def test_a_truncated_trail_is_reported_against_the_reports_anchors(issued, capsys):  # R:E3
    _as_owner(("DELETE FROM core_auditentry", []))  # what TRUNCATE would leave, past its trigger
    with pytest.raises(CommandError, match="2 anchor"):
        call_command("verify_audit")
    assert "is missing (deleted, or the table truncated)" in capsys.readouterr().out
    assert "position 1 of its chain (from the first entry)" in str(verify_stored_first_failure())


def verify_stored_first_failure():
    from core.audit_verify import verify_stored_anchors

    return next(check for check in verify_stored_anchors() if not check.ok)


def test_a_chain_rewritten_by_someone_with_the_key_is_reported_against_the_anchor(issued, settings):  # R:E3
    event, (pdf, _) = issued
    target = AuditEntry.objects.filter(chain=event.licence.organisation_id).order_by("seq")[1]
    _rechain(target.pk, key=settings.AUDIT_CHAIN_KEY.encode())
    assert audit_verify().intact  # consistent under the key...
    check = verify_anchor(pdf.anchor_entry_id, pdf.anchor_hash)
    assert not check.ok and "was rewritten" in check.reason  # ...but not with what was printed


# --- incremental verification ----------------------------------------------


def test_the_page_check_reads_only_what_was_appended_since_the_checkpoint():
    _record(4)
    assert audit_verify().checked == 4
    _record(2)
    report = verify_incremental()
    assert report.intact and report.entries == 6 and report.checked == 2
    assert report.full_verified_at is not None


def test_deleting_the_checkpointed_entry_is_reported_by_the_page_check():
    _record(4)
    audit_verify()
    checkpoint = AuditCheckpoint.objects.get()
    _as_owner(("DELETE FROM core_auditentry WHERE id = %s", [checkpoint.entry_id]))
    report = verify_incremental()
    assert not report.intact and report.first_bad_id == checkpoint.entry_id


def test_a_forged_checkpoint_is_ignored_and_the_chain_checked_from_the_first_entry():
    _record(3)
    audit_verify()
    target = AuditEntry.objects.order_by("id")[0]
    _rechain(target.pk, key=None)
    head = AuditEntry.objects.order_by("-id").first()
    AuditCheckpoint.objects.update(seq=head.seq, entry_id=head.pk, hash=head.hash)  # no valid MAC
    report = verify_incremental()
    assert not report.intact and report.first_bad_id == target.pk


def test_the_auditors_page_shows_the_anchors_and_when_it_was_last_verified_in_full(event, client):
    client.force_login(user_with_role(roles.AUDITOR))
    call_command("verify_audit")
    html = client.get(reverse("audit_trail")).content.decode()
    anchor = chain_head(event.licence.organisation)
    assert str(anchor) in html
    assert "Last verified in full" in html
