"""What the treasury records about draws (RULES L12, P3, P5): which draws a
deposit covers, how each prize was paid, and prizes nobody has claimed.

These sit in `raffle` because they point at draws; the trust account and the
deposits themselves are in `licensing.models.treasury`.
"""

import datetime

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from core.money import format_money_here
from licensing.models import Deposit, PaymentMethod
from raffle.models.draw import Draw, MustGoTicket
from raffle.models.event import Event, money_field

UNCLAIMED_HOLD_MONTHS = 6  # R:P5


def add_months(day: datetime.date, months: int) -> datetime.date:
    """The same day `months` later; the last day of the month when it is shorter."""
    import calendar

    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return datetime.date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


class DepositCoverage(models.Model):
    """R:L12 the part of a deposit that holds one draw's ticket sales."""

    deposit = models.ForeignKey(Deposit, on_delete=models.PROTECT, related_name="coverage")
    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="deposit_coverage")
    amount = money_field()

    class Meta:
        ordering = ["draw__number", "deposit__deposited_on"]
        constraints = [
            models.UniqueConstraint(fields=["deposit", "draw"], name="deposit_covers_draw_once"),
            models.CheckConstraint(condition=Q(amount__gt=0), name="coverage_amount_positive"),
        ]

    def __str__(self) -> str:
        return gettext("%(deposit)s covers %(amount)s of %(draw)s") % {
            "deposit": self.deposit,
            "amount": format_money_here(self.amount),
            "draw": self.draw,
        }


class SeedDeposit(models.Model):
    """R:P6 R:L12 the part of a deposit that holds the seed jackpot: lottery
    money put in the prizes, not a foreign deposit and not ticket sales."""

    deposit = models.OneToOneField(Deposit, on_delete=models.PROTECT, related_name="seed_part")
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="seed_deposits")
    amount = money_field()

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="seed_deposit_amount_positive")]

    def __str__(self) -> str:
        return gettext("%(deposit)s holds %(amount)s of the seed jackpot") % {
            "deposit": self.deposit,
            "amount": format_money_here(self.amount),
        }


class PrizeKind(models.TextChoices):
    DRAW_PRIZE = "draw_prize", gettext_lazy("Draw prize (20%)")
    JACKPOT = "jackpot", gettext_lazy("Progressive jackpot")


class PrizePayment(models.Model):
    """R:P3 a prize paid in Canadian funds by cheque or electronic transfer."""

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="prize_payments")
    kind = models.CharField(max_length=20, choices=PrizeKind.choices)
    # R:P7 a must-go draw's holders are each paid their own share by their own payment.
    must_go_ticket = models.ForeignKey(
        MustGoTicket, null=True, blank=True, on_delete=models.PROTECT, related_name="payments"
    )
    amount = money_field()
    currency = models.CharField(max_length=3, default="CAD", editable=False)
    method = models.CharField(max_length=20, choices=PaymentMethod.choices)
    reference = models.CharField(max_length=60, help_text=gettext_lazy("Cheque number or transfer reference."))
    paid_on = models.DateField()
    payee = models.CharField(max_length=150)
    cheque_image = models.FileField(
        upload_to="cheques/%Y/",
        blank=True,
        help_text=gettext_lazy("A scan of the cheque, annexed to the four-draw report (R1)."),
    )
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["draw__number", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["draw", "kind"], condition=Q(must_go_ticket__isnull=True), name="prize_paid_once"
            ),
            models.UniqueConstraint(
                fields=["must_go_ticket", "kind"],
                condition=Q(must_go_ticket__isnull=False),
                name="must_go_share_paid_once",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="prize_payment_positive"),
            models.CheckConstraint(condition=Q(currency="CAD"), name="prize_paid_in_canadian_funds"),
            models.CheckConstraint(condition=Q(method__in=PaymentMethod.values), name="prize_method_valid"),
        ]

    def __str__(self) -> str:
        return gettext("%(kind)s of %(draw)s: %(amount)s to %(payee)s") % {
            "kind": self.get_kind_display(),
            "draw": self.draw,
            "amount": format_money_here(self.amount),
            "payee": self.payee,
        }


class UnclaimedPrize(models.Model):
    """R:P5 a prize held in trust while the winner is sought; after six months
    it joins the gross proceeds."""

    draw = models.ForeignKey(Draw, on_delete=models.PROTECT, related_name="unclaimed_prizes")
    kind = models.CharField(max_length=20, choices=PrizeKind.choices)
    # R:P7 a must-go draw's holder who has not claimed: only their own share is held.
    must_go_ticket = models.ForeignKey(
        MustGoTicket, null=True, blank=True, on_delete=models.PROTECT, related_name="unclaimed"
    )
    amount = money_field()
    unclaimed_since = models.DateField(help_text=gettext_lazy("The draw date."))
    added_to_proceeds_on = models.DateField(null=True, blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["draw__number", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["draw", "kind"], condition=Q(must_go_ticket__isnull=True), name="prize_unclaimed_once"
            ),
            models.UniqueConstraint(
                fields=["must_go_ticket", "kind"],
                condition=Q(must_go_ticket__isnull=False),
                name="must_go_share_unclaimed_once",
            ),
            models.CheckConstraint(condition=Q(amount__gt=0), name="unclaimed_amount_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Unclaimed %(kind)s of %(draw)s") % {"kind": self.get_kind_display().lower(), "draw": self.draw}

    @property
    def hold_until(self) -> datetime.date:
        return add_months(self.unclaimed_since, UNCLAIMED_HOLD_MONTHS)


class ContactAttempt(models.Model):
    """R:P5 one attempt to reach the winner of an unclaimed prize."""

    prize = models.ForeignKey(UnclaimedPrize, on_delete=models.PROTECT, related_name="attempts")
    attempted_on = models.DateField()
    means = models.CharField(max_length=60, help_text=gettext_lazy("Telephone, e-mail, letter, notice at the venue..."))
    outcome = models.CharField(max_length=200)
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["prize", "attempted_on", "pk"]

    def __str__(self) -> str:
        return f"{self.attempted_on:%Y-%m-%d} {self.means}: {self.outcome}"
