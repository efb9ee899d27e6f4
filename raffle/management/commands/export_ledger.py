"""python manage.py export_ledger --licence NUMBER [--as USERNAME] > ledger.csv"""

from django.core.management.base import BaseCommand, CommandError

from core.scope import EXPORTERS, acting_scope, add_acting_argument
from raffle.models import Event
from raffle.reports.ledger import ledger_csv


class Command(BaseCommand):
    help = "Write the draw ledger of a licence's event as CSV to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True, help="The licence number, as printed on the licence.")
        add_acting_argument(parser, required=False)  # read-only: as export_report

    def handle(self, *args, **options):
        # Another organisation's licence reads as an unknown one (#15).
        _, events = acting_scope(options["acting_as"], Event.objects, *EXPORTERS)
        event = events.filter(licence__number=options["licence"]).first()
        if event is None:
            raise CommandError(f"No event under licence {options['licence']}.")
        self.stdout.write(ledger_csv(event), ending="")
