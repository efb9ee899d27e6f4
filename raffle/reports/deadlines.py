"""What the treasurer must do by when: reports due or overdue (R1, R2), the
first day unsold and non-winning tickets may be destroyed (T6), the end of
video retention (D4), unclaimed prizes' six-month date (P5) and the licence's
expiry, and any audited financial statement the Registrar asked for (R3).
Also as an iCalendar feed (RFC 5545, built with the `icalendar` library)."""

import datetime
import hashlib
from dataclasses import dataclass

import icalendar
from django.conf import settings
from django.db.models import Exists, OuterRef
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_noop

from licensing.models import AuditedStatementRequest, IssuedReport, ReportKind, SalesChannel
from licensing.terms import LicenceAmendmentsRead
from raffle.models import Draw, DrawState, Event, UnclaimedPrize
from raffle.reports.builders import (
    DRAWS_PER_PERIOD,
    FOUR_DRAW_DUE_DAYS,
    final_report_due,
    licence_end,
    period_of,
    report_day,
)

TICKET_KEEP_DAYS = 30  # R:T6
VIDEO_KEEP_DAYS = 30  # R:D4

# A deadline's status, translated where a page shows it (`{% translate status %}`).
STATUS_WORDS = (gettext_noop("done"), gettext_noop("past"), gettext_noop("due soon"), gettext_noop("upcoming"))


@dataclass
class Deadline:
    on: datetime.date
    what: str  # in the reader's language
    kind: str  # report, tickets, video, prize, licence
    done: bool = False
    rule: str = ""
    key: str = ""  # `what` in English: the calendar UID, whatever the reader's language

    def status(self, today: datetime.date) -> str:
        if self.done:
            return "done"
        if self.on < today:
            return "overdue" if self.kind in ("report", "licence") else "past"
        if (self.on - today).days <= 7:
            return "due soon"
        return "upcoming"

    def uid(self, licence_number: str, host: str) -> str:
        """Stable across feeds, so a calendar updates the event instead of adding a copy."""
        digest = hashlib.sha256(f"{licence_number}|{self.kind}|{self.key or self.what}".encode()).hexdigest()[:16]
        return f"{digest}@{host}"


def _said(msgid: str, **params) -> dict:
    """A deadline's words in the reader's language (`what`) and in English
    (`key`), so a French reader's calendar keeps the UIDs an English one has."""
    return {"what": gettext(msgid) % params, "key": msgid % params}


def _corrections_due(on_file: list[IssuedReport]) -> list[Deadline]:
    """R:R1 R:R2 a report the licensing officer sent back is due again,
    corrected: by the day the officer gave, else at once. Done once the
    corrected version is issued (it replaces the returned one)."""
    out = []
    for report in on_file:
        returned = getattr(report, "return_record", None)
        if returned is None:
            continue
        said = {
            "file_format": report.file_format.upper(),
            "version": report.version + 1,
            "returned_by": returned.returned_by,
            "returned_on": f"{returned.returned_on:%Y-%m-%d}",
        }
        if report.kind == ReportKind.FINAL:
            words = _said(
                gettext_noop(
                    "Final report, corrected (%(file_format)s version %(version)s): "
                    "sent back by %(returned_by)s on %(returned_on)s"
                ),
                **said,
            )
        else:
            words = _said(
                gettext_noop(
                    "Four-draw report %(period)s, corrected (%(file_format)s version %(version)s): "
                    "sent back by %(returned_by)s on %(returned_on)s"
                ),
                period=report.period,
                **said,
            )
        out.append(
            Deadline(
                returned.refile_by or returned.returned_on,
                kind="report",
                **words,
                done=report.superseded,
                rule="R2" if report.kind == ReportKind.FINAL else "R1",
            )
        )
    return out


