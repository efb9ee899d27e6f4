"""The treasurer's pages, usable without the admin: the trust account and
deposits with their reconciliation, prize payments and unclaimed prizes,
approved uses and spending, the reports (PDF, CSV, issued copies), the ledger
and the deadlines (page and iCalendar).

Auditors and administrators read everything; only treasurers and
administrators write. Each write parses a form, calls one service, and shows
the refusal in plain words.
"""

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.errors import DomainError
from core.pdf import pdf_response
from core.roles import ADMINISTRATOR, AUDITOR, TREASURER, role_required, user_has_role
from licensing import services as licensing_services
from licensing.models import (
    ApprovedUse,
    Deposit,
    DonatedPrize,
    Expense,
    IssuedReport,
    ReportKind,
)
from raffle import selectors, services
from raffle.forms import treasury as tf
from raffle.models import Draw, Event, PrizePayment, UnclaimedPrize
from raffle.reports import builders
from raffle.reports import render as report_render
from raffle.reports.deadlines import deadlines_ics, event_deadlines
from raffle.reports.ledger import ledger_csv
from raffle.reports.reconciliation import deposit_allocations, draw_reconciliation, trust_account_of

READ = (TREASURER, AUDITOR, ADMINISTRATOR)
WRITE = (TREASURER, ADMINISTRATOR)


def _event(event_id: int) -> Event:
    return get_object_or_404(selectors.event_list(), pk=event_id)


def _context(request, event: Event, **extra) -> dict:
    return {
        "event": event,
        "licence": event.licence,
        "can_write": user_has_role(request.user, *WRITE),
        "account": trust_account_of(event),
        **extra,
    }


def _csv(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _write(request, form, call, *, done: str, back: str):
    """Validate the form, call one service, report the result, go back."""
    if not form.is_valid():
        problems = "; ".join(
            f"{form.fields[f].label if f in form.fields else ''} {' '.join(e)}".strip() for f, e in form.errors.items()
        )
        messages.error(request, f"Nothing was saved. {problems}")
    else:
        try:
            call(form.cleaned_data)
        except DomainError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, done)
    return redirect(back)


@role_required(*READ)
def treasury_home(request):
    return render(request, "treasury/home.html", {"events": selectors.event_list()})


@role_required(*READ)
def overview(request, event_id: int):
    event = _event(event_id)
    today = timezone.localdate()
    deadlines = event_deadlines(event, today=today)
    recon = draw_reconciliation(event, today=today)
    feed = reverse("treasury_deadlines_ics", args=[event.pk])
    return render(
        request,
        "treasury/overview.html",
        _context(
            request,
            event,
            today=today,
            feed_url=request.build_absolute_uri(f"{feed}?token={deadlines_feed_token(request.user, event)}"),
            deadlines=[(d, d.status(today)) for d in deadlines],
            periods=builders.available_periods(event),
            flagged=[line for line in recon if line.flags],
            summary=selectors.event_summary(event),
            issued=[
                (r, licensing_services.report_file_intact(r))
                for r in IssuedReport.objects.filter(licence=event.licence).select_related("generated_by")
            ],
        ),
    )


