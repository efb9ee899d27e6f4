"""python manage.py export_ledger --licence NUMBER > ledger.csv"""

from django.core.management.base import BaseCommand, CommandError

from raffle.models import Event
from raffle.reports.ledger import ledger_csv


class Command(BaseCommand):
    help = "Write the draw ledger of a licence's event as CSV to standard output."

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True, help="The licence number, as printed on the licence.")

    def handle(self, *args, **options):
        event = Event.objects.filter(licence__number=options["licence"]).first()
        if event is None:
            raise CommandError(f"No event under licence {options['licence']}.")
        self.stdout.write(ledger_csv(event), ending="")
