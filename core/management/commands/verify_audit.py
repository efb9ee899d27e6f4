import re

from django.core.management.base import BaseCommand, CommandError

from core.audit import audit_verify, verify_anchor
from core.audit_verify import verify_stored_anchors

ANCHOR_ARGUMENT = re.compile(r"^(\d+):([0-9a-f]{64})$")


def anchor_argument(value: str) -> tuple[int, str]:
    match = ANCHOR_ARGUMENT.match(value.strip().lower())
    if not match:
        raise ValueError(value)
    return int(match.group(1)), match.group(2)


class Command(BaseCommand):
    help = (
        "Recompute every audit chain (HMAC-SHA-256 under AUDIT_CHAIN_KEY) and check every anchor printed on the "
        "stored issued reports, plus any --anchor N:HASH an auditor wrote down. Exit status 0 only when all hold."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--anchor",
            action="append",
            default=[],
            type=anchor_argument,
            metavar="N:HASH",
            help="An entry number and its hash, as printed on a report or the audit page. Repeatable.",
        )

    def handle(self, *args, anchor, **options):
        report = audit_verify()
        checks = [verify_anchor(entry_id, hash, source="given") for entry_id, hash in anchor]
        checks += verify_stored_anchors()
        for check in checks:
            self.stdout.write(str(check) if check.ok else self.style.ERROR(str(check)))
        failed = [check for check in checks if not check.ok]
        if not report.intact:
            raise CommandError(f"Audit trail {report}")
        if failed:
            raise CommandError(f"Audit trail chains verify ({report.entries} entries) but {len(failed)} anchor(s) fail")
        self.stdout.write(self.style.SUCCESS(f"Audit trail {report}; {len(checks)} anchor(s) hold"))
