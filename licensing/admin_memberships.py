"""Who works for which organisation in which role, in the records: a list of
its own (Licensing > Memberships) and the *Roles* rows on a user's page.
An administrator gives and takes roles only in the organisations they
administer, and sees only those organisations' people; every change goes
through licensing.services.memberships (audited, groups kept in step)."""

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.db import transaction
from django.forms.models import BaseInlineFormSet
from django.utils.translation import gettext_lazy as _

from core.admin import RoleUserAdmin, ScopedAdminMixin
from core.roles import ADMINISTRATOR
from core.scope import organisations_of, people_of, scoped
from licensing.models import Membership
from licensing.services import membership_add, membership_remove


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
        administered = self._administered(request)
        if isinstance(obj, Membership):  # not the list, nor (an inline) the person's page
            return obj.organisation_id in administered
        return bool(administered)

    def _administered(self, request) -> set[int]:
        """The organisations the reader administers, read once per request."""
        if not hasattr(request, "_administered_organisations"):
            request._administered_organisations = set(
                organisations_of(request.user, ADMINISTRATOR).values_list("pk", flat=True)
            )
        return request._administered_organisations


class MembershipInline(_ScopedMembershipChoices, admin.TabularInline):
    model = Membership
    fk_name = "user"
    fields = ["organisation", "role"]
    extra = 0
    verbose_name = "role"
    verbose_name_plural = "roles (organisation and role)"

    def get_queryset(self, request):
        rows = scoped(super().get_queryset(request), request.user, ADMINISTRATOR)
        return rows.select_related("organisation", "user")

    def get_formset(self, request, obj=None, **kwargs):
        return type(
            "MembershipFormSet",
            (MembershipFormSet, super().get_formset(request, obj, **kwargs)),
            {"actor": request.user},
        )


class MembershipFormSet(BaseInlineFormSet):
    """The roles given and taken away on a person's page, through the services."""

    actor = None

    def add_fields(self, form, index):
        super().add_fields(form, index)
        if "DELETE" in form.fields:  # the table's delete box has no label of its own (axe-core: label, #16)
            form.fields["DELETE"].widget.attrs["aria-label"] = _("Remove this role")

    def save(self, commit=True):
        added = super().save(commit=False)
        for membership in self.deleted_objects:
            membership_remove(actor=self.actor, membership=membership)
        for membership in added:
            membership_add(
                actor=self.actor, user=self.instance, organisation=membership.organisation, role=membership.role
            )
        return added


class PeopleAdmin(RoleUserAdmin):
    """The users' page, with the *Roles* rows (core cannot import licensing)."""

    inlines = [MembershipInline]


admin.site.unregister(get_user_model())
admin.site.register(get_user_model(), PeopleAdmin)


class MembershipAdminForm(forms.ModelForm):
    class Meta:
        model = Membership
        fields = ["user", "organisation", "role"]


@admin.register(Membership)
class MembershipAdmin(_ScopedMembershipChoices, ScopedAdminMixin, admin.ModelAdmin):
    form = MembershipAdminForm
    list_display = ["user", "organisation", "role", "created_at"]
    list_filter = ["role", "organisation"]
    search_fields = ["user__username", "user__first_name", "user__last_name"]

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("user", "organisation")  # scoped by the mixin

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
