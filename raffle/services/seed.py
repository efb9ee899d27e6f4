"""The seed jackpot's money (RULES P6, L12): the deposit that holds it is
lottery money put in the prizes, recorded as the seed, never as a foreign
deposit and never as ticket sales."""

from django.db import transaction
from django.db.models import Sum

from core.audit import audit_record
from core.money import ZERO, format_money, parse_amount
from licensing.models import Deposit
from raffle.errors import RaffleError
from raffle.models import DepositCoverage, Event, SeedDeposit


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
    amount = parse_amount(amount, what="The seed part of the deposit", allow_zero=False)
    if event is None or not event.seed_jackpot:
        raise RaffleError(
            f"Licence {licence.number}'s event has no seed jackpot; this deposit cannot hold one.", rule="P6"
        )
    elsewhere = SeedDeposit.objects.filter(event=event).exclude(deposit=deposit).aggregate(t=Sum("amount"))["t"] or ZERO
    if elsewhere + amount > event.seed_jackpot:
        raise RaffleError(
            f"The seed jackpot is {format_money(event.seed_jackpot)} and {format_money(elsewhere)} of it is on "
            f"other slips; slip {deposit.slip_number} can hold at most {format_money(event.seed_jackpot - elsewhere)} "
            "of it. Check the amount.",
            rule="P6",
        )
    draws = covered_by_draws(deposit)
    if draws + amount > deposit.amount:
        raise RaffleError(
            f"Slip {deposit.slip_number} is for {format_money(deposit.amount)}; with {format_money(draws)} "
            f"given to draws, the seed part can be at most {format_money(deposit.amount - draws)}.",
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
