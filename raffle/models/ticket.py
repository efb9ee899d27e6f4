"""Tickets: rolls and books issued to sellers, sales, serialized tickets, the
winning-ticket selections of a draw and each draw's ticket pool.

Rules: serials are unique across every draw of a licence (T3, a PostgreSQL
constraint on (serial, licence)); a ticket belongs to one draw only (T4);
voids are recorded, never deleted (T11); sellers get no commission (T2: there
is deliberately no commission field anywhere).
"""

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.db.models.functions import Length
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext

from core.money import format_money_here
from licensing.models import Licence, SalesChannel
from raffle.models.draw import Draw
from raffle.models.event import ENVELOPE_COUNT, PriceTier, money_field
from raffle.models.ticket_reads import TicketQuerySet

# R:T2 sellers are not paid commission: no model here has a commission field.
# R:T6 non-winning and unsold tickets may be destroyed this many days after their draw.
DESTRUCTION_DELAY_DAYS = 30


class RollKind(models.TextChoices):
    ROLL = "roll", gettext_lazy("Roll of tickets")
    BOOK = "book", gettext_lazy("Book of stub tickets")


class TicketRoll(models.Model):
    """A roll or book of pre-printed serials issued to a named seller for one
    draw (T7, L13). The unsold part is returned; what was sold is recorded as
    sales of that draw. Sellers are never paid commission (T2)."""

    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="+")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="ticket_rolls")
    kind = models.CharField(max_length=10, choices=RollKind.choices, default=RollKind.ROLL)
    seller = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="ticket_rolls"
    )
    seller_name = models.CharField(max_length=150)
    first_serial = models.BigIntegerField()
    last_serial = models.BigIntegerField()
    issued_at = models.DateTimeField(default=timezone.now)
    issued_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    first_unsold = models.BigIntegerField(
        null=True, blank=True, help_text=gettext_lazy("First serial handed back unsold; everything before it was sold.")
    )
    returned_at = models.DateTimeField(null=True, blank=True)
    # R:T7 R:L13 a roll or book that never comes back is declared lost, with a
    # reason: its unsold serials are void, reported as such, never sold or drawn.
    lost_at = models.DateTimeField(null=True, blank=True)
    lost_reason = models.CharField(max_length=300, blank=True)
    lost_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # R:T3 a returned roll's sold serials are its tickets in_roll_range: serial
    # first_serial + k (below first_unsold) is the ticket of seq first_seq + k in
    # the roll's draw. Set once, at the return with first_unsold; from then on the
    # roll's range, sold part, draw and first_seq never change (PostgreSQL refuses
    # it, migration 0027).
    first_seq = models.PositiveIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["draw", "first_serial"]
        constraints = [
            models.CheckConstraint(condition=Q(first_serial__gte=1), name="roll_first_serial_positive"),
            models.CheckConstraint(condition=Q(last_serial__gte=F("first_serial")), name="roll_range_ordered"),
            models.CheckConstraint(
                condition=Q(first_unsold__isnull=True)
                | Q(first_unsold__gte=F("first_serial"), first_unsold__lte=F("last_serial") + 1),
                name="roll_return_inside_range",
            ),
            models.CheckConstraint(condition=Q(kind__in=RollKind.values), name="roll_kind_valid"),
            models.CheckConstraint(
                condition=Q(returned_at__isnull=True) | Q(lost_at__isnull=True), name="roll_returned_or_lost"
            ),
            models.CheckConstraint(condition=Q(lost_at__isnull=True) | ~Q(lost_reason=""), name="roll_lost_has_reason"),
            models.CheckConstraint(
                condition=Q(first_seq__isnull=True)
                | Q(first_seq__gte=1, kind=RollKind.ROLL, first_unsold__isnull=False),
                name="roll_first_seq_of_a_returned_roll",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s %(first)s–%(last)s (%(seller)s)") % {
            "kind": self.get_kind_display(),
            "first": self.first_serial,
            "last": self.last_serial,
            "seller": self.seller_name,
        }

    @property
    def size(self) -> int:
        return self.last_serial - self.first_serial + 1

    @property
    def is_returned(self) -> bool:
        return self.returned_at is not None

    @property
    def is_lost(self) -> bool:
        return self.lost_at is not None

    @property
    def is_out(self) -> bool:
        """Still with its seller: neither returned nor declared lost (R:T7)."""
        return self.returned_at is None and self.lost_at is None


def _checked_key(to, **kwargs) -> models.ForeignKey:
    """A sale's key, checked once per statement by a trigger instead of row by
    row, and without an index of its own (migration 0023)."""
    return models.ForeignKey(to, on_delete=models.PROTECT, db_index=False, db_constraint=False, **kwargs)


class Sale(models.Model):
    """One sale: `units` of one price tier (e.g. 2 x "3 for $10" = 6 serials
    for $20), on one channel, for one draw. Stub and electronic sales carry the
    purchaser and the envelope picked (T9); electronic sales the device (T11)."""

    # Built for bulk (docs/architecture.md, "Sale rows"): no per-row foreign
    # key checks and no index per key. One statement-level trigger checks each
    # insert's sales at once: the draw is of the sale's licence, the tier of the
    # draw's event, the roll of the draw, the sellers exist, each locked as a
    # foreign key locks it; a draw, tier or user with sales is never deleted
    # (migration 0023).
    licence = _checked_key(Licence, related_name="+")
    draw = _checked_key(Draw, related_name="sales")
    channel = models.CharField(max_length=20, choices=SalesChannel.choices)
    tier = _checked_key(PriceTier, related_name="+")
    units = models.PositiveIntegerField(default=1)
    ticket_count = models.PositiveIntegerField()
    # The sale's tickets are the seqs first_seq .. first_seq + ticket_count - 1
    # of its draw: one range of the tickets' primary key (`Ticket.objects.of_sale`),
    # so no index of tickets by sale (migration 0026). The tickets' trigger
    # refuses a ticket outside its sale's range; neither ever changes.
    first_seq = models.PositiveIntegerField()
    amount = money_field()
    roll = _checked_key(TicketRoll, null=True, blank=True, related_name="sales")
    purchaser_name = models.CharField(max_length=150, blank=True)
    purchaser_contact = models.CharField(max_length=200, blank=True, help_text=gettext_lazy("Phone or e-mail."))
    purchaser_address = models.CharField(max_length=300, blank=True)
    supplier_order = models.CharField(
        max_length=60, blank=True, help_text=gettext_lazy("The order number in the supplier's system (imported sales).")
    )
    envelope_pick = models.PositiveSmallIntegerField(null=True, blank=True)
    device = models.CharField(max_length=60, blank=True, help_text=gettext_lazy("Point-of-sale device or seller."))
    sold_by = _checked_key(settings.AUTH_USER_MODEL, null=True, blank=True, related_name="+")
    sold_at = models.DateTimeField(default=timezone.now)
    voided_at = models.DateTimeField(null=True, blank=True)
    voided_by = _checked_key(settings.AUTH_USER_MODEL, null=True, blank=True, related_name="+")
    void_reason = models.CharField(max_length=300, blank=True)
    print_count = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["draw", "sold_at", "id"]
        indexes = [
            # The sales page's latest sales of a draw, read backwards from the
            # index; every other read of a draw's sales starts here too.
            models.Index(fields=["draw", "sold_at", "id"], name="sale_draw_recent"),
            # The few voided sales of a draw (the reports' void lists): a valid sale is not in it.
            models.Index(fields=["draw"], condition=Q(voided_at__isnull=False), name="sale_draw_voided"),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(units__gte=1), name="sale_units_positive"),
            models.CheckConstraint(condition=Q(ticket_count__gte=1), name="sale_ticket_count_positive"),
            models.CheckConstraint(condition=Q(first_seq__gte=1), name="sale_first_seq_positive"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="sale_amount_positive"),
            models.CheckConstraint(
                condition=Q(envelope_pick__isnull=True) | Q(envelope_pick__gte=1, envelope_pick__lte=ENVELOPE_COUNT),
                name="sale_envelope_pick_1_to_52",
            ),
            # R:T11 a void always carries its reason.
            models.CheckConstraint(
                condition=Q(voided_at__isnull=True) | ~Q(void_reason=""), name="sale_void_has_reason"
            ),
            models.CheckConstraint(condition=Q(channel__in=SalesChannel.values), name="sale_channel_valid"),
        ]

    def __str__(self) -> str:
        tickets = ngettext("%(count)s ticket", "%(count)s tickets", self.ticket_count) % {"count": self.ticket_count}
        return gettext("Sale %(number)s (%(tickets)s, %(amount)s)") % {
            "number": self.pk,
            "tickets": tickets,
            "amount": format_money_here(self.amount),
        }

    @property
    def is_void(self) -> bool:
        return self.voided_at is not None


