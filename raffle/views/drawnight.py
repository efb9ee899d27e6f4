"""Draw night: one page per draw (`/draws/<id>/night/`) that leads the draw
staff through the draw's steps in order (RULES D8).

The screen is chosen by the draw's state. Every step is a POST that carries
the state the screen was showing (`expected_state`); the view performs the
step through `raffle.steps` (the same path as the admin) and redirects
(post/redirect/get), so refreshing or going back never repeats a step, and a
second laptop acting on a stale screen is told the step was already done
instead of performing the next one. The services lock the draw, so two
simultaneous POSTs of the same step give one success.
"""

from decimal import Decimal, InvalidOperation

from django.contrib import messages
from django.shortcuts import redirect, render
from django.template.loader import select_template
from django.urls import reverse
from django.utils.translation import gettext

from core import roles
from core.errors import DomainError
from core.money import format_money_here
from core.privacy import sale_contact_for
from core.scope import own
from licensing.models import SalesChannel
from raffle import selectors, services
from raffle.envelope_taken import opened_envelope_sentence
from raffle.models import DRAW_ORDER, DRAW_STEPS, Draw, DrawState
from raffle.models.draw_steps import step_choices
from raffle.services.pool import draw_place_of, draw_sales_channel
from raffle.steps import chosen_step, for_draw, perform_next_step, step_form, variant
from raffle.views.members import members_in_charge_panel

STAFF_WHO_RUN_DRAWS = (roles.DRAW_STAFF, roles.ADMINISTRATOR)


def _progress(draw: Draw) -> list[dict]:
    """The progress shown on every screen: one item per state with a forward
    step, named by the table; done, current (the draw's next step) or later.
    A state reached only by a row the staff choose (R:T8 awaiting a claim)
    is a wait within the step it was chosen at, not an item of its own."""
    waits = {step.to: step.state for step in DRAW_STEPS if step.choice}
    here = DRAW_ORDER.index(waits.get(draw.state, draw.state)) if draw.state in DRAW_ORDER else 0
    items, seen = [], set()
    for step in DRAW_STEPS:
        if step.to is None or step.back or step.choice or step.state in seen or step.state in waits:
            continue
        seen.add(step.state)
        there = DRAW_ORDER.index(step.state)
        items.append({"label": step.label, "done": there < here, "current": there == here})
    return items


def _render(request, draw: Draw, form, *, preview=None, status=200):
    step = draw.next_step
    if step is None:  # a state without a row in the table: the generic screen
        heading, button, screen, shows = draw.get_state_display(), gettext("Do this step"), draw.state, ()
        template = f"raffle/drawnight/_{draw.state}.html"
    else:
        heading, button = step.heading, for_draw(draw, step.button)
        screen, shows, template = step.screen_name, step.shows, step.template
    if preview is not None:
        button = gettext("Close sales at %(sales)s") % {"sales": format_money_here(preview.sales)}
    channel = draw_sales_channel(draw)  # R:L5 the channel in force on the draw's day
    context = {
        "draw": draw,
        "event": draw.event,
        "screen": screen,
        "next_step": step,
        "heading": heading,
        "button": button,
        "form": form,
        "preview": preview.split if preview else None,
        "preview_jackpot": preview.jackpot_after if preview else None,
        "by_rng": variant(draw) == "rng",
        "by_supplier": variant(draw) == "supplier",
        "supplier": selectors.supplier_draw_status(draw) if variant(draw) == "supplier" else None,
        "progress": _progress(draw),
        "channel": channel,
        "draw_place": draw_place_of(draw),  # R:L5 an amended draw place from its effective day
        "channel_is_paper": channel in SalesChannel.paper(),
        **members_in_charge_panel(draw),  # R:L13 told at the first step, named before sales close
        # The announcement for the room: only the figures, full screen (no form, no menus).
        "projector": request.GET.get("projector") == "1",
        # A screen without its own partial gets the generic one with the step form.
        "screen_template": select_template([template, "raffle/drawnight/_generic.html"]).template.name,
    }
    if "tickets" in shows and not draw.is_imported:
        # R:P1 R:T11 the figures come from the tickets sold, before anything is fixed.
        context["tickets"] = selectors.draw_sales_reconciliation(draw)
    if "envelopes" in shows:
        context["envelopes"] = selectors.envelope_board(draw.event)
    if draw.winning_serial:
        context["winning_sale"] = sale = selectors.winning_sale(draw)
        if sale is not None:  # R:T9 by the reader's roles in this draw's organisation only (#15)
            context["winner_contact"] = sale_contact_for(
                request.user,
                sale.purchaser_contact,
                organisation=draw.event.licence.organisation_id,
                sold_by_id=sale.sold_by_id,
            )
        # R:T9 the sentence of the Rules of Play, from the setting the service uses
        context["envelope_taken"] = opened_envelope_sentence(
            draw.event, picked_on_ticket=bool(sale and sale.envelope_pick)
        )
    if "next_draw" in shows:
        context["next_draw"] = Draw.objects.filter(event_id=draw.event_id, number=draw.number + 1).first()
    if "drawings" in shows or draw.claim_until:
        context["drawings"] = selectors.draw_drawings(draw)  # R:T8 every ticket drawn for the draw
    # R:T8 "is the holder here?": the rows the staff may take instead of the next step
    context["choices"] = [{"step": choice, "form": step_form(draw, step=choice)} for choice in step_choices(draw)]
    return render(request, "raffle/drawnight/night.html", context, status=status)


