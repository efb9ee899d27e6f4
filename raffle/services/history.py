"""The import of a running raffle's history from another system's records
(the draw ledger, `raffle.reports.ledger`): all rows or none.

Each imported draw is closed by the same steps a live draw runs: its sales
closed at the figures of `close_sales_figures` written by `sales_close_write`,
its envelope opened on its card, then the jackpot rolled over
(`roll_over_write`) or, on the Ace of Spades, awarded (`jackpot_award_write`)
and the event and licence concluded (`event_conclude`); the draw machine
records it along the step table (`draw_machine.record_history`). So the
import and draw night can never disagree.
"""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.errors import DomainError
from licensing.models import Licence
from raffle.cards import ACE_OF_SPADES
from raffle.errors import RaffleError
from raffle.models import Draw, Envelope, Event
from raffle.reports.ledger import ImportPlan, ImportRefused, PlannedDraw, plan_import
from raffle.services import draw_machine
from raffle.services.draw_sales import close_sales_figures, sales_close_write
from raffle.services.draws import event_conclude, jackpot_award_write, roll_over_write, schedule_next_draw
from raffle.services.schedule import advertised


def _scheduled_at(event: Event, day: datetime.date) -> datetime.datetime:
    at = timezone.localtime(event.first_draw_at).time()
    return timezone.make_aware(datetime.datetime.combine(day, at))


def _held_at(draw: Draw, event: Event, day: datetime.date) -> datetime.datetime:
    """R:D9 when the record says the draw was held: on its day, at the time
    advertised here for that day (else the event's usual hour). Refused when
    that is before the time this system advertised for the draw, or still to
    come (a winning ticket is never drawn before its draw's time)."""
    advertised_here = draw.scheduled_at if draw.pk else None
    if advertised_here and timezone.localdate(advertised_here) == day:
        return advertised_here
    at = _scheduled_at(event, day)
    if advertised_here and at < advertised_here:
        raise RaffleError(
            gettext(
                "Draw %(number)s is advertised here for %(advertised)s, but the record says it was held on "
                "%(day)s, before that: a draw is never held before its advertised time. Check the record's "
                "date (or the first draw's date the event was set up with)."
            )
            % {"number": draw.number, "advertised": advertised(advertised_here), "day": format(day, "%Y-%m-%d")},
            rule="D9",
        )
    if at > timezone.now():
        raise RaffleError(
            gettext(
                "Draw %(number)s is dated %(advertised)s, which is still to come: a draw is imported once "
                "it has been held, never before its time."
            )
            % {"number": draw.number, "advertised": advertised(at)},
            rule="D9",
        )
    return at


def _import_draw(*, event: Event, row: PlannedDraw, draw: Draw, envelope: Envelope) -> Draw:
    """One row: the draw closed and decided as a live draw is, stamped with its date."""
    at = _held_at(draw, event, row.date)
    draw.scheduled_at, draw.is_imported = at, True
    draw.save()
    draw.event = event
    # R:P1 jackpot before: the event's, carried; R:L3 the prize board and sales plan of the draw's day.
    figures = close_sales_figures(draw, ticket_sales=row.sales, on=row.date)
    fields = sales_close_write(event=event, draw=draw, figures=figures)
    envelope.card, envelope.opened_at, envelope.opened_in_draw = row.card, at, draw
    envelope.save(update_fields=["card", "opened_at", "opened_in_draw"])
    draw.envelope = envelope
    draw.held_at = at  # R:D9 held when its record says
    fields += jackpot_award_write(draw) if row.card == ACE_OF_SPADES else roll_over_write(draw)
    return draw_machine.record_history(draw=draw, at=at, since="close_sales", fields=(*fields, "envelope", "held_at"))


@transaction.atomic
def history_import(
    *, actor, licence: Licence, text: str, opening_jackpot=None, dry_run: bool = False, accept_mismatches: bool = False
) -> ImportPlan:
    """Import a running raffle's draws, all or none. Imported draws are closed,
    marked `is_imported`, carry their sales as totals and have no tickets; the
    draw after them is scheduled and runs normally."""
    event = Event.objects.select_for_update().filter(licence=licence).first()
    if event is None:
        raise ImportRefused([f"licence {licence.number} has no event yet; set the event up first"])
    plan = plan_import(event, text, opening_jackpot=opening_jackpot)
    if plan.mismatches and not accept_mismatches:
        raise ImportRefused(
            plan.mismatches
            + [
                "the published figures differ from the ones computed with the event's rounding rule "
                f"({event.get_rounding_display().lower()}) and opening jackpot {plan.opening_jackpot}; check them, "
                "or import anyway with the computed figures (--accept-mismatches)"
            ]
        )
    if dry_run:
        return plan
    locked_licence = Licence.objects.select_for_update().get(pk=licence.pk) if plan.concludes else None
    existing = {
        d.number: d
        for d in Draw.objects.select_for_update().filter(event=event, number__in=[r.number for r in plan.rows])
    }
    envelopes = {
        e.number: e
        for e in Envelope.objects.select_for_update().filter(event=event, number__in=[r.envelope for r in plan.rows])
    }
    event.jackpot = plan.opening_jackpot  # the jackpot the first imported draw starts from
    for row in plan.rows:
        try:
            draw = _import_draw(
                event=event,
                row=row,
                draw=existing.get(row.number) or Draw(event=event, number=row.number),
                envelope=envelopes[row.envelope],
            )
        except DomainError as error:
            raise ImportRefused([f"row {row.line} (draw {row.number}): {error}"]) from None
    last = plan.rows[-1]
    if plan.concludes:  # R:P4 an imported Ace of Spades concludes the event like the live flow
        event_conclude(
            actor=actor,
            event=event,
            licence=locked_licence,
            draw=draw,
            reason=f"Ace of Spades found in imported draw {last.number}",
        )
    audit_record(
        actor=actor,
        action="raffle.history.import",
        obj=event,
        data={
            "licence": licence.number,
            "draws": [r.number for r in plan.rows],
            "opening_jackpot": plan.opening_jackpot,
            "jackpot_after": last.jackpot_after,
            "ticket_sales": sum((r.sales for r in plan.rows), 0),
            "mismatches_accepted": plan.mismatches,
        },
    )
    if not plan.concludes:
        schedule_next_draw(event=event, after=draw, actor=actor)
    plan.imported = True
    return plan