class Ticket(models.Model):
    """One serial in play for one draw (T4). `seq` numbers a draw's tickets
    densely from 1, so the winner is picked by a uniform random index on an
    index instead of sorting a million rows. The primary key is
    `ticket_key(draw, seq)`."""

    # Built for bulk (docs/architecture.md, "Ticket rows"): no per-row foreign
    # key checks. One statement-level trigger checks each insert's tickets
    # against their sales at once (the ticket's licence and draw are its
    # sale's); sales are never deleted and a ticket's keys never change
    # (migration 0013).
    licence = models.ForeignKey(
        Licence, on_delete=models.PROTECT, related_name="+", db_index=False, db_constraint=False
    )
    draw = models.ForeignKey(
        Draw, on_delete=models.PROTECT, related_name="tickets", db_index=False, db_constraint=False
    )
    sale = models.ForeignKey(
        Sale, on_delete=models.PROTECT, related_name="tickets", db_index=False, db_constraint=False
    )
    serial = models.CharField(max_length=40)
    seq = models.PositiveIntegerField()
    is_void = models.BooleanField(default=False)
    # R:T3 a ticket of a returned roll's run of serials (`TicketRoll.first_seq`):
    # its serial is unique by its place in the roll, whose range overlaps no
    # other roll's (an exclusion constraint), so it does not enter the serial
    # index; the tickets' trigger proves the place (docs/architecture.md,
    # "Ticket rows"). Never changes.
    in_roll_range = models.BooleanField(default=False, db_default=False)

    objects = TicketQuerySet.as_manager()

    class Meta:
        ordering = ["id"]  # draw, then seq: the primary key's order
        # R:T11 the few void tickets of a draw (the reports' void lists) in key order;
        # a valid ticket, the million of a night's sales, never enters it.
        indexes = [models.Index(fields=["id"], condition=Q(is_void=True), name="ticket_void")]
        constraints = [
            # R:T3 no duplicate serial among all draws under a licence, in the database.
            # Keyed (licence, length(serial), serial) (migration 0025): two rows with the
            # same serial have the same length, so this is exactly "one serial per
            # licence", and a roll's serials, 1 to 1,000,000 in numeric order, go in in
            # the index's order (appended at the end of their licence's part) where
            # "10" < "9" scattered them over it. A returned roll's tickets are unique
            # by their place in the roll instead (`in_roll_range`, migration 0027).
            # Look a serial up with `with_serial(s)`, which reads both.
            models.UniqueConstraint(
                "licence",
                Length("serial"),
                "serial",
                condition=Q(in_roll_range=False),
                name="ticket_serial_unique_per_licence",
            ),
            models.CheckConstraint(condition=Q(seq__gte=1), name="ticket_seq_positive"),
            models.CheckConstraint(condition=~Q(serial=""), name="ticket_serial_not_blank"),
        ]

    def __str__(self) -> str:
        return gettext("Ticket %(serial)s") % {"serial": self.serial}


