"""A realistic Ontario charity mid-way through a Catch the Ace raffle, and
beside it an electronic raffle whose seller sells at the gift shop
(`raffle/demo.py`). `--reset` starts the demo over.

Every figure is produced by the real services, so the demo's audit trail,
jackpot and destruction log are exactly what a live raffle would hold.
"""

import contextlib
import datetime
import random
from decimal import Decimal
from pathlib import Path
from unittest import mock

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils import timezone

from core import roles
from licensing.models import AuthorityKind, BonaFideMember, CharitablePurpose, Licence, SalesChannel
from licensing.services import eligibility_record, licence_create, membership_add, organisation_get_or_create
from raffle import services
from raffle.cards import ACE_OF_SPADES, DECK
from raffle.demo import load_electronic_raffle
from raffle.models import Draw, Ticket

DEMO_LICENCE = "M-2026-0142"
DEMO_PASSWORD = "catch-the-ace-demo"
CLOSED_DRAWS = 12


@contextlib.contextmanager
def _on_its_night(draw):
    """The demo's past season is played on its own dates: the services' clock
    (`timezone.now`, read by `timezone.localdate` too) is set to the draw's
    advertised time while it runs, so it is held then and not before (D9)."""
    offset = draw.scheduled_at - timezone.now()
    real_now = timezone.now
    with mock.patch("django.utils.timezone.now", lambda: real_now() + offset):
        yield


DEMO_USERS = [
    # username, role, full name, bona fide member?, in charge?
    ("admin", roles.ADMINISTRATOR, "Lee Tremblay", True, True),
    ("treasurer", roles.TREASURER, "Pat Morrison", True, True),
    ("drawstaff", roles.DRAW_STAFF, "Sam Okafor", True, False),
    ("seller", roles.SELLER, "Jordan Beaulieu", True, False),
    ("auditor", roles.AUDITOR, "Morgan Chen (external auditor)", False, False),
]


def reset_demo_database() -> None:
    """Delete the demo's SQLite file and migrate a new one. Only the demo's
    SQLite database (`make run`) is ever reset: on any other database (a real
    raffle's PostgreSQL) this refuses and deletes nothing."""
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor != "sqlite" or not settings.DEBUG:
        raise CommandError(
            "--reset deletes the demo's database, so it only works on the demo (make run: DEBUG and SQLite). "
            "Nothing was deleted."
        )
    path = Path(connection.settings_dict["NAME"])
    connection.close()
    for file in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        file.unlink(missing_ok=True)
    call_command("migrate", interactive=False, verbosity=0)


