from django.contrib import admin

from core.admin import NoDeleteMixin, run_service
from licensing.models import BonaFideMember, Licence, Organisation
from licensing.services import licence_cancel, licence_create


@admin.register(Organisation)
class OrganisationAdmin(NoDeleteMixin, admin.ModelAdmin):
    list_display = ["name", "charity_registration_number", "city", "contact_name", "contact_phone"]
    search_fields = ["name", "charity_registration_number", "city", "contact_name"]


@admin.register(BonaFideMember)
class BonaFideMemberAdmin(NoDeleteMixin, admin.ModelAdmin):
    list_display = ["full_name", "organisation", "user", "is_in_charge", "is_active"]
    list_filter = ["organisation", "is_in_charge", "is_active"]
    search_fields = ["full_name", "user__username", "organisation__name"]
    autocomplete_fields = ["organisation"]


@admin.register(Licence)
class LicenceAdmin(NoDeleteMixin, admin.ModelAdmin):
    list_display = ["number", "organisation", "authority_kind", "authority_name", "sales_channel",
                    "prize_board", "status", "issued_on", "expires_on"]
    list_filter = ["status", "authority_kind", "sales_channel"]
    search_fields = ["number", "organisation__name", "authority_name"]
    date_hierarchy = "issued_on"
    list_select_related = ["organisation"]
    actions = ["cancel_licences"]
    money_and_status = ["prize_board", "fee_rate_percent", "status", "concluded_at", "created_at"]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return ["status", "concluded_at", "created_at"]
        # Figures and dates of a granted licence change only by amendment.
        return [f.name for f in Licence._meta.fields if f.name != "id"]

    def save_model(self, request, obj, form, change):
        if change:
            return
        data = form.cleaned_data
        licence = licence_create(
            actor=request.user, organisation=data["organisation"], number=data["number"],
            authority_kind=data["authority_kind"], authority_name=data["authority_name"],
            sales_channel=data["sales_channel"], prize_board=data["prize_board"],
            fee_rate_percent=data["fee_rate_percent"], issued_on=data["issued_on"],
            expires_on=data["expires_on"],
        )
        obj.pk = licence.pk

    @admin.action(description="Cancel the selected licences", permissions=["change"])
    def cancel_licences(self, request, queryset):
        for licence in queryset:
            run_service(self, request, licence_cancel, licence=licence,
                        reason=f"Cancelled in the admin by {request.user}",
                        success=f"Licence {licence.number} cancelled.")
