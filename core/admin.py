from django.contrib import admin, messages

from core.errors import DomainError
from core.models import AuditEntry


class NoDeleteMixin:
    """Nothing financial or evidential is deletable, not even by a superuser."""

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
    list_display = ["id", "at", "actor_label", "action", "object_repr", "short_hash"]
    list_filter = ["action", "object_type"]
    search_fields = ["action", "object_repr", "actor_label", "object_id", "hash"]
    date_hierarchy = "at"
    list_per_page = 100
    show_full_result_count = False

    @admin.display(description="hash")
    def short_hash(self, obj):
        return obj.hash[:12]


# --- users: roles are groups; an administrator cannot make superusers ---------

from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.admin import UserAdmin  # noqa: E402
from django.db import transaction  # noqa: E402

from core.audit import audit_record  # noqa: E402
from core.roles import MEMBER_ROLES, user_roles  # noqa: E402
from licensing.admin_memberships import MembershipInline, memberships_save, people_of  # noqa: E402

User = get_user_model()
admin.site.unregister(User)


@admin.register(User)
class RoleUserAdmin(NoDeleteMixin, UserAdmin):
    """People get their rights from their roles in their organisations (the
    *Roles* rows: licensing.Membership); the role groups follow those rows and
    are not edited here. An administrator sees and changes only the people of
    the organisations they administer. Only a superuser may grant superuser
    status or single permissions; access to the records (`is_staff`) follows
    the roles; every change of roles is in the audit trail.
    Leavers are deactivated (`is_active`), never deleted: R:L14 their
    actions stay attributable in the records for at least 4 years.
    R:D7 who changed whose access is in the audit trail."""

    list_display = ["username", "first_name", "last_name", "email", "roles", "is_member", "is_active", "last_login"]
    list_filter = ["groups", "is_active", "is_superuser"]
    inlines = [MembershipInline]

    @admin.display(description="roles")
    def roles(self, obj):
        return ", ".join(sorted(g.name for g in obj.groups.all()))

    @admin.display(description="bona fide member", boolean=True)
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

    def save_formset(self, request, form, formset, change):
        if formset.model is MembershipInline.model:
            memberships_save(request, form.instance, formset)
        else:
            super().save_formset(request, form, formset, change)

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
                    f"{user.get_username()} holds the {' and '.join(needs_member)} role but has no "
                    "bona fide member record: add one under Licensing > Bona fide members before "
                    "they destroy cards, sign cheques or file reports."
                ),
                messages.WARNING,
            )
