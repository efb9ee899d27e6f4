"""Amendments of a granted licence's figures (RULES L3, L5, L8): prize board,
draw schedule and sales plan, dates, draw place, sales channel. Each is a
written request on the organisation's letterhead signed by the Licence
Application signers, given with the notice the authority needs, and changes
nothing until approved; from its effective date it is the licence's figure."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from core.money import format_money
from licensing.models.licence import AuthorityKind, Licence, SalesChannel
from licensing.models.safety_plan import SafetyPlan

# R:L5 the AGCO needs two weeks' written notice before an amendment takes effect.
AMENDMENT_NOTICE_DAYS = 14
# The notice each authority needs, in days; the guide leaves a municipality's or
# First Nation's to them ("contact your municipality"), so only the written
# notice before the effective day is required there.
NOTICE_DAYS_BY_AUTHORITY = {AuthorityKind.AGCO: AMENDMENT_NOTICE_DAYS}


class AmendmentStatus(models.TextChoices):
    REQUESTED = "requested", _("Requested, awaiting approval")
    APPROVED = "approved", _("Approved")


class AmendmentKind(models.TextChoices):
    CHANNEL = "channel", _("Sales channel")
    PRIZE_BOARD = "prize_board", _("Prize board")
    SCHEDULE = "schedule", _("Draw schedule and sales plan")
    DATES = "dates", _("Licence dates (expiry)")
    DRAW_PLACE = "draw_place", _("Draw place")


def _letterhead_path(instance, filename: str) -> str:
    return f"amendments/{instance.licence_id}/{filename}"


class LicenceAmendment(models.Model):
    licence = models.ForeignKey(Licence, on_delete=models.PROTECT, related_name="amendments")
    kind = models.CharField(max_length=20, choices=AmendmentKind.choices, default=AmendmentKind.CHANNEL)
    from_channel = models.CharField(max_length=20, choices=SalesChannel.choices, blank=True, default="")
    to_channel = models.CharField(max_length=20, choices=SalesChannel.choices, blank=True, default="")
    from_value = models.CharField(
        max_length=300, blank=True, help_text=gettext_lazy("The figure in force when requested.")
    )
    new_prize_board = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    new_expires_on = models.DateField(null=True, blank=True)
    new_draw_place = models.CharField(max_length=200, blank=True)
    notice_given_on = models.DateField(
        help_text=gettext_lazy("Day the written request went to the licensing authority.")
    )
    effective_on = models.DateField(help_text=gettext_lazy("First day of the new figure; draws from then on."))
    letterhead = models.FileField(upload_to=_letterhead_path, blank=True)
    letterhead_note = models.CharField(
        max_length=300,
        blank=True,
        help_text=gettext_lazy("Where the signed letter on letterhead is kept, if not attached."),
    )
    signed_by = models.JSONField(
        default=list, help_text=gettext_lazy("The Licence Application signers who signed the request.")
    )
    safety_plan = models.ForeignKey(
        SafetyPlan,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="amendments",
        help_text=gettext_lazy("The version of the safety and security plan in force when requested."),
    )
    status = models.CharField(max_length=20, choices=AmendmentStatus.choices, default=AmendmentStatus.REQUESTED)
    approved_on = models.DateField(null=True, blank=True)
    approval_reference = models.CharField(max_length=100, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["licence", "effective_on"]
        constraints = [
            models.CheckConstraint(condition=Q(status__in=AmendmentStatus.values), name="amendment_status_valid"),
            models.CheckConstraint(condition=Q(kind__in=AmendmentKind.values), name="amendment_kind_valid"),
            # R:L5 notice comes before the change (the service checks the two weeks).
            models.CheckConstraint(
                condition=Q(effective_on__gt=models.F("notice_given_on")), name="amendment_effective_after_notice"
            ),
            models.CheckConstraint(
                condition=Q(status=AmendmentStatus.REQUESTED) | Q(approved_on__isnull=False),
                name="amendment_approved_has_date",
            ),
            # Each kind carries its new figure.
            models.CheckConstraint(
                condition=~Q(kind=AmendmentKind.CHANNEL) | ~Q(to_channel=""), name="amendment_channel_has_channel"
            ),
            models.CheckConstraint(
                condition=~Q(kind=AmendmentKind.PRIZE_BOARD) | Q(new_prize_board__gt=0),
                name="amendment_prize_board_positive",
            ),
            models.CheckConstraint(
                condition=~Q(kind=AmendmentKind.DATES) | Q(new_expires_on__isnull=False),
                name="amendment_dates_has_expiry",
            ),
            models.CheckConstraint(
                condition=~Q(kind=AmendmentKind.DRAW_PLACE) | ~Q(new_draw_place=""),
                name="amendment_draw_place_has_place",
            ),
        ]

    def __str__(self) -> str:
        return gettext("%(licence)s: %(kind)s from %(day)s") % {
            "licence": self.licence,
            "kind": self.get_kind_display(),
            "day": f"{self.effective_on:%Y-%m-%d}",
        }

    @property
    def new_value(self) -> str:
        if self.kind == AmendmentKind.CHANNEL:
            return self.get_to_channel_display()
        if self.kind == AmendmentKind.PRIZE_BOARD:
            return format_money(self.new_prize_board)
        if self.kind == AmendmentKind.DATES:
            return f"expires {self.new_expires_on:%Y-%m-%d}"
        if self.kind == AmendmentKind.DRAW_PLACE:
            return self.new_draw_place
        return ", ".join(f"{d.draw_on:%Y-%m-%d} {format_money(d.max_sales)}" for d in self.draws.all())


class AmendedDraw(models.Model):
    """One line of an amended draw schedule and sales plan (L3)."""

    amendment = models.ForeignKey(LicenceAmendment, on_delete=models.CASCADE, related_name="draws")
    number = models.PositiveIntegerField()
    draw_on = models.DateField()
    max_sales = models.DecimalField(max_digits=12, decimal_places=2)

    class Meta:
        ordering = ["amendment", "number"]
        constraints = [
            models.UniqueConstraint(fields=["amendment", "number"], name="amended_draw_once"),
            models.CheckConstraint(condition=Q(max_sales__gt=0), name="amended_draw_sales_positive"),
        ]

    def __str__(self) -> str:
        return gettext("Amended draw %(number)s on %(day)s") % {
            "number": self.number,
            "day": f"{self.draw_on:%Y-%m-%d}",
        }
