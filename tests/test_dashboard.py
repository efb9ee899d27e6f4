"""The event dashboard's warnings: the prize board (L3) and unfilmed draws (D4)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from core import roles
from licensing.models import AuthorityKind, SalesChannel
from tests.factories import LicenceFactory, event_with_draw, members_for, run_draw, user_with_role

pytestmark = pytest.mark.django_db


def _dashboard(client, event) -> str:
    client.force_login(user_with_role(roles.TREASURER))
    return client.get(reverse("event_dashboard", args=[event.pk])).content.decode()


def test_the_dashboard_warns_at_75_and_90_percent_of_the_prize_board(client, staff_user):  # R:L3
    licence = LicenceFactory(
        authority_kind=AuthorityKind.MUNICIPALITY, sales_channel=SalesChannel.PAPER_ROLL, prize_board=Decimal("1000.00")
    )
    event = event_with_draw(actor=staff_user, licence=licence)
    destroyer, verifier = members_for(event)
    run_draw(event.draws.get(number=1), actor=staff_user, sales="1500", destroyer=destroyer, verifier=verifier)
    page = _dashboard(client, event)
    assert "75% of the prize board is used" in page and "$750.00" in page
    run_draw(event.draws.get(number=2), actor=staff_user, sales="300", destroyer=destroyer, verifier=verifier)
    page = _dashboard(client, event)
    assert "90% of the prize board is used" in page and "must-go final draw" in page


def test_the_dashboard_flags_paper_draws_without_a_registered_video(client, staff_user, event):  # R:D4
    run_draw(event.draws.get(number=1), actor=staff_user)
    page = _dashboard(client, event)
    assert "Draws without a registered video" in page and "draw 1 (" in page


def test_the_dashboard_lists_overdue_and_upcoming_deadlines_from_the_treasury_list(client, staff_user, event):
    run_draw(event.draws.get(number=1), actor=staff_user)
    page = _dashboard(client, event)
    assert "Draw 1: unsold and non-winning tickets may be destroyed from today" in page  # R:T6
    assert f"Licence {event.licence.number} expires" in page
