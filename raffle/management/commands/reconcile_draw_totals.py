from django.core.management.base import BaseCommand, CommandError

from raffle.models import Draw
from raffle.totals import totals_mismatches


class Command(BaseCommand):
    help = (
        "Recompute every draw's running sales totals from its sales and ticket rows. "
        "Exit status 0 only when every draw's totals equal its rows."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", type=int, help="Only this event's draws (its id); default: every draw.")

    def handle(self, *args, **options):
        draws = Draw.objects.order_by("event_id", "number")
        if options["event"] is not None:
            draws = draws.filter(event_id=options["event"])
        mismatches = totals_mismatches(draws)
        for mismatch in mismatches:
            self.stderr.write(self.style.ERROR(str(mismatch)))
        if mismatches:
            raise CommandError(f"{len(mismatches)} running total(s) differ from the rows.")
        self.stdout.write(
            self.style.SUCCESS(f"{draws.filter(is_imported=False).count()} draw(s): totals equal the rows.")
        )
