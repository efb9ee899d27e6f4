"""Each holder of the must-go draw is paid their own share by their own
payment (RULES P7, P3): the treasurer's story after a draw shared by two."""

import datetime
from decimal import Decimal

import pytest

from core.audit import audit_verify
from licensing.models import PaymentMethod
from raffle import services
from raffle.errors import RaffleError
from raffle.models import MustGoPayout, PrizeKind, PrizePayment
from tests.factories import event_with_closed_draws, once
from tests.must_go_story import play_must_go, stub_must_go_draw

pytestmark = pytest.mark.django_db
D = Decimal


def _pay(draw, user, holder=None, kind=PrizeKind.DRAW_PRIZE, amount=None, reference="2001"):
    return services.prize_payment_record(
        actor=user,
        draw=draw,
        kind=kind,
        method=PaymentMethod.CHEQUE,
        reference=reference,
        paid_on=draw.held_on + datetime.timedelta(days=2),
        payee="Pat Buyer",
        holder=holder,
        amount=amount,
    )


@pytest.fixture
def shared_draw(treasurer):
    """$1,000.10 of stubs: a $200.02 draw prize. Every holder shares it; the
    first ticket opens the 9 of Diamonds, the second the Ace of Spades."""
    event, draw, members = stub_must_go_draw(actor=treasurer, payout=MustGoPayout.SHARE_ALL, sales="1000.10")
    draw = play_must_go(draw, actor=treasurer, members=members, cards=["9D", "AS"])
    first, second = draw.must_go_tickets.order_by("sequence")
    return draw, first, second


def test_two_holders_are_paid_their_own_shares_by_their_own_payments(shared_draw, treasurer):  # R:P7 R:P3
    draw, first, second = shared_draw
    assert (first.draw_prize_share, second.draw_prize_share) == (D("100.01"), D("100.01"))
    assert second.jackpot_share == draw.jackpot_awarded == D("300.03") and first.jackpot_share == 0

    paid_first = _pay(draw, treasurer, holder=first, reference="2001")
    paid_second = _pay(draw, treasurer, holder=second, amount="100.01", reference="2002")
    # The ace holder alone is owed the jackpot: the payment needs no holder named.
    jackpot = _pay(draw, treasurer, kind=PrizeKind.JACKPOT, reference="2003")

    assert (paid_first.amount, paid_first.must_go_ticket) == (D("100.01"), first)
    assert (paid_second.amount, paid_second.must_go_ticket) == (D("100.01"), second)
    assert (jackpot.amount, jackpot.must_go_ticket) == (D("300.03"), second)
    total = sum(PrizePayment.objects.filter(draw=draw).values_list("amount", flat=True))
    assert total == draw.draw_prize + draw.jackpot_awarded
    assert audit_verify().intact


def test_an_over_payment_of_a_share_is_refused_in_plain_words(shared_draw, treasurer):  # R:P7
    draw, first, _ = shared_draw
    with pytest.raises(RaffleError) as refused:
        _pay(draw, treasurer, holder=first, amount="200.02")
    assert str(refused.value) == (
        "$200.02 is more than the share of the draw prize (20%) of draw 1 owed to the holder of ticket "
        f"{first.winning_serial} (Pat Buyer): $100.01. Nothing was recorded; pay $100.01."
    )
    assert refused.value.rule == "P7" and not PrizePayment.objects.exists()


def test_a_shared_prize_cannot_be_paid_without_naming_the_holder_nor_twice(shared_draw, treasurer):  # R:P7
    draw, first, second = shared_draw
    with pytest.raises(RaffleError, match="say which holder this payment is for") as refused:
        _pay(draw, treasurer)
    assert first.winning_serial in str(refused.value) and second.winning_serial in str(refused.value)
    _pay(draw, treasurer, holder=first)
    with pytest.raises(RaffleError, match="already paid"):
        _pay(draw, treasurer, holder=first, reference="2009")
    with pytest.raises(RaffleError, match="no share of the progressive jackpot"):
        _pay(draw, treasurer, holder=first, kind=PrizeKind.JACKPOT)
    with pytest.raises(RaffleError, match="paid whole, in one payment"):
        _pay(draw, treasurer, holder=second, amount="50.00")
    assert PrizePayment.objects.count() == 1


