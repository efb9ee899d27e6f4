"""The licensing authority's approval of the Rules of Play (date and
reference) is recorded before the first sale, printed in them, and asked
again when the rules change (RULES R4)."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from core import roles
from raffle import services
from raffle.errors import RaffleError
from raffle.models import DrawState, Event
from raffle.rules_of_play import rules_of_play
from tests.factories import LicenceFactory, event_with_draw, run_draw, user_with_role

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate()


def _text(event) -> str:
    return " ".join(" ".join(s.paragraphs + s.items) for s in rules_of_play(event)["sections"])


@pytest.fixture
def unapproved(staff_user):
    licence = LicenceFactory(authority_name="City of Owen Sound")
    return event_with_draw(actor=staff_user, licence=licence, rules_approved_on=None, rules_approval_reference="")


def test_no_ticket_is_sold_before_the_approval_is_recorded_on_the_rules_page(client, staff_user, unapproved):  # R:R4
    event = unapproved
    assert "await the approval of City of Owen Sound; no ticket is sold before it" in _text(event)
    with pytest.raises(RaffleError, match="Record the licensing authority's approval of the Rules of Play") as refused:
        services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    assert refused.value.rule == "R4"
    assert event.draws.get(number=1).state == DrawState.SCHEDULED

    client.force_login(user_with_role(roles.TREASURER))
    url = reverse("exit_strategy", args=[event.pk])
    assert "no ticket can be sold until" in client.get(url).content.decode()
    response = client.post(
        url,
        {"action": "approval", "approved_on": (TODAY - datetime.timedelta(days=3)).isoformat(), "reference": "LL-044"},
        follow=True,
    )
    assert "The approval of the Rules of Play is recorded." in response.content.decode()
    event = Event.objects.get(pk=event.pk)
    day = TODAY - datetime.timedelta(days=3)
    assert f"approved by City of Owen Sound on {day:%B %-d, %Y} (reference LL-044)" in _text(event)
    draw = services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    assert draw.state == DrawState.SELLING


def test_changed_rules_need_the_authoritys_approval_again(staff_user):  # R:R4
    event = event_with_draw(actor=staff_user)
    assert event.rules_approved_on is not None
    event = services.event_update_rules(actor=staff_user, event=event, claim_period_days=30)
    assert event.rules_approved_on is None and event.rules_approval_reference == ""
    with pytest.raises(RaffleError, match="approval of the Rules of Play") as refused:
        services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1))
    assert refused.value.rule == "R4"
    services.event_record_rules_approval(actor=staff_user, event=event, approved_on=TODAY, reference="RP-2")
    assert services.draw_open_sales(actor=staff_user, draw=event.draws.get(number=1)).state == DrawState.SELLING


def test_the_approval_is_a_real_one_and_fixed_once_tickets_are_sold(staff_user, unapproved):  # R:R4
    event = unapproved
    for approved_on, reference in ((TODAY + datetime.timedelta(days=1), "RP-1"), (TODAY, " ")):
        with pytest.raises(RaffleError):
            services.event_record_rules_approval(
                actor=staff_user, event=event, approved_on=approved_on, reference=reference
            )
    assert Event.objects.get(pk=event.pk).rules_approved_on is None
    services.event_record_rules_approval(actor=staff_user, event=event, approved_on=TODAY, reference="RP-1")
    run_draw(event.draws.get(number=1), actor=staff_user, until=DrawState.SELLING)
    with pytest.raises(RaffleError, match="approval of its Rules of Play was due before the first sale") as refused:
        services.event_record_rules_approval(actor=staff_user, event=event, approved_on=TODAY, reference="RP-9")
    assert refused.value.rule == "R4"
    assert Event.objects.get(pk=event.pk).rules_approval_reference == "RP-1"
