from django.core.management.base import BaseCommand, CommandError

from core.scope import CHECKERS, acting_scope, add_acting_argument
from raffle.models import DeckKind, Event
from raffle.services import deck_verify


class Command(BaseCommand):
    help = (
        "Recompute the commitment of every opened envelope of electronic decks (RULES E4): of every "
        "organisation (the operator), or --as a person, of the organisations where they run draws, keep "
        "the accounts or audit them. Exit status 0 only when every deck verifies."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", type=int, help="Only this event (its id); default: every electronic deck.")
        add_acting_argument(parser, required=False)

    def handle(self, *args, **options):
        _, events = acting_scope(
            options["acting_as"], Event.objects.filter(deck_kind=DeckKind.ELECTRONIC).order_by("pk"), *CHECKERS
        )
        if options["event"] is not None:
            events = events.filter(pk=options["event"])
            if not events.exists():  # unknown, or another organisation's (#15): the same answer
                raise CommandError(f"No electronic-deck event with id {options['event']}.")
        failed = []
        for event in events:
            report = deck_verify(event=event)
            if report.intact:
                self.stdout.write(self.style.SUCCESS(str(report)))
                self.stdout.write(f"  fingerprint {report.root}")
            else:
                failed.append(event)
                self.stderr.write(self.style.ERROR(str(report)))
        if failed:
            raise CommandError(f"{len(failed)} deck(s) failed verification.")
        if not events:
            self.stdout.write("No electronic-deck event to verify.")
