"""The must-go final draw that runs out of tickets before the Ace (RULES P7,
P2, E3, D8): the lowest sealed envelopes are opened in order until the Ace,
and the holders are paid as the generated Rules of Play say."""

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core.audit import audit_verify
from core.models import AuditEntry
from raffle import services
from raffle.errors import TransitionNotAllowed
from raffle.models import CardDestruction, Draw, DrawState, Envelope, EventStatus, MustGoPayout, MustGoTicket
from raffle.rules_of_play import rules_of_play
from tests.factories import SIGNATURES
from tests.must_go_story import play_must_go, serials, stub_must_go_draw

D = Decimal
HOLDER_CARDS = ["2H", "3H", "4H", "5H", "6H", "7H"]  # the six holders' envelopes 10 to 15


@pytest.mark.django_db
@pytest.mark.parametrize(
    "payout, draw_prize_shares",
    [
        # 20% of $15.05 is $3.01 for six holders: 50 cents each, the cent left over to the first ticket drawn.
        (MustGoPayout.SHARE_NON_ACE, ["0.51", "0.50", "0.50", "0.50", "0.50", "0.50"]),
        (MustGoPayout.SHARE_ALL, ["0.51", "0.50", "0.50", "0.50", "0.50", "0.50"]),
        (MustGoPayout.FIRST_TICKET, ["3.01", "0", "0", "0", "0", "0"]),
    ],
)
def test_a_must_go_draw_that_runs_out_of_tickets_opens_the_lowest_sealed_envelopes_until_the_ace(
    staff_user, payout, draw_prize_shares
):  # R:P7 R:P2 R:E3 R:P4
    """Six stubs sold for $15.05, all picking envelope 10, a $100 seed. The six
    tickets open envelopes 10 to 15 without the Ace. No valid ticket is left, so
    envelope 1, the lowest still sealed, is opened (the 8 of Hearts, destroyed),
    then envelope 2: the Ace of Spades. Nobody's ticket found it, so the
    $104.51 jackpot is shared by the six holders."""
    event, draw, members = stub_must_go_draw(actor=staff_user, payout=payout, sales="15.05", seed_jackpot="100.00")
    sold = serials(draw)
    assert len(sold) == 6 and draw.draw_prize == D("3.01") and draw.jackpot_after == D("104.51")

    draw = play_must_go(draw, actor=staff_user, members=members, cards=HOLDER_CARDS)
    # The last holder's card is not the ace and no ticket is left: the next move opens an envelope.
    assert draw.state == DrawState.CARD_REVEALED and draw.next_step.name == "must_go_open_next"
    with pytest.raises(TransitionNotAllowed, match="open the lowest sealed envelope"):
        services.draw_must_go_redraw(
            actor=staff_user, draw=draw, destroyed_by=members[0], verified_by=members[1], **SIGNATURES
        )
    destroyer, verifier = members
    draw = services.draw_must_go_open_next(
        actor=staff_user, draw=draw, destroyed_by=destroyer, verified_by=verifier, **SIGNATURES
    )
    assert draw.state == DrawState.ENVELOPE_CHOSEN and draw.envelope.number == 1
    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card="8H", card_again="8H")
    draw = services.draw_must_go_open_next(
        actor=staff_user, draw=draw, destroyed_by=destroyer, verified_by=verifier, **SIGNATURES
    )
    assert draw.envelope.number == 2  # the next lowest, in order
    draw = services.draw_reveal_card(actor=staff_user, draw=draw, card="AS", card_again="AS", ace_confirmed=True)
    draw = services.draw_award_jackpot(actor=staff_user, draw=draw)

    assert draw.state == DrawState.CLOSED and draw.must_go_run_out_at is not None
    opened = list(Envelope.objects.filter(opened_in_draw=draw).order_by("opened_at").values_list("number", "card"))
    assert opened == [*zip(range(10, 16), HOLDER_CARDS, strict=True), (1, "8H"), (2, "AS")]
    holders = list(MustGoTicket.objects.filter(draw=draw).order_by("sequence"))
    assert [h.winning_serial for h in holders] == sold  # every ticket drawn, each once
    assert [h.envelope.number for h in holders] == list(range(10, 16))
    assert [h.draw_prize_share for h in holders] == [D(s) for s in draw_prize_shares]
    # $104.51 shared by six: $17.41 each, the five cents left over to the five tickets drawn first.
    assert [h.jackpot_share for h in holders] == [D("17.42")] * 5 + [D("17.41")]
    assert sum(h.total for h in holders) == draw.draw_prize + draw.jackpot_awarded == D("107.52")
    # Every non-ace card destroyed and verified, the run-out's too (E3); the ace never.
    assert CardDestruction.objects.filter(draw=draw).count() == 7
    assert AuditEntry.objects.filter(action="raffle.draw.must_go_open_next").count() == 2
    settle = AuditEntry.objects.get(action="raffle.draw.must_go_settle")
    assert settle.data["ace_found_by_ticket"] is False and settle.data["ace_envelope"] == 2
    assert draw.event.status == EventStatus.CONCLUDED
    assert audit_verify().intact


