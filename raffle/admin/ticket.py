"""Tickets, rolls, sales, pools and winner selections: read-only records.

The ticket list must stay fast with a million rows in a draw: it walks the
primary key (draw, seq), searches by serial with an exact match on the
unique serial index, and never counts more rows than it can page through.
"""

from django.contrib import admin
from django.core.paginator import Paginator
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.translation import gettext_lazy

from core.admin import ReadOnlyAdminMixin
from core.errors import DomainError
from core.privacy import may_see_contact, sale_contact_for
from raffle.models import DrawPool, DrawState, Sale, Ticket, TicketRoll, WinnerSelection
from raffle.services.pool import normalise_serial

# The changelist counts at most this many rows; beyond it, the pages stop.
COUNT_CAP = 10_000


class CappedCountPaginator(Paginator):
    """Counts with `LIMIT`: a million-row list costs one cheap capped count."""

    @cached_property
    def count(self):
        return self.object_list.order_by()[:COUNT_CAP].count()


class SerialSearchMixin:
    """Search by serial: an exact match on the unique serial index, no LIKE scan."""

    def get_search_results(self, request, queryset, search_term):
        term = (search_term or "").strip()
        if not term:
            return queryset, False
        try:
            serial = normalise_serial(term)
        except DomainError:
            return queryset.none(), False
        return queryset.with_serial(serial), False


@admin.register(Ticket)
class TicketAdmin(SerialSearchMixin, ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ["serial", "draw", "seq", "is_void", "sale_number", "destroy_after"]
    list_select_related = ["draw__pool"]
    list_filter = ["is_void"]
    search_fields = ["serial"]
    search_help_text = gettext_lazy("Exact serial number, e.g. 100245 or E013-0000042.")
    show_full_result_count = False
    paginator = CappedCountPaginator
    list_per_page = 50  # rows render in Python; 50 keeps a page well under 150 ms
    raw_id_fields = ["sale"]

    @admin.display(description=gettext_lazy("sale"), ordering="sale_id")
    def sale_number(self, obj):
        return obj.sale_id

    @admin.display(description=gettext_lazy("may be destroyed from"))
    def destroy_after(self, obj):
        """R:T6 30 days after the draw; R:T5 never for a winning ticket."""
        pool = getattr(obj.draw, "pool", None)
        if pool is None or pool.destroy_after is None:
            return "—"
        if obj.draw.winning_serial == obj.serial:
            return "kept: winning ticket"
        return pool.destroy_after

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Ticket._meta.fields]


@admin.register(Sale)
class SaleAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "id",
        "draw",
        "channel",
        "tier",
        "units",
        "ticket_count",
        "amount",
        "purchaser_name",
        "envelope_pick",
        "device",
        "sold_at",
        "voided_at",
        "print_count",
    ]
    list_select_related = ["draw", "tier"]
    list_filter = ["channel"]
    search_fields = ["=id", "purchaser_name", "purchaser_contact"]
    show_full_result_count = False
    paginator = CappedCountPaginator

    def get_search_fields(self, request):
        """Searching by contact would confirm a purchaser's phone or e-mail to
        a role that sees it masked."""
        if may_see_contact(request.user):
            return self.search_fields
        return [f for f in self.search_fields if f != "purchaser_contact"]

    def _fields(self, request):
        """Every field, the purchaser's contact as this user may see it
        (core.privacy): masked for draw staff and auditors."""
        if not hasattr(request, "_sale_admin_fields"):

            def purchaser_contact(obj):
                return sale_contact_for(
                    request.user,
                    obj.purchaser_contact,
                    organisation=obj.licence.organisation_id,
                    sold_by_id=obj.sold_by_id,
                )

            purchaser_contact.short_description = gettext_lazy("purchaser contact")
            request._sale_admin_fields = [
                purchaser_contact if f.name == "purchaser_contact" else f.name for f in Sale._meta.fields
            ]
        return request._sale_admin_fields

    def get_fields(self, request, obj=None):
        return self._fields(request)

    def get_readonly_fields(self, request, obj=None):
        return self._fields(request)


@admin.register(TicketRoll)
class TicketRollAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "__str__",
        "draw",
        "kind",
        "seller_name",
        "first_serial",
        "last_serial",
        "first_unsold",
        "issued_at",
        "returned_at",
        "unsold_destroy_after",
    ]
    list_select_related = ["draw__pool"]

    @admin.display(description=gettext_lazy("unsold may be destroyed from"))
    def unsold_destroy_after(self, obj):  # R:T6
        pool = getattr(obj.draw, "pool", None)
        return pool.destroy_after if pool and pool.destroy_after else "—"

    list_filter = ["kind", "draw__event"]
    search_fields = ["seller_name", "=first_serial"]


@admin.register(DrawPool)
class DrawPoolAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "draw",
        "valid_tickets",
        "void_tickets",
        "sales_total",
        "first_serial",
        "last_serial",
        "container_count",
        "fixed_at",
        "emptied_at",
        "destroy_after",
    ]
    list_select_related = ["draw"]


@admin.register(WinnerSelection)
class WinnerSelectionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "draw",
        "attempt",
        "ticket",
        "method",
        "pool_size",
        "selected_at",
        "claim_until",
        "claimed_at",
        "holder_name",
        "id_seen",
        "id_checked_by",
        "superseded_at",
        "superseded_reason",
        "claim_link",
    ]
    list_select_related = ["draw__event__licence", "ticket"]

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in WinnerSelection._meta.fields]

    # R:T8 claims and re-draws are steps of the draw: its step page runs them.
    @admin.display(description=gettext_lazy("claim (T8)"))
    def claim_link(self, obj):
        if obj.superseded_at or obj.draw.state != DrawState.AWAITING_CLAIM:
            return "—"
        return format_html(
            '<a href="{}">Record the claim or re-draw</a>', reverse("admin:raffle_draw_step", args=[obj.draw_id])
        )
