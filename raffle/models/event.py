"""The event, its price tiers and its 52 envelopes."""

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core.money import Rounding, format_money_here
from licensing.models import Licence
from raffle.cards import CARD_CHOICES, card_name_for_reader

ENVELOPE_COUNT = 52


def money_field(**kwargs):
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class DeckKind(models.TextChoices):
    PAPER = "paper", gettext_lazy("Paper cards in sealed envelopes")
    ELECTRONIC = "electronic", gettext_lazy("Electronic deck")


class EnvelopeTakenProcedure(models.TextChoices):
    """RULES T9: what happens when the envelope a purchaser picked is already open."""

    NEXT_HIGHER = "next_higher", gettext_lazy("The next higher-numbered unopened envelope (after 52, from 1)")
    HOLDER_CHOOSES = "holder_chooses", gettext_lazy("The winner chooses another unopened envelope")
    RANDOM = "random", gettext_lazy("An unopened envelope chosen at random by the system")


class RevenueModel(models.TextChoices):
    """RULES T12: a bingo revenue model event sells stub tickets only, inside
    the bingo hall only, and its Rules of Play (with the exit strategy) are
    submitted for review before it starts."""

    STANDARD = "standard", gettext_lazy("Standard Catch the Ace")
    BINGO = "bingo", gettext_lazy("Bingo revenue model (stub tickets, sold in the hall)")


class MustGoPayout(models.TextChoices):
    """RULES P7, P2: how the holders of the must-go final draw are paid, as the
    Rules of Play state. There are no consolation prizes: the holders share
    the draw prize or the final winner takes it."""

    SHARE_NON_ACE = (
        "share_non_ace",
        (
            gettext_lazy(
                "The holders of the tickets drawn before the ace share the draw prize equally; "
                "the ace holder wins the jackpot"
            )
        ),
    )
    SHARE_ALL = (
        "share_all",
        (
            gettext_lazy(
                "Every holder of a ticket drawn in the final draw, the ace holder included, shares the "
                "draw prize equally; the ace holder also wins the jackpot"
            )
        ),
    )
    FIRST_TICKET = (
        "first_ticket",
        (
            gettext_lazy(
                "The holder of the first ticket drawn in the final draw wins the draw prize; the tickets drawn "
                "after it play for the jackpot only, which the holder of the ticket that finds the ace wins"
            )
        ),
    )
    # Kept for events whose Rules of Play already state it; not one of the two
    # ways P7 names, so new events are not offered it (raffle.forms.rules).
    FINAL_WINNER = (
        "final_winner",
        (
            gettext_lazy(
                "The holder of the ticket that finds the ace wins the draw prize and the jackpot; "
                "tickets drawn before it win nothing"
            )
        ),
    )


# R:P7 the ways a new event's Rules of Play may choose: the non-ace holders
# share the draw prize (with or without the ace holder), or the first ticket
# drawn wins it while later tickets play for the jackpot only.
MUST_GO_PAYOUTS_OFFERED = (MustGoPayout.SHARE_NON_ACE, MustGoPayout.SHARE_ALL, MustGoPayout.FIRST_TICKET)


DEFAULT_UNCLAIMED_POLICY = (
    "An unclaimed prize is held in the lottery trust account for at least six months while we try "
    "to reach the winner, and every attempt is logged. After that it is added to the gross proceeds "
    "of the raffle."
)


class SeedSource(models.TextChoices):
    """RULES P6: where a seed (guaranteed minimum) jackpot comes from; the
    reports show it as its own line, never as ticket sales."""

    ORGANISATION = "organisation", gettext_lazy("The organisation's own funds")
    SPONSOR = "sponsor", gettext_lazy("A sponsor")


class EventStatus(models.TextChoices):
    RUNNING = "running", gettext_lazy("Running")
    CONCLUDED = "concluded", gettext_lazy("Concluded")


