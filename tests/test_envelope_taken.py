"""What happens when the winner's envelope is already open (RULES T9, R4):
the wizard tells the volunteer what the system does, in the Rules of Play's
own words, generated from the one setting the service uses."""

import pytest
from django.urls import reverse

from core import roles
from core.errors import DomainError
from core.models import AuditEntry
from licensing.models import SalesChannel
from raffle import services
from raffle.envelope_taken import opened_envelope_sentence
from raffle.models import DrawState, EnvelopeTakenProcedure, MustGoReason, Ticket
from raffle.rules_of_play import rules_of_play
from tests.factories import (
    SIGNATURES,
    LicenceFactory,
    clock_at,
    event_with_draw,
    members_for,
    run_draw,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def _rules_text(event) -> str:
    sections = rules_of_play(event)["sections"]
    return " ".join(" ".join([*s.paragraphs, *s.items]) for s in sections)


def _screen(client, draw) -> str:
    client.force_login(user_with_role(roles.DRAW_STAFF))
    return " ".join(client.get(reverse("draw_night", args=[draw.pk])).content.decode().split())


def test_a_roll_ticket_holder_is_told_an_opened_envelope_cannot_be_chosen(client, event, staff_user):  # R:T9 R:R4
    """Draw 2 of a roll-ticket raffle (set to "next higher" for picked
    envelopes). The holder asks for envelope 9, opened last week. The screen
    never promised it would pass to envelope 10: it says, as the Rules of Play
    do, that the holder chooses another sealed envelope, and the system
    refuses envelope 9 in those same words."""
    assert event.envelope_taken_procedure == EnvelopeTakenProcedure.NEXT_HIGHER
    run_draw(event.draws.get(number=1), actor=staff_user, envelope=9, card="3C")
    draw = run_draw(event.draws.get(number=2), actor=staff_user, until=DrawState.TICKET_DRAWN)
    sentence = (
        "If the chosen envelope has already been opened, the holder chooses another envelope that is still "
        "sealed: an opened envelope cannot be chosen."
    )
    screen = _screen(client, draw)
    assert sentence in screen and "next higher" not in screen
    assert sentence in _rules_text(event) and "next higher" not in _rules_text(event)
    with pytest.raises(DomainError, match="the holder chooses another envelope that is still sealed") as refused:
        services.draw_choose_envelope(actor=staff_user, draw=draw, envelope_number=9)
    assert "Envelope 9 was already opened (3 of Clubs)" in str(refused.value)


def test_a_stub_whose_picked_envelope_is_open_gets_the_next_higher_as_promised(client, staff_user):  # R:T9 R:R4
    """A must-go final draw of stub tickets: every buyer picked envelope 7.
    The first winner's envelope 7 holds the 3 of Clubs; the next winner
    picked 7 too, now open. The screen says the next higher sealed envelope
    is opened, the Rules of Play say the same, and leaving the number empty
    opens envelope 8."""
    event = event_with_draw(actor=staff_user, licence=LicenceFactory(sales_channel=SalesChannel.PAPER_STUB))
    draw = services.draw_set_must_go(actor=staff_user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=staff_user, sales="100", until=DrawState.CARD_REVEALED, envelope=7, card="3C")
    destroyer, verifier = members_for(event)
    serial = Ticket.objects.filter(draw=draw).exclude(serial=draw.winning_serial).order_by("seq").first().serial
    with clock_at(draw.scheduled_at):  # R:D9 on the draw's night
        draw = services.draw_must_go_redraw(
            actor=staff_user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=verifier,
            **SIGNATURES,
            serial=serial,
            serial_again=serial,
        )
    sentence = (
        "If the chosen envelope has already been opened, the next higher-numbered envelope still sealed is "
        "opened (after 52, counting resumes at 1)."
    )
    assert sentence in _screen(client, draw) and sentence in _rules_text(event)
    draw = services.draw_choose_envelope(actor=staff_user, draw=draw)
    assert draw.envelope.number == 8
    how = AuditEntry.objects.filter(action="raffle.draw.choose_envelope").latest("id").data["how"]
    assert how == (
        "envelope 7 was open: the next higher-numbered envelope still sealed is opened "
        "(after 52, counting resumes at 1)"
    )


@pytest.mark.parametrize("procedure", EnvelopeTakenProcedure.values)
@pytest.mark.parametrize("channel", [SalesChannel.PAPER_ROLL, SalesChannel.PAPER_STUB, SalesChannel.ONLINE])
def test_the_rules_of_play_and_the_wizard_say_the_same_for_every_setting(staff_user, procedure, channel):  # R:T9 R:R4
    event = event_with_draw(
        actor=staff_user, licence=LicenceFactory(sales_channel=channel), envelope_taken_procedure=procedure
    )
    picked = channel != SalesChannel.PAPER_ROLL
    assert opened_envelope_sentence(event, picked_on_ticket=picked) in _rules_text(event)
