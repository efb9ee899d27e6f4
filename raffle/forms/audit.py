"""Forms of the auditor's registers. They only parse input; the services decide."""

from django import forms
from django.utils.translation import gettext_lazy

from raffle.models import IssueKind, NotificationMethod


class VideoForm(forms.Form):
    draw = forms.ModelChoiceField(queryset=None, label=gettext_lazy("Draw"))
    file = forms.FileField(
        label=gettext_lazy("Recording file"),
        required=False,
        help_text=gettext_lazy("Upload it, or say below where it is kept."),
    )
    location = forms.CharField(
        label=gettext_lazy("Where the recording is kept"),
        max_length=300,
        required=False,
        help_text=gettext_lazy("e.g. 'USB drive 3 in the office safe' or a shared-folder path."),
    )
    resolution_lines = forms.IntegerField(label=gettext_lazy("Resolution (lines, e.g. 720 or 1080)"), min_value=1)
    duration = forms.CharField(label=gettext_lazy("Length (minutes:seconds or hours:minutes:seconds)"), max_length=12)
    shows_ticket_selection = forms.BooleanField(label=gettext_lazy("Shows the ticket selection"), required=False)
    shows_envelope_selection = forms.BooleanField(label=gettext_lazy("Shows the envelope selection"), required=False)
    shows_card_reveal = forms.BooleanField(label=gettext_lazy("Shows the card reveal"), required=False)
    shows_card_destruction = forms.BooleanField(label=gettext_lazy("Shows the card's destruction"), required=False)
    keep_until = forms.DateField(
        label=gettext_lazy("Keep until (earliest deletion date)"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("At least 30 days after the draw; empty means exactly 30 days."),
    )
    held_by = forms.CharField(label=gettext_lazy("Held by"), max_length=150)

    def __init__(self, *args, draws=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["draw"].queryset = draws


class RegistrarNotificationForm(forms.Form):
    occurred_on = forms.DateField(
        label=gettext_lazy("Date of the issue"), widget=forms.DateInput(attrs={"type": "date"})
    )
    kind = forms.ChoiceField(label=gettext_lazy("Kind of issue"), choices=IssueKind.choices)
    description = forms.CharField(label=gettext_lazy("Description"), widget=forms.Textarea(attrs={"rows": 4}))
    method = forms.ChoiceField(label=gettext_lazy("How the Registrar was notified"), choices=NotificationMethod.choices)
    notified_at = forms.DateTimeField(
        label=gettext_lazy("When the Registrar was notified"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    reference = forms.CharField(label=gettext_lazy("Registrar's reference (if any)"), max_length=100, required=False)
