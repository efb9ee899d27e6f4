"""Forms of the Rules of Play and exit-strategy pages. They only parse input; the services decide."""

from django import forms
from django.utils.translation import gettext_lazy

from core.money import Rounding
from raffle.models import MUST_GO_PAYOUTS_OFFERED, EnvelopeTakenProcedure, MustGoReason


class RulesSettingsForm(forms.Form):
    """The settings the Rules of Play are generated from (R4)."""

    rounding = forms.ChoiceField(label=gettext_lazy("Rounding of the 20% and 30%"), choices=Rounding.CHOICES)
    envelope_taken_procedure = forms.ChoiceField(
        label=gettext_lazy("If the picked envelope is already open"), choices=EnvelopeTakenProcedure.choices
    )
    claim_period_days = forms.IntegerField(label=gettext_lazy("Days a winner has to claim"), min_value=1, max_value=365)
    draw_interval_days = forms.IntegerField(label=gettext_lazy("Days between draws"), min_value=1, max_value=60)
    draw_place = forms.CharField(label=gettext_lazy("Where the draws are held"), max_length=200, required=False)
    must_go_payout = forms.ChoiceField(
        label=gettext_lazy("Exit strategy: how the holders of a must-go final draw are paid"),
        choices=[("", gettext_lazy("Not chosen yet")), *((p.value, p.label) for p in MUST_GO_PAYOUTS_OFFERED)],
        required=False,
    )
    unclaimed_prize_policy = forms.CharField(
        label=gettext_lazy("Unclaimed prizes"), widget=forms.Textarea(attrs={"rows": 3})
    )


class RulesApprovalForm(forms.Form):
    """R:R4 the licensing authority's approval of the Rules of Play, recorded before the first sale."""

    approved_on = forms.DateField(
        label=gettext_lazy("Approved by the licensing authority on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    reference = forms.CharField(
        label=gettext_lazy("Reference of the approval (letter, e-mail or file number)"), max_length=120
    )


class MustGoForm(forms.Form):
    reason = forms.ChoiceField(label=gettext_lazy("Why this is the final draw"), choices=MustGoReason.choices)
