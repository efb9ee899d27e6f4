"""Forms for the draw steps. They only parse input; the services decide."""

from django import forms

from raffle.models import DrawState


class CloseSalesForm(forms.Form):
    ticket_sales = forms.CharField(
        label="Ticket sales for this draw ($)", max_length=20,
        help_text="The reconciled total of all tickets sold for this draw, e.g. 1250.00",
    )


class WinningTicketForm(forms.Form):
    serial = forms.CharField(label="Winning ticket serial", max_length=40)
    winner_name = forms.CharField(label="Winner's name", max_length=150, required=False)


class EnvelopeForm(forms.Form):
    envelope_number = forms.CharField(label="Envelope number (1 to 52)", max_length=5)


class RevealCardForm(forms.Form):
    card = forms.CharField(label="Card in the envelope", max_length=20, required=False,
                           help_text="Rank then suit: AS is the Ace of Spades, QD the Queen of Diamonds, "
                                     "10H the Ten of Hearts. Leave empty for an electronic deck: the "
                                     "system opens the envelope.")


class DestructionForm(forms.Form):
    destroyed_by = forms.ModelChoiceField(queryset=None, label="Member who destroyed the card")
    destroyer_password = forms.CharField(
        label="Password of the member who destroyed the card", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text="That member types their own password (E3).")
    verified_by = forms.ModelChoiceField(queryset=None, label="Member in charge who verified it")
    verifier_password = forms.CharField(
        label="Password of the member in charge who verified it", strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text="The verifier types their own password (E3).")

    def __init__(self, *args, members=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["destroyed_by"].queryset = members
        self.fields["verified_by"].queryset = members


class ConfirmForm(forms.Form):
    """A step with no input: a button, guarded by CSRF like every form."""


STEP_FORMS = {
    DrawState.SCHEDULED: ConfirmForm,
    DrawState.SELLING: CloseSalesForm,
    DrawState.SALES_CLOSED: ConfirmForm,
    DrawState.ANNOUNCED: WinningTicketForm,
    DrawState.TICKET_DRAWN: EnvelopeForm,
    DrawState.ENVELOPE_CHOSEN: RevealCardForm,
}
