"""Events, envelopes, draws and the card destruction log.

Models hold fields, constraints and the draw's transition table; every write
that matters goes through `raffle.services`.
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone

from core.models import AppendOnlyModel
from core.money import Rounding
from licensing.models import BonaFideMember, Licence
from raffle.cards import ACE_OF_SPADES, CARD_CHOICES, card_name

ENVELOPE_COUNT = 52


def money_field(**kwargs):
    return models.DecimalField(max_digits=12, decimal_places=2, **kwargs)


class DeckKind(models.TextChoices):
    PAPER = "paper", "Paper cards in sealed envelopes"
    ELECTRONIC = "electronic", "Electronic deck"


class EnvelopeTakenProcedure(models.TextChoices):
    """RULES T9: what happens when the envelope a purchaser picked is already open."""

    NEXT_HIGHER = "next_higher", "The next higher-numbered unopened envelope (after 52, from 1)"
    HOLDER_CHOOSES = "holder_chooses", "The winner chooses another unopened envelope"
    RANDOM = "random", "An unopened envelope chosen at random by the system"


class EventStatus(models.TextChoices):
    RUNNING = "running", "Running"
    CONCLUDED = "concluded", "Concluded"


class Event(models.Model):
    licence = models.OneToOneField(Licence, on_delete=models.PROTECT, related_name="event")
    name = models.CharField(max_length=200)
    deck_kind = models.CharField(max_length=20, choices=DeckKind.choices, default=DeckKind.PAPER)
    rounding = models.CharField(
        max_length=10, choices=Rounding.CHOICES, default=Rounding.CENT,
        help_text="How the 20% draw prize and 30% jackpot share are rounded (Rules of Play).",
    )
    envelope_taken_procedure = models.CharField(
        max_length=20, choices=EnvelopeTakenProcedure.choices, default=EnvelopeTakenProcedure.NEXT_HIGHER
    )
    claim_period_days = models.PositiveSmallIntegerField(
        default=7, help_text="Days a roll-ticket winner has to claim before another ticket is drawn (T8)."
    )
    first_draw_at = models.DateTimeField()
    draw_interval_days = models.PositiveSmallIntegerField(default=7)
    draw_place = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=EventStatus.choices, default=EventStatus.RUNNING)
    jackpot = money_field(default=0, help_text="The progressive jackpot now, as last announced.")
    seed_jackpot = money_field(default=0, help_text="Seed money put in the jackpot at the start (P6).")
    concluded_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(jackpot__gte=0), name="event_jackpot_not_negative"),
            models.CheckConstraint(condition=Q(seed_jackpot__gte=0), name="event_seed_not_negative"),
            models.CheckConstraint(condition=Q(status__in=EventStatus.values), name="event_status_valid"),
            models.CheckConstraint(condition=Q(rounding__in=["cent", "dollar"]), name="event_rounding_valid"),
            models.CheckConstraint(condition=Q(draw_interval_days__gte=1), name="event_interval_positive"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_concluded(self) -> bool:
        return self.status == EventStatus.CONCLUDED


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
        return f"{self.quantity} for ${self.price:,.2f}"


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
            models.UniqueConstraint(
                fields=["event", "card"], condition=~Q(card=""), name="card_once_per_deck"
            ),
            models.CheckConstraint(
                condition=Q(opened_at__isnull=True) | ~Q(card=""), name="opened_envelope_has_card"
            ),
        ]

    def __str__(self) -> str:
        return f"Envelope {self.number}"

    @property
    def is_open(self) -> bool:
        return self.opened_at is not None

    @property
    def card_name(self) -> str:
        return card_name(self.card) if self.card and self.is_open else ""


class DrawState(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    SELLING = "selling", "Selling tickets"
    SALES_CLOSED = "sales_closed", "Sales closed"
    ANNOUNCED = "announced", "Announced"
    TICKET_DRAWN = "ticket_drawn", "Winning ticket drawn"
    ENVELOPE_CHOSEN = "envelope_chosen", "Envelope chosen"
    CARD_REVEALED = "card_revealed", "Card revealed"
    CLOSED = "closed", "Closed"


# R:D8 The draw's steps, as data: each state and the one state that may follow
# it. No step may be skipped, repeated or undone.
DRAW_TRANSITIONS: dict[str, set[str]] = {
    DrawState.SCHEDULED: {DrawState.SELLING},
    DrawState.SELLING: {DrawState.SALES_CLOSED},
    DrawState.SALES_CLOSED: {DrawState.ANNOUNCED},
    DrawState.ANNOUNCED: {DrawState.TICKET_DRAWN},
    DrawState.TICKET_DRAWN: {DrawState.ENVELOPE_CHOSEN},
    DrawState.ENVELOPE_CHOSEN: {DrawState.CARD_REVEALED},
    DrawState.CARD_REVEALED: {DrawState.CLOSED},
    DrawState.CLOSED: set(),
}

# States in which a draw is under way; at most one draw per event is.
DRAW_IN_PROGRESS = [s for s in DrawState.values if s not in (DrawState.SCHEDULED, DrawState.CLOSED)]


class DrawOutcome(models.TextChoices):
    ROLLOVER = "rollover", "Not the ace: jackpot rolls over"
    JACKPOT_WON = "jackpot_won", "Ace of Spades: jackpot won"


class Draw(models.Model):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="draws")
    number = models.PositiveIntegerField()
    scheduled_at = models.DateTimeField()
    state = models.CharField(max_length=20, choices=DrawState.choices, default=DrawState.SCHEDULED)

    # The money, stored when sales close and never recomputed (P1).
    ticket_sales = money_field(null=True, blank=True)
    draw_prize = money_field(null=True, blank=True)
    jackpot_contribution = money_field(null=True, blank=True)
    licensee_share = money_field(null=True, blank=True)
    jackpot_before = money_field(null=True, blank=True)
    jackpot_after = money_field(null=True, blank=True, help_text="Jackpot at stake in this draw.")
    jackpot_awarded = money_field(null=True, blank=True)
    rounding = models.CharField(max_length=10, choices=Rounding.CHOICES, blank=True)
    draw_prize_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    jackpot_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)
    licensee_percent = models.DecimalField(max_digits=5, decimal_places=2, null=True, blank=True)

    winning_serial = models.CharField(max_length=40, blank=True)
    winner_name = models.CharField(max_length=150, blank=True)
    envelope = models.OneToOneField(
        Envelope, null=True, blank=True, on_delete=models.PROTECT, related_name="chosen_in_draw"
    )
    outcome = models.CharField(max_length=20, choices=DrawOutcome.choices, blank=True)
    is_imported = models.BooleanField(default=False, help_text="Brought in from another system's records.")

    sales_opened_at = models.DateTimeField(null=True, blank=True)
    sales_closed_at = models.DateTimeField(null=True, blank=True)
    announced_at = models.DateTimeField(null=True, blank=True)
    ticket_drawn_at = models.DateTimeField(null=True, blank=True)
    envelope_chosen_at = models.DateTimeField(null=True, blank=True)
    card_revealed_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="draw_number_once_per_event"),
            models.CheckConstraint(condition=Q(number__gte=1), name="draw_number_positive"),
            models.CheckConstraint(condition=Q(state__in=DrawState.values), name="draw_state_valid"),
            models.UniqueConstraint(
                fields=["event"], condition=Q(state__in=DRAW_IN_PROGRESS), name="one_draw_in_progress_per_event"
            ),
            *[
                models.CheckConstraint(condition=Q(**{f"{name}__gte": 0}), name=f"draw_{name}_not_negative")
                for name in (
                    "ticket_sales", "draw_prize", "jackpot_contribution", "licensee_share",
                    "jackpot_before", "jackpot_after", "jackpot_awarded",
                )
            ],
            # R:P1 the three parts add up to the sales exactly.
            models.CheckConstraint(
                condition=Q(ticket_sales__isnull=True)
                | Q(ticket_sales=F("draw_prize") + F("jackpot_contribution") + F("licensee_share")),
                name="draw_split_adds_up",
            ),
            models.CheckConstraint(
                condition=Q(ticket_sales__isnull=True)
                | Q(jackpot_after=F("jackpot_before") + F("jackpot_contribution")),
                name="draw_jackpot_carries_exactly",
            ),
            models.CheckConstraint(
                condition=Q(outcome="") | Q(outcome__in=DrawOutcome.values), name="draw_outcome_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"Draw {self.number}"

    def can_transition_to(self, state: str) -> bool:
        return state in DRAW_TRANSITIONS[self.state]

    @property
    def is_ace(self) -> bool:
        return self.envelope is not None and self.envelope.card == ACE_OF_SPADES and self.envelope.is_open

    @property
    def step_number(self) -> int:
        return list(DRAW_TRANSITIONS).index(self.state)


class DestructionMethod(models.TextChoices):
    DESTROYED = "destroyed", "Paper card destroyed"
    DELETED = "deleted", "Electronic card deleted"


class CardDestruction(AppendOnlyModel):
    """The destruction (paper) or deletion (electronic) log of E2/E3: the draw,
    the complete card, the member who destroyed it and a second member in
    charge who verified it. Append-only in PostgreSQL."""

    draw = models.OneToOneField(Draw, on_delete=models.PROTECT, related_name="destruction")
    envelope = models.OneToOneField(Envelope, on_delete=models.PROTECT, related_name="destruction")
    card = models.CharField(max_length=3, choices=CARD_CHOICES)
    method = models.CharField(max_length=20, choices=DestructionMethod.choices)
    destroyed_by = models.ForeignKey(BonaFideMember, on_delete=models.PROTECT, related_name="+")
    verified_by = models.ForeignKey(BonaFideMember, on_delete=models.PROTECT, related_name="+")
    destroyed_at = models.DateTimeField()
    verified_at = models.DateTimeField()
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["draw__event", "draw__number"]
        constraints = [
            # R:E3 two different people.
            models.CheckConstraint(
                condition=~Q(destroyed_by=F("verified_by")), name="destruction_verified_by_someone_else"
            ),
            models.CheckConstraint(condition=~Q(card=ACE_OF_SPADES), name="ace_is_never_destroyed"),
        ]

    def __str__(self) -> str:
        return f"{card_name(self.card)} ({self.draw})"
