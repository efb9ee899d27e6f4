"""Reports kept exactly as they were generated and sent (R1, R2): the file,
its SHA-256, who generated it and when."""

import datetime
import hashlib
from decimal import Decimal

from django.core.files.base import ContentFile
from django.db import transaction

from core.audit import audit_record
from licensing.models import IssuedReport, Licence
from licensing.services.anchors import printed_anchor


@transaction.atomic
def report_issue(
    *,
    actor,
    licence: Licence,
    kind: str,
    file_format: str,
    content: bytes,
    period: int | None = None,
    fee: Decimal | None = None,
    due_on: datetime.date | None = None,
) -> IssuedReport:
    """Keep a report exactly as it was generated and sent: the file, its
    SHA-256, who generated it and when (R1, R2)."""
    licence = Licence.objects.select_for_update().get(pk=licence.pk)
    digest = hashlib.sha256(content).hexdigest()
    anchor = printed_anchor(content, file_format)
    part = f"-{period}" if period else ""
    report = IssuedReport(
        licence=licence,
        kind=kind,
        period=period,
        file_format=file_format,
        sha256=digest,
        size=len(content),
        fee=fee,
        due_on=due_on,
        generated_by=actor,
        **anchor,
    )
    report.file.save(f"{licence.number}-{kind}{part}-{digest[:12]}.{file_format}", ContentFile(content), save=False)
    report.full_clean()
    report.save()
    audit_record(
        actor=actor,
        action="licensing.report.issue",
        obj=report,
        data={
            "kind": kind,
            "period": period,
            "format": file_format,
            "sha256": digest,
            "size": len(content),
            "fee": fee,
            "due_on": due_on,
            "file": report.file.name,
            "anchor": f"{report.anchor_entry_id}:{report.anchor_hash}" if report.anchor_entry_id else None,
        },
    )
    return report


def report_file_intact(report: IssuedReport) -> bool:
    """Does the stored file still hash to what was recorded when it was issued?"""
    try:
        with report.file.open("rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest() == report.sha256
    except (OSError, ValueError):
        return False  # the file is gone