class Event(models.Model):
    licence = models.OneToOneField(Licence, on_delete=models.PROTECT, related_name="event")
    name = models.CharField(max_length=200)
    deck_kind = models.CharField(max_length=20, choices=DeckKind.choices, default=DeckKind.PAPER)
    rounding = models.CharField(
        max_length=10,
        choices=Rounding.CHOICES,
        default=Rounding.CENT,
        help_text=gettext_lazy("How the 20% draw prize and 30% jackpot share are rounded (Rules of Play)."),
    )
    envelope_taken_procedure = models.CharField(
        max_length=20, choices=EnvelopeTakenProcedure.choices, default=EnvelopeTakenProcedure.NEXT_HIGHER
    )
    claim_period_days = models.PositiveSmallIntegerField(
        default=7, help_text=gettext_lazy("Days a roll-ticket winner has to claim before another ticket is drawn (T8).")
    )
    first_draw_at = models.DateTimeField()
    draw_interval_days = models.PositiveSmallIntegerField(default=7)
    draw_place = models.CharField(max_length=200, blank=True)
    # The Rules of Play settings not held elsewhere (R4); frozen after the first sale.
    revenue_model = models.CharField(max_length=20, choices=RevenueModel.choices, default=RevenueModel.STANDARD)
    must_go_payout = models.CharField(
        max_length=20,
        choices=MustGoPayout.choices,
        blank=True,
        default=MustGoPayout.SHARE_NON_ACE,
        help_text=gettext_lazy("The exit strategy: how the holders of a must-go final draw are paid (P7)."),
    )
    last_draw_number = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "The event's last draw, fixed at set-up (e.g. 40 for forty weekly draws): it is the "
            "must-go final draw and no draw is scheduled after it (P7). Empty: the licence's expiry "
            "ends the event."
        ),
    )
    unclaimed_prize_policy = models.TextField(default=DEFAULT_UNCLAIMED_POLICY)
    max_tickets_per_person = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text=gettext_lazy(
            "The most tickets one person (same name and contact) may buy for one draw, as the Rules of "
            "Play state; empty for no limit."
        ),
    )
    rules_submitted_on = models.DateField(
        null=True, blank=True, help_text=gettext_lazy("Day the Rules of Play went to the regulator for review (T12).")
    )
    rules_approved_on = models.DateField(
        null=True, blank=True, help_text=gettext_lazy("Day the licensing authority approved the Rules of Play (R4).")
    )
    rules_approval_reference = models.CharField(
        max_length=120,
        blank=True,
        help_text=gettext_lazy("The authority's reference of that approval (letter, e-mail, file)."),
    )
    status = models.CharField(max_length=20, choices=EventStatus.choices, default=EventStatus.RUNNING)
    jackpot = money_field(default=0, help_text=gettext_lazy("The progressive jackpot now, as last announced."))
    seed_jackpot = money_field(default=0, help_text=gettext_lazy("Seed money put in the jackpot at the start (P6)."))
    seed_source = models.CharField(
        max_length=20,
        choices=SeedSource.choices,
        default=SeedSource.ORGANISATION,
        help_text=gettext_lazy("Where the seed jackpot comes from (P6)."),
    )
    seed_letter_of_credit = models.CharField(
        max_length=200,
        blank=True,
        help_text=gettext_lazy(
            "Reference of the irrevocable standby letter of credit that guarantees a seed jackpot over $10,000 (P6)."
        ),
    )
    seed_credit_issuer = models.CharField(
        max_length=200,
        blank=True,
        help_text=gettext_lazy("The bank or credit union that issued the letter of credit (P6)."),
    )
    seed_credit_expires_on = models.DateField(
        null=True,
        blank=True,
        help_text=gettext_lazy("The letter of credit's expiry: at least 45 days after the licence's (P6)."),
    )
    concluded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(jackpot__gte=0), name="event_jackpot_not_negative"),
            models.CheckConstraint(condition=Q(seed_jackpot__gte=0), name="event_seed_not_negative"),
            models.CheckConstraint(condition=Q(seed_source__in=SeedSource.values), name="event_seed_source_valid"),
            # R:P6 a letter of credit is recorded whole: its reference, its issuer and its expiry.
            models.CheckConstraint(
                condition=(Q(seed_letter_of_credit="") & Q(seed_credit_issuer="") & Q(seed_credit_expires_on=None))
                | (~Q(seed_letter_of_credit="") & ~Q(seed_credit_issuer="") & Q(seed_credit_expires_on__isnull=False)),
                name="event_seed_letter_of_credit_whole",
            ),
            models.CheckConstraint(condition=Q(status__in=EventStatus.values), name="event_status_valid"),
            models.CheckConstraint(condition=Q(rounding__in=["cent", "dollar"]), name="event_rounding_valid"),
            models.CheckConstraint(condition=Q(draw_interval_days__gte=1), name="event_interval_positive"),
            models.CheckConstraint(
                condition=Q(revenue_model__in=RevenueModel.values), name="event_revenue_model_valid"
            ),
            models.CheckConstraint(
                condition=Q(must_go_payout="") | Q(must_go_payout__in=MustGoPayout.values),
                name="event_must_go_payout_valid",
            ),
            # R:P7 a fixed last draw is a must-go draw, so the Rules of Play must say how it pays.
            models.CheckConstraint(
                condition=Q(last_draw_number__isnull=True) | (Q(last_draw_number__gte=1) & ~Q(must_go_payout="")),
                name="event_last_draw_has_exit_strategy",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_concluded(self) -> bool:
        return self.status == EventStatus.CONCLUDED

    @property
    def is_bingo(self) -> bool:
        return self.revenue_model == RevenueModel.BINGO


class PriceTier(models.Model):
    """A ticket price offer such as 1 for $5 or 3 for $10 (T1)."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="price_tiers")
    quantity = models.PositiveIntegerField()
    price = money_field()

    class Meta:
        ordering = ["event", "quantity"]
        constraints = [
            models.UniqueConstraint(fields=["event", "quantity"], name="one_price_per_quantity"),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="tier_quantity_positive"),
            models.CheckConstraint(condition=Q(price__gt=0), name="tier_price_positive"),
        ]

    def __str__(self) -> str:
        return gettext("%(quantity)s for %(price)s") % {
            "quantity": self.quantity,
            "price": format_money_here(self.price),
        }


class Envelope(models.Model):
    """One of the 52 sealed, numbered envelopes (E1). For a paper deck the
    card is unknown until the envelope is opened (E4)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="envelopes")
    number = models.PositiveSmallIntegerField()
    card = models.CharField(max_length=3, choices=CARD_CHOICES, blank=True, default="")
    opened_in_draw = models.ForeignKey(
        "Draw", null=True, blank=True, on_delete=models.PROTECT, related_name="opened_envelopes"
    )
    opened_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="envelope_number_once_per_event"),
            models.CheckConstraint(
                condition=Q(number__gte=1, number__lte=ENVELOPE_COUNT), name="envelope_number_1_to_52"
            ),
            # R:E1 a card appears once in a deck.
            models.UniqueConstraint(fields=["event", "card"], condition=~Q(card=""), name="card_once_per_deck"),
            models.CheckConstraint(condition=Q(opened_at__isnull=True) | ~Q(card=""), name="opened_envelope_has_card"),
        ]

    def __str__(self) -> str:
        return gettext("Envelope %(number)s") % {"number": self.number}

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None

    @property
    def card_name(self) -> str:
        """The card's name as the reader's language says it (pages only; records keep the code)."""
        return card_name_for_reader(self.card) if self.card and self.is_open else ""
