"""Organisations and their bona fide members (RULES L1, L13)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy

from core.roles import ALL_ROLES


class Organisation(models.Model):
    name = models.CharField(max_length=200, unique=True)
    charity_registration_number = models.CharField(
        max_length=30, blank=True, help_text=gettext_lazy("CRA charitable registration number, e.g. 123456789RR0001.")
    )
    street_address = models.CharField(max_length=200, blank=True)
    city = models.CharField(max_length=100, blank=True)
    province = models.CharField(max_length=2, default="ON")
    postal_code = models.CharField(max_length=7, blank=True)
    contact_name = models.CharField(max_length=150, blank=True)
    contact_email = models.EmailField(blank=True)
    contact_phone = models.CharField(max_length=30, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class BonaFideMember(models.Model):
    """A member of the organisation who may run the lottery (RULES L13), linked
    to the user account they sign in with. Those "in charge" may verify a card
    destruction (E3) and sign for the trust account (L12)."""

    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bona_fide_memberships")
    full_name = models.CharField(max_length=150)
    date_of_birth = models.DateField(null=True, blank=True, help_text=gettext_lazy("Members must be 18 or over (L13)."))
    is_in_charge = models.BooleanField(
        default=False, help_text=gettext_lazy("In charge of the lottery: may verify card destructions.")
    )
    is_active = models.BooleanField(default=True)

    class Meta:
        ordering = ["organisation", "full_name"]
        constraints = [
            models.UniqueConstraint(fields=["organisation", "user"], name="member_once_per_organisation"),
            # R:L13 a member is put in charge only once their date of birth is recorded.
            models.CheckConstraint(
                condition=models.Q(is_in_charge=False) | models.Q(date_of_birth__isnull=False),
                name="member_in_charge_has_date_of_birth",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.full_name} ({self.organisation})"

    def age_on(self, day) -> int | None:
        """Whole years of age on `day` (None: no date of birth recorded)."""
        born = self.date_of_birth
        if born is None:
            return None
        return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


class Membership(models.Model):
    """A person works for an organisation in one of the five roles
    (core.roles). One row per role: in a small charity the treasurer may also
    be its administrator, so (user, organisation, role) is unique rather than
    (user, organisation). What someone may do, and where, comes from these rows;
    the role's Django group only carries the model permissions the records
    (admin) need, and is kept in step by `licensing.services.memberships`."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships")
    organisation = models.ForeignKey(Organisation, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(max_length=20, choices=[(role, role) for role in ALL_ROLES])
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["organisation", "user", "role"]
        constraints = [
            models.UniqueConstraint(fields=["user", "organisation", "role"], name="membership_role_once"),
            models.CheckConstraint(condition=models.Q(role__in=ALL_ROLES), name="membership_role_known"),
        ]

    def __str__(self) -> str:
        return f"{self.user} — {self.role}, {self.organisation}"
