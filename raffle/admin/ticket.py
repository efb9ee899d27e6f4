"""Tickets, rolls, sales, pools and winner selections: read-only records.

The ticket list must stay fast with a million rows in a draw: it walks the
(draw, seq) index, searches by serial with an exact match on the
(serial, licence) index, and never counts more rows than it can page through.
"""

from django.contrib import admin
from django.core.paginator import Paginator
from django.utils.functional import cached_property

from core.admin import ReadOnlyAdminMixin
from core.errors import DomainError
from raffle.models import DrawPool, Sale, Ticket, TicketRoll, WinnerSelection
from raffle.services.pool import normalise_serial

# The changelist counts at most this many rows; beyond it, the pages stop.
COUNT_CAP = 10_000


class CappedCountPaginator(Paginator):
    """Counts with `LIMIT`: a million-row list costs one cheap capped count."""

    @cached_property
    def count(self):
        return self.object_list.order_by()[:COUNT_CAP].count()


class SerialSearchMixin:
    """Search by serial: an exact match on an indexed column, no LIKE scan."""

    def get_search_results(self, request, queryset, search_term):
        term = (search_term or "").strip()
        if not term:
            return queryset, False
        try:
            serial = normalise_serial(term)
        except DomainError:
            return queryset.none(), False
        return queryset.filter(**{self.serial_lookup: serial}), False


@admin.register(Ticket)
class TicketAdmin(SerialSearchMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["serial", "draw", "seq", "is_void", "sale_number"]
    list_select_related = ["draw"]
    list_filter = ["is_void"]
    search_fields = ["serial"]
    search_help_text = "Exact serial number, e.g. 100245 or E013-0000042."
    serial_lookup = "serial"
    show_full_result_count = False
    paginator = CappedCountPaginator
    list_per_page = 50  # rows render in Python; 50 keeps a page well under 150 ms
    raw_id_fields = ["sale"]

    @admin.display(description="sale", ordering="sale_id")
    def sale_number(self, obj):
        return obj.sale_id

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Ticket._meta.fields]


@admin.register(Sale)
class SaleAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["id", "draw", "channel", "tier", "units", "ticket_count", "amount", "purchaser_name",
                    "envelope_pick", "device", "sold_at", "voided_at", "print_count"]
    list_select_related = ["draw", "tier"]
    list_filter = ["channel"]
    search_fields = ["=id", "purchaser_name", "purchaser_contact"]
    show_full_result_count = False
    paginator = CappedCountPaginator

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Sale._meta.fields]


@admin.register(TicketRoll)
class TicketRollAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["__str__", "draw", "kind", "seller_name", "first_serial", "last_serial", "first_unsold",
                    "issued_at", "returned_at"]
    list_select_related = ["draw"]
    list_filter = ["kind", "draw__event"]
    search_fields = ["seller_name", "=first_serial"]


@admin.register(DrawPool)
class DrawPoolAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["draw", "valid_tickets", "void_tickets", "sales_total", "first_serial", "last_serial",
                    "container_count", "fixed_at", "emptied_at", "destroy_after"]
    list_select_related = ["draw"]


@admin.register(WinnerSelection)
class WinnerSelectionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["draw", "attempt", "ticket", "method", "pool_size", "selected_at", "claimed_at",
                    "superseded_at", "superseded_reason"]
    list_select_related = ["draw", "ticket"]
