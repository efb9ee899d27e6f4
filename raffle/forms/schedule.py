"""The postponement form (RULES D9). It only parses input; the service decides."""

from django import forms
from django.utils.translation import gettext_lazy as _

from raffle.models import NotificationMethod

DATETIME_FORMATS = ["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"]


def _when(label):
    return forms.DateTimeField(
        label=label, widget=forms.DateTimeInput(attrs={"type": "datetime-local"}), input_formats=DATETIME_FORMATS
    )


class PostponementForm(forms.Form):
    new_at = _when(_("New date and time of the draw"))
    reason = forms.CharField(
        label=_("Why the draw is postponed (shown on the public board)"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    notice_to = forms.CharField(label=_("Who at the licensing authority was told"), max_length=150)
    notice_at = _when(_("When they were told"))
    notice_method = forms.ChoiceField(label=_("How they were told"), choices=NotificationMethod.choices)
    notice_reference = forms.CharField(label=_("The authority's reference (if any)"), max_length=100, required=False)
    later_draws_move = forms.BooleanField(
        label=_("Move the later draws by the same time (else they keep their dates)"), required=False
    )
