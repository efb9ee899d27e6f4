from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

from core import roles
from core.admin import ReadOnlyAdminMixin
from core.errors import DomainError
from core.scope import scoped
from raffle import services
from raffle.models import CardDestruction, Draw
from raffle.models.draw_steps import step_choices
from raffle.steps import chosen_step, perform_next_step, step_form


@admin.register(Draw)
class DrawAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "number",
        "event",
        "scheduled_at",
        "state",
        "ticket_sales",
        "draw_prize",
        "jackpot_contribution",
        "jackpot_after",
        "envelope",
        "outcome",
        "next_step_link",
    ]
    list_filter = ["state", "outcome", "event"]
    search_fields = ["=number", "winning_serial", "winner_name", "event__name"]
    list_select_related = ["event", "envelope"]
    date_hierarchy = "scheduled_at"
    actions = ["open_sales", "announce"]

    def get_urls(self):
        urls = [
            path("<int:draw_id>/step/", self.admin_site.admin_view(self.step_view), name="raffle_draw_step"),
        ]
        return urls + super().get_urls()

    @admin.display(description=gettext_lazy("next step"))
    def next_step_link(self, obj):
        if obj.state == "closed":
            return "—"
        return format_html('<a href="{}">Run next step</a>', reverse("admin:raffle_draw_step", args=[obj.pk]))

    def step_view(self, request, draw_id):
        """The draw's next step as a form; the service decides whether it is allowed."""
        if not request.user.has_perm("raffle.view_draw") or not request.user.is_staff:
            raise PermissionDenied
        draw = get_object_or_404(
            self.get_queryset(request).select_related("event__licence", "envelope"), pk=draw_id
        )  # the reader's organisations only (#15): another's draw is a 404
        # R:T8 the step chosen instead of the next one ("the holder is not here"), named in the address
        step = chosen_step(draw, request.GET.get("step", ""))
        form = step_form(draw, request.POST if request.method == "POST" else None, step=step) if step else None
        if request.method == "POST" and form is not None:
            if not request.user.has_perm("raffle.change_draw") or not roles.user_has_role(
                request.user, roles.DRAW_STAFF, organisation=draw.event.licence.organisation_id
            ):
                raise PermissionDenied
            if form.is_valid():
                try:
                    draw, message = perform_next_step(
                        actor=request.user, draw=draw, cleaned=form.cleaned_data, step=step
                    )
                except DomainError as error:
                    self.message_user(request, str(error), messages.ERROR)
                else:
                    self.message_user(request, message, messages.SUCCESS)
                return redirect("admin:raffle_draw_step", draw_id=draw.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"{draw.event} — draw {draw.number}",
            "draw": draw,
            "step": step,  # the table's row: what the step is called
            "choices": [] if request.GET.get("step") else step_choices(draw),
            "form": form,
        }
        return TemplateResponse(request, "admin/raffle/draw/step.html", context)

    def _run_on_each(self, request, queryset, service, verb):
        for draw in scoped(queryset, request.user, roles.DRAW_STAFF):  # draw staff of that organisation
            try:
                service(actor=request.user, draw=draw)
            except DomainError as error:
                self.message_user(
                    request,
                    gettext("Draw %(number)s: %(error)s") % {"number": draw.number, "error": error},
                    messages.ERROR,
                )
            else:
                self.message_user(
                    request,
                    gettext("Draw %(number)s: %(verb)s.") % {"number": draw.number, "verb": verb},
                    messages.SUCCESS,
                )

    @admin.action(description=gettext_lazy("Open ticket sales"), permissions=["change"])
    def open_sales(self, request, queryset):
        self._run_on_each(request, queryset, services.draw_open_sales, "ticket sales opened")

    @admin.action(description=gettext_lazy("Announce sales, draw prize and jackpot"), permissions=["change"])
    def announce(self, request, queryset):
        self._run_on_each(request, queryset, services.draw_announce, "announced")

    def has_change_permission(self, request, obj=None):
        # The admin's edit form is never offered (every field is read-only);
        # "change" here means "may run draw steps", which calls the services.
        return request.user.has_perm("raffle.change_draw")

    def get_readonly_fields(self, request, obj=None):
        return [f.name for f in Draw._meta.fields]


@admin.register(CardDestruction)
class CardDestructionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = [
        "draw",
        "card",
        "method",
        "destroyed_by_name",
        "verified_by_name",
        "destroyed_at",
        "destroyer_authenticated_at",
        "verifier_authenticated_at",
    ]
    list_filter = ["method", "draw__event"]
    list_select_related = ["draw"]
    search_fields = ["card", "destroyed_by_name", "verified_by_name"]
