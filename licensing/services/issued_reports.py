"""Reports kept exactly as they were generated and sent (R1, R2): the file,
its SHA-256, who generated it and when. A report the licensing officer sends
back is recorded with the officer's reasons (`report_return_record`); the
corrected report is then issued as the next version, which replaces the
returned one; nothing issued is ever changed or removed."""

import datetime
import hashlib
from decimal import Decimal

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.errors import LicensingError
from licensing.models import IssuedReport, Licence, ReportKind, ReportReturn
from licensing.services.anchors import printed_anchor

RULE_OF = {ReportKind.FOUR_DRAW: "R1", ReportKind.FINAL: "R2"}


def _latest_issued(licence: Licence, kind: str, period: int | None, file_format: str) -> IssuedReport | None:
    return (
        IssuedReport.objects.filter(licence=licence, kind=kind, period=period, file_format=file_format)
        .select_related("return_record", "generated_by")
        .order_by("-version")
        .first()
    )


def latest_issued(licence: Licence, kind: str, period: int | None, file_format: str) -> IssuedReport | None:
    """The latest version issued of a report, with its return record and who generated it."""
    return _latest_issued(licence, kind, period, file_format)


def report_to_correct(
    licence: Licence, kind: str, period: int | None, file_format: str, *, latest=...
) -> IssuedReport | None:
    """The issued report the next one corrects: the latest version, when the
    licensing officer sent it back (its `return_record` read with it); None
    when nothing was returned. `latest`: as `latest_issued`, when already read."""
    if latest is ...:
        latest = _latest_issued(licence, kind, period, file_format)
    return latest if latest is not None and hasattr(latest, "return_record") else None


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
    previous = _latest_issued(licence, kind, period, file_format)
    if previous is not None and not hasattr(previous, "return_record"):  # R:R1 R:R2 the report on file stands
        raise LicensingError(
            gettext(
                "%(previous)s was issued by %(get_username)s and is the report on file. If the licensing "
                "officer sent it back, record the return with their reasons first; the corrected report is "
                "then issued as version %(value)s, and version %(version)s is kept."
            )
            % {
                "previous": previous,
                "get_username": previous.generated_by.get_username(),
                "value": previous.version + 1,
                "version": previous.version,
            },
            rule=RULE_OF.get(kind, ""),
        )
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
        version=previous.version + 1 if previous else 1,
        replaces=previous,
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
            "version": report.version,
            "replaces": previous.sha256 if previous else None,
        },
    )
    return report


@transaction.atomic
def report_return_record(
    *,
    actor,
    report: IssuedReport,
    returned_on: datetime.date,
    returned_by: str,
    reasons: str,
    reference: str = "",
    refile_by: datetime.date | None = None,
    today: datetime.date | None = None,
) -> ReportReturn:
    """R:R1 R:R2 the licensing officer sent an issued report back: record who,
    when, why and by when the corrected report is due. The returned version is
    kept as it was sent; the corrected one is issued next (`report_issue`)."""
    today = today or timezone.localdate()
    report = IssuedReport.objects.select_for_update().select_related("licence").get(pk=report.pk)
    rule = RULE_OF.get(report.kind, "")
    if ReportReturn.objects.filter(report=report).exists():
        raise LicensingError(gettext("%(report)s is already recorded as sent back.") % {"report": report})
    if IssuedReport.objects.filter(replaces=report).exists():
        raise LicensingError(gettext("%(report)s was already replaced by a corrected version.") % {"report": report})
    returned_by, reasons = (returned_by or "").strip(), (reasons or "").strip()
    if not returned_by:
        raise LicensingError(gettext("Name the licensing officer who sent the report back, and their office."))
    if not reasons:
        raise LicensingError(gettext("Write the officer's reasons: what must be corrected or added."), rule=rule)
    if not isinstance(returned_on, datetime.date) or returned_on > today:
        raise LicensingError(gettext("Give the day the report was sent back; it cannot be in the future."))
    issued_on = timezone.localdate(report.generated_at)
    if returned_on < issued_on:
        raise LicensingError(
            gettext("The report was issued on %(issued_on)s; it cannot be sent back before.")
            % {"issued_on": format(issued_on, "%Y-%m-%d")}
        )
    if refile_by is not None and refile_by < returned_on:
        raise LicensingError(gettext("The corrected report cannot be due before the day the report was sent back."))
    record = ReportReturn(
        report=report,
        returned_on=returned_on,
        returned_by=returned_by[:150],
        reasons=reasons,
        reference=(reference or "").strip()[:100],
        refile_by=refile_by,
        recorded_by=actor,
    )
    record.full_clean()
    record.save()
    audit_record(
        actor=actor,
        action="licensing.report.return",
        obj=report,
        data={
            "kind": report.kind,
            "period": report.period,
            "format": report.file_format,
            "version": report.version,
            "sha256": report.sha256,
            "returned_on": returned_on,
            "returned_by": record.returned_by,
            "reasons": reasons,
            "reference": record.reference,
            "refile_by": refile_by,
        },
    )
    return record


def report_file_intact(report: IssuedReport) -> bool:
    """Does the stored file still hash to what was recorded when it was issued?"""
    try:
        with report.file.open("rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest() == report.sha256
    except (OSError, ValueError):
        return False  # the file is gone
