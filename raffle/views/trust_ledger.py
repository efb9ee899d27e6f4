"""The trust account's ledger page: every movement with its running balance,
what the account must keep for the players, the fees deducted without a
cheque, interest, and the bank's statements matched line by line (L10, L12)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from core.roles import role_required
from licensing import services as licensing_services
from licensing.models import BankStatement, BankStatementLine
from raffle.forms import trust_ledger as forms
from raffle.models import PrizePayment
from raffle.reports.reconciliation import trust_account_of
from raffle.reports.trust_ledger import ledger_entries, statement_reconciliation, trust_position
from raffle.views.treasury.common import READ, WRITE, event_for, page_context, write_and_back


@role_required(*READ)
def trust_ledger(request, event_id: int):
    """The ledger, the position and every statement's reconciliation: each
    record read once, whatever the number of statements."""
    event = event_for(request, event_id)
    licence = event.licence
    account = trust_account_of(event)
    payments = list(PrizePayment.objects.filter(draw__event__licence=licence).select_related("draw"))
    entries = ledger_entries(licence, payments=payments)
    statements = list(
        BankStatement.objects.filter(account__licence=licence).select_related("account").order_by("-last_day", "-pk")
    )
    lines = list(BankStatementLine.objects.filter(statement__account__licence=licence)) if statements else []
    first = min(statements, key=lambda s: (s.first_day, s.pk), default=None)
    return render(
        request,
        "treasury/trust_ledger.html",
        page_context(
            request,
            event,
            account=account,
            entries=entries,
            position=trust_position(licence, account=account, event=event, entries=entries, payments=payments),
            reconciliations=[
                statement_reconciliation(s, entries=entries, lines=lines, first=first) for s in statements
            ],
            deduction_form=forms.DeductionForm(),
            interest_form=forms.InterestForm(),
            statement_form=forms.StatementForm(),
        ),
    )


def _back(event) -> str:
    return reverse("treasury_trust_ledger", args=[event.pk])


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def deduction_add(request, event_id: int):
    event = event_for(request, event_id)
    form = forms.DeductionForm(request.POST, request.FILES)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.deduction_record(actor=request.user, licence=event.licence, **d),
        done=_("Deduction recorded."),
        back=_back(event),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def interest_add(request, event_id: int):
    event = event_for(request, event_id)
    context = page_context(request, event)
    if context["account"] is None:
        messages.error(request, _("Record the lottery trust account first (L10)."))
        return redirect(_back(event))
    form = forms.InterestForm(request.POST)
    return write_and_back(
        request,
        form,
        lambda d: licensing_services.interest_record(actor=request.user, account=context["account"], **d),
        done=_("Interest recorded."),
        back=_back(event),
    )


@role_required(*WRITE)  # who first: a visitor is sent to sign in, not told 405
@require_POST
def statement_import(request, event_id: int):
    event = event_for(request, event_id)
    account = page_context(request, event)["account"]
    if account is None:
        messages.error(request, _("Record the lottery trust account first (L10)."))
        return redirect(_back(event))
    form = forms.StatementForm(request.POST, request.FILES)

    def call(d):
        upload = d["statement"]
        raw = upload.read()
        try:
            text = raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = raw.decode("latin-1")  # some banks still export Windows-1252
        licensing_services.bank_statement_import(actor=request.user, account=account, text=text, file_name=upload.name)

    return write_and_back(request, form, call, done=_("Statement imported and matched."), back=_back(event))
