from django.contrib import admin
from django.utils.translation import gettext_lazy

from core.admin import NoDeleteMixin, ReadOnlyAdminMixin, run_service
from raffle import services
from raffle.admin.integrity import SecretLookupGuard
from raffle.models import Envelope, Event, PriceTier


class PriceTierInline(admin.TabularInline):
    model = PriceTier
    extra = 0
    can_delete = False
    readonly_fields = ["quantity", "price"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Event)
class EventAdmin(NoDeleteMixin, admin.ModelAdmin):
    list_display = ["name", "licence", "deck_kind", "status", "jackpot", "first_draw_at"]
    list_filter = ["status", "deck_kind", "rounding"]
    search_fields = ["name", "licence__number", "licence__organisation__name"]
    list_select_related = ["licence"]
    readonly_fields = ["status", "jackpot", "concluded_at", "created_at"]
    inlines = [PriceTierInline]

    def get_readonly_fields(self, request, obj=None):
        if obj is None:
            return self.readonly_fields
        # The game's settings are fixed once the event is set up.
        return [f.name for f in Event._meta.fields if f.name not in ("id", "draw_place")]

    def get_inlines(self, request, obj):
        return self.inlines if obj else []

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        if change:
            # R:R4 the draw place is a Rules of Play setting: it changes only through the service,
            # which refuses once sales have started.
            run_service(
                self,
                request,
                services.event_update_rules,
                event=obj,
                draw_place=data["draw_place"],
                success=gettext_lazy("Draw place updated in the Rules of Play."),
            )
            return None
        event = services.event_setup(
            actor=request.user,
            licence=data["licence"],
            name=data["name"],
            first_draw_at=data["first_draw_at"],
            deck_kind=data["deck_kind"],
            rounding=data["rounding"],
            envelope_taken_procedure=data["envelope_taken_procedure"],
            claim_period_days=data["claim_period_days"],
            draw_interval_days=data["draw_interval_days"],
            draw_place=data["draw_place"],
            seed_jackpot=data["seed_jackpot"],
            seed_source=data.get("seed_source") or "organisation",
            seed_letter_of_credit=data.get("seed_letter_of_credit", ""),
            seed_credit_issuer=data.get("seed_credit_issuer", ""),
            seed_credit_expires_on=data.get("seed_credit_expires_on"),
            revenue_model=data["revenue_model"],
            must_go_payout=data["must_go_payout"],
            unclaimed_prize_policy=data["unclaimed_prize_policy"],
        )
        obj.pk = event.pk


@admin.register(Envelope)
class EnvelopeAdmin(SecretLookupGuard, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["number", "event", "shown_card", "opened_in_draw", "opened_at"]
    list_filter = ["event"]
    list_select_related = ["event", "opened_in_draw"]
    fields = ["event", "number", "shown_card", "opened_in_draw", "opened_at"]
    readonly_fields = fields

    @admin.display(description=gettext_lazy("card"))
    def shown_card(self, obj):
        # A sealed envelope's card is nobody's business until it is opened (E4).
        return obj.card_name if obj.is_open else "sealed"
