from django.core.management.base import BaseCommand, CommandError

from core.audit import audit_verify


class Command(BaseCommand):
    help = "Recompute the audit trail's hash chain. Exit status 0 only when it is intact."

    def handle(self, *args, **options):
        report = audit_verify()
        if not report.intact:
            raise CommandError(f"Audit trail {report}")
        self.stdout.write(self.style.SUCCESS(f"Audit trail {report}"))