class Command(BaseCommand):
    help = "Load a demo charity mid-way through a raffle, with demo users, and print their logins."

    def add_arguments(self, parser):
        parser.add_argument("--seed", type=int, default=2026, help="Random seed for sales and cards.")
        parser.add_argument(
            "--reset",
            action="store_true",
            help="Start the demo over: delete the demo's SQLite database, migrate and load it again.",
        )

    def handle(self, *args, **options):
        if options["reset"]:
            reset_demo_database()
            self.stdout.write("The demo's database was deleted and made again.")
        if Licence.objects.filter(number=DEMO_LICENCE).exists():
            self.stdout.write("Demo data is already loaded.")
        else:
            with transaction.atomic():
                self._load(random.Random(options["seed"]))
            self.stdout.write(self.style.SUCCESS("Demo data loaded."))
        self._print_logins()

    def _users(self, organisation):
        User = get_user_model()
        made = {}
        for username, role, full_name, is_member, in_charge in DEMO_USERS:
            first, _, last = full_name.partition(" ")
            user = User.objects.create_user(
                username=username,
                password=DEMO_PASSWORD,
                first_name=first,
                last_name=last,
                email=f"{username}@example.org",
            )
            # No superuser (#15): the administrator is an ordinary user with the role, as `add_user` makes one.
            membership_add(actor=None, user=user, organisation=organisation, role=role)
            if is_member:
                BonaFideMember.objects.create(
                    organisation=organisation,
                    user=user,
                    full_name=full_name,
                    date_of_birth=datetime.date(1970, 5, 17),
                    is_in_charge=in_charge,
                )
            made[username] = user
        return made

    def _load(self, rng: random.Random):
        today = timezone.localdate()
        first_draw_day = today - datetime.timedelta(days=7 * CLOSED_DRAWS - 3)
        first_draw_at = timezone.make_aware(datetime.datetime.combine(first_draw_day, datetime.time(19, 30)))
        organisation, _ = organisation_get_or_create(
            actor=None,
            name="Harbourview Community Hospice Foundation",
            charity_registration_number="118830274RR0001",
            street_address="240 Harbour Road",
            city="Owen Sound",
            postal_code="N4K 2B1",
            contact_name="Pat Morrison",
            contact_email="raffle@harbourview-hospice.example.org",
            contact_phone="519-555-0142",
        )
        users = self._users(organisation)
        admin = users["admin"]
        eligibility_record(
            actor=admin,
            organisation=organisation,
            is_non_profit=True,
            non_profit_evidence="Letters patent 1187734 (Ontario, 2009); CRA registration 118830274RR0001",
            located_in_ontario=True,
            location_evidence="Head office: 240 Harbour Road, Owen Sound, Ontario",
            charitable_activity_since=datetime.date(2009, 4, 1),
            activity_evidence="Annual reports and audited statements 2009 to 2025",
            purpose=CharitablePurpose.COMMUNITY,
            purpose_description="Free residential and home hospice care for Grey and Bruce counties.",
        )
        licence = licence_create(
            actor=admin,
            organisation=organisation,
            number=DEMO_LICENCE,
            authority_kind=AuthorityKind.MUNICIPALITY,
            authority_name="City of Owen Sound",
            sales_channel=SalesChannel.PAPER_ROLL,
            prize_board="50000.00",
            issued_on=first_draw_day - datetime.timedelta(days=30),
            expires_on=first_draw_day + datetime.timedelta(days=364),
        )
        event = services.event_setup(
            actor=admin,
            licence=licence,
            name="Harbourview Hospice Catch the Ace",
            first_draw_at=first_draw_at,
            price_tiers=[(1, "5.00"), (3, "10.00"), (10, "20.00")],
            draw_place="Royal Canadian Legion Branch 6, 1450 2nd Avenue West, Owen Sound",
            rules_approved_on=first_draw_day - datetime.timedelta(days=14),  # R:R4 before the first sale
            rules_approval_reference="City of Owen Sound, letter LL-2026-044",
        )
        staff, treasurer = users["drawstaff"], users["treasurer"]
        destroyer = BonaFideMember.objects.get(user=staff)
        verifier = BonaFideMember.objects.get(user=treasurer)
        in_charge = BonaFideMember.objects.get(user=admin)
        non_ace_cards = [c for c in DECK if c != ACE_OF_SPADES]
        rng.shuffle(non_ace_cards)
        envelopes = list(range(1, 53))
        rng.shuffle(envelopes)
        seller = users["seller"]
        serial = 100001
        tickets_sold = 159  # 795.00 in the demo's tiers, growing week by week
        for number in range(1, CLOSED_DRAWS + 1):
            draw = Draw.objects.get(event=event, number=number)
            with _on_its_night(draw):  # R:D9 each past draw is held at its advertised time
                services.draw_open_sales(actor=staff, draw=draw)
                # R:L13 the draw's two members in charge, named before its sales close
                services.draw_name_members_in_charge(actor=staff, draw=draw, first=verifier, second=in_charge)
                serial = self._sell_rolls(staff, seller, draw, serial, tickets_sold, rng)
                services.draw_close_sales(actor=staff, draw=draw)
                services.draw_announce(actor=staff, draw=draw)
                # R:D3 a ticket is drawn from the container: here, a random sold one, typed twice.
                winner = rng.choice(list(Ticket.objects.filter(draw=draw).values_list("serial", flat=True)))
                services.draw_record_winning_ticket(
                    actor=staff,
                    draw=draw,
                    serial=winner,
                    serial_again=winner,
                    winner_name=rng.choice(
                        [
                            "A. MacLeod",
                            "R. Singh",
                            "D. Bouchard",
                            "K. Wright",
                            "M. Nguyen",
                            "J. Campbell",
                            "S. Martin",
                            "T. Lavoie",
                        ]
                    ),
                )
                services.draw_choose_envelope(actor=staff, draw=draw, envelope_number=envelopes[number - 1])
                card = non_ace_cards[number - 1]
                services.draw_reveal_card(actor=staff, draw=draw, card=card, card_again=card)  # R:E3 typed twice
                services.draw_roll_over(
                    actor=staff,
                    draw=draw,
                    destroyed_by=destroyer,
                    verified_by=verifier,
                    destroyer_password=DEMO_PASSWORD,
                    verifier_password=DEMO_PASSWORD,
                )
                tickets_sold = tickets_sold * rng.randrange(108, 125) // 100
        current = Draw.objects.get(event=event, number=CLOSED_DRAWS + 1)
        services.draw_open_sales(actor=staff, draw=current)
        services.draw_name_members_in_charge(actor=staff, draw=current, first=verifier, second=in_charge)
        # Tonight's rolls are out with the seller; one has come back already.
        serial = self._sell_rolls(staff, seller, current, serial, 60, rng)
        services.roll_issue(
            actor=staff,
            draw=current,
            seller_name=seller.get_full_name(),
            seller=seller,
            first_serial=serial,
            last_serial=serial + 499,
        )
        self._treasury(event, users, first_draw_day)
        # Beside the paper rolls, a raffle whose seller sells on their own.
        load_electronic_raffle(organisation=organisation, admin=admin, seller=seller, today=today)

    def _sell_rolls(self, staff, seller, draw, serial, tickets, rng) -> int:
        """Issue rolls of 500 to the demo seller and return them with `tickets`
        sold in the demo's tiers (1 for $5, 3 for $10, 10 for $20). Returns the
        next unused serial."""
        while tickets > 0:
            batch = min(tickets, rng.randrange(250, 480))
            tens, rest = divmod(batch, 10)
            threes, ones = divmod(rest, 3)
            roll = services.roll_issue(
                actor=staff,
                draw=draw,
                seller_name=seller.get_full_name(),
                seller=seller,
                first_serial=serial,
                last_serial=serial + 499,
            )
            services.roll_return(
                actor=staff, roll=roll, first_unsold=serial + batch, tier_counts={10: tens, 3: threes, 1: ones}
            )
            serial += 500
            tickets -= batch
        return serial

    def _treasury(self, event, users, first_draw_day):
        """The trust account, a deposit per draw (the last one still to make, so
        the reconciliation shows a flag), prize cheques and an approved use."""
        from licensing.models import ExpenseCategory, ExpenseKind, PaymentMethod
        from licensing.services import approved_use_add, deposit_record, expense_record, trust_account_open
        from raffle.models import PrizeKind

        treasurer, admin = users["treasurer"], users["admin"]
        licence = event.licence
        account = trust_account_open(
            actor=admin,
            licence=licence,
            bank_name="Grey Bruce Credit Union",
            branch="Owen Sound",
            account_number="004417-92",
            opened_on=licence.issued_on,
            signing_officers=list(BonaFideMember.objects.filter(user__in=[treasurer, admin])),
        )
        approved_use_add(
            actor=admin, licence=licence, description="Palliative care equipment", approved_on=licence.issued_on
        )
        for draw in Draw.objects.filter(event=event, number__lt=CLOSED_DRAWS).order_by("number"):
            day = timezone.localdate(draw.scheduled_at)
            deposit = deposit_record(
                actor=treasurer,
                account=account,
                slip_number=f"GB-{4400 + draw.number}",
                deposited_on=day + datetime.timedelta(days=1),
                amount=draw.ticket_sales,
            )
            services.deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={draw: draw.ticket_sales})
            services.prize_payment_record(
                actor=treasurer,
                draw=draw,
                kind=PrizeKind.DRAW_PRIZE,
                method=PaymentMethod.CHEQUE,
                reference=f"{2100 + draw.number}",
                paid_on=day + datetime.timedelta(days=2),
                payee=draw.winner_name,
            )
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.EXPENSE,
            paid_on=first_draw_day + datetime.timedelta(days=1),
            amount="412.00",
            payee="Bruce Print Shop",
            description="Ticket rolls and posters",
            reference="2001",
            category=ExpenseCategory.PRINTING,
        )
        self._ledger_extras(event, treasurer, account, first_draw_day)

    def _ledger_extras(self, event, treasurer, account, first_draw_day):
        """A bank charge deducted without a cheque, the winners published, the
        first period's fee paid, and the bank's statement of the first month
        imported (the last cheques not cashed yet), for the ledger page."""
        from licensing.models import ExpenseCategory, ExpenseKind
        from licensing.services import bank_statement_import, deduction_record, expense_record
        from raffle.reports.builders import four_draw_report
        from raffle.reports.trust_ledger import ledger_entries

        licence = event.licence
        charge_day = first_draw_day + datetime.timedelta(days=20)
        deduction_record(
            actor=treasurer,
            licence=licence,
            category=ExpenseCategory.BANK_CHARGE,
            paid_on=charge_day,
            amount="6.50",
            payee=account.bank_name,
            description="Monthly account fee",
            evidence_reference="Statement line SERVICE CHARGE",
        )
        for draw in Draw.objects.filter(event=event, state="closed").order_by("number"):
            services.winners_publication_record(
                actor=treasurer,
                draw=draw,
                published_on=timezone.localdate(draw.scheduled_at) + datetime.timedelta(days=1),
                where="harbourviewhospice.ca/catch-the-ace and the Sun Times",
            )
        fee = four_draw_report(event, 1).fee
        expense_record(
            actor=treasurer,
            licence=licence,
            kind=ExpenseKind.EXPENSE,
            category=ExpenseCategory.LICENCE_FEE,
            fee_period=1,
            paid_on=first_draw_day + datetime.timedelta(days=25),
            amount=fee,
            payee="City of Owen Sound",
            description="Licence fee, draws 1 to 4",
            reference="2002",
        )
        last_day = first_draw_day + datetime.timedelta(days=30)
        rows = []
        for entry in ledger_entries(licence):
            cleared = entry.on + datetime.timedelta(days=1 if entry.amount > 0 else 3)
            if cleared > last_day:
                continue  # deposits in transit and cheques not cashed yet
            text = f"CHEQUE {entry.reference}" if entry.is_cheque else entry.description
            rows.append((cleared, text, entry.amount))
        rows.sort(key=lambda row: row[0])
        balance, lines = Decimal(0), []
        for day, text, amount in rows:
            balance += amount
            lines.append(f"{day:%Y-%m-%d},{text.replace(',', ' ')},{amount},{balance}")
        if lines:
            bank_statement_import(
                actor=treasurer,
                account=account,
                text="Date,Description,Amount,Balance\n" + "\n".join(lines) + "\n",
                file_name="statement-month-1.csv",
            )

    def _print_logins(self):
        self.stdout.write(f"\nDemo logins (password for all: {DEMO_PASSWORD})")
        for username, role, full_name, _, _ in DEMO_USERS:
            self.stdout.write(f"  {username:<10} {role:<14} {full_name}")
