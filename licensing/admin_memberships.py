"""Who works for which organisation in which role, in the records: a list of
its own (Licensing > Memberships) and the *Roles* rows on a user's page.
An administrator gives and takes roles only in the organisations they
administer, and sees only those organisations' people; every change goes
through licensing.services.memberships (audited, groups kept in step)."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q

from core.roles import ADMINISTRATOR
from core.scope import organisations_of, scoped
from licensing.models import Membership
from licensing.services import membership_add, membership_remove


def people_of(user, *roles: str):
    """The accounts `user` may see (as one of `roles`): the people of their
    organisations, and accounts that work for nobody yet (just added)."""
    users = get_user_model().objects.all()
    if user.is_superuser:
        return users
    return users.filter(
        Q(memberships__organisation__in=organisations_of(user, *roles)) | Q(memberships__isnull=True)
    ).distinct()


class _ScopedMembershipChoices:
    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "organisation":
            kwargs["queryset"] = organisations_of(request.user, ADMINISTRATOR)
        elif db_field.name == "user":
            kwargs["queryset"] = people_of(request.user, ADMINISTRATOR)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request, obj=None):
        return False  # a role is given or taken away, never edited into another

    def has_delete_permission(self, request, obj=None):
        """Taking a role away is the administrator's, in the organisations they
        administer (no model permission: nothing else of ours is deletable)."""
        return self._administers(request, obj) and organisations_of(request.user, ADMINISTRATOR).exists()

    def _administers(self, request, obj) -> bool:
        if not isinstance(obj, Membership):  # the list, or (an inline) the person's page
            return True
        return organisations_of(request.user, ADMINISTRATOR).filter(pk=obj.organisation_id).exists()


class MembershipInline(_ScopedMembershipChoices, admin.TabularInline):
    model = Membership
    fk_name = "user"
    fields = ["organisation", "role"]
    extra = 0
    verbose_name = "role"
    verbose_name_plural = "roles (organisation and role)"

    def get_queryset(self, request):
        return scoped(super().get_queryset(request), request.user, ADMINISTRATOR).select_related("organisation")


def memberships_save(request, user, formset) -> None:
    """The roles given and taken away on a user's page, through the services."""
    added = formset.save(commit=False)
    for membership in formset.deleted_objects:
        membership_remove(actor=request.user, membership=membership)
    for membership in added:
        membership_add(actor=request.user, user=user, organisation=membership.organisation, role=membership.role)


class MembershipAdminForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["user", "organisation", "role"]


@admin.register(Membership)
class MembershipAdmin(_ScopedMembershipChoices, admin.ModelAdmin):
    form = MembershipAdminForm
    list_display = ["user", "organisation", "role", "created_at"]
    list_filter = ["role", "organisation"]
    search_fields = ["user__username", "user__first_name", "user__last_name"]

    def get_queryset(self, request):
        return scoped(super().get_queryset(request), request.user).select_related("user", "organisation")

    def get_actions(self, request, action_location=admin.ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location)
        actions.pop("delete_selected", None)  # one at a time, through the service
        return actions

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            saved = membership_add(actor=request.user, user=obj.user, organisation=obj.organisation, role=obj.role)
        obj.pk = saved.pk

    def delete_model(self, request, obj):
        membership_remove(actor=request.user, membership=obj)
