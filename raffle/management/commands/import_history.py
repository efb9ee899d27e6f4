"""python manage.py import_history --licence NUMBER --as USERNAME FILE.csv [--opening-jackpot AMOUNT] [--dry-run]"""

from django.core.management.base import BaseCommand, CommandError

from core import roles
from core.errors import DomainError
from core.scope import acting_scope, add_acting_argument, unknown_licence
from licensing.models import Licence
from raffle.reports.ledger import ImportRefused
from raffle.services import history_import

IMPORTERS = (roles.TREASURER, roles.ADMINISTRATOR)  # the treasurer's records


class Command(BaseCommand):
    help = (
        "Import the draws a raffle ran before it moved into this system: all rows or none. "
        "Columns draw_number,draw_date,ticket_sales,envelope,card; optionally the published "
        "draw_prize, jackpot_before and jackpot_after, checked against the computed figures. "
        "Done --as a treasurer or administrator of the licence's organisation, recorded as theirs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True)
        parser.add_argument("file")
        parser.add_argument("--opening-jackpot", help="The jackpot before the first imported draw (seed).")
        parser.add_argument("--dry-run", action="store_true", help="Check and show; change nothing.")
        parser.add_argument(
            "--accept-mismatches",
            action="store_true",
            help="Import with the computed figures even where published ones differ.",
        )
        add_acting_argument(parser)

    def handle(self, *args, **options):
        person, licences = acting_scope(options["acting_as"], Licence.objects, *IMPORTERS)
        licence = licences.filter(number=options["licence"]).first()
        if licence is None:
            raise unknown_licence(options["licence"])
        try:
            with open(options["file"], encoding="utf-8-sig", newline="") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from None
        try:
            plan = history_import(
                actor=person,
                licence=licence,
                text=text,
                opening_jackpot=options["opening_jackpot"],
                dry_run=options["dry_run"],
                accept_mismatches=options["accept_mismatches"],
            )
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        except DomainError as error:
            raise CommandError(str(error)) from None
        for mismatch in plan.mismatches:
            self.stdout.write(f"Difference accepted: {mismatch}")
        for row in plan.rows:
            self.stdout.write(
                f"draw {row.number} {row.date} sales {row.sales} prize {row.draw_prize} "
                f"jackpot {row.jackpot_before} -> {row.jackpot_after} envelope {row.envelope} "
                f"{row.card}"
            )
        verb = "Would import" if options["dry_run"] else "Imported"
        end = " The Ace of Spades concludes the event." if plan.concludes else ""
        jackpot_now = 0 if plan.concludes else plan.rows[-1].jackpot_after
        self.stdout.write(self.style.SUCCESS(f"{verb} {len(plan.rows)} draw(s); jackpot now {jackpot_now}.{end}"))
