"""The guard on spending from the trust account (RULES L10, P5).

The trust account holds the progressive jackpot and every prize not yet paid
(held in trust while a winner is sought) for the players. Spending that would
leave less than that in the account is refused. The figures come from the
draws, which licensing cannot see (licensing never imports raffle): the raffle
app registers the function that computes them when it starts
(`raffle.apps.RaffleConfig.ready`).
"""

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext

from core.money import format_money_here
from licensing.errors import LicensingError


@dataclass(frozen=True)
class TrustPosition:
    balance: Decimal  # what the ledger says the account holds now
    jackpot: Decimal  # the progressive jackpot still to be won
    unpaid_prizes: Decimal  # prizes won and not paid, including those held as unclaimed

    @property
    def held(self) -> Decimal:
        return self.jackpot + self.unpaid_prizes

    @property
    def spendable(self) -> Decimal:
        return self.balance - self.held


_providers: list[Callable] = []


def register_trust_position(provider: Callable) -> None:
    """`provider(licence)` returns the licence's `TrustPosition`, or None without a trust account."""
    if provider not in _providers:
        _providers.append(provider)


def trust_position(licence) -> TrustPosition | None:
    for provider in _providers:
        position = provider(licence)
        if position is not None:
            return position
    return None


def check_spending(licence, amount: Decimal) -> None:
    """R:L10 refuse a payment that would leave less than the jackpot and the unpaid prizes in the account."""
    position = trust_position(licence)
    if position is None:
        return  # no trust account recorded: there is no ledger to guard
    left = position.balance - amount
    if left < position.held:
        raise LicensingError(
            gettext(
                "This payment of %(format_money)s would leave %(format_money2)s in the trust account, less "
                "than the %(format_money3)s it holds for the players (jackpot %(format_money4)s, prizes "
                "not yet paid %(format_money5)s). At most %(format_money6)s can be spent now."
            )
            % {
                "format_money": format_money_here(amount),
                "format_money2": format_money_here(left),
                "format_money3": format_money_here(position.held),
                "format_money4": format_money_here(position.jackpot),
                "format_money5": format_money_here(position.unpaid_prizes),
                "format_money6": format_money_here(max(position.spendable, Decimal(0))),
            },
            rule="L10",
        )
