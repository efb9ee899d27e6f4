"""Treasury writes that point at draws: which draws a deposit covers (L12),
prize payments (P3); unclaimed prizes are in `raffle.services.unclaimed`."""

import datetime

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import ZERO, format_money_here, parse_amount
from licensing.models import Deposit, IssuedReport, PaymentMethod
from licensing.services import deposit_record, report_issue
from raffle.errors import RaffleError
from raffle.models import (
    DepositCoverage,
    Draw,
    DrawOutcome,
    DrawState,
    Event,
    MustGoTicket,
    PrizeKind,
    PrizePayment,
    UnclaimedPrize,
    WinnersPublication,
)
from raffle.reports.render import report_file
from raffle.services.seed import deposit_cover_seed, seed_part


def prize_amount(draw: Draw, kind: str):
    """What a draw owes its winner for one kind of prize."""
    if kind == PrizeKind.DRAW_PRIZE:
        return draw.draw_prize
    if draw.outcome != DrawOutcome.JACKPOT_WON:
        raise RaffleError(
            gettext("Draw %(number)s did not find the Ace of Spades; it has no jackpot to pay.")
            % {"number": draw.number},
            rule="P4",
        )
    return draw.jackpot_awarded


def holder_share(holder: MustGoTicket, kind: str):
    """R:P7 what one holder of a must-go draw is owed of one kind of prize."""
    share = holder.draw_prize_share if kind == PrizeKind.DRAW_PRIZE else holder.jackpot_share
    return share or ZERO


def holder_label(holder: MustGoTicket) -> str:
    label = gettext("ticket %(serial)s") % {"serial": holder.winning_serial}
    return label + (f" ({holder.winner_name})" if holder.winner_name else "")


def payment_owed(draw: Draw, kind: str, holder: MustGoTicket | None) -> tuple[MustGoTicket | None, object]:
    """Who a payment pays and what they are owed. A must-go draw's prizes are
    owed holder by holder (P7): the payment names its holder (or the only one
    owed that prize) and is for that holder's share; any other draw owes its
    prize whole to its one winner."""
    holders = list(MustGoTicket.objects.select_for_update().filter(draw=draw).order_by("sequence"))
    if not holders:
        if holder is not None:
            raise RaffleError(
                gettext("Draw %(number)s is not a must-go draw shared by several holders; leave the holder out.")
                % {"number": draw.number}
            )
        return None, prize_amount(draw, kind)
    label = PrizeKind(kind).label.lower()
    owed = [h for h in holders if holder_share(h, kind) > 0]
    if holder is None:
        if len(owed) != 1:
            names = ", ".join(holder_label(h) for h in owed) or "nobody"
            raise RaffleError(
                gettext(
                    "The %(label)s of draw %(number)s (the must-go draw) is owed to %(names)s: say which "
                    "holder this payment is for. Each holder is paid their own share by their own payment."
                )
                % {"label": label, "number": draw.number, "names": names},
                rule="P7",
            )
        holder = owed[0]
    holder = next((h for h in holders if h.pk == getattr(holder, "pk", holder)), None)
    if holder is None:
        raise RaffleError(
            gettext("That ticket was not drawn in draw %(number)s; choose one of its holders.")
            % {"number": draw.number},
            rule="P7",
        )
    share = holder_share(holder, kind)
    if share <= 0:
        raise RaffleError(
            gettext(
                "The holder of %(holder_label)s has no share of the %(label)s of draw %(number)s under the "
                "Rules of Play; nothing is owed to them for it."
            )
            % {"holder_label": holder_label(holder), "label": label, "number": draw.number},
            rule="P7",
        )
    return holder, share


def closed_draw(draw: Draw) -> tuple[Event, Draw]:
    event = Event.objects.select_for_update().get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    if draw.state != DrawState.CLOSED:
        raise RaffleError(
            gettext("Draw %(number)s is not closed yet; its prizes are known only once it is.")
            % {"number": draw.number}
        )
    return event, draw


