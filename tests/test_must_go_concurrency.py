"""Two real PostgreSQL connections at once on the must-go re-draw (RULES D8, P7)."""

import pytest

from raffle import services
from raffle.models import CardDestruction, Draw, DrawState, MustGoReason, MustGoTicket, Ticket
from tests.factories import SIGNATURES, UserFactory, event_with_draw, members_for, run_draw
from tests.test_concurrency import _race


@pytest.mark.django_db(transaction=True)
def test_two_staff_redrawing_a_must_go_draw_at_once_give_exactly_one_redraw():  # R:D8 R:P7
    user = UserFactory()
    event = event_with_draw(actor=user)
    draw = services.draw_set_must_go(actor=user, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=user, until=DrawState.CARD_REVEALED, envelope=3, card="8C")
    destroyer, verifier = members_for(event)

    # Two different tickets of the draw, each drawn from the container by one of them.
    serials = list(
        Ticket.objects.filter(draw=draw)
        .exclude(serial=draw.winning_serial)
        .order_by("seq")
        .values_list("serial", flat=True)[:2]
    )

    results = _race(
        2,
        lambda i: services.draw_must_go_redraw(
            actor=user,
            draw=draw,
            destroyed_by=destroyer,
            verified_by=verifier,
            **SIGNATURES,
            serial=serials[i],
            serial_again=serials[i],
        ),
    )

    assert sorted(kind for kind, _ in results) == ["ok", "refused"], results
    assert Draw.objects.get(pk=draw.pk).state == DrawState.TICKET_DRAWN
    assert MustGoTicket.objects.count() == 1 and CardDestruction.objects.count() == 1
    assert draw.winner_selections.filter(superseded_at__isnull=True).count() == 1