def test_an_ordinary_draw_prize_is_still_paid_whole_to_its_one_winner(treasurer):  # R:P3
    event, draws = event_with_closed_draws(["100.00"], actor=treasurer)
    with pytest.raises(RaffleError, match="more than the draw prize"):
        _pay(draws[0], treasurer, amount="20.01")
    assert _pay(draws[0], treasurer).amount == D("20.00") == draws[0].draw_prize


def _pdf_text(pdf: bytes) -> str:
    from core.pdf import pdf_text

    return " ".join(pdf_text(pdf).split())


def test_the_reports_list_each_holders_share_and_payment(shared_draw, treasurer):  # R:P7 R:R1 R:R2
    from raffle.reports.builders import final_report, four_draw_report
    from raffle.reports.render import final_pdf, four_draw_pdf

    draw, first, second = shared_draw
    paid = _pay(draw, treasurer, holder=first, reference="2001")
    four = _pdf_text(four_draw_pdf(four_draw_report(draw.event, 1)))
    on = f"{paid.paid_on:%Y-%m-%d}"
    assert (
        f"1. ticket {first.winning_serial} (Pat Buyer), envelope 10, 9D, share $100.01, "
        f"paid $100.01 cheque 2001 on {on}" in four
    )
    assert f"2. ticket {second.winning_serial} (Pat Buyer), envelope 11, AS, share $100.01 + jackpot $300.03, " in four
    assert "+ jackpot $300.03, not paid yet" in four
    assert f"share of ticket {first.winning_serial}" in four  # the prize payments table names the holder
    final = _pdf_text(final_pdf(final_report(draw.event)))
    assert f"must-go 1: {first.winning_serial} Pat Buyer 9D, share $100.01: paid $100.01 cheque 2001" in final
    assert "share $400.04 (jackpot $300.03): not paid yet" in final


def test_the_treasurer_pays_each_holder_from_the_prizes_page(client, shared_draw):  # R:P7 R:P3
    from django.contrib.auth.models import Group

    from core import roles
    from tests.factories import UserFactory

    draw, first, second = shared_draw
    treasurer = UserFactory(username="page-treasurer")
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    client.force_login(treasurer)
    url = f"/treasury/{draw.event_id}/prizes/"
    form = {
        "draw": draw.pk,
        "kind": PrizeKind.DRAW_PRIZE,
        "holder": first.pk,
        "payee": "Pat Buyer",
        "method": PaymentMethod.CHEQUE,
        "reference": "3001",
        "paid_on": f"{draw.held_on + datetime.timedelta(days=1):%Y-%m-%d}",
    }
    refused = client.post(url + "pay/", once(form, amount="200.02"), follow=True).content.decode()
    assert "is more than the share of the draw prize (20%) of draw 1 owed to the holder" in refused
    assert not PrizePayment.objects.exists()
    client.post(url + "pay/", once(form, amount="100.01"))
    client.post(url + "pay/", once(form, holder=second.pk, reference="3002"))
    page = client.get(url).content.decode()
    assert "each holder&#x27;s share" in page or "each holder's share" in page
    rows = page.split('id="must-go-shares"')[1].split("</table>")[0]
    assert rows.count("$100.01") == 4  # two shares, two payments
    assert "cheque 3001" in rows and "cheque 3002" in rows and "not paid yet" not in rows
    assert [p.must_go_ticket for p in PrizePayment.objects.order_by("reference")] == [first, second]


def test_a_holder_who_does_not_come_forward_has_only_their_own_share_held(shared_draw, treasurer):  # R:P7 R:P5
    from raffle.reports.builders import final_report

    draw, first, second = shared_draw
    _pay(draw, treasurer, holder=first)
    held = services.prize_mark_unclaimed(actor=treasurer, draw=draw, kind=PrizeKind.DRAW_PRIZE, holder=second)
    assert (held.amount, held.must_go_ticket) == (D("100.01"), second)
    with pytest.raises(RaffleError, match="already paid"):
        services.prize_mark_unclaimed(actor=treasurer, draw=draw, kind=PrizeKind.DRAW_PRIZE, holder=first)
    assert [(u.must_go_ticket, u.amount) for u in final_report(draw.event).unclaimed_held] == [(second, D("100.01"))]
    # The holder comes forward within the six months: their share is still paid from the trust account.
    assert _pay(draw, treasurer, holder=second, reference="2002").amount == D("100.01")
    assert final_report(draw.event).unclaimed_held == []
