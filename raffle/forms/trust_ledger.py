"""Forms of the trust account's ledger page: deductions, interest, bank
statements. They only parse input; the services decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from licensing.models import DEDUCTION_CATEGORIES

DATE = forms.DateInput(attrs={"type": "date"})


class DeductionForm(forms.Form):
    category = forms.ChoiceField(choices=[(c.value, c.label) for c in DEDUCTION_CATEGORIES], label=_("Deduction"))
    paid_on = forms.DateField(label=_("Deducted on"), widget=DATE)
    amount = forms.CharField(label=_("Amount ($)"), max_length=20)
    payee = forms.CharField(label=_("Taken by (bank or supplier)"), max_length=150)
    description = forms.CharField(label=_("For"), max_length=200)
    evidence_reference = forms.CharField(label=_("Evidence: the statement line or settlement report"), max_length=120)
    evidence = forms.FileField(label=_("Copy of the statement or settlement"), required=False)


class InterestForm(forms.Form):
    credited_on = forms.DateField(label=_("Credited on"), widget=DATE)
    amount = forms.CharField(label=_("Interest ($)"), max_length=20)
    evidence_reference = forms.CharField(label=_("Statement that shows it"), max_length=120)


class StatementForm(forms.Form):
    statement = forms.FileField(
        label=_("Bank statement (CSV: date, description, amount, balance)"),
        help_text=_("As the bank exports it; withdrawals and deposits in two columns are read too."),
    )
