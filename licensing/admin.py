from django import forms
from django.contrib import admin
from django.db import transaction
from django.utils.translation import gettext, gettext_lazy

from core.admin import NoDeleteMixin, ReadOnlyAdminMixin, run_service
from core.errors import DomainError
from core.roles import ADMINISTRATOR
from licensing import admin_memberships  # noqa: F401  (memberships, and the Roles rows of the users page)
from licensing.models import (
    Application,
    ApplicationDocument,
    AuditedStatementRequest,
    BonaFideMember,
    Eligibility,
    Licence,
    LicenceAmendment,
    Organisation,
    PlannedDraw,
)
from licensing.services import (
    eligibility_check,
    licence_cancel,
    licence_create,
    licence_record_supplier,
    membership_add,
)
from licensing.services.members import check_member_may_act
from licensing.services.suppliers import SUPPLIER_FIELDS


class LicenceAdminForm(forms.ModelForm):
    class Meta:
        model = Licence
        fields = "__all__"

    def clean(self):
        """R:L1 show an ineligible organisation as a form error, not a crash."""
        data = super().clean()
        if self.instance.pk is None and data.get("organisation"):
            try:
                eligibility_check(organisation=data["organisation"], today=data.get("issued_on"))
            except DomainError as error:
                raise forms.ValidationError(str(error)) from None
        return data


@admin.register(Organisation)
class OrganisationAdmin(NoDeleteMixin, admin.ModelAdmin):
    list_display = ["name", "charity_registration_number", "city", "contact_name", "contact_phone"]
    search_fields = ["name", "charity_registration_number", "city", "contact_name"]

    def save_model(self, request, obj, form, change):
        """The administrator who records an organisation administers it (#15),
        so it stays in their sight; others are given roles there afterwards."""
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if not change and not request.user.is_superuser:
                membership_add(actor=request.user, user=request.user, organisation=obj, role=ADMINISTRATOR)


class BonaFideMemberAdminForm(forms.ModelForm):
    class Meta:
        model = BonaFideMember
        fields = "__all__"

    def clean(self):
        """R:L13 a member is put in charge only with a date of birth showing them 18 or over."""
        data = super().clean()
        if data.get("is_in_charge"):
            probe = BonaFideMember(full_name=data.get("full_name") or "", date_of_birth=data.get("date_of_birth"))
            try:
                check_member_may_act(probe, role=gettext("be put in charge of the lottery"))
            except DomainError as error:
                raise forms.ValidationError(str(error)) from None
        return data


@admin.register(BonaFideMember)
class BonaFideMemberAdmin(NoDeleteMixin, admin.ModelAdmin):
    form = BonaFideMemberAdminForm
    list_display = ["full_name", "organisation", "user", "is_in_charge", "is_active"]
    list_filter = ["organisation", "is_in_charge", "is_active"]
    search_fields = ["full_name", "user__username", "organisation__name"]
    autocomplete_fields = ["organisation"]


@admin.register(Licence)
class LicenceAdmin(NoDeleteMixin, admin.ModelAdmin):
    form = LicenceAdminForm
    list_display = [
        "number",
        "organisation",
        "authority_kind",
        "authority_name",
        "sales_channel",
        "prize_board",
        "status",
        "issued_on",
        "expires_on",
    ]
    list_filter = ["status", "authority_kind", "sales_channel"]
    search_fields = ["number", "organisation__name", "authority_name"]
    date_hierarchy = "issued_on"
    list_select_related = ["organisation"]
    actions = ["cancel_licences"]
    money_and_status = ["prize_board", "fee_rate_percent", "status", "concluded_at", "created_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ["status", "concluded_at", "created_at"]
        # Figures and dates of a granted licence change only by amendment; the
        # electronic raffle supplier and its approval are recorded by their service (D5).
        return [f.name for f in Licence._meta.fields if f.name not in ("id", *SUPPLIER_FIELDS)]

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            if any(name in form.changed_data for name in SUPPLIER_FIELDS):
                run_service(
                    self,
                    request,
                    licence_record_supplier,
                    licence=obj,
                    success=gettext("Electronic raffle supplier of licence %(number)s recorded.")
                    % {"number": obj.number},
                    **{n: data[n] for n in SUPPLIER_FIELDS},
                )
            return
        licence = licence_create(
            actor=request.user,
            organisation=data["organisation"],
            number=data["number"],
            authority_kind=data["authority_kind"],
            authority_name=data["authority_name"],
            sales_channel=data["sales_channel"],
            prize_board=data["prize_board"],
            fee_rate_percent=data["fee_rate_percent"],
            issued_on=data["issued_on"],
            expires_on=data["expires_on"],
        )
        if data.get("supplier_name"):
            run_service(
                self,
                request,
                licence_record_supplier,
                licence=licence,
                success=gettext("Electronic raffle supplier of licence %(number)s recorded.")
                % {"number": licence.number},
                **{n: data[n] for n in SUPPLIER_FIELDS},
            )
        obj.pk = licence.pk

    @admin.action(description=gettext_lazy("Cancel the selected licences"), permissions=["change"])
    def cancel_licences(self, request, queryset):
        for licence in queryset:
            run_service(
                self,
                request,
                licence_cancel,
                licence=licence,
                reason=f"Cancelled in the admin by {request.user}",
                success=gettext("Licence %(number)s cancelled.") % {"number": licence.number},
            )


# Written by the licensing pages' services (eligibility, application, amendment); shown here read-only.
@admin.register(Eligibility)
class EligibilityAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "organisation",
        "is_non_profit",
        "located_in_ontario",
        "charitable_activity_since",
        "purpose",
        "assessed_at",
    ]
    search_fields = ["organisation__name"]


