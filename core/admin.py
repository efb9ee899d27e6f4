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
