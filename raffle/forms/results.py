"""Forms of the public results page and of the winner's publication consent (RULES D10)."""

from django import forms
from django.utils.translation import gettext_lazy as _


class TicketCheckForm(forms.Form):
    ticket = forms.CharField(
        label=_("Your ticket number"),
        max_length=40,
        error_messages={"max_length": _("A ticket number has at most 40 characters.")},
        widget=forms.TextInput(attrs={"autocomplete": "off", "inputmode": "text", "spellcheck": "false"}),
    )


class WinnerConsentForm(forms.Form):
    publish = forms.BooleanField(
        required=False, label=_("The winner gave written consent to publish their name and town")
    )
    name = forms.CharField(required=False, max_length=150, label=_("Name as the winner agreed to show it"))
    town = forms.CharField(required=False, max_length=100, label=_("Town (optional)"))
    consent_reference = forms.CharField(
        required=False, max_length=120, label=_("Where the signed consent is kept (form number or file)")
    )
