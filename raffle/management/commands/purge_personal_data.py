import datetime

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from core.roles import ADMINISTRATOR
from core.scope import organisations_of, person_acting
from licensing.models import Organisation
from raffle.services.retention import RETENTION_YEARS, personal_data_to_purge, sales_purge_personal_data


class Command(BaseCommand):
    help = (
        "Blank the purchasers' names, contacts and addresses of sales made before a date outside the "
        f"{RETENTION_YEARS}-year retention period (RULES L14) in one organisation (--organisation) or in "
        "those an administrator administers (--as), keeping every figure; one audit entry per organisation."
    )

    def add_arguments(self, parser):
        parser.add_argument("--before", required=True, help="YYYY-MM-DD: sales made before this day.")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be blanked; change nothing.")
        whose = parser.add_mutually_exclusive_group(required=True)
        whose.add_argument("--organisation", metavar="NAME", help="The organisation whose sales (operator).")
        whose.add_argument(
            "--as", dest="acting_as", metavar="USERNAME", help="An administrator: the organisations they administer."
        )

    def handle(self, *args, **options):
        try:
            before = datetime.date.fromisoformat(options["before"])
        except ValueError:
            raise CommandError(f"--before {options['before']!r} is not a date like 2021-03-31.") from None
        actor, organisations = self._whose(options)
        try:
            if options["dry_run"]:
                found = personal_data_to_purge(before=before, organisations=organisations)
                verb = "would be blanked"
            else:
                found = sales_purge_personal_data(actor=actor, before=before, organisations=organisations)
                verb = "blanked"
        except DomainError as error:
            raise CommandError(str(error)) from None
        for purged in found:
            self.stdout.write(f"{purged.organisation}: {purged.sales} sale(s) {verb}.")
        if not found:
            self.stdout.write(f"{', '.join(o.name for o in organisations)}: 0 sale(s) {verb}.")
        total = sum(p.sales for p in found)
        self.stdout.write(
            self.style.SUCCESS(f"{total} sale(s) made before {before:%Y-%m-%d}: purchasers' details {verb}.")
        )

    def _whose(self, options):
        """(actor, organisations): the organisation named, for the operator, or
        those the person named administers (#15); nothing else is reached."""
        if options["organisation"] is not None:
            organisations = Organisation.objects.filter(name=options["organisation"])
            if not organisations.exists():
                raise CommandError(f"No organisation is named {options['organisation']!r}.")
            return None, list(organisations)
        person = person_acting(options["acting_as"])
        organisations = list(organisations_of(person, ADMINISTRATOR).order_by("name"))
        if not organisations:
            raise CommandError(f"{person.get_username()} administers no organisation: nothing to purge for them.")
        return person, organisations
