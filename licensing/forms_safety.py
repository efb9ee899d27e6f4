"""The guided safety and security plan form (L4): the venue, then one block per
threshold with every control measure the guide names."""

from django import forms
from django.utils.translation import gettext_lazy as _

THRESHOLD_ROWS = 3
TEXT = forms.Textarea(attrs={"rows": 2})


class SafetyPlanForm(forms.Form):
    venue = forms.CharField(label=_("Where are the draws held?"), max_length=200)
    landlord_consent = forms.CharField(label=_("Has the landlord consented to the event? How?"), max_length=300)
    liquor_licence = forms.CharField(
        label=_("If the venue has a liquor licence: the area where patrons may drink"), max_length=300, required=False
    )


class ThresholdForm(forms.Form):
    jackpot_from = forms.CharField(label=_("From a jackpot of ($)"), max_length=20, help_text=_("e.g. 25000"))
    expected_attendance = forms.IntegerField(label=_("People expected at the draw"), min_value=1)
    volunteers = forms.IntegerField(label=_("Volunteers on duty"), min_value=1)
    police_security = forms.CharField(label=_("Police and security"), max_length=500, widget=TEXT)
    venue_capacity = forms.CharField(label=_("Venue capacity and overflow"), max_length=500, widget=TEXT)
    traffic = forms.CharField(label=_("Traffic: how people get in and out, patrol plans"), max_length=500, widget=TEXT)
    cash_handling = forms.CharField(label=_("How ticket money is secured and transported"), max_length=500, widget=TEXT)
    deposit_timing = forms.CharField(label=_("When the money is deposited"), max_length=500, widget=TEXT)


ThresholdFormSet = forms.formset_factory(ThresholdForm, extra=THRESHOLD_ROWS, min_num=1, validate_min=True)