class PlannedDrawInline(admin.TabularInline):
    model = PlannedDraw
    extra = 0
    can_delete = False
    readonly_fields = ["number", "draw_on", "max_sales"]

    def has_add_permission(self, request, obj=None):
        return False


class ApplicationDocumentInline(admin.TabularInline):
    model = ApplicationDocument
    extra = 0
    can_delete = False
    readonly_fields = ["kind", "file", "note", "attached_by", "attached_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Application)
class ApplicationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["organisation", "applicant_kind", "authority_name", "prize_board", "status", "submitted_on"]
    list_filter = ["status", "authority_kind", "applicant_kind"]
    search_fields = ["organisation__name", "authority_name"]
    inlines = [PlannedDrawInline, ApplicationDocumentInline]


@admin.register(LicenceAmendment)
class LicenceAmendmentAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["licence", "kind", "new_value", "notice_given_on", "effective_on", "status", "approved_on"]
    list_filter = ["status", "kind"]
    search_fields = ["licence__number"]


@admin.register(AuditedStatementRequest)
class AuditedStatementRequestAdmin(NoDeleteMixin, admin.ModelAdmin):
    """R:R3 requests are recorded, and deliveries marked, through the services."""

    list_display = ["licence", "requested_on", "requested_by", "due_on", "delivered_on", "audited_by"]
    list_filter = ["delivered_on"]
    search_fields = ["licence__number", "requested_by", "reference"]
    list_select_related = ["licence"]

    def get_fields(self, request, obj=None):
        if obj is None:
            return ["licence", "requested_on", "requested_by", "reference"]
        return [
            "licence",
            "requested_on",
            "requested_by",
            "reference",
            "due_on",
            "delivered_on",
            "audited_by",
            "delivery_reference",
            "recorded_by",
            "recorded_at",
        ]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return []
        done = ["licence", "requested_on", "requested_by", "reference", "due_on", "recorded_by", "recorded_at"]
        if obj.delivered_on is not None:
            done += ["delivered_on", "audited_by", "delivery_reference"]
        return done

    def save_model(self, request, obj, form, change):
        from licensing.services import audited_statement_deliver, audited_statement_request_record

        data = form.cleaned_data
        try:
            if not change:
                obj.pk = audited_statement_request_record(
                    actor=request.user,
                    licence=data["licence"],
                    requested_on=data["requested_on"],
                    requested_by=data["requested_by"],
                    reference=data.get("reference", ""),
                ).pk
            elif data.get("delivered_on"):
                audited_statement_deliver(
                    actor=request.user,
                    request=obj,
                    delivered_on=data["delivered_on"],
                    audited_by=data.get("audited_by", ""),
                    delivery_reference=data.get("delivery_reference", ""),
                )
        except DomainError as error:
            # The form was valid but the rule refused it: say so, change nothing.
            self.message_user(request, str(error), level="ERROR")
            raise _Refused from error

    def changeform_view(self, request, *args, **kwargs):
        try:
            return super().changeform_view(request, *args, **kwargs)
        except _Refused:
            from django.http import HttpResponseRedirect

            return HttpResponseRedirect(request.get_full_path())


class _Refused(Exception):
    """Unwinds the admin's save after a domain refusal (its transaction rolls back)."""
