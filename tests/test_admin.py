import pytest
from django.urls import reverse

from raffle.models import Draw, DrawState
from tests.factories import SIGNATURES, UserFactory, members_for, name_members_in_charge, sell_tickets

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize(
    "model",
    [
        "licensing/organisation",
        "licensing/licence",
        "licensing/bonafidemember",
        "raffle/event",
        "raffle/draw",
        "raffle/envelope",
        "raffle/carddestruction",
        "core/auditentry",
        "licensing/eligibility",
        "licensing/application",
        "licensing/licenceamendment",
        "raffle/mustgoticket",
    ],
)
def test_every_changelist_opens(admin_client, event, model):
    response = admin_client.get(f"/admin/{model}/")
    assert response.status_code == 200


def test_a_draw_can_be_run_step_by_step_from_the_admin(admin_client, draw):
    url = reverse("admin:raffle_draw_step", args=[draw.pk])
    destroyer, verifier = members_for(draw.event)
    for data in [
        {},
        {"ticket_sales": "795"},
        {},
        {"serial": "SERIAL", "serial_again": "SERIAL"},
        {"envelope_number": "12"},
        {"card": "QD", "card_again": "QD"},
        {"destroyed_by": destroyer.pk, "verified_by": verifier.pk, **SIGNATURES},
    ]:
        if "ticket_sales" in data:  # the night's roll comes back: tickets worth $795 (T7)
            sell_tickets(Draw.objects.get(pk=draw.pk), actor=None, sales="795")
            name_members_in_charge(Draw.objects.get(pk=draw.pk))  # R:L13 before sales close
        if data.get("serial") == "SERIAL":
            data = {"serial": "100001", "serial_again": "100001"}
        response = admin_client.post(url, data, follow=True)
        assert response.status_code == 200
        assert not [m for m in response.context["messages"] if m.level_tag == "error"], data
    draw.refresh_from_db()
    assert draw.state == DrawState.CLOSED and draw.draw_prize == 159


def test_a_refused_step_shows_the_reason_and_changes_nothing(admin_client, draw):
    url = reverse("admin:raffle_draw_step", args=[draw.pk])
    admin_client.post(url, {})
    response = admin_client.post(url, {"ticket_sales": "-5"}, follow=True)
    assert "cannot be negative" in response.content.decode()
    draw.refresh_from_db()
    assert draw.state == DrawState.SELLING


def test_nothing_financial_can_be_deleted_or_edited(admin_client, draw):
    assert admin_client.get(f"/admin/raffle/draw/{draw.pk}/delete/").status_code == 403
    assert admin_client.get(f"/admin/licensing/licence/{draw.event.licence.pk}/delete/").status_code == 403
    response = admin_client.get(f"/admin/raffle/draw/{draw.pk}/change/")
    assert b'name="ticket_sales"' not in response.content


def test_a_sealed_envelope_shows_no_card(admin_client, event):  # R:E4
    envelope = event.envelopes.get(number=1)
    response = admin_client.get(f"/admin/raffle/envelope/{envelope.pk}/change/")
    assert b"sealed" in response.content


def test_the_home_and_event_pages_render(admin_client, event):
    assert admin_client.get("/").status_code == 200
    assert admin_client.get(f"/events/{event.pk}/").status_code == 200