@role_required(*READ)
def deposits(request, event_id: int):
    event = _event(event_id)
    account = trust_account_of(event)
    officers = account.signing_officers.all() if account else []
    return render(
        request,
        "treasury/deposits.html",
        _context(
            request,
            event,
            reconciliation=draw_reconciliation(event),
            allocations=deposit_allocations(event),
            officers=officers,
            account_form=tf.TrustAccountForm(licence=event.licence),
            officers_form=tf.SigningOfficersForm(
                licence=event.licence, initial={"signing_officers": list(officers) if account else []}
            ),
            deposit_form=tf.DepositForm(event=event),
            coverage_form=tf.CoverageForm(event=event),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def account_open(request, event_id: int):
    event = _event(event_id)
    form = tf.TrustAccountForm(request.POST, licence=event.licence)
    return _write(
        request,
        form,
        lambda d: licensing_services.trust_account_open(
            actor=request.user,
            licence=event.licence,
            bank_name=d["bank_name"],
            branch=d["branch"],
            account_number=d["account_number"],
            opened_on=d["opened_on"],
            deposit_within_days=d["deposit_within_days"],
            signing_officers=list(d["signing_officers"]),
        ),
        done="Trust account recorded.",
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def account_officers(request, event_id: int):
    event = _event(event_id)
    account = trust_account_of(event)
    if account is None:
        raise Http404("No trust account yet.")
    form = tf.SigningOfficersForm(request.POST, licence=event.licence)
    return _write(
        request,
        form,
        lambda d: licensing_services.trust_account_set_officers(
            actor=request.user, account=account, signing_officers=list(d["signing_officers"])
        ),
        done="Signing officers updated.",
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def deposit_add(request, event_id: int):
    event = _event(event_id)
    form = tf.DepositForm(request.POST, request.FILES, event=event)
    back = reverse("treasury_deposits", args=[event.pk])
    account = trust_account_of(event)
    if account is None:
        messages.error(request, "Record the lottery trust account first (L10).")
        return redirect(back)

    def call(d):
        deposit = licensing_services.deposit_record(
            actor=request.user,
            account=account,
            slip_number=d["slip_number"],
            deposited_on=d["deposited_on"],
            amount=d["amount"],
            slip_scan=d["slip_scan"],
        )
        if d["draw"]:
            services.deposit_cover_draws(
                actor=request.user, deposit=deposit, amounts={d["draw"]: d["draw_amount"] or d["amount"]}
            )

    return _write(request, form, call, done="Deposit recorded.", back=back)


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def deposit_cover(request, event_id: int, deposit_id: int):
    event = _event(event_id)
    deposit = get_object_or_404(Deposit, pk=deposit_id, account__licence=event.licence)
    form = tf.CoverageForm(request.POST, event=event)
    return _write(
        request,
        form,
        lambda d: services.deposit_cover_draws(actor=request.user, deposit=deposit, amounts={d["draw"]: d["amount"]}),
        done=f"Slip {deposit.slip_number} updated.",
        back=reverse("treasury_deposits", args=[event.pk]),
    )


@role_required(*READ)
def deposit_slip(request, event_id: int, deposit_id: int):
    event = _event(event_id)
    deposit = get_object_or_404(Deposit, pk=deposit_id, account__licence=event.licence)
    if not deposit.slip_scan:
        raise Http404("No scan of this slip.")
    response = HttpResponse(deposit.slip_scan.read(), content_type="application/octet-stream")
    response["Content-Disposition"] = f'attachment; filename="{deposit.slip_scan.name.rsplit("/", 1)[-1]}"'
    return response


@role_required(*READ)
def prizes(request, event_id: int):
    event = _event(event_id)
    return render(
        request,
        "treasury/prizes.html",
        _context(
            request,
            event,
            draws=Draw.objects.filter(event=event, state="closed").order_by("number"),
            payments=PrizePayment.objects.filter(draw__event=event).select_related("draw"),
            unclaimed=UnclaimedPrize.objects.filter(draw__event=event)
            .select_related("draw")
            .prefetch_related("attempts"),
            payment_form=tf.PrizePaymentForm(event=event),
            unclaimed_form=tf.UnclaimedForm(event=event),
            attempt_form=tf.ContactAttemptForm(),
            today=timezone.localdate(),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_pay(request, event_id: int):
    event = _event(event_id)
    form = tf.PrizePaymentForm(request.POST, event=event)
    return _write(
        request,
        form,
        lambda d: services.prize_payment_record(
            actor=request.user,
            draw=d["draw"],
            kind=d["kind"],
            method=d["method"],
            reference=d["reference"],
            paid_on=d["paid_on"],
            payee=d["payee"],
        ),
        done="Payment recorded.",
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_unclaimed(request, event_id: int):
    event = _event(event_id)
    form = tf.UnclaimedForm(request.POST, event=event)
    return _write(
        request,
        form,
        lambda d: services.prize_mark_unclaimed(actor=request.user, draw=d["draw"], kind=d["kind"]),
        done="Prize held in trust as unclaimed.",
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_attempt(request, event_id: int, prize_id: int):
    event = _event(event_id)
    prize = get_object_or_404(UnclaimedPrize, pk=prize_id, draw__event=event)
    form = tf.ContactAttemptForm(request.POST)
    return _write(
        request,
        form,
        lambda d: services.prize_log_contact_attempt(
            actor=request.user, prize=prize, attempted_on=d["attempted_on"], means=d["means"], outcome=d["outcome"]
        ),
        done="Attempt logged.",
        back=reverse("treasury_prizes", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def prize_to_proceeds(request, event_id: int, prize_id: int):
    event = _event(event_id)
    prize = get_object_or_404(UnclaimedPrize, pk=prize_id, draw__event=event)
    try:
        services.prize_add_to_proceeds(actor=request.user, prize=prize)
        messages.success(request, "The prize joins the gross proceeds.")
    except DomainError as error:
        messages.error(request, str(error))
    return redirect(reverse("treasury_prizes", args=[event.pk]))


@role_required(*READ)
def spending(request, event_id: int):
    event = _event(event_id)
    licence = event.licence
    return render(
        request,
        "treasury/spending.html",
        _context(
            request,
            event,
            uses=ApprovedUse.objects.filter(licence=licence),
            expenses=Expense.objects.filter(licence=licence).select_related("approved_use"),
            donated=DonatedPrize.objects.filter(licence=licence),
            use_form=tf.ApprovedUseForm(),
            expense_form=tf.ExpenseForm(licence=licence),
            donated_form=tf.DonatedPrizeForm(),
        ),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def use_add(request, event_id: int):
    event = _event(event_id)
    form = tf.ApprovedUseForm(request.POST, request.FILES)
    return _write(
        request,
        form,
        lambda d: licensing_services.approved_use_add(
            actor=request.user,
            licence=event.licence,
            description=d["description"],
            approved_on=d["approved_on"],
            is_amendment=d["is_amendment"],
            approval_reference=d["approval_reference"],
            approval_document=d["approval_document"],
        ),
        done="Approved use recorded.",
        back=reverse("treasury_spending", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def expense_add(request, event_id: int):
    event = _event(event_id)
    form = tf.ExpenseForm(request.POST, licence=event.licence)
    return _write(
        request,
        form,
        lambda d: licensing_services.expense_record(
            actor=request.user,
            licence=event.licence,
            kind=d["kind"],
            approved_use=d["approved_use"],
            paid_on=d["paid_on"],
            amount=d["amount"],
            payee=d["payee"],
            description=d["description"],
            reference=d["reference"],
        ),
        done="Payment recorded.",
        back=reverse("treasury_spending", args=[event.pk]),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def donated_add(request, event_id: int):
    event = _event(event_id)
    form = tf.DonatedPrizeForm(request.POST)
    return _write(
        request,
        form,
        lambda d: licensing_services.donated_prize_record(
            actor=request.user,
            licence=event.licence,
            description=d["description"],
            donor=d["donor"],
            value=d["value"],
            received_on=d["received_on"],
        ),
        done="Donated prize recorded.",
        back=reverse("treasury_spending", args=[event.pk]),
    )


def _report_file(event: Event, kind: str, period: int | None, file_format: str):
    """(content, filename, fee, due_on) of a report rendered now."""
    number = event.licence.number
    if kind == ReportKind.FOUR_DRAW:
        report = builders.four_draw_report(event, period)
        content = (
            report_render.four_draw_pdf(report)
            if file_format == "pdf"
            else report_render.four_draw_csv(report).encode()
        )
        return content, f"{number}-four-draw-{period}.{file_format}", report.fee, report.due_on
    report = builders.final_report(event)
    content = report_render.final_pdf(report) if file_format == "pdf" else report_render.final_csv(report).encode()
    return content, f"{number}-final-report.{file_format}", report.fee_total, report.due_on


def _send(content: bytes, filename: str, file_format: str) -> HttpResponse:
    if file_format == "pdf":
        return pdf_response(content, filename)
    return _csv(content.decode(), filename)


@role_required(*READ)
def report_view(request, event_id: int, kind: str, file_format: str, period: int | None = None):
    """Preview a report as it would be issued now (not stored)."""
    event = _event(event_id)
    try:
        content, filename, _, _ = _report_file(event, kind, period, file_format)
    except DomainError as error:
        messages.error(request, str(error))
        return redirect(reverse("treasury_overview", args=[event.pk]))
    return _send(content, filename, file_format)


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def report_issue(request, event_id: int):
    """Generate a report and keep the file with its SHA-256, who and when."""
    event = _event(event_id)
    kind = request.POST.get("kind")
    file_format = request.POST.get("format")
    period = int(request.POST["period"]) if request.POST.get("period", "").isdigit() else None
    if kind not in (ReportKind.FOUR_DRAW, ReportKind.FINAL) or file_format not in ("pdf", "csv"):
        messages.error(request, "Choose the report and its format.")
        return redirect(reverse("treasury_overview", args=[event.pk]))
    try:
        content, _, fee, due_on = _report_file(event, kind, period, file_format)
        issued = licensing_services.report_issue(
            actor=request.user,
            licence=event.licence,
            kind=kind,
            file_format=file_format,
            content=content,
            period=period,
            fee=fee,
            due_on=due_on,
        )
    except DomainError as error:
        messages.error(request, str(error))
    else:
        messages.success(request, f"{issued} issued and kept; SHA-256 {issued.sha256}.")
    return redirect(reverse("treasury_overview", args=[event.pk]))


@role_required(*READ)
def issued_download(request, event_id: int, report_id: int):
    event = _event(event_id)
    issued = get_object_or_404(IssuedReport, pk=report_id, licence=event.licence)
    with issued.file.open("rb") as handle:
        content = handle.read()
    response = _send(content, issued.file.name.rsplit("/", 1)[-1], issued.file_format)
    response["X-Content-SHA256"] = issued.sha256
    return response


@role_required(*READ)
def ledger_download(request, event_id: int):
    event = _event(event_id)
    return _csv(ledger_csv(event), f"{event.licence.number}-ledger.csv")


ICS_SALT = "raffle.treasury.deadlines-ics"


def deadlines_feed_token(user, event: Event) -> str:
    """A token for calendar apps, which cannot sign in: it names the user, and
    the feed is served only while that user is active and holds a reading role."""
    return signing.dumps({"user": user.pk, "event": event.pk}, salt=ICS_SALT)


def deadlines_feed(request, event_id: int):
    """The deadlines as iCalendar: for a signed-in reader, or for a calendar
    app that presents the reader's subscription token."""
    event = _event(event_id)
    token = request.GET.get("token")
    if token:
        try:
            data = signing.loads(token, salt=ICS_SALT)
        except signing.BadSignature:
            raise PermissionDenied from None
        user = get_user_model().objects.filter(pk=data.get("user"), is_active=True).first()
        if data.get("event") != event.pk or user is None or not user_has_role(user, *READ):
            raise PermissionDenied
    elif not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    elif not user_has_role(request.user, *READ):
        raise PermissionDenied
    response = HttpResponse(
        deadlines_ics(event, event_deadlines(event), host=request.get_host()),
        content_type="text/calendar; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="{event.licence.number}-deadlines.ics"'
    return response
