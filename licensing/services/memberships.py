"""Who works for which organisation, in which role (core.roles). The rows are
what role checks and the scoping of pages read (core.scope); the role's Django
group follows them, for the model permissions of the records (the admin)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db import transaction
from django.utils.translation import gettext as _

from core.audit import audit_record
from core.roles import ALL_ROLES, STAFF_ROLES
from licensing.errors import LicensingError
from licensing.models import Membership, Organisation


def role_groups_sync(user) -> None:
    """The user's role groups are the roles of their memberships, and they use
    the records (`is_staff`) when one of those roles does. Superuser status is
    left as it is (the deploy check core.W020 warns about it)."""
    held = set(Membership.objects.filter(user=user).values_list("role", flat=True))
    current = set(user.groups.filter(name__in=ALL_ROLES).values_list("name", flat=True))
    if held - current:
        user.groups.add(*Group.objects.filter(name__in=held - current))
    if current - held:
        user.groups.remove(*Group.objects.filter(name__in=current - held))
    staff = bool(held & set(STAFF_ROLES)) or user.is_superuser
    if staff != user.is_staff:
        user.is_staff = staff
        user.save(update_fields=["is_staff"])


@transaction.atomic
def membership_add(*, actor, user, organisation: Organisation, role: str) -> Membership:
    """`user` works for `organisation` as `role` (audited, R:D7). Adding a role
    they already hold there changes nothing and returns that membership."""
    if role not in ALL_ROLES:
        raise LicensingError(
            _("Unknown role %(role)s: choose one of %(roles)s.") % {"role": role, "roles": ", ".join(ALL_ROLES)}
        )
    get_user_model().objects.select_for_update().get(pk=user.pk)
    membership, created = Membership.objects.get_or_create(user=user, organisation=organisation, role=role)
    if created:
        role_groups_sync(user)
        audit_record(
            actor=actor,
            action="licensing.membership.add",
            obj=membership,
            # user_id: who worked for the organisation, whatever they are called later (core.scope.members_of)
            data={"user": user.get_username(), "user_id": user.pk, "organisation": organisation.name, "role": role},
        )
    return membership


@transaction.atomic
def membership_remove(*, actor, membership: Membership) -> None:
    """`membership.user` no longer holds that role in that organisation (audited)."""
    membership = Membership.objects.select_for_update().select_related("user", "organisation").get(pk=membership.pk)
    user, organisation = membership.user, membership.organisation
    data = {
        "user": user.get_username(),
        "user_id": user.pk,
        "organisation": organisation.name,
        "role": membership.role,
    }
    membership.delete()
    role_groups_sync(user)
    audit_record(actor=actor, action="licensing.membership.remove", organisation=organisation, data=data)
