"""Two treasurers acting at once on real PostgreSQL connections (RULES P3, L12)."""

import pytest
from django.utils import timezone

from licensing.models import PaymentMethod
from licensing.services import deposit_record
from raffle.models import DepositCoverage, PrizeKind, PrizePayment
from raffle.services import deposit_cover_draws, prize_payment_record
from tests.factories import UserFactory, event_with_closed_draws, trust_account_for
from tests.test_concurrency import _race


@pytest.mark.django_db(transaction=True)
def test_two_treasurers_paying_the_same_prize_at_once_pay_it_once():  # R:P3
    treasurer = UserFactory()
    event, draws = event_with_closed_draws(["795.00"], actor=treasurer)
    day = timezone.localdate(draws[0].scheduled_at)
    results = _race(
        2,
        lambda i: prize_payment_record(
            actor=treasurer,
            draw=draws[0],
            kind=PrizeKind.DRAW_PRIZE,
            method=PaymentMethod.CHEQUE,
            reference=f"CHQ {100 + i}",
            paid_on=day,
            payee="A. MacLeod",
        ),
    )
    assert sorted(r[0] for r in results) == ["ok", "refused"], results
    assert PrizePayment.objects.filter(draw=draws[0]).count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_allocations_of_one_slip_at_once_cannot_exceed_it():  # R:L12
    treasurer = UserFactory()
    event, draws = event_with_closed_draws(["795.00", "430.00"], actor=treasurer)
    account = trust_account_for(event, actor=treasurer)
    deposit = deposit_record(
        actor=treasurer,
        account=account,
        slip_number="S1",
        deposited_on=timezone.localdate(draws[1].scheduled_at),
        amount="800.00",
    )
    results = _race(2, lambda i: deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={draws[i]: "600.00"}))
    assert sorted(r[0] for r in results) == ["ok", "refused"], results
    assert DepositCoverage.objects.filter(deposit=deposit).count() == 1
