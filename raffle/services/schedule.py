"""When a draw is held (RULES D9): at the date and time advertised in the
Rules of Play and the licence's schedule, never before; or, postponed, at the
new date and time, with the reason and the notice given to the licensing
authority recorded.

`check_draw_time` is the one refusal of a winning ticket drawn early: the
draw-night wizard and the admin's step page (both through the step service),
the history import and the supplier's result file all call it. Ticket sales
may close before the advertised time (at the advertised sales cut-off); only
the winning ticket waits for it.
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from licensing.models import AmendmentKind, LicenceAmendment
from licensing.terms import licence_amended_draw_day, licence_expires_on, licence_in_force_on
from raffle.errors import RaffleError
from raffle.models import BEFORE_WINNING_TICKET, Draw, DrawPostponement, DrawState, Event, NotificationMethod
from raffle.services import draw_machine
from raffle.services.ending import check_not_cancelled

# A notice "now" typed on a slow laptop is not in the future.
NOTICE_CLOCK_SLACK = datetime.timedelta(minutes=5)


def advertised(moment: datetime.datetime) -> str:
    """`Friday 4 December 2026 at 19:00`, in the hall's time zone."""
    return f"{timezone.localtime(moment):%A %-d %B %Y at %H:%M}"


def check_draw_time(draw: Draw, *, at: datetime.datetime | None = None) -> None:
    """R:D9 refuse a winning ticket drawn (or recorded as drawn, `at`) before
    the draw's advertised time; nothing is changed."""
    at = at or timezone.now()
    if at < draw.scheduled_at:
        raise RaffleError(
            gettext(
                "Draw %(number)s is advertised for %(advertised)s: its winning ticket may be drawn from "
                "then on, not at %(advertised2)s. Ticket sales may close before; to hold the draw at "
                "another time, postpone it and notify the licensing authority."
            )
            % {"number": draw.number, "advertised": advertised(draw.scheduled_at), "advertised2": advertised(at)},
            rule="D9",
        )


def schedule_base(draw: Draw) -> datetime.datetime:
    """R:D9 the time the draw after `draw` is counted from: the draw's time,
    less every postponement that left the later draws where they were."""
    base = draw.scheduled_at
    for postponement in draw.postponements.all():
        if not postponement.later_draws_move:
            base -= postponement.postponed_to - postponement.postponed_from
    return base


@transaction.atomic
def draw_postpone(
    *,
    actor,
    draw: Draw,
    new_at: datetime.datetime,
    reason: str,
    notice_to: str,
    notice_at: datetime.datetime,
    notice_method: str,
    notice_reference: str = "",
    later_draws_move: bool = False,
) -> DrawPostponement:
    """R:D9 postpone a draw whose winning ticket is not drawn yet to a later
    date and time, recording why and the notice given to the licensing
    authority (to whom, when, how). With `later_draws_move` the later draws
    move by the same time; without it they keep their dates, so the new time
    must come before the next draw's."""
    event, draw = draw_machine.lock(draw)
    licence = event.licence
    if event.is_concluded:
        raise RaffleError(
            gettext("%(event)s is concluded; there is no draw left to postpone.") % {"event": event}, rule="P4"
        )
    check_not_cancelled(licence, f"postponing draw {draw.number}")  # R:R5
    if draw.state not in BEFORE_WINNING_TICKET:
        raise RaffleError(
            gettext(
                "Draw %(number)s's winning ticket is already drawn; a draw is postponed before its ticket "
                "is drawn, never after."
            )
            % {"number": draw.number},
            rule="D9",
        )
    reason, notice_to = (reason or "").strip(), (notice_to or "").strip()
    if not reason:
        raise RaffleError(gettext("Say why the draw is postponed: the players and the licensing authority are told."))
    if not notice_to or notice_at is None or notice_method not in NotificationMethod.values:
        raise RaffleError(
            gettext("Record the notice given to the licensing authority: who was told, when and how."), rule="D9"
        )
    now = timezone.now()
    if notice_at > now + NOTICE_CLOCK_SLACK:
        raise RaffleError(
            gettext("The notice's time is in the future; record the postponement once the authority is told.")
        )
    if new_at is None or new_at <= draw.scheduled_at:
        raise RaffleError(
            gettext(
                "Draw %(number)s is advertised for %(advertised)s; a postponement moves it to a later date and time."
            )
            % {"number": draw.number, "advertised": advertised(draw.scheduled_at)},
            rule="D9",
        )
    if new_at <= now:
        raise RaffleError(gettext("The new date and time has already passed; give a time still to come."), rule="D9")
    later = list(event.draws.select_for_update().filter(number__gt=draw.number).order_by("number"))
    shift = new_at - draw.scheduled_at
    if later_draws_move:
        if any(d.state != DrawState.SCHEDULED for d in later):
            raise RaffleError(
                gettext("A draw after draw %(number)s has already started; it cannot be moved.")
                % {"number": draw.number}
            )
        moved = [(d, d.scheduled_at + shift) for d in later]
    else:
        moved = []
        following = (
            later[0].scheduled_at if later else schedule_base(draw) + datetime.timedelta(days=event.draw_interval_days)
        )
        if new_at >= following:
            raise RaffleError(
                gettext(
                    "The new time is not before draw %(value)s's (%(advertised)s); choose an earlier time, or "
                    "move the later draws with it."
                )
                % {"value": draw.number + 1, "advertised": advertised(following)},
                rule="D9",
            )
    last = max([new_at, *(at for _, at in moved)])
    if not licence_in_force_on(licence, timezone.localdate(last)):  # R:L8 an approved amendment of the dates included
        raise RaffleError(
            gettext(
                "Licence %(number)s expires on %(licence_expires_on)s; no draw can be held after it. "
                "Choose an earlier time, or ask the licensing authority for an amendment first."
            )
            % {
                "number": licence.number,
                "licence_expires_on": format(licence_expires_on(licence, timezone.localdate(last)), "%Y-%m-%d"),
            },
            rule="L8",
        )
    postponement = DrawPostponement.objects.create(
        draw=draw,
        postponed_from=draw.scheduled_at,
        postponed_to=new_at,
        reason=reason,
        notice_to=notice_to[:150],
        notice_at=notice_at,
        notice_method=notice_method,
        notice_reference=(notice_reference or "").strip()[:100],
        later_draws_move=later_draws_move,
        recorded_by=actor,
        recorded_at=now,
    )
    draw.scheduled_at = new_at
    draw.save(update_fields=["scheduled_at"])
    for later_draw, at in moved:
        later_draw.scheduled_at = at
        later_draw.save(update_fields=["scheduled_at"])
    audit_record(
        actor=actor,
        action="raffle.draw.postpone",
        obj=draw,
        data={
            "event": event.pk,
            "number": draw.number,
            "from": postponement.postponed_from,
            "to": new_at,
            "reason": reason,
            "notice_to": postponement.notice_to,
            "notice_at": notice_at,
            "notice_method": notice_method,
            "notice_reference": postponement.notice_reference,
            "later_draws_move": later_draws_move,
            "later_draws_moved": [d.number for d, _ in moved],
        },
    )
    return postponement


