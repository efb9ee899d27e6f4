"""The auditor reads everything and changes nothing: every write view and
admin action answers 403 or is absent for that role."""

import pytest
from django.contrib import admin
from django.contrib.auth.models import Group
from django.urls import reverse

from core import roles
from core.models import AuditEntry
from raffle.models import DrawState, DrawVideo, RegistrarNotification
from tests.factories import PASSWORD, UserFactory, event_with_draw, members_for, run_draw

pytestmark = pytest.mark.django_db


@pytest.fixture
def auditor(db):
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name=roles.AUDITOR))
    return user


@pytest.fixture
def auditor_client(client, auditor):
    client.force_login(auditor)
    return client


@pytest.fixture
def records(staff_user):
    """One of everything, so every admin page has an object to refuse."""
    paper = event_with_draw(actor=staff_user)
    electronic = event_with_draw(actor=staff_user, deck_kind="electronic")
    run_draw(paper.draws.get(number=1), actor=staff_user)
    # An envelope without the ace, so the electronic event goes on to draw 2 (its deck is shuffled).
    not_the_ace = electronic.envelopes.exclude(card="AS").order_by("number").first().number
    run_draw(electronic.draws.get(number=1), actor=staff_user, envelope=not_the_ace)
    run_draw(paper.draws.get(number=2), actor=staff_user, until=DrawState.CARD_REVEALED)
    from django.utils import timezone

    from raffle import services

    services.video_register(
        actor=staff_user,
        draw=paper.draws.get(number=1),
        resolution_lines=720,
        duration="30:00",
        held_by="Pat",
        location="safe",
    )
    services.registrar_notification_record(
        actor=staff_user,
        event=paper,
        occurred_on=timezone.localdate(),
        kind="other",
        description="x",
        method="email",
        notified_at=timezone.now(),
    )
    return paper, electronic


def _registered():
    return [(model, model_admin) for model, model_admin in admin.site._registry.items()]


def test_the_auditor_can_read_every_record_of_the_raffle(auditor_client, records):
    for model, _ in _registered():
        if model._meta.app_label not in ("core", "licensing", "raffle"):
            continue
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert auditor_client.get(url).status_code == 200, url
        obj = model.objects.first()
        if obj is not None:
            url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
            assert auditor_client.get(url).status_code == 200, url


def test_no_admin_page_lets_the_auditor_add_change_delete_or_run_an_action(auditor_client, records):
    for model, _ in _registered():
        info = (model._meta.app_label, model._meta.model_name)
        assert auditor_client.get(reverse("admin:{}_{}_add".format(*info))).status_code == 403, info
        assert auditor_client.post(reverse("admin:{}_{}_add".format(*info)), {}).status_code == 403, info
        obj = model.objects.first()
        if obj is not None:
            assert (
                auditor_client.post(reverse("admin:{}_{}_change".format(*info), args=[obj.pk]), {}).status_code == 403
            ), info
            assert auditor_client.get(reverse("admin:{}_{}_delete".format(*info), args=[obj.pk])).status_code == 403, (
                info
            )
            assert (
                auditor_client.post(
                    reverse("admin:{}_{}_delete".format(*info), args=[obj.pk]), {"post": "yes"}
                ).status_code
                == 403
            ), info
        changelist = auditor_client.get(reverse("admin:{}_{}_changelist".format(*info)))
        if changelist.status_code == 200:
            assert changelist.context["action_form"] is None, info  # no action is offered
        else:
            assert changelist.status_code == 403, info


def test_the_auditor_cannot_run_a_draw_step_from_the_admin(auditor_client, records, staff_user):
    paper, _ = records
    draw = paper.draws.get(number=2)
    destroyer, verifier = members_for(paper)
    url = reverse("admin:raffle_draw_step", args=[draw.pk])
    assert auditor_client.get(url).status_code == 200  # may look
    response = auditor_client.post(
        url,
        {
            "destroyed_by": destroyer.pk,
            "verified_by": verifier.pk,
            "destroyer_password": PASSWORD,
            "verifier_password": PASSWORD,
        },
    )
    assert response.status_code == 403
    draw.refresh_from_db()
    assert draw.state == DrawState.CARD_REVEALED
    _, electronic = records
    scheduled = electronic.draws.get(number=2)
    before = AuditEntry.objects.count()
    for action in ("open_sales", "announce", "delete_selected"):
        auditor_client.post(
            reverse("admin:raffle_draw_changelist"),
            {"action": action, "_selected_action": [scheduled.pk], "post": "yes"},
        )
    scheduled.refresh_from_db()
    assert scheduled.state == DrawState.SCHEDULED and AuditEntry.objects.count() == before


def test_the_auditor_reads_the_registers_but_every_write_is_refused(auditor_client, records):  # R:D4 R:D6
    paper, electronic = records
    before = AuditEntry.objects.count()
    reads = [
        reverse("audit_trail"),
        reverse("audit_destructions", args=[paper.pk]),
        reverse("audit_destructions", args=[paper.pk]) + "?format=csv",
        reverse("audit_destructions", args=[paper.pk]) + "?format=pdf",
        reverse("audit_videos", args=[paper.pk]),
        reverse("audit_registrar", args=[paper.pk]),
        reverse("deck_public", args=[electronic.pk]),
        reverse("event_detail", args=[paper.pk]),
    ]
    for url in reads:
        response = auditor_client.get(url)
        assert response.status_code == 200, url
        assert b'<form method="post" enctype' not in response.content and b"Add to the register" not in response.content
    video = auditor_client.post(
        reverse("audit_videos", args=[paper.pk]),
        {
            "draw": paper.draws.get(number=2).pk,
            "resolution_lines": "1080",
            "duration": "10:00",
            "held_by": "x",
            "location": "y",
        },
    )
    registrar = auditor_client.post(
        reverse("audit_registrar", args=[paper.pk]),
        {
            "occurred_on": "2026-01-01",
            "kind": "other",
            "description": "x",
            "method": "email",
            "notified_at": "2026-01-02T10:00",
        },
    )
    assert video.status_code == 403 and registrar.status_code == 403
    assert DrawVideo.objects.count() == 1 and RegistrarNotification.objects.count() == 1
    assert AuditEntry.objects.count() == before


def test_the_auditor_role_holds_view_permissions_only(auditor):
    codenames = set(Group.objects.get(name=roles.AUDITOR).permissions.values_list("codename", flat=True))
    assert codenames and all(code.startswith("view_") for code in codenames)
    assert {
        "view_auditentry",
        "view_carddestruction",
        "view_deckcommitment",
        "view_drawvideo",
        "view_registrarnotification",
    } <= codenames


def test_the_auditor_cannot_cancel_a_licence_from_the_admin(auditor_client, records):
    from licensing.models import LicenceStatus

    paper, _ = records
    licence = paper.licence
    before = AuditEntry.objects.count()
    auditor_client.post(
        reverse("admin:licensing_licence_changelist"), {"action": "cancel_licences", "_selected_action": [licence.pk]}
    )
    licence.refresh_from_db()
    assert licence.status == LicenceStatus.ACTIVE and AuditEntry.objects.count() == before
