"""The audit anchors printed on issued reports (core.audit.chain_head): read
from the file when it is issued, kept beside it, checked by `verify_audit`."""

from django.utils.translation import gettext

from core.audit import anchors_in_file
from core.models import AuditEntry
from licensing.errors import LicensingError
from licensing.models import IssuedReport


def printed_anchor(content: bytes, file_format: str) -> dict:
    """The audit anchor the report prints (the newest one if several), with
    its chain and position, so `verify_audit` can check it later."""
    anchors = anchors_in_file(content, file_format)
    if not anchors:
        return {}
    entry_id, entry_hash = max(anchors)
    row = AuditEntry.objects.filter(pk=entry_id, hash=entry_hash).values_list("chain", "seq").first()
    if row is None:
        raise LicensingError(gettext("The report's audit anchor is not in the audit trail: generate the report again."))
    return {"anchor_entry_id": entry_id, "anchor_hash": entry_hash, "anchor_chain": row[0], "anchor_seq": row[1]}


def stored_report_anchors():
    """Every anchor printed on an issued report (core.audit_verify.ANCHOR_SOURCES)."""
    rows = IssuedReport.objects.filter(anchor_entry_id__isnull=False).select_related("licence")
    for r in rows.order_by("pk"):
        yield (r.anchor_entry_id, r.anchor_hash, r.anchor_chain, r.anchor_seq, f"{r} of licence {r.licence.number}")