class DrawPool(models.Model):
    """The tickets in play for one draw, fixed when sales close (T7): how many,
    their seq range, the total. Emptied after the draw (T4), with the date from
    which the non-winning and unsold tickets may be destroyed (T6)."""

    draw = models.OneToOneField(Draw, on_delete=models.PROTECT, related_name="pool")
    valid_tickets = models.PositiveIntegerField()
    void_tickets = models.PositiveIntegerField()
    max_seq = models.PositiveIntegerField()
    sales_total = money_field()
    first_serial = models.CharField(max_length=40, blank=True)
    last_serial = models.CharField(max_length=40, blank=True)
    container_count = models.PositiveIntegerField(null=True, blank=True)
    fixed_at = models.DateTimeField(default=timezone.now)
    emptied_at = models.DateTimeField(null=True, blank=True)
    destroy_after = models.DateField(null=True, blank=True)

    def __str__(self) -> str:
        return gettext("Pool of %(draw)s") % {"draw": self.draw}


class SelectionMethod(models.TextChoices):
    RNG = "rng", gettext_lazy("Drawn by the cryptographic RNG")
    CONTAINER = "container", gettext_lazy("Drawn from the container, serial typed twice")
    SUPPLIER = "supplier", gettext_lazy("Drawn by the registered supplier's system")


