"""The draw, its state machine (RULES D8) and the card destruction log (E3)."""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core.models import AppendOnlyModel
from core.money import Rounding
from licensing.models import BonaFideMember
from raffle.cards import ACE_OF_SPADES, CARD_CHOICES, card_name
from raffle.models.draw_steps import (
    BEFORE_WINNING_TICKET,
    DRAW_IN_PROGRESS,
    DRAW_ORDER,
    DRAW_STEPS,
    DRAW_TRANSITIONS,
    MUST_GO_SETTABLE,
    MUST_GO_TRANSITIONS,
    DrawState,
    Step,
    next_step,
)
from raffle.models.event import Envelope, Event, money_field

__all__ = [
    "BEFORE_WINNING_TICKET",
    "DRAW_IN_PROGRESS",
    "DRAW_ORDER",
    "DRAW_STEPS",
    "DRAW_TRANSITIONS",
    "MUST_GO_SETTABLE",
    "MUST_GO_TRANSITIONS",
    "CardDestruction",
    "DestructionMethod",
    "Draw",
    "DrawOutcome",
    "DrawState",
    "MustGoReason",
    "MustGoTicket",
    "Step",
]


class MustGoReason(models.TextChoices):
    LAST_DRAW = "last_draw", gettext_lazy("The last scheduled draw")
    LICENCE_EXPIRY = "licence_expiry", gettext_lazy("The licence expires")
    PRIZE_BOARD = "prize_board", gettext_lazy("The prize board is reached")


