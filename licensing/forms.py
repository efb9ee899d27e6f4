"""Forms of the licensing pages. They only parse input; the services decide."""

import datetime

from django import forms
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from licensing.models import (
    AmendmentKind,
    ApplicantKind,
    AuthorityKind,
    CharitablePurpose,
    DocumentKind,
    Organisation,
    SalesChannel,
)

DATE = forms.DateInput(attrs={"type": "date"})


class EligibilityForm(forms.Form):
    is_non_profit = forms.BooleanField(label=gettext_lazy("It is a non-profit organisation"), required=False)
    non_profit_evidence = forms.CharField(
        label=gettext_lazy("Evidence of non-profit status"),
        max_length=300,
        required=False,
        help_text=gettext_lazy("e.g. letters patent number, CRA registration letter"),
    )
    located_in_ontario = forms.BooleanField(label=gettext_lazy("It is located in Ontario"), required=False)
    location_evidence = forms.CharField(
        label=gettext_lazy("Evidence of its Ontario location"), max_length=300, required=False
    )
    charitable_activity_since = forms.DateField(
        label=gettext_lazy("Charitable activity since"), required=False, widget=DATE
    )
    activity_evidence = forms.CharField(
        label=gettext_lazy("Evidence of its charitable activity"),
        max_length=300,
        required=False,
        help_text=gettext_lazy("e.g. annual reports of the last two years"),
    )
    purpose = forms.ChoiceField(
        label=gettext_lazy("Its purpose"), choices=[("", "Choose…"), *CharitablePurpose.choices], required=False
    )
    purpose_description = forms.CharField(
        label=gettext_lazy("What it does (its objects)"), widget=forms.Textarea(attrs={"rows": 3}), required=False
    )


class ApplicationForm(forms.Form):
    organisation = forms.ModelChoiceField(queryset=Organisation.objects.all(), label=gettext_lazy("Organisation"))
    applicant_kind = forms.ChoiceField(choices=ApplicantKind.choices, label=gettext_lazy("Applicant"))
    authority_kind = forms.ChoiceField(choices=AuthorityKind.choices, label=gettext_lazy("Licensing authority"))
    authority_name = forms.CharField(
        max_length=150,
        label=gettext_lazy("Authority's name"),
        help_text=gettext_lazy("e.g. City of Owen Sound, or AGCO"),
    )
    sales_channel = forms.ChoiceField(choices=SalesChannel.choices, label=gettext_lazy("Sales channel"))
    prize_board = forms.CharField(max_length=20, label=gettext_lazy("Prize board ($)"), help_text="e.g. 50000")

    def __init__(self, *args, organisations=None, **kwargs):
        """`organisations`: those the person applying works for (core.scope)."""
        super().__init__(*args, **kwargs)
        if organisations is not None:
            self.fields["organisation"].queryset = organisations


def parse_schedule_lines(text: str) -> list[tuple[datetime.date, str]]:
    """One draw per line: `2027-02-04, 1500` (date, maximum sales)."""
    draws = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            day, amount = (part.strip() for part in line.split(",", 1))
            draws.append((datetime.date.fromisoformat(day), amount))
        except ValueError:
            raise forms.ValidationError(
                gettext("Line %(number)s should look like 2027-02-04, 1500 (date, maximum sales).") % {"number": number}
            ) from None
    return draws


SCHEDULE_HELP = _(
    "One draw per line: the date (YYYY-MM-DD), a comma, the most you expect to sell, e.g. 2027-02-04, 1500"
)


class ScheduleForm(forms.Form):
    lines = forms.CharField(
        label=_("Draw schedule and sales plan"), widget=forms.Textarea(attrs={"rows": 10}), help_text=SCHEDULE_HELP
    )

    def clean_lines(self):
        return parse_schedule_lines(self.cleaned_data["lines"])


class DocumentForm(forms.Form):
    kind = forms.ChoiceField(choices=DocumentKind.choices, label=_("Document"))
    file = forms.FileField(label=_("File"), required=False)
    note = forms.CharField(
        label=_("Or: the reason there is no file"),
        max_length=300,
        required=False,
        help_text=_("e.g. not registered with the CRA; signed original in the binder, tab 3"),
    )

    def __init__(self, *args, application=None, **kwargs):
        super().__init__(*args, **kwargs)
        if application is not None:  # R:L7 only this application's checklist
            labels = dict(DocumentKind.choices)
            self.fields["kind"].choices = [(kind, labels[kind]) for kind in application.required_documents()]


class SignerForm(forms.Form):
    name = forms.CharField(label=_("Signer's name"), max_length=150)
    title = forms.CharField(label=_("Title"), max_length=150, help_text=_("e.g. President, Treasurer"))
    date_of_birth = forms.DateField(
        label=_("Signer's date of birth"),
        help_text=_("YYYY-MM-DD. Signers are 18 or over (L13)."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )


class AmendmentForm(forms.Form):
    kind = forms.ChoiceField(choices=AmendmentKind.choices, label=_("What changes"), initial=AmendmentKind.CHANNEL)
    to_channel = forms.ChoiceField(
        choices=[("", "-"), *SalesChannel.choices], label=_("New sales channel"), required=False
    )
    new_prize_board = forms.CharField(max_length=20, label=_("New prize board ($)"), required=False)
    schedule = forms.CharField(
        label=_("New draw schedule and sales plan"),
        widget=forms.Textarea(attrs={"rows": 6}),
        required=False,
        help_text=SCHEDULE_HELP,
    )
    new_expires_on = forms.DateField(label=_("New expiry date"), widget=DATE, required=False)
    new_draw_place = forms.CharField(max_length=200, label=_("New draw place"), required=False)
    notice_given_on = forms.DateField(label=_("Written request sent to the licensing authority on"), widget=DATE)
    effective_on = forms.DateField(
        label=_("New figure from"),
        widget=DATE,
        help_text=_("Later draws only; the AGCO needs at least two weeks' written notice."),
    )
    signed_by = forms.CharField(
        label=_("Signed by"),
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("The Licence Application signers, one name per line."),
    )
    letterhead = forms.FileField(label=_("The signed request on letterhead"), required=False)
    letterhead_note = forms.CharField(label=_("Or: where the signed letter is kept"), max_length=300, required=False)

    def clean_schedule(self):
        return parse_schedule_lines(self.cleaned_data["schedule"])

    def clean_signed_by(self):
        return [name.strip() for name in self.cleaned_data["signed_by"].splitlines() if name.strip()]


class ApprovalForm(forms.Form):
    approved_on = forms.DateField(label=_("Approved by the licensing authority on"), widget=DATE)
    reference = forms.CharField(label=_("Approval reference"), max_length=100, required=False)


__all__ = [
    "EligibilityForm",
    "ApplicationForm",
    "ScheduleForm",
    "DocumentForm",
    "SignerForm",
    "AmendmentForm",
    "ApprovalForm",
]
