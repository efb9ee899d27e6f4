from django.contrib import admin

from core.admin import ReadOnlyAdminMixin
from raffle.models import MustGoTicket


@admin.register(MustGoTicket)
class MustGoTicketAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """R:P7 the tickets drawn in a must-go final draw and what each holder is paid."""

    list_display = [
        "draw",
        "sequence",
        "winning_serial",
        "winner_name",
        "envelope",
        "card",
        "draw_prize_share",
        "jackpot_share",
    ]
    list_select_related = ["draw", "draw__event", "envelope"]
    search_fields = ["winning_serial", "winner_name"]
