"""The treasurer's home and overview, the reports (PDF, CSV, issued copies),
the ledger and the deadlines (page and iCalendar)."""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from core.csvsafe import csv_attachment
from core.errors import DomainError
from core.pdf import pdf_response
from core.roles import role_required, user_has_role
from core.scope import scoped
from core.text import ascii_digits
from licensing import services as licensing_services
from licensing.models import (
    IssuedReport,
    ReportKind,
)
from raffle import selectors, services
from raffle.forms import ReportReturnForm
from raffle.models import Draw, DrawState, Event
from raffle.reports import builders
from raffle.reports import render as report_render
from raffle.reports.deadlines import deadlines_ics, event_deadlines
from raffle.reports.ledger import ledger_csv
from raffle.reports.reconciliation import draw_reconciliation, trust_account_of
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def treasury_home(request):
    return render(request, "treasury/home.html", {"events": scoped(selectors.event_list(), request.user, *READ)})


@role_required(*READ)
def overview(request, event_id: int):
    event = event_for(request, event_id)
    today = timezone.localdate()
    draws = list(Draw.objects.filter(event=event).order_by("number"))  # read once for the three lists below
    closed = [d for d in draws if d.state == DrawState.CLOSED]
    account = trust_account_of(event)
    deadlines = event_deadlines(event, today=today, closed=closed)
    recon = draw_reconciliation(event, today=today, draws=draws, account=account)
    feed = reverse("treasury_deadlines_ics", args=[event.pk])
    return render(
        request,
        "treasury/overview.html",
        page_context(
            request,
            event,
            today=today,
            feed_url=request.build_absolute_uri(f"{feed}?token={deadlines_feed_token(request.user, event)}"),
            deadlines=[(d, d.status(today)) for d in deadlines],
            account=account,
            periods=builders.available_periods(event, closed),
            flagged=[line for line in recon if line.flags],
            summary=selectors.event_summary(event),
            issued=[
                (r, licensing_services.report_file_intact(r))
                for r in IssuedReport.objects.filter(licence=event.licence)
                .select_related("generated_by", "return_record", "replaced_by")
                .order_by("kind", "period", "file_format", "-version")
            ],
            return_form=ReportReturnForm(),
        ),
    )


def _send(content: bytes, filename: str, file_format: str) -> HttpResponse:
    if file_format == "pdf":
        return pdf_response(content, filename)
    return csv_attachment(content.decode(), filename)


@role_required(*READ)
def report_view(request, event_id: int, kind: str, file_format: str, period: int | None = None):
    """The report: once issued, the stored file as it was sent (rendered once,
    when issued; its SHA-256 in a header); otherwise, or with ?fresh=1, a
    preview rendered now and not stored."""
    event = event_for(request, event_id)
    latest = licensing_services.latest_issued(
        event.licence, kind, period if kind == ReportKind.FOUR_DRAW else None, file_format
    )
    issued = None if request.GET.get("fresh") else latest
    if issued is not None and licensing_services.report_file_intact(issued):
        with issued.file.open("rb") as handle:
            response = _send(handle.read(), issued.file.name.rsplit("/", 1)[-1], file_format)
        response["X-Content-SHA256"] = issued.sha256
        return response
    try:
        content, filename, _, _ = report_render.report_file(event, kind, period, file_format, latest=latest)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect(reverse("treasury_overview", args=[event.pk]))
    return _send(content, filename, file_format)


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def report_issue(request, event_id: int):
    """Generate a report and keep the file with its SHA-256, who and when."""
    event = event_for(request, event_id)
    kind = request.POST.get("kind")
    file_format = request.POST.get("format")
    period = int(request.POST["period"]) if ascii_digits(request.POST.get("period", "")) else None
    if kind not in (ReportKind.FOUR_DRAW, ReportKind.FINAL) or file_format not in ("pdf", "csv"):
        messages.error(request, gettext("Choose the report and its format."))
        return redirect(reverse("treasury_overview", args=[event.pk]))
    try:
        issued = services.event_report_issue(
            actor=request.user, event=event, kind=kind, file_format=file_format, period=period
        )
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            gettext("%(issued)s issued and kept; SHA-256 %(sha256)s.") % {"issued": issued, "sha256": issued.sha256},
        )
    return redirect(reverse("treasury_overview", args=[event.pk]))


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def report_return(request, event_id: int, report_id: int):
    """R:R1 R:R2 record that the licensing officer sent an issued report back."""
    event = event_for(request, event_id)
    issued = get_object_or_404(IssuedReport, pk=report_id, licence=event.licence)
    return write_and_back(
        request,
        ReportReturnForm(request.POST),
        lambda d: licensing_services.report_return_record(actor=request.user, report=issued, **d),
        done=gettext(
            "%(issued)s recorded as sent back. Correct the figures, then issue the report again: it is "
            "kept as version %(value)s, beside the version sent back."
        )
        % {"issued": issued, "value": issued.version + 1},
        back=reverse("treasury_overview", args=[event.pk]),
    )


@role_required(*READ)
def issued_download(request, event_id: int, report_id: int):
    event = event_for(request, event_id)
    issued = get_object_or_404(IssuedReport, pk=report_id, licence=event.licence)
    with issued.file.open("rb") as handle:
        content = handle.read()
    response = _send(content, issued.file.name.rsplit("/", 1)[-1], issued.file_format)
    response["X-Content-SHA256"] = issued.sha256
    return response


@role_required(*READ)
def ledger_download(request, event_id: int):
    event = event_for(request, event_id)
    return csv_attachment(ledger_csv(event), f"{event.licence.number}-ledger.csv")


ICS_SALT = "raffle.treasury.deadlines-ics"


def deadlines_feed_token(user, event: Event) -> str:
    """A token for calendar apps, which cannot sign in: it names the user, and
    the feed is served only while that user is active and holds a reading role."""
    return signing.dumps({"user": user.pk, "event": event.pk}, salt=ICS_SALT)


def deadlines_feed(request, event_id: int):
    """The deadlines as iCalendar: for a signed-in reader, or for a calendar
    app that presents the reader's subscription token."""
    token = request.GET.get("token")
    if token:
        try:
            data = signing.loads(token, salt=ICS_SALT)
        except signing.BadSignature:
            raise PermissionDenied from None
        reader = get_user_model().objects.filter(pk=data.get("user"), is_active=True).first()
        if data.get("event") != event_id or reader is None or not user_has_role(reader, *READ):
            raise PermissionDenied
    elif not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    elif not user_has_role(request.user, *READ):
        raise PermissionDenied
    else:
        reader = request.user
    event = get_object_or_404(scoped(selectors.event_list(), reader, *READ), pk=event_id)  # the reader's own
    response = HttpResponse(
        deadlines_ics(event, event_deadlines(event), host=request.get_host()),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{event.licence.number}-deadlines.ics"'
    return response
