"""The staff sales page's form (#18): the price and the envelope are checked
against the event's own price tiers and its sealed envelopes, as sets; the
envelopes' labels are written only when the form is shown."""

import pytest
from django.utils import timezone

from raffle import services
from raffle.forms import SaleForm
from raffle.models import Envelope
from tests.factories import event_with_draw

INVALID = "Select a valid choice"


@pytest.fixture
def selling(staff_user):
    event = event_with_draw(actor=staff_user)
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    Envelope.objects.filter(event=event, number=7).update(opened_at=timezone.now(), card="2H")  # opened earlier
    return draw


def sale_form(draw, **changes):
    tier = min(draw.event.price_tiers.values_list("quantity", flat=True))
    data = {
        "tier": str(tier),
        "units": "1",
        "purchaser_name": "Ann Smith",
        "purchaser_contact": "613-555-0100",
        "envelope_pick": "12",
        "device": "POS-1",
        **changes,
    }
    return SaleForm(data, draw=draw)


@pytest.mark.django_db
def test_a_sealed_envelope_and_an_offered_price_are_taken_as_numbers(selling):
    form = sale_form(selling)
    assert form.is_valid(), form.errors
    assert form.cleaned_data["envelope_pick"] == 12
    assert form.cleaned_data["tier"] == min(selling.event.price_tiers.values_list("quantity", flat=True))


@pytest.mark.django_db
@pytest.mark.parametrize("pick", ["7", "0", "53", "twelve", " 12x"])
def test_an_opened_or_unknown_envelope_is_refused_by_the_form(selling, pick):
    # R:T9 the purchaser picks one of the envelopes still sealed
    form = sale_form(selling, envelope_pick=pick)
    assert not form.is_valid()
    assert form.errors["envelope_pick"][0].startswith(INVALID)


@pytest.mark.django_db
@pytest.mark.parametrize("tier", ["999", "abc", "-1"])
def test_a_price_the_event_does_not_offer_is_refused_by_the_form(selling, tier):
    # R:T1 a sale is priced by the event's advertised price tiers only
    form = sale_form(selling, tier=tier)
    assert not form.is_valid()
    assert form.errors["tier"][0].startswith(INVALID)


@pytest.mark.django_db
def test_no_envelope_picked_is_asked_for(selling):
    form = sale_form(selling, envelope_pick="")
    assert not form.is_valid()
    assert form.errors["envelope_pick"] == ["This field is required."]


@pytest.mark.django_db
def test_the_form_shows_every_sealed_envelope_and_every_price(selling):
    shown = str(SaleForm(draw=selling)["envelope_pick"])
    assert shown.count("<option") == 52  # "— choose —" and the 51 sealed envelopes
    assert 'value="12">Envelope 12<' in shown and 'value="7"' not in shown
    prices = str(SaleForm(draw=selling)["tier"])
    for tier in selling.event.price_tiers.all():
        assert f'value="{tier.quantity}">{tier}<' in prices


def declared_state(form_class) -> dict:
    """Every declared field's attributes and its widget's, as they are now."""
    return {
        name: (dict(vars(field)), dict(vars(field.widget)), dict(field.widget.attrs))
        for name, field in form_class.base_fields.items()
    }


@pytest.mark.django_db
def test_forms_share_only_the_fields_no_form_changes(selling, staff_user):
    # #18: each form copies only the price and the envelope fields; the others are shared by
    # every form, so no form may change them, whether it is valid, refused or shown
    other = services.draw_open_sales(actor=staff_user, draw=event_with_draw(actor=staff_user).draws.get(number=1))
    Envelope.objects.filter(event=other.event, number=12).update(opened_at=timezone.now(), card="3H")
    before = declared_state(SaleForm)
    refused = sale_form(selling, purchaser_name="", units="0", envelope_pick="7")
    accepted = sale_form(other, envelope_pick="7")
    assert not refused.is_valid() and accepted.is_valid(), accepted.errors
    str(refused), str(accepted), str(SaleForm(draw=selling))  # shown with their errors and Bootstrap's classes
    assert declared_state(SaleForm) == before
    for name in ("purchaser_name", "purchaser_contact", "units", "device"):
        assert refused.fields[name] is SaleForm.base_fields[name]
    # each form keeps its own draw's envelopes: 7 is opened in the first event, 12 in the other
    assert "7" not in refused.fields["envelope_pick"].allowed and "12" in refused.fields["envelope_pick"].allowed
    assert "12" not in accepted.fields["envelope_pick"].allowed and "7" in accepted.fields["envelope_pick"].allowed
    assert 'value="7"' not in str(refused["envelope_pick"]) and 'value="12"' not in str(accepted["envelope_pick"])
    assert "serials" in SaleForm.base_fields and "serials" not in accepted.fields  # dropped from its own copy only
