"""Forms for the draw steps. They only parse input; the services decide."""

from django import forms
from django.utils.translation import gettext, gettext_lazy

from raffle.cards import ACE_OF_SPADES, parse_card
from raffle.errors import RaffleError


class CloseSalesForm(forms.Form):
    """Sales close on the tickets' total; the counted cash is checked against it (T11)."""

    ticket_sales = forms.CharField(
        label=gettext_lazy("Cash and payments counted for this draw ($)"),
        max_length=20,
        required=False,
        help_text=gettext_lazy(
            "Optional: the reconciled count, e.g. 1250.00. It must equal the total of the valid "
            "tickets sold, which is what the draw records."
        ),
    )


class PaperCloseSalesForm(CloseSalesForm):
    container_count = forms.IntegerField(
        label=gettext_lazy("Tickets counted in the container"),
        min_value=0,
        required=False,
        help_text=gettext_lazy("Reconciled against the valid tickets sold (T7)."),
    )


class ImportedCloseSalesForm(forms.Form):
    ticket_sales = forms.CharField(label=gettext_lazy("Ticket sales for this draw ($)"), max_length=20)


class WinningTicketForm(forms.Form):
    """An imported draw: the serial as recorded by the other system."""

    serial = forms.CharField(label=gettext_lazy("Winning ticket serial"), max_length=40)
    winner_name = forms.CharField(label=gettext_lazy("Winner's name"), max_length=150, required=False)


class SerialTypedTwiceForm(forms.Form):
    """R:D2 a serial read off a paper ticket is typed twice; a mismatch is
    caught here, before anything is looked up (the service checks again)."""

    serial_again = forms.CharField(label=gettext_lazy("The same serial again, to confirm"), max_length=40)

    def clean(self):
        cleaned = super().clean()
        if (
            cleaned.get("serial")
            and cleaned.get("serial_again")
            and cleaned["serial"].strip().upper() != cleaned["serial_again"].strip().upper()
        ):
            raise forms.ValidationError(gettext("The two serials do not match; read the ticket again."))
        return cleaned


class PaperWinningTicketForm(SerialTypedTwiceForm):
    """R:D2 the serial drawn from the container, typed twice."""

    serial = forms.CharField(label=gettext_lazy("Serial of the ticket drawn from the container"), max_length=40)
    field_order = ["serial", "serial_again"]


class RngWinningTicketForm(forms.Form):
    """R:D5 a button: the system draws the winner with its cryptographic RNG."""

    confirm = forms.BooleanField(
        label=gettext_lazy("I confirm sales are closed and reconciled: draw the winning ticket now"), required=True
    )


class EnvelopeForm(forms.Form):
    envelope_number = forms.CharField(
        label=gettext_lazy("Envelope number (1 to 52)"),
        max_length=5,
        required=False,
        help_text=gettext_lazy("Leave empty when the winning ticket carries the envelope its buyer picked (T9)."),
    )


class ClaimForm(forms.Form):
    """R:T8 the holder of the winning roll ticket comes forward: who they are,
    the ID seen and who checked it, and the envelope they choose now."""

    holder_name = forms.CharField(label=gettext_lazy("Holder's name"), max_length=150)
    id_seen = forms.CharField(
        label=gettext_lazy("Identification seen"),
        max_length=150,
        help_text=gettext_lazy("For example: Ontario driver's licence, photo card."),
    )
    id_checked_by = forms.CharField(label=gettext_lazy("Checked by"), max_length=150)
    envelope_number = forms.CharField(label=gettext_lazy("Envelope the holder chooses (1 to 52)"), max_length=5)


class RevealCardForm(forms.Form):
    """R:E3 the card typed twice, like the paper serial; R:P4 the Ace of
    Spades confirmed: its box shows once an Ace of Spades has been typed (the
    service refuses the ace without it, saying what recording it does next)."""

    card = forms.CharField(
        label=gettext_lazy("Card in the envelope"),
        max_length=20,
        required=False,
        help_text=gettext_lazy(
            "Rank then suit: AS is the Ace of Spades, QD the Queen of Diamonds, 10H the Ten of Hearts. "
            "Leave empty for an electronic deck: the system opens the envelope."
        ),
    )
    card_again = forms.CharField(
        label=gettext_lazy("The same card again, to confirm"),
        max_length=20,
        required=False,
        help_text=gettext_lazy("Read it again from the card itself and type it once more."),
    )
    ace_confirmed = forms.BooleanField(
        label=gettext_lazy("Yes: the card shown is the Ace of Spades. Award the jackpot and end the event."),
        required=False,
        widget=forms.HiddenInput,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        typed = [self.data.get(name, "") for name in ("card", "card_again")] if self.is_bound else []
        if any(_names_the_ace(value) for value in typed):
            self.fields["ace_confirmed"].widget = forms.CheckboxInput()

    def clean(self):
        cleaned = super().clean()
        card, again = (cleaned.get(name, "").strip() for name in ("card", "card_again"))
        if card and not again:
            self.add_error("card_again", gettext("Type the card a second time."))
        return cleaned


def _names_the_ace(value: str) -> bool:
    try:
        return bool(value.strip()) and parse_card(value) == ACE_OF_SPADES
    except RaffleError:
        return False


class DestructionForm(forms.Form):
    destroyed_by = forms.ModelChoiceField(queryset=None, label=gettext_lazy("Member who destroyed the card"))
    destroyer_password = forms.CharField(
        label=gettext_lazy("Password of the member who destroyed the card"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("That member types their own password (E3)."),
    )
    verified_by = forms.ModelChoiceField(queryset=None, label=gettext_lazy("Member in charge who verified it"))
    verifier_password = forms.CharField(
        label=gettext_lazy("Password of the member in charge who verified it"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("The verifier types their own password (E3)."),
    )

    def __init__(self, *args, members=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["destroyed_by"].queryset = members
        self.fields["verified_by"].queryset = members


class MustGoRedrawForm(DestructionForm):
    """R:P7 in a must-go final draw, a card that is not the ace is destroyed
    and the next winning ticket drawn the way the draw's first one was: the
    subclasses below, for paper (container, D2) and for the RNG (D5)."""


class PaperMustGoRedrawForm(SerialTypedTwiceForm, MustGoRedrawForm):
    """R:D2 the next ticket drawn from the container, its serial typed twice."""

    serial = forms.CharField(label=gettext_lazy("Next winning ticket serial"), max_length=40)
    winner_name = forms.CharField(
        label=gettext_lazy("Its holder's name"),
        max_length=150,
        required=False,
        help_text=gettext_lazy("Roll tickets only; stub tickets carry the purchaser's name."),
    )
    field_order = [
        "destroyed_by",
        "destroyer_password",
        "verified_by",
        "verifier_password",
        "serial",
        "serial_again",
        "winner_name",
    ]


class RngMustGoRedrawForm(MustGoRedrawForm):
    """R:D5 the system draws the next winning ticket with its cryptographic RNG."""

    confirm = forms.BooleanField(
        label=gettext_lazy("I confirm the card is destroyed: draw the next winning ticket now"), required=True
    )


class MustGoOpenNextForm(DestructionForm):
    """R:P7 no valid ticket is left in the must-go final draw: the card is
    destroyed and the lowest sealed envelope opened next (Rules of Play)."""

    confirm = forms.BooleanField(
        label=gettext_lazy("I confirm the card is destroyed: open the lowest sealed envelope next"), required=True
    )


class ConfirmForm(forms.Form):
    """A step with no input: a button, guarded by CSRF like every form."""
