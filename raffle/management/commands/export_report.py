"""python manage.py export_report --licence NUMBER --as USERNAME (--period K | --final) [--format {pdf,csv}]
[--output FILE]"""

import sys

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from core.scope import EXPORTERS, acting_scope, add_acting_argument
from raffle.models import Event
from raffle.reports.render import report_file


class Command(BaseCommand):
    help = (
        "Write a four-draw report (--period K) or the final report (--final) of a licence, exactly as the "
        "treasurer's page issues it, as PDF or CSV, to a file or to standard output."
    )

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True, help="The licence number, as printed on the licence.")
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--period", type=int, help="The four-draw period k (draws 4k-3 to 4k).")
        which.add_argument("--final", action="store_true", help="The final report.")
        parser.add_argument("--format", choices=["pdf", "csv"], default="pdf", dest="file_format")
        parser.add_argument("--output", help="The file to write; standard output when absent.")
        # Read-only, like verify_deck: the operator at the server (who can read the
        # database anyway) exports any licence; --as limits it to a person's organisations.
        add_acting_argument(parser, required=False)

    def handle(self, *args, **options):
        # Another organisation's licence reads as an unknown one (#15).
        _, events = acting_scope(options["acting_as"], Event.objects.select_related("licence"), *EXPORTERS)
        event = events.filter(licence__number=options["licence"]).first()
        if event is None:
            raise CommandError(f"No event under licence {options['licence']}.")
        kind = "final" if options["final"] else "four_draw"
        try:
            content, filename, _, _ = report_file(event, kind, options["period"], options["file_format"])
        except DomainError as error:
            raise CommandError(str(error)) from None
        if options["output"]:
            with open(options["output"], "wb") as handle:
                handle.write(content)
            self.stderr.write(f"{filename}: {len(content)} bytes written to {options['output']}")
        elif options["file_format"] == "csv":
            self.stdout.write(content.decode(), ending="")
        else:
            self.stdout.flush()
            sys.stdout.buffer.write(content)
