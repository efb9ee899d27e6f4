from django.core.management.base import BaseCommand, CommandError

from raffle.models import DeckKind, Event
from raffle.services import deck_verify


class Command(BaseCommand):
    help = (
        "Recompute the commitment of every opened envelope of electronic decks (RULES E4). "
        "Exit status 0 only when every deck verifies."
    )

    def add_arguments(self, parser):
        parser.add_argument("--event", type=int, help="Only this event (its id); default: every electronic deck.")

    def handle(self, *args, **options):
        events = Event.objects.filter(deck_kind=DeckKind.ELECTRONIC).order_by("pk")
        if options["event"] is not None:
            events = events.filter(pk=options["event"])
            if not events.exists():
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
