"""Forms of the treasurer's pages. They only parse input; the services decide
(amounts stay text here so `core.money.parse_amount` judges them)."""

from django import forms
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from licensing.models import ApprovedUse, BonaFideMember, ExpenseCategory, ExpenseKind, PaymentMethod
from raffle.models import Draw, DrawState, MustGoTicket, PrizeKind

DATE = forms.DateInput(attrs={"type": "date"})


def _amount(label: str, **kwargs) -> forms.CharField:
    return forms.CharField(label=label, max_length=20, **kwargs)


class SigningOfficersForm(forms.Form):
    """R:L12 the account's signing officers: active bona fide members of the licensee."""

    signing_officers = forms.ModelMultipleChoiceField(
        queryset=BonaFideMember.objects.none(),
        widget=forms.CheckboxSelectMultiple,
        label=gettext_lazy("Signing officers (at least two bona fide members)"),
    )

    def __init__(self, *args, licence, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["signing_officers"].queryset = BonaFideMember.objects.filter(
            organisation=licence.organisation, is_active=True
        ).select_related("organisation")  # each choice's label names the organisation


class TrustAccountForm(SigningOfficersForm):
    bank_name = forms.CharField(label=gettext_lazy("Bank or credit union"), max_length=150)
    branch = forms.CharField(label=gettext_lazy("Branch"), max_length=150, required=False)
    account_number = forms.CharField(label=gettext_lazy("Account number"), max_length=40)
    opened_on = forms.DateField(label=gettext_lazy("Opened on"), widget=DATE)
    deposit_within_days = forms.IntegerField(
        label=gettext_lazy("Deposit each draw's sales within (days)"), initial=3, min_value=0, max_value=30
    )
    field_order = ["bank_name", "branch", "account_number", "opened_on", "deposit_within_days", "signing_officers"]


class DepositForm(forms.Form):
    slip_number = forms.CharField(label=gettext_lazy("Deposit slip number"), max_length=40)
    deposited_on = forms.DateField(label=gettext_lazy("Deposited on"), widget=DATE)
    amount = _amount(gettext_lazy("Amount of the slip ($)"))
    slip_scan = forms.FileField(label=gettext_lazy("Scan or photo of the stamped slip"), required=False)
    draw = forms.ModelChoiceField(
        queryset=Draw.objects.none(),
        label=gettext_lazy("Draw whose sales it holds"),
        required=False,
        empty_label=gettext_lazy("(say later)"),
    )
    draw_amount = _amount(
        gettext_lazy("Amount for that draw ($)"),
        required=False,
        help_text=gettext_lazy("Leave empty when the whole slip is that draw's sales."),
    )
    seed_amount = _amount(
        gettext_lazy("Part of it that is the seed jackpot ($)"),
        required=False,
        help_text=gettext_lazy("The seed jackpot's money (P6): lottery money, not ticket sales."),
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = Draw.objects.filter(event=event, ticket_sales__isnull=False)


class CoverageForm(forms.Form):
    draw = forms.ModelChoiceField(queryset=Draw.objects.none(), label=gettext_lazy("Draw"))
    amount = _amount(gettext_lazy("Amount for that draw ($)"))

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = Draw.objects.filter(event=event, ticket_sales__isnull=False)


class HolderChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: MustGoTicket) -> str:
        who = f" ({obj.winner_name})" if obj.winner_name else ""
        return _("Draw %(draw)s, ticket %(serial)s%(who)s") % {
            "draw": obj.draw.number,
            "serial": obj.winning_serial,
            "who": who,
        }


def _holders_of(form: forms.Form, event) -> None:
    """R:P7 the holders of the event's must-go draw to choose from; no field without one."""
    holders = MustGoTicket.objects.filter(draw__event=event).select_related("draw").order_by("sequence")
    if holders.exists():
        form.fields["holder"].queryset = holders
    else:
        del form.fields["holder"]


class PrizePaymentForm(forms.Form):
    draw = forms.ModelChoiceField(queryset=Draw.objects.none(), label=gettext_lazy("Draw"))
    kind = forms.ChoiceField(choices=PrizeKind.choices, label=gettext_lazy("Prize"))
    holder = HolderChoiceField(
        queryset=MustGoTicket.objects.none(),
        required=False,
        label=_("Holder (must-go draw)"),
        help_text=_("A must-go draw's prizes are paid holder by holder, each their own share (P7)."),
    )
    amount = _amount(
        _("Amount of the cheque or transfer ($)"),
        required=False,
        help_text=_("Leave empty to pay what is owed; an amount over the winner's share is refused."),
    )
    payee = forms.CharField(label=gettext_lazy("Paid to"), max_length=150)
    method = forms.ChoiceField(choices=PaymentMethod.choices, label=gettext_lazy("Paid by"))
    reference = forms.CharField(label=gettext_lazy("Cheque number or transfer reference"), max_length=60)
    paid_on = forms.DateField(label=gettext_lazy("Paid on"), widget=DATE)
    cheque_image = forms.FileField(
        label=_("Scan of the cheque"),
        required=False,
        help_text=_("An image (PNG or JPEG) is printed in the four-draw report's annex (R1)."),
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = Draw.objects.filter(event=event, state=DrawState.CLOSED)
        _holders_of(self, event)


class UnclaimedForm(forms.Form):
    draw = forms.ModelChoiceField(queryset=Draw.objects.none(), label=gettext_lazy("Draw"))
    kind = forms.ChoiceField(choices=PrizeKind.choices, label=gettext_lazy("Prize"))
    holder = HolderChoiceField(
        queryset=MustGoTicket.objects.none(),
        required=False,
        label=_("Holder (must-go draw)"),
        help_text=_("In a must-go draw only that holder's own share is held (P7)."),
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = Draw.objects.filter(event=event, state=DrawState.CLOSED)
        _holders_of(self, event)


class ContactAttemptForm(forms.Form):
    attempted_on = forms.DateField(label=gettext_lazy("Date of the attempt"), widget=DATE)
    means = forms.CharField(label=gettext_lazy("How (telephone, e-mail, letter...)"), max_length=60)
    outcome = forms.CharField(label=gettext_lazy("What came of it"), max_length=200)


class ApprovedUseForm(forms.Form):
    description = forms.CharField(label=gettext_lazy("Use of net proceeds"), max_length=200)
    approved_on = forms.DateField(label=gettext_lazy("Approved on"), widget=DATE)
    is_amendment = forms.BooleanField(
        label=gettext_lazy("A new use added by amendment (not on the licence)"), required=False
    )
    approval_reference = forms.CharField(
        label=gettext_lazy("Written approval (letter or e-mail reference)"), max_length=120, required=False
    )
    approval_document = forms.FileField(label=gettext_lazy("Copy of the written approval"), required=False)


class ExpenseForm(forms.Form):
    kind = forms.ChoiceField(choices=ExpenseKind.choices, label=gettext_lazy("Kind"))
    category = forms.ChoiceField(
        choices=ExpenseCategory.choices,
        label=gettext_lazy("Category (for an expense)"),
        initial=ExpenseCategory.OTHER,
        required=False,
    )
    approved_use = forms.ModelChoiceField(
        queryset=ApprovedUse.objects.none(), required=False, label=gettext_lazy("Approved use (for net proceeds)")
    )
    paid_on = forms.DateField(label=gettext_lazy("Paid on"), widget=DATE)
    amount = _amount(gettext_lazy("Amount ($)"))
    payee = forms.CharField(label=gettext_lazy("Paid to"), max_length=150)
    description = forms.CharField(label=gettext_lazy("For"), max_length=200)
    reference = forms.CharField(label=gettext_lazy("Cheque number"), max_length=60)
    cheque_image = forms.FileField(label=gettext_lazy("Scan of the cheque"), required=False)
    fee_period = forms.IntegerField(
        label=_("Four-draw period this licence fee pays"),
        required=False,
        min_value=1,
        help_text=_("For a licence fee only: 1 for draws 1 to 4, 2 for draws 5 to 8, ..."),
    )

    def __init__(self, *args, licence, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["approved_use"].queryset = ApprovedUse.objects.filter(licence=licence)


class DonatedPrizeForm(forms.Form):
    description = forms.CharField(label=gettext_lazy("Prize"), max_length=200)
    donor = forms.CharField(label=gettext_lazy("Donor"), max_length=150)
    value = _amount(gettext_lazy("Fair market value ($)"))
    received_on = forms.DateField(label=gettext_lazy("Received on"), widget=DATE)


class WinnersPublicationForm(forms.Form):
    """R:D10 where and when a draw's winning ticket and prize were published."""

    draw = forms.ModelChoiceField(queryset=Draw.objects.none(), label=_("Draw"))
    published_on = forms.DateField(label=_("Published on"), widget=DATE)
    where = forms.CharField(
        label=_("Where"), max_length=200, help_text=_("The website, newspaper, notice board or social account.")
    )

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = Draw.objects.filter(event=event, state=DrawState.CLOSED)


class ReportReturnForm(forms.Form):
    """R:R1 R:R2 the licensing officer sent an issued report back."""

    returned_on = forms.DateField(label=_("Sent back on"), widget=DATE)
    returned_by = forms.CharField(label=_("By"), max_length=150, help_text=_("The licensing officer and their office."))
    reasons = forms.CharField(
        label=_("Reasons"), widget=forms.Textarea(attrs={"rows": 2}), help_text=_("What must be corrected or added.")
    )
    reference = forms.CharField(label=_("Reference"), max_length=100, required=False)
    refile_by = forms.DateField(label=_("Corrected report due by"), widget=DATE, required=False)