def amended_draw_time(event: Event, number: int, planned_at: datetime.datetime) -> datetime.datetime:
    """R:L3 R:D9 when draw `number`, planned for `planned_at`, is held: on the
    day an approved schedule amendment sets for it from its effective day, at
    the hall's hour; else as planned."""
    day = licence_amended_draw_day(event.licence, number, timezone.localdate(planned_at))
    if day is None:
        return planned_at
    return timezone.make_aware(datetime.datetime.combine(day, timezone.localtime(planned_at).time()))


def draws_follow_schedule_amendment(*, actor, amendment: LicenceAmendment) -> None:
    """R:L3 R:D9 an approved amendment of the draw schedule moves each draw
    still to be held on or after its effective day to the amended day (at the
    hall's hour); draws held before keep theirs. Runs in the approval's
    transaction (`licensing.services.register_amendment_follower`): a draw that
    would move into the past or before the draw ahead of it refuses the
    approval, and nothing changes."""
    if amendment.kind != AmendmentKind.SCHEDULE:
        return
    event = Event.objects.select_for_update().select_related("licence").filter(licence_id=amendment.licence_id).first()
    if event is None:  # no event yet: its draws are scheduled from the amendment as they come
        return
    now, ahead = timezone.now(), None
    for draw in event.draws.select_for_update().order_by("number"):
        if draw.state in BEFORE_WINNING_TICKET:
            new_at = amended_draw_time(event, draw.number, draw.scheduled_at)
            if new_at != draw.scheduled_at:
                if new_at <= now or (ahead is not None and new_at <= ahead):
                    if new_at <= now:
                        why = gettext(
                            "The amended schedule moves draw %(number)s to %(at)s, which has passed; correct the "
                            "amendment's dates before approving it."
                        )
                    else:
                        why = gettext(
                            "The amended schedule moves draw %(number)s to %(at)s, not after draw %(before)s's "
                            "time; correct the amendment's dates before approving it."
                        )
                    raise RaffleError(
                        why % {"number": draw.number, "at": advertised(new_at), "before": draw.number - 1},
                        rule="D9",
                    )
                moved_from, draw.scheduled_at = draw.scheduled_at, new_at
                draw.save(update_fields=["scheduled_at"])
                audit_record(
                    actor=actor,
                    action="raffle.draw.reschedule",
                    obj=draw,
                    data={
                        "event": event.pk,
                        "number": draw.number,
                        "from": moved_from,
                        "to": new_at,
                        "amendment": amendment.pk,
                        "approval_reference": amendment.approval_reference,
                        "effective_on": amendment.effective_on,
                    },
                )
        ahead = draw.held_or_due_at
