"""The staff sales page: sell electronic in-person (or stub) tickets, print
them as PDF (REPRINT after the first print), void a sale with a reason."""

from django.contrib import messages
from django.db.models import Q
from django.http import Http404, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from core import once, roles
from core.csvsafe import csv_download
from core.errors import DomainError
from core.money import format_money_here
from core.pdf import pdf_response, render_pdf
from core.privacy import sale_contact_for
from core.scope import organisations_of, own, scoped
from licensing.models import SalesChannel
from raffle import services
from raffle.forms.sales import IssueRollForm, LostRollForm, ReturnRollForm, SaleForm, VoidForm
from raffle.models import Draw, RollKind, Sale
from raffle.selectors import sales as sales_selectors
from raffle.services.pool import draw_place_of, draw_sales_channel
from raffle.services.sale_path import read_sale_draw

SALES_ROLES = (roles.SELLER, roles.DRAW_STAFF, roles.ADMINISTRATOR)
VOID_ROLES = (roles.DRAW_STAFF, roles.ADMINISTRATOR)  # a void is a supervisor's decision
HELPLINE = "ConnexOntario 1-866-531-2600"  # R:T10 printed on every ticket
ALREADY_DONE = gettext_lazy(
    "That form was already sent and recorded: here is what it recorded. Nothing was recorded twice."
)
# How the tickets are printed, chosen at print: layout and page size (templates/pdf/ticket.html).
TICKET_LAYOUTS = {
    "receipt": ("receipt", ""),  # one ticket per 80 mm receipt
    "letter": ("sheet", "letter"),  # eight tickets per Letter page
    "a4": ("sheet", "A4"),  # eight tickets per A4 page
}


def _sales_of(request):
    """The sales this person may open and print (#15): every sale of the
    organisations where they supervise (draw staff, administrator), and in
    those where they only sell, the sales they made themselves."""
    user = request.user
    supervised = organisations_of(user, *VOID_ROLES)
    sales = Sale.objects.select_related("draw__event__licence__organisation", "tier", "sold_by")
    return scoped(sales, user, *SALES_ROLES).filter(
        Q(draw__event__licence__organisation__in=supervised) | Q(sold_by=user)
    )


def _sales_draw(request, draw_id: int) -> Draw:
    return own(request, Draw.objects.select_related("event__licence"), pk=draw_id)


def _rolls_page(request, draw: Draw):
    """R:T7 R:L13 paper rolls: issue rolls to named sellers, record their return."""
    books = draw_sales_channel(draw) == SalesChannel.PAPER_STUB
    rolls = list(sales_selectors.draw_rolls(draw))
    posted = request.POST if request.method == "POST" else None
    action = posted.get("action") if posted else None
    issue_form = IssueRollForm(posted if action == "issue" else None)
    return_form = ReturnRollForm(posted if action == "return" else None, draw=draw, rolls=rolls, books=books)
    lost_form = LostRollForm(posted if action == "lost" else None, rolls=rolls)
    form = {"issue": issue_form, "return": return_form, "lost": lost_form}.get(action)
    if form is not None:
        here = reverse("sales_rolls", args=[draw.pk])
        token = once.posted_token(request)
        try:
            repeated = once.first_result(actor=request.user, token=token) is not None
        except DomainError as error:
            messages.error(request, str(error))
            return redirect(here)
        if not roles.user_has_role(
            request.user, roles.DRAW_STAFF, roles.ADMINISTRATOR, organisation=draw.event.licence.organisation_id
        ):
            messages.error(request, gettext("Only draw staff record rolls; ask a member in charge."))
        elif repeated:  # the same form again: recorded once
            messages.info(request, ALREADY_DONE)
            return redirect(here)
        elif form.is_valid():
            data = form.cleaned_data
            said = []

            def record() -> str:
                if action == "issue":
                    roll = services.roll_issue(
                        actor=request.user,
                        draw=draw,
                        seller_name=data["seller_name"],
                        first_serial=data["first_serial"],
                        last_serial=data["last_serial"],
                        kind=RollKind.BOOK if books else RollKind.ROLL,
                    )
                    said.append(gettext("Issued %(roll)s.") % {"roll": roll})
                elif action == "lost":
                    roll = services.roll_declare_lost(
                        actor=request.user, roll=next(r for r in rolls if r.pk == data["roll"]), reason=data["reason"]
                    )
                    said.append(gettext("%(roll)s is declared lost: its unsold serials are void.") % {"roll": roll})
                else:
                    roll = next(r for r in rolls if r.pk == data["roll"])
                    sold = services.roll_return(
                        actor=request.user, roll=roll, first_unsold=data["first_unsold"], tier_counts=form.tier_counts()
                    )
                    roll.refresh_from_db()
                    said.append(
                        gettext("%(roll)s returned: %(value)s tickets sold, %(sum)s recorded with it.")
                        % {
                            "roll": roll,
                            "value": roll.first_unsold - roll.first_serial,
                            "sum": format_money_here(sum(s.amount for s in sold)),
                        }
                    )
                return here

            try:
                _, first = once.submission_once(actor=request.user, token=token, perform=record)
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, said[0]) if first else messages.info(request, ALREADY_DONE)
                return redirect(here)
    return render(
        request,
        "raffle/sales/rolls.html",
        {
            "draw": draw,
            "rolls": rolls,
            "books": books,
            "issue_form": issue_form,
            "return_form": return_form,
            "lost_form": lost_form,
            "rolls_out": sum(1 for roll in rolls if roll.is_out),
            "summary": sales_selectors.draw_sales_summary(draw),
        },
    )