def _stale(request, draw: Draw, expected: str) -> None:
    if expected not in DrawState.values:
        messages.error(
            request,
            gettext(
                "That form was out of date, so nothing was done. Here is the draw as it stands; check it and try again."
            ),
        )
        return
    done = DrawState(expected).label
    messages.error(
        request,
        gettext(
            "This step was already done by someone else: draw %(number)s is now at “%(lower)s”, not "
            "“%(lower2)s”. Nothing was changed; here is the draw as it stands."
        )
        % {"number": draw.number, "lower": draw.get_state_display().lower(), "lower2": done.lower()},
    )


@roles.role_required(*STAFF_WHO_RUN_DRAWS)
def draw_night(request, draw_id: int):
    draw = own(request, selectors.draws_for_night(), pk=draw_id)
    if request.method != "POST":
        return _render(request, draw, step_form(draw))

    here = reverse("draw_night", args=[draw.pk])
    expected = request.POST.get("expected_state", "")
    if expected != draw.state:  # R:D8 a stale screen never performs the step after it.
        _stale(request, draw, expected)
        return redirect(here)
    step = chosen_step(draw, request.POST.get("step", ""))  # R:T8 or the row chosen instead
    form = step_form(draw, request.POST, step=step) if step is not None else None
    if form is None:
        return redirect(here)
    if not form.is_valid():
        return _render(request, draw, form, status=400)

    # Close sales: first show the figures closing would fix, worked out and
    # refused by the service's own calculation. The confirmation closes while
    # sellers may still be selling (R:P1 R:T4): the service locks the draw and
    # fixes the figures at that moment, so every sale committed before it
    # counts and every later one is refused; the next screen shows them.
    cleaned = form.cleaned_data
    previewed = None
    if step.name == "close_sales":
        try:
            preview = services.close_sales_figures(
                draw, ticket_sales=cleaned.get("ticket_sales"), container_count=cleaned.get("container_count")
            )
        except DomainError as error:
            form.add_error(None, str(error))
            return _render(request, draw, form, status=400)
        previewed = request.POST.get("previewed")
        if previewed is None:
            return _render(request, draw, form, preview=preview)

    try:
        draw, message = perform_next_step(actor=request.user, draw=draw, cleaned=cleaned, step=step)
    except DomainError as error:
        now = Draw.objects.only("state", "number").get(pk=draw.pk)
        if now.state != expected:  # another laptop won the race for this step
            _stale(request, now, expected)
            return redirect(here)
        form.add_error(None, str(error))
        return _render(request, draw, form, status=400)
    messages.success(request, message)
    if previewed is not None and previewed != str(draw.ticket_sales):
        messages.info(request, _moved(draw, previewed))
    return redirect(here)


def _moved(draw: Draw, previewed: str) -> str:
    try:
        shown = f" ({format_money_here(Decimal(previewed))})"
    except (InvalidOperation, ValueError):
        shown = ""
    return gettext(
        "Selling went on after the figures were shown%(shown)s: the sales made before the close count, so draw "
        "%(number)s closed at %(sales)s. These are the figures fixed for the draw; any later sale was refused."
    ) % {"shown": shown, "number": draw.number, "sales": format_money_here(draw.ticket_sales)}
