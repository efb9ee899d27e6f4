"""Admin pages of the integrity registers: read-only. Entries are written by
the services (`event_setup`, `video_register`, `registrar_notification_record`)
and shown to the auditor; nothing here can be added, changed or deleted."""

from django.contrib import admin
from django.utils.translation import gettext_lazy

from core.admin import ReadOnlyAdminMixin
from raffle.models import DeckCommitment, DrawVideo, RegistrarNotification


class SecretLookupGuard:
    """R:E4 refuse changelist filters on a sealed card or salt: `?card=AS`
    would otherwise tell an administrator where the Ace of Spades is."""

    secret_fields = ("card", "salt")

    def lookup_allowed(self, lookup, value, request=None):
        if any(part in self.secret_fields for part in lookup.split("__")):
            return False
        return super().lookup_allowed(lookup, value, request)


@admin.register(DeckCommitment)
class DeckCommitmentAdmin(SecretLookupGuard, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["envelope_number", "event", "commitment", "shown_salt", "shown_card"]
    list_filter = ["envelope__event"]
    list_select_related = ["envelope__event"]
    search_fields = ["=commitment"]
    fields = ["event", "envelope_number", "commitment", "shown_card", "shown_salt", "created_at"]
    readonly_fields = fields

    @admin.display(description=gettext_lazy("event"))
    def event(self, obj):
        return obj.envelope.event

    @admin.display(description=gettext_lazy("envelope"), ordering="envelope__number")
    def envelope_number(self, obj):
        return obj.envelope.number

    @admin.display(description=gettext_lazy("salt"))
    def shown_salt(self, obj):
        return obj.published_salt or "secret until the envelope is opened"

    @admin.display(description=gettext_lazy("card"))
    def shown_card(self, obj):
        return obj.envelope.card_name or "sealed"


@admin.register(DrawVideo)
class DrawVideoAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["draw", "resolution_lines", "duration", "keep_until", "held_by", "all_shots", "recorded_at"]
    list_filter = ["draw__event"]
    list_select_related = ["draw__event"]
    search_fields = ["location", "held_by"]

    @admin.display(description=gettext_lazy("four shots"), boolean=True)
    def all_shots(self, obj):
        return not obj.missing_shots


@admin.register(RegistrarNotification)
class RegistrarNotificationAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["occurred_on", "event", "kind", "method", "notified_at", "reference"]
    list_filter = ["kind", "method", "event"]
    search_fields = ["description", "reference"]
    date_hierarchy = "notified_at"