@roles.role_required(*SALES_ROLES)
def rolls(request, draw_id: int):
    draw = _sales_draw(request, draw_id)
    if draw_sales_channel(draw) not in SalesChannel.paper():  # R:L5 the channel in force on the draw's day
        raise Http404("This event sells electronically; it has no rolls or books.")
    return _rolls_page(request, draw)


@roles.role_required(*SALES_ROLES)
def sell(request, draw_id: int):
    # the draw as a sale reads it (its tiers, sealed envelopes, amendments, and whether it is
    # theirs: one statement, #18); the sale that follows uses this read (`selling_draw`)
    try:
        draw = read_sale_draw(draw_id, user=request.user, roles=request.acting_roles)
    except Draw.DoesNotExist:
        raise Http404("No draw of your organisations has this number.") from None
    channel = draw_sales_channel(draw)
    if channel == SalesChannel.PAPER_ROLL:
        return _rolls_page(request, draw)
    form = SaleForm(request.POST or None, draw=draw, initial={"device": request.session.get("sales_device", "")})
    if request.method == "POST":
        token = once.posted_token(request)
        if not form.is_valid():
            # the same form again (a double click, a retry) once it no longer validates: its first sale
            try:
                done = once.first_result(actor=request.user, token=token)
            except DomainError as error:
                messages.error(request, str(error))
                return redirect("sales_sell", draw_id=draw.pk)
            if done:
                messages.info(request, ALREADY_DONE)
                # `done` is the sale's page, a path: `redirect` would first try it as a view's name
                return HttpResponseRedirect(done)
        else:
            data = form.cleaned_data
            serials = data.get("serials", "").replace(",", " ").split() or None
            sold = []

            pages = {}

            def sale_page(obj) -> str | None:  # the token recorded with the sale's audit entry (#18)
                if not isinstance(obj, Sale):
                    return None
                if obj.pk not in pages:  # asked for by the audit entry, then by `sell_once`: reversed once
                    pages[obj.pk] = reverse("sale_detail", args=[obj.pk])
                return pages[obj.pk]

            def sell_once() -> str:
                sold.append(
                    services.ticket_sell_in_transaction(  # submission_once's transaction, rolled back whole
                        actor=request.user,
                        draw=draw,
                        tier_quantity=data["tier"],
                        units=data["units"],
                        purchaser_name=data["purchaser_name"],
                        purchaser_contact=data["purchaser_contact"],
                        envelope_pick=data["envelope_pick"],
                        device=data["device"],
                        serials=serials,
                        place=draw_place_of(draw) if data.get("inside_hall") else "",
                    )
                )
                return sale_page(sold[0])

            try:  # a repeat of a form that was recorded gets its first sale, not a second (core.once)
                done, first = once.submission_once(
                    actor=request.user, token=token, perform=sell_once, result_for=sale_page
                )
            except DomainError as error:
                form.add_error(None, str(error))
            else:
                if not first:
                    messages.info(request, ALREADY_DONE)
                    return HttpResponseRedirect(done)
                if request.session.get("sales_device") != data["device"]:  # a session write only when it changes
                    request.session["sales_device"] = data["device"]
                sale = sold[0]
                messages.success(
                    request,
                    gettext("Sold %(ticket_count)s ticket(s) for %(amount)s.")
                    % {"ticket_count": sale.ticket_count, "amount": format_money_here(sale.amount)},
                )
                return HttpResponseRedirect(done)
    return render(
        request,
        "raffle/sales/sell.html",
        {
            "draw": draw,
            "channel": channel,
            "form": form,
            "summary": sales_selectors.draw_sales_summary(draw),
            "recent": sales_selectors.recent_sales(draw, sales=_sales_of(request)),
        },
    )


