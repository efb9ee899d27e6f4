"""The deadlines' iCalendar feed, built with the `icalendar` library, reads
back as the same deadlines: text escaped, dates as dates, UIDs stable
(RULES R1, R2, R5, T6)."""

import datetime

import icalendar
from django.utils import timezone, translation

from core import roles
from licensing.services import licence_cancel
from raffle.reports.deadlines import deadlines_ics, event_deadlines
from tests.factories import event_with_closed_draws, user_with_role


def test_the_feed_reads_back_as_the_deadlines(treasurer):  # R:R1 R:R5 R:T6
    event, draws = event_with_closed_draws(["100.00"] * 5, actor=treasurer)
    licence_cancel(actor=treasurer, licence=event.licence, reason="Hall closed")
    event.refresh_from_db()
    event.name = "Catch the Ace; Owen Sound, 2026"  # a semicolon and a comma to escape
    deadlines = event_deadlines(event)
    whats = [d.what for d in deadlines]
    assert "Final report" in whats  # R:R5 a licence that ends without the Ace still owes its final report
    assert "Four-draw report 2 (draws 5–8) and its fee" in whats
    text = deadlines_ics(event, deadlines, host="raffle.example.org")
    calendar = icalendar.Calendar.from_ical(text)
    assert str(calendar["x-wr-calname"]) == "Catch the Ace; Owen Sound, 2026 deadlines"
    events = list(calendar.walk("VEVENT"))
    assert [str(e["summary"]) for e in events] == whats
    assert [e.decoded("dtstart") for e in events] == [d.on for d in deadlines]
    assert all(isinstance(e.decoded("dtstart"), datetime.date) for e in events)
    final = next(e for e in events if str(e["summary"]) == "Final report")
    assert final.decoded("dtstart") == timezone.localdate(draws[-1].scheduled_at) + datetime.timedelta(days=30)
    again = icalendar.Calendar.from_ical(deadlines_ics(event, event_deadlines(event), host="raffle.example.org"))
    assert [str(e["uid"]) for e in again.walk("VEVENT")] == [str(e["uid"]) for e in events]
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def test_a_french_reader_gets_the_deadlines_in_french_with_the_same_calendar_uids(treasurer, client):  # R:R1 R:T6
    """#16 the dashboard's and treasury's deadlines in the reader's language; the
    feed's UIDs come from the English words, so a calendar subscribed in either
    language updates the same events."""
    event, _ = event_with_closed_draws(["100.00"] * 4, actor=treasurer)
    english = event_deadlines(event)
    with translation.override("fr"):
        french = event_deadlines(event)
    assert "Rapport de quatre tirages 1 (tirages 1 à 4) et ses droits" in [d.what for d in french]
    assert any("peuvent être détruits" in d.what for d in french)
    assert all(d.key == e.what for d, e in zip(french, english, strict=True))
    assert [d.uid("L-1", "h") for d in french] == [d.uid("L-1", "h") for d in english]
    client.force_login(user_with_role(roles.TREASURER))
    page = client.get(f"/events/{event.pk}/dashboard/", HTTP_ACCEPT_LANGUAGE="fr-CA").content.decode()
    assert "les billets invendus et non gagnants peuvent être détruits" in page
    assert "unsold and non-winning tickets" not in page
