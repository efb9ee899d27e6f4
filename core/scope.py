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
from django.db.models import CharField, Model, Q, QuerySet
from django.db.models.functions import Cast

from core.audit_chain import OWNER_STEPS
from core.roles import ADMINISTRATOR, AUDITOR, DRAW_STAFF, TREASURER


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


def own(request, queryset, **lookup):
    """The one record `lookup` finds among those of the organisations the
    person acting works for, in the roles the page allows (`role_required`
    puts them on the request); anything else is a 404, never a 403, so another
    organisation's record cannot even be confirmed to exist."""
    from django.shortcuts import get_object_or_404

    if isinstance(queryset, type):
        queryset = queryset._default_manager.all()
    return get_object_or_404(scoped(queryset, request.user, *getattr(request, "acting_roles", ())), **lookup)


def trail_of(user, *roles: str) -> QuerySet:
    """The audit entries `user` may read (#15). An entry belongs to the chain
    it was appended to:
    - the chain of an organisation: read by the people of that organisation
      (in `roles`), by nobody else;
    - the system chain (sign-ins, accounts, authenticators: no organisation):
      an entry is about one person, its subject (the account it changes, or
      else whoever acted), and is read by the organisations that person works
      for or once worked for (`members_of`), so the auditor of one charity
      never reads another charity's people, not even after they left it. An
      entry about an account that never worked for any organisation is read
      where the person who acted works. An entry about nobody (a failed
      sign-in under an unknown name) is read by no organisation: the
      operator's `verify_audit` still checks it."""
    from django.contrib.auth import get_user_model

    from core.audit_chain import SYSTEM_CHAIN
    from core.models import AuditEntry

    entries = AuditEntry.objects.all()
    if getattr(user, "is_superuser", False):
        return entries
    organisations = organisations_of(user, *roles)
    members = members_of(organisations)
    account = get_user_model()._meta.label_lower
    about_account = Q(object_type=account)
    return entries.filter(
        Q(chain__in=organisations.values("pk"))
        | Q(chain=SYSTEM_CHAIN)
        & (
            about_account & Q(object_id__in=_as_text(members))
            | ~about_account & Q(actor_id__in=members)
            | about_account & Q(object_id__in=_as_text(_never_members()), actor_id__in=members)
        )
    )


def _as_text(ids: QuerySet) -> QuerySet:
    """Account ids as the text of `AuditEntry.object_id`."""
    return ids.annotate(id_text=Cast("pk", output_field=CharField())).values("id_text")


def _joined() -> QuerySet:
    """The ids of the accounts a `licensing.membership.add` entry names, with
    the organisation (chain) it was appended to."""
    from django.db.models import BigIntegerField
    from django.db.models.fields.json import KeyTextTransform

    from core.models import AuditEntry

    return AuditEntry.objects.filter(action="licensing.membership.add").annotate(
        member=Cast(KeyTextTransform("user_id", "data"), output_field=BigIntegerField())
    )


def members_of(organisations: QuerySet) -> QuerySet:
    """The accounts that work for one of `organisations`, or once did (their
    role there was removed since: the organisation's chain still names them)."""
    from django.contrib.auth import get_user_model

    return (
        get_user_model()
        .objects.filter(
            Q(memberships__organisation__in=organisations.values("pk"))
            | Q(pk__in=_joined().filter(chain__in=organisations.values("pk")).values("member"))
        )
        .distinct()
    )


def _never_members() -> QuerySet:
    """Accounts that work for no organisation and never did (just added)."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(memberships__isnull=True).exclude(pk__in=_joined().values("member"))


def people_of(user, *roles: str) -> QuerySet:
    """The accounts `user` may see (as one of `roles`): the people of their
    organisations, now or before (`members_of`), and accounts that never
    worked for any organisation (just added, waiting for a role). Someone who
    left another organisation is not among them."""
    from django.contrib.auth import get_user_model

    users = get_user_model().objects.all()
    if getattr(user, "is_superuser", False):
        return users
    members = members_of(organisations_of(user, *roles))
    return users.filter(Q(pk__in=members.values("pk")) | Q(pk__in=_never_members().values("pk")))


# Who may export an organisation's reports and ledger from the command line:
# the readers of the treasury pages.
EXPORTERS = (TREASURER, AUDITOR, ADMINISTRATOR)


# Who may run the integrity checks of an organisation's draws from the command
# line (verify_deck, reconcile_draw_totals): everyone but its sellers.
CHECKERS = (DRAW_STAFF, TREASURER, AUDITOR, ADMINISTRATOR)


def add_acting_argument(parser, *, required: bool = True) -> None:
    """`--as USERNAME`: the person a command acts for; it reaches only the
    records of the organisations they work for. Optional (`required=False`)
    only on read-only checks and exports, which without it reach every
    organisation, as `verify_audit` does: the operator at the server can read
    the database anyway. Commands that change records require it, so the
    audit trail names the person."""
    help_text = "The person this is done for: only their organisations' records are reachable."
    if not required:
        help_text += " Without it (the operator), every organisation."
    parser.add_argument("--as", dest="acting_as", required=required, metavar="USERNAME", help=help_text)


def acting_scope(acting_as: str | None, queryset: QuerySet, *roles: str) -> tuple:
    """(person, records) for a command run `--as acting_as`: the active
    account named, and `queryset` cut to the organisations where they hold one
    of `roles`, so another organisation's licence, event or draw is not found
    and reads exactly as an unknown one (#15). Without `--as` (an operator's
    whole-installation check): (None, queryset)."""
    if acting_as is None:
        return None, queryset
    person = person_acting(acting_as)
    return person, scoped(queryset, person, *roles)


def unknown_licence(number: str):
    """The refusal for a licence that does not exist or is another organisation's:
    one message for both, so a command cannot confirm another charity's licence."""
    from django.core.management.base import CommandError

    return CommandError(f"No licence {number} among the organisations you work for.")


def person_acting(username: str):
    """The active account named `username`, or a CommandError in plain words."""
    from django.contrib.auth import get_user_model
    from django.core.management.base import CommandError

    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise CommandError(f"No active user is named {username!r}.")
    return user
