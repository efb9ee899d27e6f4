"""Forms of the staff sales page. They only parse input; the services decide."""

import copy
import functools

from django import forms
from django.utils.translation import gettext, gettext_lazy

from licensing.models import SalesChannel
from raffle.models import Draw
from raffle.services.pool import draw_place_of, draw_sales_channel
from raffle.services.sale_path import MAX_BATCH, MAX_SERIAL, price_tiers, sealed_envelopes


class KnownChoiceField(forms.TypedChoiceField):
    """A choice checked against the values the form gave it (`allowed`), a
    set, instead of against its labels: the labels (up to 52 envelopes) are
    written only when the form is shown (#18)."""

    allowed: frozenset[str] = frozenset()

    def valid_value(self, value) -> bool:
        return str(value) in self.allowed


class FieldsCopiedWhereChanged(dict):
    """A form class's declared fields (`base_fields`) that each form deep-copies
    only where the form changes them (`changed`), instead of all of them as
    Django does: the others are never changed by a form (core.bootstrap writes
    its classes into the attributes it renders, not into the widget), so every
    form may share them. The sale form's five unchanged fields cost about 3% of
    a sale POST's instructions to copy (#18). A field a form changes must be
    named in `changed`; `tests/test_sale_form.py` proves the others stay as
    declared."""

    def __init__(self, fields: dict, *, changed: tuple[str, ...]):
        super().__init__(fields)
        self.changed = frozenset(changed)

    def __deepcopy__(self, memo):
        return {name: copy.deepcopy(field, memo) if name in self.changed else field for name, field in self.items()}


class SaleForm(forms.Form):
    purchaser_name = forms.CharField(label=gettext_lazy("Purchaser's name"), max_length=150)
    purchaser_contact = forms.CharField(label=gettext_lazy("Phone or e-mail"), max_length=200)
    tier = KnownChoiceField(label=gettext_lazy("Price"), coerce=int)
    units = forms.IntegerField(label=gettext_lazy("How many of this price"), min_value=1, max_value=100, initial=1)
    envelope_pick = KnownChoiceField(label=gettext_lazy("Envelope picked (sealed envelopes only)"), coerce=int)
    device = forms.CharField(label=gettext_lazy("Point-of-sale device or seller"), max_length=60)
    serials = forms.CharField(
        label=gettext_lazy("Stub serials (paper stubs only, separated by spaces or commas)"),
        required=False,
        max_length=2000,
    )

    def __init__(self, *args, draw: Draw, **kwargs):
        super().__init__(*args, **kwargs)
        # the tiers and sealed envelopes the sale itself reads, with its draw when read so (`read_sale_draw`)
        tiers = price_tiers(draw)
        self.fields["tier"].choices = functools.partial(tier_choices, tiers)
        self.fields["tier"].allowed = frozenset(str(quantity) for quantity in tiers)
        # callables: the labels are written only when the form is shown (#18)
        self.fields["envelope_pick"].choices = functools.partial(envelope_choices, draw)
        self.fields["envelope_pick"].allowed = frozenset(str(number) for number in sealed_envelopes(draw))
        if draw_sales_channel(draw) != SalesChannel.PAPER_STUB:  # R:L5 the channel in force on the draw's day
            del self.fields["serials"]
        if draw.event.is_bingo:  # R:T12 the seller attests the sale is made inside the hall
            hall = draw_place_of(draw)
            self.fields["inside_hall"] = forms.BooleanField(
                label=gettext("This sale is made inside %(hall)s") % {"hall": hall},
                required=True,
                error_messages={
                    "required": gettext(
                        "A bingo event's tickets are sold inside %(hall)s only: tick the box if this sale is made "
                        "there."
                    )
                    % {"hall": hall}
                },
            )


# the price and the envelope get the draw's own choices; the paper stubs' field is dropped from
# a form's own copy of the fields, and a bingo's hall attestation added to it
SaleForm.base_fields = FieldsCopiedWhereChanged(SaleForm.base_fields, changed=("tier", "envelope_pick"))


def tier_choices(tiers: dict) -> list[tuple]:
    """The event's price tiers (T1), as the form's choices."""
    return [(tier.quantity, str(tier)) for tier in tiers.values()]


def envelope_choices(draw: Draw) -> list[tuple]:
    """The sealed envelopes a purchaser may pick (T9), as the form's choices."""
    envelope = gettext("Envelope %(number)s")
    return [("", gettext("— choose —"))] + [(n, envelope % {"number": n}) for n in sorted(sealed_envelopes(draw))]


class VoidForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Reason for the void"), max_length=300)


class IssueRollForm(forms.Form):
    seller_name = forms.CharField(label=gettext_lazy("Seller the roll is issued to"), max_length=150)
    first_serial = forms.IntegerField(label=gettext_lazy("First serial on the roll"), min_value=1, max_value=MAX_SERIAL)
    last_serial = forms.IntegerField(label=gettext_lazy("Last serial on the roll"), min_value=1, max_value=MAX_SERIAL)


class ReturnRollForm(forms.Form):
    """The unsold part handed back, and the sales counted per price tier."""

    roll = forms.TypedChoiceField(label=gettext_lazy("Roll returned"), coerce=int)
    first_unsold = forms.IntegerField(
        label=gettext_lazy("First unsold serial (the last serial + 1 if all sold)"),
        min_value=1,
        max_value=MAX_SERIAL + 1,
    )

    def __init__(self, *args, draw: Draw, rolls, books: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roll"].choices = [(r.pk, str(r)) for r in rolls if not r.is_returned]
        # A book's stubs were recorded one sale at a time: its return counts no tiers.
        for tier in [] if books else draw.event.price_tiers.all():
            self.fields[f"tier_{tier.quantity}"] = forms.IntegerField(
                label=gettext("Sales at %(tier)s") % {"tier": tier},
                min_value=0,
                max_value=MAX_BATCH,
                initial=0,
                required=False,
            )

    def tier_counts(self) -> dict[int, int]:
        return {
            int(name.removeprefix("tier_")): value or 0
            for name, value in self.cleaned_data.items()
            if name.startswith("tier_")
        }


class LostRollForm(forms.Form):
    """R:T7 a roll or book that cannot be returned, declared lost with the reason."""

    roll = forms.TypedChoiceField(label=gettext_lazy("Roll or book that cannot be returned"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Why it cannot be returned"),
        max_length=300,
        help_text=gettext_lazy(
            "Its unsold serials become void: they are never sold or drawn, and the ticket log shows them void."
        ),
    )

    def __init__(self, *args, rolls, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["roll"].choices = [(r.pk, str(r)) for r in rolls if r.is_out]
