"""Unclaimed prizes (P5): held in trust, every attempt to reach the winner
logged, and only then added to the gross proceeds."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from raffle.errors import RaffleError
from raffle.models import ContactAttempt, Draw, MustGoTicket, PrizeKind, PrizePayment, UnclaimedPrize
from raffle.services.treasury import closed_draw, holder_label, payment_owed


@transaction.atomic
def prize_mark_unclaimed(
    *, actor, draw: Draw, kind: str = PrizeKind.DRAW_PRIZE, holder: MustGoTicket | None = None
) -> UnclaimedPrize:
    """R:P5 the winner has not claimed: the prize is held in trust at least
    six months. R:P7 in a must-go draw, one holder's own share (`holder`)."""
    event, draw = closed_draw(draw)
    holder, owed = payment_owed(draw, kind, holder)
    label = PrizeKind(kind).label.lower()
    whose = gettext(" owed to the holder of %(holder)s") % {"holder": holder_label(holder)} if holder else ""
    if PrizePayment.objects.filter(draw=draw, kind=kind, must_go_ticket=holder).exists():
        raise RaffleError(
            gettext("The %(label)s of draw %(number)s%(whose)s is already paid.")
            % {"label": label, "number": draw.number, "whose": whose}
        )
    if UnclaimedPrize.objects.filter(draw=draw, kind=kind, must_go_ticket=holder).exists():
        raise RaffleError(
            gettext("The %(label)s of draw %(number)s%(whose)s is already held as unclaimed.")
            % {"label": label, "number": draw.number, "whose": whose}
        )
    prize = UnclaimedPrize.objects.create(
        draw=draw,
        kind=kind,
        must_go_ticket=holder,
        amount=owed,
        unclaimed_since=draw.held_on,
        recorded_by=actor,
    )
    audit_record(
        actor=actor,
        action="raffle.prize.unclaimed",
        obj=prize,
        data={
            "draw": draw.number,
            "kind": kind,
            "holder": {"sequence": holder.sequence, "serial": holder.winning_serial} if holder else None,
            "amount": prize.amount,
            "hold_until": prize.hold_until,
        },
    )
    return prize


@transaction.atomic
def prize_log_contact_attempt(
    *, actor, prize: UnclaimedPrize, attempted_on: datetime.date, means: str, outcome: str
) -> ContactAttempt:
    """R:P5 log an attempt to reach the winner."""
    prize = UnclaimedPrize.objects.select_for_update().get(pk=prize.pk)
    if not (means or "").strip() or not (outcome or "").strip():
        raise RaffleError(gettext("Say how you tried to reach the winner and what came of it."), rule="P5")
    if attempted_on < prize.unclaimed_since:
        raise RaffleError(gettext("An attempt to reach the winner cannot be before the draw."))
    attempt = ContactAttempt.objects.create(
        prize=prize, attempted_on=attempted_on, means=means.strip()[:60], outcome=outcome.strip()[:200], made_by=actor
    )
    audit_record(
        actor=actor,
        action="raffle.prize.contact_attempt",
        obj=prize,
        data={"attempted_on": attempted_on, "means": attempt.means, "outcome": attempt.outcome},
    )
    return attempt


@transaction.atomic
def prize_add_to_proceeds(*, actor, prize: UnclaimedPrize, today: datetime.date | None = None) -> UnclaimedPrize:
    """R:P5 after six months, with attempts logged, the prize joins the gross proceeds."""
    prize = UnclaimedPrize.objects.select_for_update().get(pk=prize.pk)
    today = today or timezone.localdate()
    if prize.added_to_proceeds_on:
        raise RaffleError(gettext("This prize has already joined the gross proceeds."))
    if today < prize.hold_until:  # R:P5
        raise RaffleError(
            gettext("An unclaimed prize is held in trust for six months: until %(hold_until)s.")
            % {"hold_until": format(prize.hold_until, "%Y-%m-%d")},
            rule="P5",
        )
    if not prize.attempts.exists():  # R:P5
        raise RaffleError(
            gettext("Log at least one attempt to reach the winner before the prize joins the gross proceeds."),
            rule="P5",
        )
    prize.added_to_proceeds_on = today
    prize.save(update_fields=["added_to_proceeds_on"])
    audit_record(
        actor=actor, action="raffle.prize.add_to_proceeds", obj=prize, data={"amount": prize.amount, "on": today}
    )
    return prize
