"""Forms of a draw run on the registered supplier's system (RULES D5)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from raffle.forms.drawnight import SerialTypedTwiceForm
from raffle.services.supplier_formats import available_mappings


class SupplierWinningTicketForm(SerialTypedTwiceForm):
    """R:D5 the winner the supplier's system drew: from its imported result
    file (nothing to type), or read from its screen, typed twice, with the
    reference of its RNG draw."""

    serial = forms.CharField(label=_("Winning ticket number on the supplier's system"), max_length=40, required=False)
    serial_again = forms.CharField(label=_("The same number again, to confirm"), max_length=40, required=False)
    rng_reference = forms.CharField(
        label=_("The supplier system's reference of this draw"), max_length=120, required=False
    )
    field_order = ["serial", "serial_again", "rng_reference"]


class SupplierImportForm(forms.Form):
    sales = forms.FileField(label=_("Sales file (CSV)"), required=False)
    result = forms.FileField(label=_("Result file: the winning ticket (CSV)"), required=False)
    settlement = forms.FileField(label=_("Settlement file: gross, fees and net deposited (CSV)"), required=False)
    mapping = forms.ChoiceField(label=_("Format of the files"), choices=())

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["mapping"].choices = [(name, name) for name in available_mappings()]

    def clean(self):
        cleaned = super().clean()
        if not any(cleaned.get(kind) for kind in ("sales", "result", "settlement")):
            raise forms.ValidationError(_("Choose at least one file to import."))
        return cleaned
