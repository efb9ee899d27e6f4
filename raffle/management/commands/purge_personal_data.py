import datetime

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from raffle.services.retention import RETENTION_YEARS, personal_data_to_purge, sales_purge_personal_data


class Command(BaseCommand):
    help = (
        "Blank the purchasers' names, contacts and addresses of sales made before a date outside the "
        f"{RETENTION_YEARS}-year retention period (RULES L14), keeping every figure; one audit entry per "
        "organisation."
    )

    def add_arguments(self, parser):
        parser.add_argument("--before", required=True, help="YYYY-MM-DD: sales made before this day.")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be blanked; change nothing.")

    def handle(self, *args, **options):
        try:
            before = datetime.date.fromisoformat(options["before"])
        except ValueError:
            raise CommandError(f"--before {options['before']!r} is not a date like 2021-03-31.") from None
        try:
            if options["dry_run"]:
                found = personal_data_to_purge(before=before)
                verb = "would be blanked"
            else:
                found = sales_purge_personal_data(actor=None, before=before)
                verb = "blanked"
        except DomainError as error:
            raise CommandError(str(error)) from None
        for purged in found:
            self.stdout.write(f"{purged.organisation}: {purged.sales} sale(s) {verb}.")
        total = sum(p.sales for p in found)
        self.stdout.write(
            self.style.SUCCESS(f"{total} sale(s) made before {before:%Y-%m-%d}: purchasers' details {verb}.")
        )
