from django import forms
from django.contrib import admin, messages
from django.contrib.admin.filters import SimpleListFilter
from django.contrib.admin.widgets import AutocompleteSelect
from django.contrib.auth import get_user_model
from django.http import Http404
from django.utils.translation import gettext, gettext_lazy
from django_tasks_db.models import DBTaskResult

from core.errors import DomainError
from core.models import AuditEntry
from core.scope import people_of, scoped, trail_of

# What a list filter of the records may put in the URL after its field: the
# choices of a field, a related record, empty or not, a date range.
FILTER_SUFFIXES = ("", "__exact", "__isnull", "__id__exact", "__pk__exact", "__gte", "__lt", "__lte", "__gt")
DATE_PARTS = ("__year", "__month", "__day", "__gte", "__lt")


class NamedAutocompleteSelect(AutocompleteSelect):
    """Django's autocomplete box, named after its label for a screen reader
    (select2 leaves it nameless; axe: aria-input-field-name)."""

    @property
    def media(self):
        # Listed after autocomplete.js so that Media's merge keeps it after.
        return super().media + forms.Media(js=["admin/js/autocomplete.js", "js/admin-autocomplete-names.js"])


class ScopedAdminMixin:
    """Every list and record of the records (admin) is cut to the
    organisations of the person reading (core.scope): another organisation's
    record is a 404, and so is a record that does not exist; foreign-key
    choices are cut the same way. A list accepts only the lookups its filters
    offer (#15): `?purchaser_contact__startswith=` cannot recover a masked
    contact one character at a time."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        try:
            return scoped(queryset, request.user)
        except LookupError:  # not an organisation's record (users, the audit trail): scoped by its admin
            return queryset

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name in self.get_autocomplete_fields(request) and "widget" not in kwargs:
            kwargs["widget"] = NamedAutocompleteSelect(db_field, self.admin_site, using=kwargs.get("using"))
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is None or getattr(field, "queryset", None) is None:
            return field
        if field.queryset.model is get_user_model():
            field.queryset = field.queryset.filter(pk__in=people_of(request.user).values("pk"))
            return field
        try:
            field.queryset = scoped(field.queryset, request.user)
        except LookupError:
            pass
        return field

    def _get_obj_does_not_exist_redirect(self, request, opts, object_id):
        # Django's admin sends an unknown id to the front page with "does not exist";
        # here it is a plain 404, the same for another organisation's record.
        raise Http404

    def lookup_allowed(self, lookup, value, request=None):
        offered = set()
        for entry in self.list_filter or ():
            spec = entry[0] if isinstance(entry, (tuple, list)) else entry
            if isinstance(spec, type) and issubclass(spec, SimpleListFilter):
                offered.add(spec.parameter_name)
            elif isinstance(spec, str):
                offered.update(spec + suffix for suffix in FILTER_SUFFIXES)
        if self.date_hierarchy:
            offered.update(self.date_hierarchy + part for part in DATE_PARTS)
        if lookup not in offered:
            return False
        return super().lookup_allowed(lookup, value, request)


class NoDeleteMixin(ScopedAdminMixin):
    """Nothing financial or evidential is deletable, not even by a superuser;
    like every admin of ours, scoped to the reader's organisations."""

    def has_delete_permission(self, request, obj=None):
        return False

    def get_actions(self, request, action_location=admin.ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location)
        actions.pop("delete_selected", None)
        return actions


class ReadOnlyAdminMixin(NoDeleteMixin):
    """Rows written only by services: visible, never editable here."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


def run_service(modeladmin, request, service, *, success: str, **kwargs):
    """Call one service from the admin and report the outcome in plain words."""
    try:
        result = service(actor=request.user, **kwargs)
    except DomainError as error:
        modeladmin.message_user(request, str(error), messages.ERROR)
        return None
    modeladmin.message_user(request, success, messages.SUCCESS)
    return result


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """The entries of the reader's organisations (core.scope.trail_of)."""

    list_display = ["id", "at", "actor_label", "action", "object_repr", "short_hash"]
    list_filter = ["action", "object_type"]
    search_fields = ["action", "object_repr", "actor_label", "object_id", "hash"]
    date_hierarchy = "at"
    list_per_page = 100
    show_full_result_count = False

    def get_queryset(self, request):
        return super().get_queryset(request) & trail_of(request.user)

    @admin.display(description=gettext_lazy("hash"))
    def short_hash(self, obj):
        return obj.hash[:12]


# --- users: roles are groups; an administrator cannot make superusers ---------