@roles.role_required(*SALES_ROLES)
def sale_detail(request, sale_id: int):
    sale = get_object_or_404(_sales_of(request), pk=sale_id)
    return render(
        request,
        "raffle/sales/detail.html",
        {
            "sale": sale,
            "serial_ranges": sales_selectors.sale_serial_ranges(sale),
            "purchaser_contact": sale_contact_for(
                request.user,
                sale.purchaser_contact,
                organisation=sale.draw.event.licence.organisation_id,
                sold_by_id=sale.sold_by_id,
            ),
            "void_form": VoidForm(),
            "can_void": roles.user_has_role(
                request.user, *VOID_ROLES, organisation=sale.draw.event.licence.organisation_id
            ),
        },
    )


@roles.role_required(*SALES_ROLES)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def sale_ticket_pdf(request, sale_id: int):
    sale = get_object_or_404(_sales_of(request), pk=sale_id)
    paper = request.POST.get("paper", "letter")
    if paper not in TICKET_LAYOUTS:
        messages.error(request, gettext("Choose how to print the tickets: receipt, Letter or A4."))
        return redirect("sale_detail", sale_id=sale_id)
    layout, page_size = TICKET_LAYOUTS[paper]
    try:
        sale, reprint = services.sale_print(actor=request.user, sale=sale)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect("sale_detail", sale_id=sale_id)
    sale, serials = sales_selectors.sale_with_tickets(sale.pk)
    pdf = render_pdf(
        "pdf/ticket.html",
        {
            "sale": sale,
            "serials": serials,
            "reprint": reprint,
            "helpline": HELPLINE,
            "draw": sale.draw,
            "event": sale.draw.event,
            "draw_place": draw_place_of(sale.draw),  # R:L5 an amended draw place from its effective day
            "layout": layout,
            "page_size": page_size,
        },
    )
    return pdf_response(pdf, f"ticket-{sale.draw.number}-{sale.pk}{'-reprint' if reprint else ''}-{paper}.pdf")


@roles.role_required(*VOID_ROLES)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def sale_void(request, sale_id: int):
    sale = own(request, Sale, pk=sale_id)
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("Give the reason for the void."))
        return redirect("sale_detail", sale_id=sale_id)
    try:
        services.sale_void(actor=request.user, sale=sale, reason=form.cleaned_data["reason"])
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, gettext("Sale %(pk)s is void; its tickets neither count nor win.") % {"pk": sale.pk})
    return redirect("sale_detail", sale_id=sale_id)


@roles.role_required(roles.AUDITOR, roles.TREASURER, roles.DRAW_STAFF, roles.ADMINISTRATOR)
def draw_ticket_log(request, draw_id: int):
    """R:T7 the log of every ticket in play for a draw, as CSV (formula-safe),
    streamed so a million-ticket draw does not sit in memory."""
    draw = _sales_draw(request, draw_id)
    return csv_download(
        sales_selectors.TICKET_LOG_HEADER,
        sales_selectors.draw_ticket_log_rows(draw),
        f"tickets-{draw.event.licence.number}-draw-{draw.number}.csv",
    )
