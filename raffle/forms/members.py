"""The draw's two members in charge (RULES L13). Only parses input; the service decides."""

from django import forms
from django.utils.translation import gettext_lazy as _


class MembersInChargeForm(forms.Form):
    """Two of the organisation's members in charge aged 18 or over, given as
    (id, name) pairs read once by the page; the service checks them again."""

    first = forms.TypedChoiceField(label=_("First member in charge"), coerce=int)
    second = forms.TypedChoiceField(label=_("Second member in charge"), coerce=int)

    def __init__(self, *args, members=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "---------"), *members]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices
