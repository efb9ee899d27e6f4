"""The seed jackpot's money (RULES P6, L12): the deposit that holds it is
lottery money put in the prizes, recorded as the seed, never as a foreign
deposit and never as ticket sales."""

import datetime
from decimal import Decimal

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import ZERO, format_money_here, parse_amount
from licensing.models import Deposit, Licence
from raffle.errors import RaffleError
from raffle.models import DepositCoverage, Event, SeedDeposit, SeedSource


def covered_by_draws(deposit: Deposit) -> object:
    return DepositCoverage.objects.filter(deposit=deposit).aggregate(t=Sum("amount"))["t"] or ZERO


def seed_part(deposit: Deposit) -> object:
    part = SeedDeposit.objects.filter(deposit=deposit).values_list("amount", flat=True).first()
    return part or ZERO


@transaction.atomic
def deposit_cover_seed(*, actor, deposit: Deposit, amount) -> SeedDeposit:
    """R:P6 R:L12 say that (part of) a deposit holds the seed jackpot. The
    seed parts of all deposits may not pass the event's seed, and a slip's
    parts may not pass the slip."""
    deposit = Deposit.objects.select_for_update().select_related("account__licence").get(pk=deposit.pk)
    licence = deposit.account.licence
    event = Event.objects.select_for_update().filter(licence=licence).first()
    amount = parse_amount(amount, what=gettext("The seed part of the deposit"), allow_zero=False)
    if event is None or not event.seed_jackpot:
        raise RaffleError(
            gettext("Licence %(number)s's event has no seed jackpot; this deposit cannot hold one.")
            % {"number": licence.number},
            rule="P6",
        )
    elsewhere = SeedDeposit.objects.filter(event=event).exclude(deposit=deposit).aggregate(t=Sum("amount"))["t"] or ZERO
    if elsewhere + amount > event.seed_jackpot:
        raise RaffleError(
            gettext(
                "The seed jackpot is %(format_money)s and %(format_money2)s of it is on other slips; slip "
                "%(slip_number)s can hold at most %(format_money3)s of it. Check the amount."
            )
            % {
                "format_money": format_money_here(event.seed_jackpot),
                "format_money2": format_money_here(elsewhere),
                "slip_number": deposit.slip_number,
                "format_money3": format_money_here(event.seed_jackpot - elsewhere),
            },
            rule="P6",
        )
    draws = covered_by_draws(deposit)
    if draws + amount > deposit.amount:
        raise RaffleError(
            gettext(
                "Slip %(slip_number)s is for %(format_money)s; with %(format_money2)s given to draws, the "
                "seed part can be at most %(format_money3)s."
            )
            % {
                "slip_number": deposit.slip_number,
                "format_money": format_money_here(deposit.amount),
                "format_money2": format_money_here(draws),
                "format_money3": format_money_here(deposit.amount - draws),
            },
            rule="L12",
        )
    part, _ = SeedDeposit.objects.update_or_create(deposit=deposit, defaults={"event": event, "amount": amount})
    audit_record(
        actor=actor,
        action="licensing.deposit.cover_seed",
        obj=deposit,
        data={"slip_number": deposit.slip_number, "seed": amount, "seed_source": event.seed_source},
    )
    return part


# R:P6 the largest seed jackpot that needs no standby letter of credit.
SEED_WITHOUT_LETTER_OF_CREDIT = Decimal("10000.00")
# R:P6 a letter of credit runs at least this many days past the licence's expiry.
CREDIT_DAYS_AFTER_LICENCE = 45


def check_seed_terms(*, licence: Licence, seed: Decimal, source: str, reference, issuer, expires_on) -> dict:
    """R:P6 a seed (guaranteed minimum) jackpot is set only here, when the event
    of a new licence is set up. It counts in the prize board (L3), so it must
    fit in it; over $10,000 it needs an irrevocable standby letter of credit
    with its reference, its issuer and an expiry at least 45 days after the
    licence's. Returns the letter's fields for the event."""
    if source not in SeedSource.values:
        raise RaffleError(gettext("Say where the seed jackpot comes from: the organisation's own funds or a sponsor."))
    if seed > licence.prize_board:  # R:L3 the seed counts in the prize board
        raise RaffleError(
            gettext(
                "A seed jackpot of %(format_money)s does not fit in licence %(number)s's prize board of "
                "%(format_money2)s: the seed counts in the prize board. Lower the seed, or ask the "
                "licensing authority for a larger prize board."
            )
            % {
                "format_money": format_money_here(seed),
                "number": licence.number,
                "format_money2": format_money_here(licence.prize_board),
            },
            rule="L3",
        )
    reference, issuer = (reference or "").strip(), (issuer or "").strip()
    given = [bool(reference), bool(issuer), expires_on is not None]
    if seed > SEED_WITHOUT_LETTER_OF_CREDIT and not all(given):
        raise RaffleError(
            gettext(
                "A seed jackpot of %(format_money)s is over $10,000: record the irrevocable standby letter "
                "of credit that guarantees it (its reference, its issuer and its expiry) before setting up "
                "the event."
            )
            % {"format_money": format_money_here(seed)},
            rule="P6",
        )
    if any(given) and not all(given):
        raise RaffleError(
            gettext(
                "Record the whole letter of credit: its reference, the bank or credit union that issued "
                "it, and its expiry."
            ),
            rule="P6",
        )
    earliest = licence.expires_on + datetime.timedelta(days=CREDIT_DAYS_AFTER_LICENCE)
    if expires_on is not None and expires_on < earliest:
        raise RaffleError(
            gettext(
                "The letter of credit expires on %(expires_on)s; it must run at least "
                "%(CREDIT_DAYS_AFTER_LICENCE)s days past the licence's expiry (%(expires_on2)s), to "
                "%(earliest)s or later."
            )
            % {
                "expires_on": format(expires_on, "%Y-%m-%d"),
                "CREDIT_DAYS_AFTER_LICENCE": CREDIT_DAYS_AFTER_LICENCE,
                "expires_on2": format(licence.expires_on, "%Y-%m-%d"),
                "earliest": format(earliest, "%Y-%m-%d"),
            },
            rule="P6",
        )
    return {"seed_letter_of_credit": reference, "seed_credit_issuer": issuer, "seed_credit_expires_on": expires_on}
