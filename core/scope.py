"""Which organisations a person acts for, and the records they may reach.

A user works for organisations through their memberships
(licensing.Membership: user, organisation, role). Every page, admin list,
export and command reads its records through `scoped(...)`, so another
organisation's record is simply not there: a 404, never a 403 that would
confirm it exists. A superuser is not scoped (every organisation): the deploy
check core.W020 warns about any active one.

core cannot import licensing (licensing imports core), so the models are
looked up through the app registry.
"""

from django.apps import apps
from django.db.models import Model, QuerySet

from core.audit_chain import OWNER_STEPS


def _model(name: str) -> type[Model]:
    return apps.get_model("licensing", name)


def memberships_of(user, *roles: str) -> QuerySet:
    """The memberships of `user` (with one of `roles`, when given)."""
    Membership = _model("Membership")
    if not getattr(user, "is_authenticated", False):
        return Membership.objects.none()
    rows = Membership.objects.filter(user=user)
    return rows.filter(role__in=roles) if roles else rows


def organisations_of(user, *roles: str) -> QuerySet:
    """The organisations `user` works for (in one of `roles`, when given)."""
    Organisation = _model("Organisation")
    if not getattr(user, "is_authenticated", False):
        return Organisation.objects.none()
    if user.is_superuser:
        return Organisation.objects.all()
    return Organisation.objects.filter(pk__in=memberships_of(user, *roles).values("organisation"))


def organisation_path(model: type[Model]) -> str:
    """The lookup from `model` to its organisation: "licence__organisation" for
    an event, "event__licence__organisation" for a draw, and so on, following
    the same foreign keys as the audit chains (core.audit_chain.OWNER_STEPS)."""
    steps, current = [], model
    for _ in range(6):
        if current._meta.label_lower == "licensing.organisation":
            return "__".join(steps) if steps else "pk"
        names = {f.name: f for f in current._meta.concrete_fields if f.many_to_one or f.one_to_one}
        if "organisation" in names:
            return "__".join([*steps, "organisation"])
        step = next((name for name in OWNER_STEPS if name in names), None)
        if step is None:
            break
        steps.append(step)
        current = names[step].related_model
    raise LookupError(f"{model._meta.label} does not lead to an organisation")


def scoped(queryset: QuerySet, user, *roles: str, path: str | None = None) -> QuerySet:
    """`queryset` cut to the organisations `user` works for (in one of `roles`)."""
    if getattr(user, "is_superuser", False) and getattr(user, "is_authenticated", False):
        return queryset
    path = path or organisation_path(queryset.model)
    return queryset.filter(**{f"{path}__in": organisations_of(user, *roles)})


def acts_for(user, organisation, *roles: str) -> bool:
    """Whether `user` works for `organisation` (in one of `roles`)."""
    if organisation is None:
        return False
    return organisations_of(user, *roles).filter(pk=getattr(organisation, "pk", organisation)).exists()