def event_deadlines(
    event: Event, *, today: datetime.date | None = None, reports_only: bool = False, closed: list[Draw] | None = None
) -> list[Deadline]:
    """Every deadline of the event's licence, by date; `reports_only`: the
    four-draw and final reports alone (R1, R2), what a new application lists;
    `closed`: the event's closed draws, when the page has read them."""
    today = today or timezone.localdate()
    licence = event.licence
    if closed is None:
        closed = Draw.objects.filter(event=event, state=DrawState.CLOSED).order_by("number")
    draws = [d for d in closed if d.state == DrawState.CLOSED]
    on_file = list(
        IssuedReport.objects.filter(licence=licence)
        .annotate(superseded=Exists(IssuedReport.objects.filter(replaces=OuterRef("pk"))))
        .select_related("return_record")
        .order_by("kind", "period", "file_format", "version")
    )
    issued = {(r.kind, r.period) for r in on_file}
    out: list[Deadline] = []
    by_period: dict[int, list[Draw]] = {}
    amended = None if reports_only else LicenceAmendmentsRead(licence)
    expires_on = amended.expires_on(today) if amended else None
    ended = bool(licence_end(event, today=today, expires_on=expires_on))
    for d in draws:
        by_period.setdefault(period_of(d.number), []).append(d)
        day = report_day(d)
        if amended is not None and not d.is_imported:
            out.append(
                Deadline(
                    day + datetime.timedelta(days=TICKET_KEEP_DAYS),
                    kind="tickets",
                    **_said(
                        gettext_noop("Draw %(number)s: unsold and non-winning tickets may be destroyed from today"),
                        number=d.number,
                    ),
                    rule="T6",
                )
            )
            # R:D4 a draw sold on paper is filmed: the channel in force on its day (an amendment to
            # electronic in-person sales holds from its effective day, L5), not the channel granted.
            if amended.channel_on(timezone.localdate(d.scheduled_at)) in SalesChannel.paper():
                out.append(
                    Deadline(
                        day + datetime.timedelta(days=VIDEO_KEEP_DAYS),
                        kind="video",
                        **_said(
                            gettext_noop("Draw %(number)s: the draw video may be deleted from today"), number=d.number
                        ),
                        rule="D4",
                    )
                )
    for period, period_draws in by_period.items():
        if len(period_draws) == DRAWS_PER_PERIOD or ended:
            last = report_day(period_draws[-1])
            first = DRAWS_PER_PERIOD * period - 3
            out.append(
                Deadline(
                    last + datetime.timedelta(days=FOUR_DRAW_DUE_DAYS),
                    kind="report",
                    **_said(
                        gettext_noop("Four-draw report %(period)s (draws %(first)s–%(last)s) and its fee"),
                        period=period,
                        first=first,
                        last=first + 3,
                    ),
                    done=(ReportKind.FOUR_DRAW, period) in issued,
                    rule="R1",
                )
            )
    out += _corrections_due(on_file)
    if ended:  # R:R5 however the licence ended, with or without a draw held
        out.append(
            Deadline(
                final_report_due(event, report_day(draws[-1]) if draws else None, today=today, expires_on=expires_on),
                kind="report",
                **_said(gettext_noop("Final report")),
                done=(ReportKind.FINAL, None) in issued,
                rule="R2",
            )
        )
    if amended is None:
        return sorted(out, key=lambda d: (d.on, d.what))
    for prize in UnclaimedPrize.objects.filter(draw__event=event).select_related("draw"):
        msgid = gettext_noop("Unclaimed %(prize)s of draw %(number)s may join the gross proceeds")
        with translation.override("en"):
            key = msgid % {"prize": prize.get_kind_display().lower(), "number": prize.draw.number}
        out.append(
            Deadline(
                prize.hold_until,
                gettext(msgid) % {"prize": prize.get_kind_display().lower(), "number": prize.draw.number},
                "prize",
                key=key,
                done=prize.added_to_proceeds_on is not None,
                rule="P5",
            )
        )
    for request in AuditedStatementRequest.objects.filter(licence=licence):
        out.append(
            Deadline(
                request.due_on,
                kind="report",
                **_said(
                    gettext_noop("Audited financial statement requested by %(by)s on %(on)s"),
                    by=request.requested_by,
                    on=f"{request.requested_on:%Y-%m-%d}",
                ),
                done=request.delivered_on is not None,
                rule="R3",
            )
        )
    out.append(
        Deadline(
            amended.last_day(),  # R:L8 as amended
            kind="licence",
            **_said(gettext_noop("Licence %(number)s expires"), number=licence.number),
            done=event.is_concluded,
            rule="L8",
        )
    )
    return sorted(out, key=lambda d: (d.on, d.what))


def deadlines_ics(event: Event, deadlines: list[Deadline], *, host: str = "catch-the-ace") -> str:
    """The deadlines as an iCalendar feed (RFC 5545) built by the `icalendar`
    library: escaping, line folding and value types as calendar clients expect.
    Each deadline is an all-day event with a UID stable across feeds, so a
    subscribed calendar updates it instead of adding a copy; a deadline met
    is sent as CANCELLED."""
    licence = event.licence
    calendar = icalendar.Calendar()
    calendar.add("version", "2.0")
    calendar.add("prodid", "-//Catch the Ace//Treasury deadlines//EN")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", f"{event.name} deadlines")
    calendar.add("x-wr-timezone", settings.TIME_ZONE)
    stamp = timezone.now().astimezone(datetime.UTC).replace(microsecond=0)
    for d in deadlines:
        entry = icalendar.Event()
        entry.add("uid", d.uid(licence.number, host))
        entry.add("dtstamp", stamp)
        entry.add("dtstart", d.on)
        entry.add("dtend", d.on + datetime.timedelta(days=1))
        entry.add("summary", d.what)
        entry.add("description", f"{licence.number}, {licence.organisation.name}. Rule {d.rule}.")
        entry.add("categories", [d.kind.upper()])
        entry.add("status", "CANCELLED" if d.done else "CONFIRMED")
        entry.add("transp", "TRANSPARENT")
        calendar.add_component(entry)
    return calendar.to_ical().decode()
