"""Two real PostgreSQL connections acting at once (RULES D8)."""

import threading

import pytest
from django.db import connection

from core.errors import DomainError
from raffle import services
from raffle.models import Draw, DrawState
from tests.factories import UserFactory, event_with_draw, run_draw, sell_tickets


def _race(n_workers, work):
    """Start `n_workers` threads (each its own connection) at one barrier."""
    barrier = threading.Barrier(n_workers)
    results = []
    lock = threading.Lock()

    def worker(i):
        try:
            barrier.wait()
            outcome = ("ok", work(i))
        except DomainError as error:
            outcome = ("refused", str(error))
        except Exception as error:  # pragma: no cover - shown in the assertion
            outcome = ("crashed", repr(error))
        finally:
            connection.close()
        with lock:
            results.append(outcome)

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n_workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.mark.django_db(transaction=True)
def test_two_connections_closing_the_same_draw_give_exactly_one_success():  # R:D8
    user = UserFactory()
    event = event_with_draw(actor=user)
    draw = run_draw(event.draws.get(number=1), actor=user, until=DrawState.SELLING)
    sell_tickets(draw, actor=user, sales="100.00")
    amounts = ["100.00", None]  # a counted total, and none: both close on the tickets' $100

    results = _race(2, lambda i: services.draw_close_sales(actor=user, draw=draw, ticket_sales=amounts[i]))

    kinds = sorted(kind for kind, _ in results)
    assert kinds == ["ok", "refused"], results
    assert any("already done" in message for kind, message in results if kind == "refused")
    draw = Draw.objects.get(pk=draw.pk)
    event.refresh_from_db()
    # The jackpot moved once, by the winner's amount only.
    assert event.jackpot == draw.jackpot_contribution
    assert draw.ticket_sales == __import__("decimal").Decimal("100.00")


@pytest.mark.django_db(transaction=True)
def test_two_staff_choosing_envelopes_at_once_cannot_both_succeed():  # R:D8
    user = UserFactory()
    event = event_with_draw(actor=user)
    draw = run_draw(event.draws.get(number=1), actor=user, until=DrawState.TICKET_DRAWN)

    results = _race(2, lambda i: services.draw_choose_envelope(actor=user, draw=draw, envelope_number=10 + i))

    assert sorted(kind for kind, _ in results) == ["ok", "refused"], results
    assert Draw.objects.get(pk=draw.pk).envelope.number in (10, 11)
