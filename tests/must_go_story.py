"""Test helpers for the must-go final draw (R:P7): a stub-ticket event whose
first draw is the must-go draw, and a draw night played card by card through
the real services, as the volunteers do it."""

from raffle import services
from raffle.models import Draw, DrawState, MustGoReason, Ticket
from tests.factories import SIGNATURES, LicenceFactory, event_with_draw, members_for, run_draw


def stub_must_go_draw(*, actor, payout, sales, pick=10, **event_kwargs):
    """A paper stub-ticket event whose draw 1 is the must-go final draw, sold
    for `sales` (every stub picking envelope `pick`) and announced. Returns
    (event, draw, members)."""
    from licensing.models import SalesChannel

    licence = LicenceFactory(sales_channel=SalesChannel.PAPER_STUB)
    event = event_with_draw(actor=actor, licence=licence, must_go_payout=payout, **event_kwargs)
    draw = services.draw_set_must_go(actor=actor, draw=event.draws.get(number=1), reason=MustGoReason.LAST_DRAW)
    draw = run_draw(draw, actor=actor, sales=sales, envelope=pick, until=DrawState.ANNOUNCED)
    return event, draw, members_for(event)


def serials(draw) -> list[str]:
    """The draw's valid tickets, in the order they were sold."""
    return list(Ticket.objects.filter(draw=draw, is_void=False).order_by("seq").values_list("serial", flat=True))


def play_must_go(draw, *, actor, members, cards):
    """The draw night: the draw's tickets come out of the container in the
    order they were sold; each holder's envelope is opened and the card typed
    twice, one card of `cards` at a time. A card that is not the ace is
    destroyed (two members sign) and the next ticket drawn, or, once no valid
    ticket is left, the lowest sealed envelope opened. The Ace of Spades
    awards the jackpot. After the last of `cards`, if it is not the ace, the
    draw is left at that card. Returns the draw."""
    destroyer, verifier = members
    signed = {"destroyed_by": destroyer, "verified_by": verifier, **SIGNATURES}
    tickets = iter(serials(draw))
    first = next(tickets)
    draw = services.draw_record_winning_ticket(actor=actor, draw=draw, serial=first, serial_again=first)
    for i, card in enumerate(cards):
        draw = Draw.objects.get(pk=draw.pk)
        if draw.state == DrawState.TICKET_DRAWN:
            draw = services.draw_choose_envelope(actor=actor, draw=draw)
        draw = services.draw_reveal_card(actor=actor, draw=draw, card=card, card_again=card, ace_confirmed=True)
        if draw.is_ace:
            return services.draw_award_jackpot(actor=actor, draw=draw)
        if i == len(cards) - 1:
            break
        if draw.next_step.name == "must_go_open_next":
            draw = services.draw_must_go_open_next(actor=actor, draw=draw, **signed)
        else:
            serial = next(tickets)
            draw = services.draw_must_go_redraw(actor=actor, draw=draw, serial=serial, serial_again=serial, **signed)
    return Draw.objects.get(pk=draw.pk)