@transaction.atomic
def deposit_cover_draws(*, actor, deposit: Deposit, amounts: dict) -> list[DepositCoverage]:
    """R:L12 say which draws' sales a deposit holds: {draw: amount}. The parts
    may not exceed the deposit; a draw covered twice over is flagged by the
    reconciliation, not refused, because the bank slip is what it is."""
    deposit = Deposit.objects.select_for_update().select_related("account__licence").get(pk=deposit.pk)
    licence = deposit.account.licence
    parsed = {}
    for draw, amount in amounts.items():
        draw = Draw.objects.select_related("event").get(pk=getattr(draw, "pk", draw))
        if draw.event.licence_id != licence.pk:
            raise RaffleError(
                gettext("%(draw)s belongs to another licence than the trust account of slip %(slip_number)s.")
                % {"draw": draw, "slip_number": deposit.slip_number},
                rule="L12",
            )
        if draw.ticket_sales is None:
            raise RaffleError(
                gettext("Draw %(number)s's sales are not closed yet; deposit them after sales close.")
                % {"number": draw.number}
            )
        parsed[draw] = parse_amount(
            amount, what=gettext("The part for draw %(number)s") % {"number": draw.number}, allow_zero=False
        )
    if not parsed:
        raise RaffleError(gettext("Say which draw's sales the deposit holds, and how much of it."))
    existing = (
        DepositCoverage.objects.filter(deposit=deposit).exclude(draw__in=list(parsed)).aggregate(t=Sum("amount"))["t"]
        or ZERO
    )
    total = existing + seed_part(deposit) + sum(parsed.values(), ZERO)  # R:P6 the seed's part counts too
    if total > deposit.amount:
        raise RaffleError(
            gettext("Slip %(slip_number)s is for %(amount)s; the draws given add up to %(total)s. Check the amounts.")
            % {
                "slip_number": deposit.slip_number,
                "amount": format_money_here(deposit.amount),
                "total": format_money_here(total),
            },
            rule="L12",
        )
    rows = []
    for draw, amount in parsed.items():
        row, _ = DepositCoverage.objects.update_or_create(deposit=deposit, draw=draw, defaults={"amount": amount})
        rows.append(row)
    audit_record(
        actor=actor,
        action="licensing.deposit.cover_draws",
        obj=deposit,
        data={
            "slip_number": deposit.slip_number,
            "draws": {str(d.number): a for d, a in sorted(parsed.items(), key=lambda p: p[0].number)},
        },
    )
    return rows


@transaction.atomic
def deposit_record_for_draws(
    *,
    actor,
    account,
    slip_number: str,
    deposited_on: datetime.date,
    amount,
    slip_scan=None,
    amounts: dict | None = None,
    seed=None,
) -> Deposit:
    """R:L12 a deposit slip and the draws whose sales it holds ({draw: amount})
    and the part of it that is the seed jackpot (`seed`, P6), all or nothing:
    a refused allocation leaves no slip behind (neither the row nor its
    stored scan)."""
    deposit = deposit_record(
        actor=actor,
        account=account,
        slip_number=slip_number,
        deposited_on=deposited_on,
        amount=amount,
        slip_scan=slip_scan,
    )
    if amounts or seed:
        try:
            if seed:
                deposit_cover_seed(actor=actor, deposit=deposit, amount=seed)
            if amounts:
                deposit_cover_draws(actor=actor, deposit=deposit, amounts=amounts)
        except Exception:
            if deposit.slip_scan:  # the row rolls back with the transaction; the stored file must go too
                deposit.slip_scan.delete(save=False)
            raise
    return deposit


