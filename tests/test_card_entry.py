"""Recording the card (RULES E3, P4): typed twice like the paper serial, and
the Ace of Spades only once the volunteer has confirmed what it does next."""

import pytest

from core.errors import DomainError
from raffle import services
from raffle.models import Draw, DrawState, EventStatus
from tests.factories import run_draw
from tests.test_drawnight import errors, step

pytestmark = pytest.mark.django_db


def test_a_mistyped_ace_never_awards_the_jackpot(staff_user, draw):  # R:P4 R:E3
    """The card is the Ace of Clubs. The volunteer's finger slips: `AS`, then
    `AC` when typing it again. Nothing is recorded and the envelope stays
    sealed; typed the same way twice, the card is recorded, and the draw goes
    on to the destruction, not to the jackpot."""
    draw = run_draw(draw, actor=staff_user, sales="1000.00", until=DrawState.ENVELOPE_CHOSEN, envelope=5)
    with pytest.raises(DomainError, match=r"do not match \(Ace of Spades, then Ace of Clubs\)") as refused:
        services.draw_reveal_card(actor=staff_user, draw=draw, card="AS", card_again="AC", ace_confirmed=True)
    assert refused.value.rule == "E3"
    with pytest.raises(DomainError, match="Type the card twice"):
        services.draw_reveal_card(actor=staff_user, draw=draw, card="AC")
    draw = Draw.objects.get(pk=draw.pk)
    assert draw.state == DrawState.ENVELOPE_CHOSEN and not draw.envelope.is_open

    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card="AC", card_again="ac")
    assert draw.envelope.card == "AC" and not draw.is_ace
    assert draw.next_step.name == "roll_over"
    assert draw.event.status == EventStatus.RUNNING


def test_the_ace_is_recorded_only_once_confirmed_with_what_happens_next(staff_user, draw):  # R:P4
    draw = run_draw(draw, actor=staff_user, sales="1000.00", until=DrawState.ENVELOPE_CHOSEN, envelope=5)
    with pytest.raises(DomainError) as refused:
        services.draw_reveal_card(actor=staff_user, draw=draw, card="AS", card_again="AS")
    message = str(refused.value)
    assert refused.value.rule == "P4"
    assert "awards the jackpot of $300.00 and the draw prize of $200.00 to ticket" in message
    assert f"ends the event and licence {draw.event.licence.number}" in message
    assert Draw.objects.get(pk=draw.pk).state == DrawState.ENVELOPE_CHOSEN
    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card="AS", card_again="AS", ace_confirmed=True)
    assert draw.is_ace


def test_the_wizard_asks_for_the_card_twice_then_confirms_the_ace(staff_user, client, draw):  # R:P4 R:E3
    """On the reveal screen the volunteer types the card in two boxes. Typing
    the Ace of Spades brings a confirmation that says the jackpot is awarded
    and the event ends; only when it is ticked is the Ace recorded."""
    from core import roles
    from tests.factories import user_with_role

    client.force_login(user_with_role(roles.DRAW_STAFF))
    run_draw(draw, actor=staff_user, sales="1000.00", until=DrawState.ENVELOPE_CHOSEN, envelope=5)
    page = client.get(f"/draws/{draw.pk}/night/").content.decode()
    assert 'name="card_again"' in page and 'type="checkbox"' not in page

    response = step(client, draw, {"card": "QD", "card_again": "QH"})
    assert response.status_code == 400 and "The two cards typed do not match" in response.content.decode()

    response = step(client, draw, {"card": "AS", "card_again": "AS"})
    page = response.content.decode()
    assert response.status_code == 400
    assert "awards the jackpot of $300.00" in page and "ends the event and licence" in page
    assert 'type="checkbox" name="ace_confirmed"' in page
    assert Draw.objects.get(pk=draw.pk).state == DrawState.ENVELOPE_CHOSEN

    response = step(client, draw, {"card": "AS", "card_again": "AS", "ace_confirmed": "on"})
    assert not errors(response)
    assert response.context["screen"] == "ace"
