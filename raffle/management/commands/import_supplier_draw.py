"""python manage.py import_supplier_draw --licence NUMBER --as USERNAME --draw K --sales SALES.csv
[--result RESULT.csv] [--settlement SETTLEMENT.csv] [--mapping NAME] [--dry-run]"""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import DomainError
from core.scope import acting_scope, add_acting_argument, unknown_licence
from licensing.models import Licence
from raffle.models import Draw
from raffle.services import supplier_draw_import
from raffle.services.supplier_formats import SupplierFile, mapping_named
from raffle.views.supplier import STAFF_WHO_IMPORT  # the same people as on the import page


class Command(BaseCommand):
    help = (
        "Import one draw's files from the licence's AGCO-registered supplier: its sales, its winning-ticket "
        "selection and its settlement, all or nothing (docs/suppliers.md). Done --as draw staff, a treasurer or "
        "an administrator of the licence's organisation, recorded as theirs, as on the import page."
    )

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True)
        parser.add_argument("--draw", required=True, type=int, help="The draw's number.")
        parser.add_argument("--sales", help="SALES.csv (while the draw's sales are open).")
        parser.add_argument("--result", help="RESULT.csv: the supplier's winning ticket.")
        parser.add_argument("--settlement", help="SETTLEMENT.csv: gross, fees and the net deposited.")
        parser.add_argument("--mapping", default="generic", help="The supplier's export format (docs/suppliers.md).")
        parser.add_argument("--dry-run", action="store_true", help="Check and show; change nothing.")
        add_acting_argument(parser)

    def handle(self, *args, **options):
        person, licences = acting_scope(options["acting_as"], Licence.objects, *STAFF_WHO_IMPORT)
        licence = licences.filter(number=options["licence"]).first()
        if licence is None:
            raise unknown_licence(options["licence"])
        draw = Draw.objects.filter(event__licence=licence, number=options["draw"]).first()
        if draw is None:
            raise CommandError(f"Licence {options['licence']} has no draw {options['draw']}.")
        files = {}
        for kind in ("sales", "result", "settlement"):
            if options[kind]:
                path = Path(options[kind])
                try:
                    files[kind] = SupplierFile(name=path.name, content=path.read_bytes())
                except OSError as error:
                    raise CommandError(f"Cannot read {path}: {error}") from None
        try:
            summary = supplier_draw_import(
                actor=person,
                draw=draw,
                mapping=mapping_named(options["mapping"]),
                dry_run=options["dry_run"],
                **files,
            )
        except DomainError as error:
            raise CommandError(str(error)) from None
        verb = "Would import" if summary.dry_run else "Imported"
        lines = [
            f"{verb} for draw {summary.draw_number}: {summary.rows} line(s), {summary.orders} order(s), "
            f"{summary.tickets_sold} ticket(s) sold for {summary.amount_sold}, "
            f"{summary.tickets_void} void or refunded ({summary.amount_void})."
        ]
        if summary.winning_ticket:
            lines.append(f"Winning ticket {summary.winning_ticket} (supplier RNG reference {summary.rng_reference}).")
        if summary.settlement_gross is not None:
            lines.append(
                f"Settlement: gross {summary.settlement_gross}, fees {summary.settlement_fees}, "
                f"net {summary.settlement_net} on deposit slip {summary.deposit_slip}."
            )
        self.stdout.write(self.style.SUCCESS("\n".join(lines)))
