import datetime

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from core.errors import DomainError
from licensing.models import AuthorityKind, CharitablePurpose, SalesChannel
from licensing.services import eligibility_record, licence_create, organisation_get_or_create
from raffle.models import MUST_GO_PAYOUTS_OFFERED, DeckKind, MustGoPayout, SeedSource
from raffle.services import event_setup

AUTHORITIES = {
    "agco": AuthorityKind.AGCO,
    "municipality": AuthorityKind.MUNICIPALITY,
    "first-nation": AuthorityKind.FIRST_NATION,
}
CHANNELS = {
    "paper-roll": SalesChannel.PAPER_ROLL,
    "paper-stub": SalesChannel.PAPER_STUB,
    "electronic": SalesChannel.ELECTRONIC,
    "online": SalesChannel.ONLINE,
}


def _date(text: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a date; write it as YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = (
        "Create (if new) the organisation, then the licence and its Catch the Ace event with "
        "52 envelopes and its first draw, and print what was made."
    )

    def add_arguments(self, parser):
        parser.add_argument("--licence", required=True, help="Licence number as printed on the licence.")
        parser.add_argument("--organisation", required=True, help="The licensee's name.")
        parser.add_argument("--authority", required=True, choices=sorted(AUTHORITIES))
        parser.add_argument("--authority-name", required=True, help="e.g. 'City of Owen Sound' or 'AGCO'.")
        parser.add_argument("--channel", required=True, choices=list(CHANNELS))
        parser.add_argument("--prize-board", required=True, help="Dollars, e.g. 50000.")
        parser.add_argument("--ticket-price", required=True, help="Price of one ticket, e.g. 5.")
        parser.add_argument("--rounding", choices=["cent", "dollar"], default="cent")
        parser.add_argument("--starts", help="Date of the first draw, YYYY-MM-DD (default: in 7 days).")
        parser.add_argument("--expires", help="Licence expiry, YYYY-MM-DD (default: one year after the start).")
        parser.add_argument("--deck", choices=DeckKind.values, default=DeckKind.PAPER)
        parser.add_argument("--draw-time", default="19:30", help="Time of the weekly draw, HH:MM.")
        parser.add_argument(
            "--rules-approved-on",
            help="Day the authority approved the Rules of Play, YYYY-MM-DD (R4; needed before the first sale, "
            "or recorded later on the Rules of Play settings page).",
        )
        parser.add_argument("--rules-approval-reference", default="", help="The authority's reference of it.")
        exit_strategy = parser.add_argument_group(
            "exit strategy (P7)", "How the event ends if the Ace of Spades is not found in time."
        )
        exit_strategy.add_argument(
            "--last-draw",
            type=int,
            metavar="N",
            help="Fix the event's last draw (e.g. 40): it is the must-go final draw, and no draw comes after it.",
        )
        exit_strategy.add_argument(
            "--must-go-payout",
            choices=[p.value for p in MUST_GO_PAYOUTS_OFFERED],
            default=MustGoPayout.SHARE_NON_ACE,
            help="How the holders of the must-go draw are paid: the non-ace holders share the draw prize "
            "(share_non_ace), every holder shares it (share_all), or the first ticket drawn wins it and later "
            "tickets play for the jackpot only (first_ticket).",
        )
        seed = parser.add_argument_group(
            "seed jackpot (P6)",
            "A seed or guaranteed minimum jackpot; it counts in the prize board and its fee (L3, L9). "
            "Over $10,000 it needs an irrevocable standby letter of credit.",
        )
        seed.add_argument("--seed-jackpot", default="0", metavar="AMOUNT", help="Dollars, e.g. 10000.")
        seed.add_argument("--seed-source", choices=SeedSource.values, default=SeedSource.ORGANISATION)
        seed.add_argument("--letter-of-credit", default="", metavar="REFERENCE", help="The letter's reference.")
        seed.add_argument("--credit-issuer", default="", metavar="NAME", help="The bank or credit union.")
        seed.add_argument("--credit-expires", metavar="YYYY-MM-DD", help="At least 45 days after the licence.")
        eligibility = parser.add_argument_group(
            "eligibility (L1)",
            "Record the organisation's eligibility with its evidence; needed once, before its first licence.",
        )
        eligibility.add_argument("--purpose", choices=CharitablePurpose.eligible())
        eligibility.add_argument("--active-since", help="Start of its charitable activity, YYYY-MM-DD.")
        eligibility.add_argument("--non-profit-evidence", default="", help="e.g. 'Letters patent 1234567'.")
        eligibility.add_argument("--location-evidence", default="", help="e.g. its Ontario head office address.")
        eligibility.add_argument("--activity-evidence", default="", help="e.g. 'Annual reports 2023-2025'.")

    def handle(self, *args, **o):
        starts = _date(o["starts"]) if o["starts"] else timezone.localdate() + datetime.timedelta(days=7)
        expires = _date(o["expires"]) if o["expires"] else starts + datetime.timedelta(days=365)
        try:
            hour, minute = (int(part) for part in o["draw_time"].split(":"))
            draw_time = datetime.time(hour, minute)
        except ValueError:
            raise CommandError("--draw-time must look like 19:30.") from None
        first_draw_at = timezone.make_aware(datetime.datetime.combine(starts, draw_time))
        try:
            with transaction.atomic():
                organisation, created = organisation_get_or_create(actor=None, name=o["organisation"])
                if o["purpose"]:
                    eligibility_record(
                        actor=None,
                        organisation=organisation,
                        is_non_profit=True,
                        non_profit_evidence=o["non_profit_evidence"],
                        located_in_ontario=True,
                        location_evidence=o["location_evidence"],
                        charitable_activity_since=_date(o["active_since"]) if o["active_since"] else None,
                        activity_evidence=o["activity_evidence"],
                        purpose=o["purpose"],
                    )
                licence = licence_create(
                    actor=None,
                    organisation=organisation,
                    number=o["licence"],
                    authority_kind=AUTHORITIES[o["authority"]],
                    authority_name=o["authority_name"],
                    sales_channel=CHANNELS[o["channel"]],
                    prize_board=o["prize_board"],
                    issued_on=min(timezone.localdate(), starts),
                    expires_on=expires,
                )
                event = event_setup(
                    actor=None,
                    licence=licence,
                    name=f"Catch the Ace — {organisation.name}",
                    first_draw_at=first_draw_at,
                    price_tiers=[(1, o["ticket_price"])],
                    deck_kind=o["deck"],
                    rounding=o["rounding"],
                    rules_approved_on=_date(o["rules_approved_on"]) if o["rules_approved_on"] else None,
                    rules_approval_reference=o["rules_approval_reference"],
                    seed_jackpot=o["seed_jackpot"],
                    seed_source=o["seed_source"],
                    seed_letter_of_credit=o["letter_of_credit"],
                    seed_credit_issuer=o["credit_issuer"],
                    seed_credit_expires_on=_date(o["credit_expires"]) if o["credit_expires"] else None,
                    must_go_payout=o["must_go_payout"],
                    last_draw_number=o["last_draw"],
                )
        except DomainError as error:
            raise CommandError(str(error)) from None
        out = self.stdout
        out.write(f"Organisation: {organisation.name} ({'new' if created else 'existing'})")
        out.write(
            f"Licence:      {licence.number}, {licence.get_authority_kind_display()} "
            f"({licence.authority_name}), {licence.get_sales_channel_display()}, prize board "
            f"${licence.prize_board:,.2f}, fee {licence.fee_rate_percent}%, "
            f"valid {licence.issued_on} to {licence.expires_on}"
        )
        tiers = ", ".join(str(t) for t in event.price_tiers.all())
        out.write(
            f"Event:        {event.name} (id {event.pk}), {event.get_deck_kind_display()}, "
            f"rounding {event.get_rounding_display().lower()}, tickets {tiers}"
        )
        if event.seed_jackpot:
            credit = (
                f"; letter of credit {event.seed_letter_of_credit} from {event.seed_credit_issuer}, "
                f"expires {event.seed_credit_expires_on}"
                if event.seed_letter_of_credit
                else ""
            )
            out.write(
                f"Seed:         ${event.seed_jackpot:,.2f} from {event.get_seed_source_display().lower()}, "
                f"counted in the prize board{credit}"
            )
        if event.last_draw_number:
            out.write(
                f"Last draw:    draw {event.last_draw_number}, the must-go final draw "
                f"({event.get_must_go_payout_display().lower()})"
            )
        out.write(f"Envelopes:    {event.envelopes.count()} sealed, numbered 1 to 52")
        out.write(self.style.SUCCESS(f"Draw 1:       scheduled {timezone.localtime(first_draw_at):%Y-%m-%d %H:%M}"))