class DrawOutcome(models.TextChoices):
    ROLLOVER = "rollover", gettext_lazy("Not the ace: jackpot rolls over")
    JACKPOT_WON = "jackpot_won", gettext_lazy("Ace of Spades: jackpot won")


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
    jackpot_after = money_field(null=True, blank=True, help_text=gettext_lazy("Jackpot at stake in this draw."))
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
    is_imported = models.BooleanField(
        default=False, help_text=gettext_lazy("Brought in from another system's records.")
    )
    must_go = models.BooleanField(
        default=False, help_text=gettext_lazy("The must-go final draw: tickets are drawn until the ace is found (P7).")
    )
    must_go_reason = models.CharField(max_length=20, choices=MustGoReason.choices, blank=True)
    # R:P7 when a must-go draw ran out of valid tickets before the ace: from
    # then on the lowest sealed envelopes are opened in order until the ace.
    must_go_run_out_at = models.DateTimeField(null=True, blank=True)
    # R:L13 the draw's two bona fide members in charge (18 or over), named before its sales close.
    member_in_charge = models.ForeignKey(
        BonaFideMember, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    second_member_in_charge = models.ForeignKey(
        BonaFideMember, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    # Running totals of the draw's sales, kept in the same transaction as each
    # sale, void and roll return, so a sale's checks read them in constant time
    # (`reconcile_draw_totals` proves them against the rows). A draw's tickets
    # are numbered densely, so the last seq taken is tickets_valid + tickets_void.
    sales_amount = money_field(default=0, help_text=gettext_lazy("Valid sales so far (running total)."))
    sales_valid = models.PositiveIntegerField(default=0)
    sales_void = models.PositiveIntegerField(default=0)
    tickets_valid = models.PositiveIntegerField(default=0)
    tickets_void = models.PositiveIntegerField(default=0)

    sales_opened_at = models.DateTimeField(null=True, blank=True)
    sales_closed_at = models.DateTimeField(null=True, blank=True)
    announced_at = models.DateTimeField(null=True, blank=True)
    ticket_drawn_at = models.DateTimeField(null=True, blank=True)
    envelope_chosen_at = models.DateTimeField(null=True, blank=True)
    card_revealed_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # R:D9 when the draw was actually held: its first winning ticket drawn (an
    # imported draw: the date of its record). Payments, reports and the
    # destruction log date the draw by it; `scheduled_at` is the advertised time.
    held_at = models.DateTimeField(null=True, blank=True)
    # R:T8 while the draw awaits the claim of its winning roll ticket: the end of its claim time.
    claim_until = models.DateTimeField(null=True, blank=True)

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
                    "ticket_sales",
                    "draw_prize",
                    "jackpot_contribution",
                    "licensee_share",
                    "jackpot_before",
                    "jackpot_after",
                    "jackpot_awarded",
                    "sales_amount",
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
            models.CheckConstraint(
                condition=Q(must_go=False, must_go_reason="") | Q(must_go=True, must_go_reason__in=MustGoReason.values),
                name="draw_must_go_has_reason",
            ),
            models.CheckConstraint(
                condition=Q(must_go_run_out_at__isnull=True) | Q(must_go=True), name="draw_run_out_only_must_go"
            ),
            # R:L13 two different members in charge, or none named yet.
            models.CheckConstraint(
                condition=Q(member_in_charge__isnull=True, second_member_in_charge__isnull=True)
                | Q(
                    member_in_charge__isnull=False,
                    second_member_in_charge__isnull=False,
                )
                & ~Q(member_in_charge=F("second_member_in_charge")),
                name="draw_two_different_members_in_charge",
            ),
            # R:T8 a draw awaiting a claim shows until when; no envelope is chosen for an absent holder.
            models.CheckConstraint(
                condition=~Q(state=DrawState.AWAITING_CLAIM) | Q(claim_until__isnull=False, envelope__isnull=True),
                name="draw_awaiting_claim_has_claim_time_and_no_envelope",
                violation_error_message="A draw awaiting a claim has the end of its claim time and no envelope.",
            ),
            # R:D9 no draw is held before its advertised time.
            models.CheckConstraint(
                condition=Q(held_at__isnull=True) | Q(held_at__gte=F("scheduled_at")),
                name="draw_not_held_before_advertised_time",
                violation_error_message="A draw cannot be held before its advertised date and time.",
            ),
        ]

    def __str__(self) -> str:
        return gettext("Draw %(number)s") % {"number": self.number}

    @property
    def next_step(self) -> Step | None:
        """Its next step, from the table (`raffle.models.draw_steps`)."""
        return next_step(self)

    def can_transition_to(self, state: str) -> bool:
        # R:P7 a must-go draw closes only on the ace; any other card sends it
        # back to draw another ticket (the table's rows say which applies).
        step = next_step(self)
        return step is not None and step.to == state

    @property
    def members_in_charge_named(self) -> bool:
        return self.member_in_charge_id is not None and self.second_member_in_charge_id is not None

    @property
    def is_ace(self) -> bool:
        return self.envelope is not None and self.envelope.card == ACE_OF_SPADES and self.envelope.is_open

    @property
    def must_go_tickets_left(self) -> int | None:
        """R:P7 how many valid tickets of this draw have not been drawn yet
        (None before its pool is fixed, or for an imported draw)."""
        pool = getattr(self, "pool", None) if self.pk else None
        if pool is None:
            return None
        drawn = self.winner_selections.values("ticket_id").distinct().count()
        return max(pool.valid_tickets - drawn, 0)

    @property
    def must_go_run_out(self) -> bool:
        """R:P7 a must-go draw whose valid tickets are all drawn and the ace not
        found: the lowest sealed envelopes are opened in order until it is."""
        if not self.must_go:
            return False
        return self.must_go_run_out_at is not None or self.must_go_tickets_left == 0

    @property
    def held_or_due_at(self):
        """R:D9 when the draw was held; until it is, its advertised time. (A
        draw of before `held_at` was kept: when its ticket was drawn.)"""
        return self.held_at or self.ticket_drawn_at or self.scheduled_at

    @property
    def held_on(self):
        """The day the draw was held (or is due): prize payments, unclaimed
        prizes and publication of the winners count from it."""
        return timezone.localdate(self.held_or_due_at)

    @property
    def last_seq(self) -> int:
        """The last ticket number taken in this draw (seq is dense from 1)."""
        return self.tickets_valid + self.tickets_void

    @property
    def step_number(self) -> int:
        return DRAW_ORDER.index(self.state)


class DestructionMethod(models.TextChoices):
    DESTROYED = "destroyed", gettext_lazy("Paper card destroyed")
    DELETED = "deleted", gettext_lazy("Electronic card deleted")


class CardDestruction(AppendOnlyModel):
    """The destruction (paper) or deletion (electronic) log of E2/E3: the draw,
    the complete card, the member who destroyed it and a second member in
    charge who verified it. Append-only in PostgreSQL."""

    # A foreign key, not one-to-one: a must-go final draw (P7) destroys every
    # non-ace card it opens. Each envelope is still destroyed once.
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="destructions")
    envelope = models.OneToOneField(Envelope, on_delete=models.PROTECT, related_name="destruction")
    card = models.CharField(max_length=3, choices=CARD_CHOICES)
    method = models.CharField(max_length=20, choices=DestructionMethod.choices)
    destroyed_by = models.ForeignKey(BonaFideMember, on_delete=models.PROTECT, related_name="+")
    verified_by = models.ForeignKey(BonaFideMember, on_delete=models.PROTECT, related_name="+")
    destroyed_at = models.DateTimeField()
    verified_at = models.DateTimeField()
    # R:E3 each member signed in with their own password at the time.
    destroyer_authenticated_at = models.DateTimeField(null=True, blank=True)
    verifier_authenticated_at = models.DateTimeField(null=True, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    # R:E3 the names and roles as they were when signed: renaming a member
    # later does not rewrite the log (the foreign keys say who, these what was signed).
    destroyed_by_name = models.CharField(max_length=150, blank=True)
    destroyed_by_role = models.CharField(max_length=60, blank=True)
    verified_by_name = models.CharField(max_length=150, blank=True)
    verified_by_role = models.CharField(max_length=60, blank=True)

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


class MustGoTicket(models.Model):
    """R:P7 each winning ticket drawn in a must-go final draw, in order, with
    the envelope its holder opened and, once the ace is found, what the holder
    is paid under the Rules of Play."""

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="must_go_tickets")
    sequence = models.PositiveSmallIntegerField()
    winning_serial = models.CharField(max_length=40)
    winner_name = models.CharField(max_length=150, blank=True)
    envelope = models.OneToOneField(Envelope, on_delete=models.PROTECT, related_name="must_go_ticket")
    card = models.CharField(max_length=3, choices=CARD_CHOICES)
    draw_prize_share = money_field(null=True, blank=True)
    jackpot_share = money_field(null=True, blank=True)
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["draw", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "sequence"], name="must_go_ticket_sequence_once"),
            models.UniqueConstraint(fields=["draw", "winning_serial"], name="must_go_ticket_drawn_once"),
            models.CheckConstraint(condition=Q(draw_prize_share__gte=0), name="must_go_share_not_negative"),
            models.CheckConstraint(condition=Q(jackpot_share__gte=0), name="must_go_jackpot_not_negative"),
        ]

    def __str__(self) -> str:
        return gettext("%(draw)s, ticket %(sequence)s: %(serial)s") % {
            "draw": self.draw,
            "sequence": self.sequence,
            "serial": self.winning_serial,
        }

    @property
    def members_in_charge_named(self) -> bool:
        return self.member_in_charge_id is not None and self.second_member_in_charge_id is not None

    @property
    def is_ace(self) -> bool:
        return self.card == ACE_OF_SPADES

    @property
    def total(self):
        return (self.draw_prize_share or 0) + (self.jackpot_share or 0)
