"""python manage.py export_ledger --licence NUMBER --as USERNAME > ledger.csv"""

from django.core.management.base import BaseCommand, CommandError

from core.scope import EXPORTERS, add_acting_argument, person_acting, scoped
from raffle.models import Event
from raffle.reports.ledger import ledger_csv


class Command(BaseCommand):
    help = "Write the draw ledger of a licence's event as CSV to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True, help="The licence number, as printed on the licence.")
        add_acting_argument(parser)

    def handle(self, *args, **options):
        person = person_acting(options["acting_as"])
        # Another organisation's licence reads as an unknown one (#15).
        event = scoped(Event.objects, person, *EXPORTERS).filter(licence__number=options["licence"]).first()
        if event is None:
            raise CommandError(f"No event under licence {options['licence']}.")
        self.stdout.write(ledger_csv(event), ending="")