@transaction.atomic
def prize_payment_record(
    *,
    actor,
    draw: Draw,
    kind: str,
    method: str,
    reference: str,
    paid_on: datetime.date,
    payee: str,
    cheque_image=None,
    holder: MustGoTicket | None = None,
    amount=None,
) -> PrizePayment:
    """R:P3 a prize paid in Canadian funds by cheque or electronic transfer,
    for exactly the amount the draw owes; a cheque's scan goes in the
    four-draw report's annex (R1). R:P7 in a must-go draw each holder is paid
    their own share by their own payment (`holder`). `amount`, when given (a
    cheque's figure typed by the treasurer), must be that amount: more than
    the holder's share is refused, and a share is paid whole."""
    event, draw = closed_draw(draw)
    if kind not in PrizeKind.values:
        raise RaffleError(gettext("Say whether this pays the draw prize or the jackpot."))
    if method not in PaymentMethod.values:  # R:P3
        raise RaffleError(gettext("Prizes are paid by cheque or electronic transfer, in Canadian funds."), rule="P3")
    if not (reference or "").strip() or not (payee or "").strip():
        raise RaffleError(gettext("Give the payee and the cheque number or transfer reference."), rule="P3")
    if paid_on < draw.held_on:  # R:D9 counted from the day the draw was held
        raise RaffleError(
            gettext("A prize cannot be paid before its draw (held on %(held_on)s).")
            % {"held_on": format(draw.held_on, "%Y-%m-%d")}
        )
    holder, owed = payment_owed(draw, kind, holder)
    paid = PrizePayment.objects.filter(draw=draw, kind=kind, must_go_ticket=holder).first()
    if paid is not None:
        whose = gettext(" to the holder of %(holder)s") % {"holder": holder_label(holder)} if holder else ""
        raise RaffleError(
            gettext(
                "The %(lower)s of draw %(number)s%(whose)s is already paid (%(format_money)s to %(payee)s "
                "on %(paid_on)s)."
            )
            % {
                "lower": PrizeKind(kind).label.lower(),
                "number": draw.number,
                "whose": whose,
                "format_money": format_money_here(paid.amount),
                "payee": paid.payee,
                "paid_on": format(paid.paid_on, "%Y-%m-%d"),
            }
        )
    if amount is not None:
        amount = parse_amount(amount, what=gettext("The amount paid"), allow_zero=False)
        label = PrizeKind(kind).label.lower()
        what = (
            f"the share of the {label} of draw {draw.number} owed to the holder of {holder_label(holder)}"
            if holder
            else f"the {label} of draw {draw.number}"
        )
        if amount > owed:  # R:P7 no one is paid more than their own share
            raise RaffleError(
                gettext(
                    "%(format_money)s is more than %(what)s: %(format_money2)s. Nothing was recorded; pay "
                    "%(format_money2)s."
                )
                % {"format_money": format_money_here(amount), "what": what, "format_money2": format_money_here(owed)},
                rule="P7" if holder else "P3",
            )
        if amount < owed:
            raise RaffleError(
                gettext(
                    "%(upper)s%(what)s is %(format_money)s; it is paid whole, in one payment. Nothing was recorded."
                )
                % {"upper": what[0].upper(), "what": what[1:], "format_money": format_money_here(owed)},
                rule="P7" if holder else "P3",
            )
    amount = owed
    unclaimed = UnclaimedPrize.objects.select_for_update().filter(draw=draw, kind=kind, must_go_ticket=holder).first()
    if unclaimed and unclaimed.added_to_proceeds_on:  # R:P5
        raise RaffleError(
            gettext(
                "This prize joined the gross proceeds on %(added_to_proceeds_on)s; it can no longer be "
                "paid from the trust account."
            )
            % {"added_to_proceeds_on": format(unclaimed.added_to_proceeds_on, "%Y-%m-%d")},
            rule="P5",
        )
    if cheque_image and method != PaymentMethod.CHEQUE:
        raise RaffleError(
            gettext("A scan of a cheque goes with a payment by cheque; a transfer has its reference only.")
        )
    payment = PrizePayment(
        draw=draw,
        kind=kind,
        must_go_ticket=holder,
        amount=amount,
        method=method,
        reference=reference.strip()[:60],
        paid_on=paid_on,
        payee=payee.strip()[:150],
        recorded_by=actor,
    )
    if cheque_image:
        payment.cheque_image = cheque_image
    payment.save()
    audit_record(
        actor=actor,
        action="raffle.prize.pay",
        obj=payment,
        data={
            "draw": draw.number,
            "kind": kind,
            "holder": {"sequence": holder.sequence, "serial": holder.winning_serial} if holder else None,
            "amount": amount,
            "currency": "CAD",
            "method": method,
            "reference": payment.reference,
            "paid_on": paid_on,
            "payee": payment.payee,
            "cheque_image": payment.cheque_image.name if payment.cheque_image else "",
        },
    )
    return payment


@transaction.atomic
def winners_publication_record(*, actor, draw: Draw, published_on: datetime.date, where: str) -> WinnersPublication:
    """R:D10 the winning ticket and prize of a closed draw were published: where and when."""
    event, draw = closed_draw(draw)
    where = (where or "").strip()
    if not where:
        raise RaffleError(gettext("Say where the winners were published (website, newspaper, board)."), rule="D10")
    if published_on < draw.held_on:
        raise RaffleError(gettext("The winners cannot be published before the draw."), rule="D10")
    if WinnersPublication.objects.filter(draw=draw, where=where[:200], published_on=published_on).exists():
        raise RaffleError(gettext("That publication is already recorded."))
    publication = WinnersPublication.objects.create(
        draw=draw, published_on=published_on, where=where[:200], recorded_by=actor
    )
    audit_record(
        actor=actor,
        action="raffle.winners.publish",
        obj=publication,
        data={"draw": draw.number, "published_on": published_on, "where": publication.where},
    )
    return publication


def event_report_issue(*, actor, event: Event, kind: str, file_format: str, period: int | None = None) -> IssuedReport:
    """R:R1 R:R2 render the report now and keep the file as issued (a report
    the licensing officer sent back is issued again as its next version)."""
    content, _, fee, due_on = report_file(event, kind, period, file_format)
    return report_issue(
        actor=actor,
        licence=event.licence,
        kind=kind,
        file_format=file_format,
        content=content,
        period=period,
        fee=fee,
        due_on=due_on,
    )
