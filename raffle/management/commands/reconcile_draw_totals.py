from django.core.management.base import BaseCommand, CommandError

from core.scope import CHECKERS, acting_scope, add_acting_argument
from raffle.models import Draw
from raffle.totals import totals_mismatches


class Command(BaseCommand):
    help = (
        "Recompute every draw's running sales totals from its sales and ticket rows: of every organisation "
        "(the operator), or --as a person, of the organisations where they run draws, keep the accounts or "
        "audit them. Exit status 0 only when every draw's totals equal its rows."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", type=int, help="Only this event's draws (its id); default: every draw.")
        add_acting_argument(parser, required=False)

    def handle(self, *args, **options):
        _, draws = acting_scope(options["acting_as"], Draw.objects.order_by("event_id", "number"), *CHECKERS)
        if options["event"] is not None:
            draws = draws.filter(event_id=options["event"])
            if not draws.exists():  # unknown, or another organisation's (#15): the same answer
                raise CommandError(f"No event with id {options['event']}.")
        mismatches = totals_mismatches(draws)
        for mismatch in mismatches:
            self.stderr.write(self.style.ERROR(str(mismatch)))
        if mismatches:
            raise CommandError(f"{len(mismatches)} running total(s) differ from the rows.")
        self.stdout.write(
            self.style.SUCCESS(f"{draws.filter(is_imported=False).count()} draw(s): totals equal the rows.")
        )