class WinnerSelection(models.Model):
    """Each winning-ticket selection of a draw, re-draws included (D5, T8).
    The current winner is the one not superseded."""

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="winner_selections")
    attempt = models.PositiveSmallIntegerField()
    ticket = models.ForeignKey(Ticket, on_delete=models.PROTECT, related_name="+")
    method = models.CharField(max_length=20, choices=SelectionMethod.choices)
    pool_size = models.PositiveIntegerField(help_text=gettext_lazy("Valid tickets drawn from."))
    pool_max_seq = models.PositiveIntegerField()
    rng_picks = models.JSONField(
        default=list, blank=True, help_text=gettext_lazy("Every index the RNG produced, in order.")
    )
    rng_reference = models.CharField(
        max_length=120, blank=True, help_text=gettext_lazy("The supplier system's reference of its RNG draw (D5).")
    )
    selected_at = models.DateTimeField(default=timezone.now)
    selected_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.PROTECT, related_name="+")
    claimed_at = models.DateTimeField(null=True, blank=True)
    # R:T8 a roll ticket's holder who was not at the draw: until when they may claim, and,
    # when they come forward, who they are, the ID seen and who checked it.
    claim_until = models.DateTimeField(null=True, blank=True)
    holder_name = models.CharField(max_length=150, blank=True)
    id_seen = models.CharField(
        max_length=150, blank=True, help_text=gettext_lazy("The identification the holder showed.")
    )
    id_checked_by = models.CharField(max_length=150, blank=True, help_text=gettext_lazy("Who saw and checked it."))
    superseded_at = models.DateTimeField(null=True, blank=True)
    superseded_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["draw", "attempt"]
        constraints = [
            models.UniqueConstraint(fields=["draw", "attempt"], name="selection_attempt_once"),
            models.UniqueConstraint(
                fields=["draw"], condition=Q(superseded_at__isnull=True), name="one_current_winner_per_draw"
            ),
            models.CheckConstraint(condition=Q(method__in=SelectionMethod.values), name="selection_method_valid"),
            # R:T8 a claim after the draw names the holder, the ID seen and who checked it.
            models.CheckConstraint(
                condition=Q(claim_until__isnull=True)
                | Q(claimed_at__isnull=True)
                | (~Q(holder_name="") & ~Q(id_seen="") & ~Q(id_checked_by="")),
                name="selection_claim_names_holder_and_id",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(draw)s: ticket %(serial)s (attempt %(attempt)s)") % {
            "draw": self.draw,
            "serial": self.ticket.serial,
            "attempt": self.attempt,
        }