@pytest.mark.django_db
def test_the_rules_of_play_say_what_happens_when_the_tickets_run_out(staff_user):  # R:P7 R:R4
    event, _, _ = stub_must_go_draw(actor=staff_user, payout=MustGoPayout.FIRST_TICKET, sales="10")
    text = " ".join(p for s in rules_of_play(event)["sections"] for p in s.paragraphs)
    assert "lowest-numbered sealed envelopes are opened one at a time, in order" in text
    assert "the jackpot is then shared equally by the holders of all the tickets drawn" in text
    assert "the draw prize goes to the holder of the first ticket drawn" in text
    assert "Each holder is paid their own share" in text


@pytest.mark.django_db
def test_the_card_of_a_run_out_envelope_is_destroyed_before_the_next_one_is_opened(staff_user):  # R:P7 R:E3
    event, draw, members = stub_must_go_draw(actor=staff_user, payout=MustGoPayout.SHARE_ALL, sales="5")
    draw = play_must_go(draw, actor=staff_user, members=members, cards=["9C"])
    destroyer, _ = members
    with pytest.raises(Exception, match="second"):  # the destroyer cannot verify their own destruction
        services.draw_must_go_open_next(
            actor=staff_user, draw=draw, destroyed_by=destroyer, verified_by=destroyer, **SIGNATURES
        )
    draw = Draw.objects.get(pk=draw.pk)
    assert draw.state == DrawState.CARD_REVEALED and draw.envelope.number == 10
    assert draw.must_go_run_out_at is None and not MustGoTicket.objects.exists()


RULES = [MustGoPayout.SHARE_NON_ACE, MustGoPayout.SHARE_ALL, MustGoPayout.FIRST_TICKET, MustGoPayout.FINAL_WINNER]


@given(
    rule=st.sampled_from(RULES),
    prize_cents=st.integers(min_value=0, max_value=10**10),
    jackpot_cents=st.integers(min_value=0, max_value=10**10),
    holders=st.integers(min_value=1, max_value=60),
    ace_found=st.booleans(),
)
def test_must_go_shares_always_add_up_to_the_prizes_to_the_cent(
    rule, prize_cents, jackpot_cents, holders, ace_found
):  # R:P7 R:P2
    prize, jackpot = D(prize_cents) / 100, D(jackpot_cents) / 100
    payouts = services.must_go_payouts(
        rule=rule, draw_prize=prize, jackpot=jackpot, holders=holders, ace_found=ace_found
    )
    shares, jackpots = [p for p, _ in payouts], [j for _, j in payouts]
    assert len(payouts) == holders
    # No consolation prize: exactly the draw prize and the jackpot are paid, every share to the cent.
    assert sum(shares) == prize and sum(jackpots) == jackpot
    assert all(x >= 0 and x == x.quantize(D("0.01")) for x in shares + jackpots)
    paid = [s for s in shares if s]
    assert not paid or max(paid) - min(paid) <= D("0.01")  # equal shares, a cent apart at most
    if rule == MustGoPayout.FIRST_TICKET:
        assert shares[0] == prize
    if ace_found:  # the ace holder alone wins the jackpot
        assert jackpots[-1] == jackpot
    else:  # nobody's ticket found it: all the holders share it, earlier tickets first for the odd cents
        assert jackpots == sorted(jackpots, reverse=True) and max(jackpots) - min(jackpots) <= D("0.01")


@pytest.mark.django_db
def test_the_public_results_say_no_ticket_found_the_ace_and_each_holder_checks_their_share(
    client, staff_user
):  # R:P7 R:D10
    from django.core.cache import cache
    from django.urls import reverse

    cache.clear()  # the "did I win?" look-ups are rate-limited per visitor
    event, draw, members = stub_must_go_draw(actor=staff_user, payout=MustGoPayout.SHARE_ALL, sales="10")
    first, second, last = serials(draw)
    play_must_go(draw, actor=staff_user, members=members, cards=["2H", "3H", "4H", "AS"])
    url = reverse("public_results", args=[event.pk])
    page = client.get(url).content.decode()
    assert "the lowest sealed envelopes were opened in order until it was found" in page
    assert f"{first}, {second}, {last}" in page  # every holder listed as drawn in the final draw
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert "les enveloppes scellées de plus petit numéro ont été ouvertes dans l’ordre" in french
    checked = client.get(f"{url}?ticket={last}").content.decode()
    assert f"Ticket {last} was drawn in the final draw (draw 1) and opened envelope 12" in checked
    assert "for your share of the prizes" in checked
    cache.clear()