from django.contrib.auth.admin import UserAdmin  # noqa: E402
from django.db import transaction  # noqa: E402

from core.audit import audit_record  # noqa: E402
from core.roles import MEMBER_ROLES, user_roles  # noqa: E402

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class RoleUserAdmin(NoDeleteMixin, UserAdmin):
    """People get their rights from their roles in their organisations (the
    *Roles* rows, which licensing.admin_memberships adds to this page); the
    role groups follow those rows and are not edited here. An administrator sees and changes only the people of
    the organisations they administer. Only a superuser may grant superuser
    status or single permissions; access to the records (`is_staff`) follows
    the roles; every change of roles is in the audit trail.
    Leavers are deactivated (`is_active`), never deleted: R:L14 their
    actions stay attributable in the records for at least 4 years.
    R:D7 who changed whose access is in the audit trail."""

    list_display = ["username", "first_name", "last_name", "email", "roles", "is_member", "is_active", "last_login"]
    list_filter = ["groups", "is_active", "is_superuser"]

    @admin.display(description=gettext_lazy("roles"))
    def roles(self, obj):
        return ", ".join(sorted(g.name for g in obj.groups.all()))

    @admin.display(description=gettext_lazy("bona fide member"), boolean=True)
    def is_member(self, obj):
        return any(m.is_active for m in obj.bona_fide_memberships.all())

    def get_queryset(self, request):
        people = super().get_queryset(request).filter(pk__in=people_of(request.user).values("pk"))
        return people.prefetch_related("groups", "bona_fide_memberships")

    def get_readonly_fields(self, request, obj=None):
        fields = list(super().get_readonly_fields(request, obj))
        if not request.user.is_superuser:
            fields += ["is_superuser", "user_permissions", "is_staff", "groups"]
        return fields

    def save_related(self, request, form, formsets, change):
        user = form.instance
        before = user_roles(user) if change else set()
        with transaction.atomic():
            super().save_related(request, form, formsets, change)
            after = user_roles(user)
            if after != before:
                audit_record(
                    actor=request.user,
                    action="core.user.roles",
                    obj=user,
                    data={"before": sorted(before), "after": sorted(after)},
                )
        needs_member = sorted(after & set(MEMBER_ROLES))
        if needs_member and not user.bona_fide_memberships.filter(is_active=True).exists():
            # R:E3 R:L12 R:L13 these roles are held by bona fide members only.
            self.message_user(
                request,
                (
                    gettext(
                        "%(get_username)s holds the %(needs_member)s role but has no bona fide member record: add "
                        "one under Licensing > Bona fide members before they destroy cards, sign cheques or file "
                        "reports."
                    )
                    % {"get_username": user.get_username(), "needs_member": " and ".join(needs_member)}
                ),
                messages.WARNING,
            )


# --- authenticators and sign-in logs: only of the reader's organisations' people ---

from axes.admin import AccessAttemptAdmin, AccessFailureLogAdmin, AccessLogAdmin  # noqa: E402
from axes.models import AccessAttempt, AccessFailureLog, AccessLog  # noqa: E402
from django_otp.plugins.otp_totp.admin import TOTPDeviceAdmin  # noqa: E402
from django_otp.plugins.otp_totp.models import TOTPDevice  # noqa: E402


class PeopleScopedMixin:
    """Records about a person (an authenticator, a sign-in attempt) are shown
    only for the people of the reader's organisations (core.scope.people_of);
    another's is a 404."""

    person_lookup = "user__in"

    def get_queryset(self, request):
        people = people_of(request.user)
        if self.person_lookup.startswith("username"):
            people = people.values("username")
        return super().get_queryset(request).filter(**{self.person_lookup: people})

    def _get_obj_does_not_exist_redirect(self, request, opts, object_id):
        raise Http404


def _rescoped(model, base, lookup: str):
    admin.site.unregister(model)
    admin.site.register(model, type(base.__name__, (PeopleScopedMixin, base), {"person_lookup": lookup}))


_rescoped(TOTPDevice, TOTPDeviceAdmin, "user__in")
_rescoped(AccessAttempt, AccessAttemptAdmin, "username__in")
_rescoped(AccessLog, AccessLogAdmin, "username__in")
_rescoped(AccessFailureLog, AccessFailureLogAdmin, "username__in")


# The task queue's own admin would show every organisation's queued e-mails,
# and a failed task's traceback may hold a buyer's address: the worker's log
# is where an operator reads failures (docs/deploy.md), not the records.
admin.site.unregister(DBTaskResult)
