"""The video register of paper draws (RULES D4)."""

import datetime

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from raffle import selectors, services
from raffle.errors import RaffleError
from raffle.models import DrawState, DrawVideo
from tests.factories import UserFactory, event_with_draw, run_draw

pytestmark = pytest.mark.django_db

ALL_SHOTS = {
    "shows_ticket_selection": True,
    "shows_envelope_selection": True,
    "shows_card_reveal": True,
    "shows_card_destruction": True,
}


@pytest.fixture
def drawn(draw, staff_user):
    return run_draw(draw, actor=staff_user)


def _register(draw, actor, **overrides):
    kwargs = {
        "resolution_lines": 1080,
        "duration": "42:30",
        "held_by": "Pat Secretary",
        "location": "USB drive 3, office safe",
        **ALL_SHOTS,
        **overrides,
    }
    return services.video_register(actor=actor, draw=draw, **kwargs)


def test_a_video_under_720p_is_refused(drawn, staff_user):  # R:D4
    with pytest.raises(RaffleError, match="at least 720p"):
        _register(drawn, staff_user, resolution_lines=480)
    assert not DrawVideo.objects.exists()


def test_the_database_refuses_a_video_under_720p_too(drawn, staff_user):  # R:D4
    video = _register(drawn, staff_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        DrawVideo.objects.filter(pk=video.pk).update(resolution_lines=719)


def test_a_720p_video_is_registered_with_its_details_and_audited(drawn, staff_user):  # R:D4
    video = _register(drawn, staff_user, resolution_lines="720p", duration="1:02:03")
    assert video.resolution_lines == 720 and video.duration == datetime.timedelta(hours=1, minutes=2, seconds=3)
    assert video.keep_until == timezone.localdate(drawn.card_revealed_at) + datetime.timedelta(days=30)
    assert not video.missing_shots
    entry = AuditEntry.objects.get(action="raffle.video.register")
    assert entry.data["resolution_lines"] == 720 and entry.data["reference"] == "USB drive 3, office safe"


def test_a_deletion_date_less_than_30_days_after_the_draw_is_refused(drawn, staff_user):  # R:D4
    too_soon = timezone.localdate(drawn.card_revealed_at) + datetime.timedelta(days=29)
    with pytest.raises(RaffleError, match="at least 30 days"):
        _register(drawn, staff_user, keep_until=too_soon)


def test_a_video_needs_a_file_or_a_location(drawn, staff_user):  # R:D4
    with pytest.raises(RaffleError, match="Upload the recording"):
        _register(drawn, staff_user, location="")
    video = _register(drawn, staff_user, location="", file=SimpleUploadedFile("draw1.mp4", b"\x00" * 64))
    assert video.file.name.endswith(".mp4") and video.reference == video.file.name


def test_the_auditor_downloads_a_recording_kept_by_the_application(event, drawn, staff_user, client):  # R:D4
    video = _register(drawn, staff_user, location="", file=SimpleUploadedFile("draw1.mp4", b"\x01" * 64))
    user = UserFactory(is_staff=True)
    user.groups.add(roles_group(roles.AUDITOR))
    client.force_login(user)
    page = client.get(reverse("audit_videos", args=[event.pk])).content.decode()
    url = reverse("audit_video_file", args=[event.pk, video.pk])
    assert url in page
    response = client.get(url)
    assert response.status_code == 200 and b"".join(response.streaming_content) == b"\x01" * 64


def test_a_video_cannot_be_registered_before_the_draw(draw, staff_user):  # R:D4
    with pytest.raises(RaffleError, match="has not taken place"):
        _register(draw, staff_user)


def test_an_electronic_draw_has_no_video(staff_user):  # R:D4 R:D5
    event = event_with_draw(actor=staff_user, deck_kind="electronic")
    draw = run_draw(event.draws.get(number=1), actor=staff_user)
    with pytest.raises(RaffleError, match="Only paper draws"):
        _register(draw, staff_user)
    assert not selectors.draws_needing_video(event).exists()


def test_missing_shots_are_listed(drawn, staff_user):  # R:D4
    video = _register(drawn, staff_user, shows_card_destruction=False)
    assert video.missing_shots == ["the card's destruction"]


def test_draws_with_no_video_are_flagged(event, drawn, staff_user, client):  # R:D4
    assert list(selectors.draws_needing_video(event)) == [drawn]
    user = UserFactory(is_staff=True)
    user.groups.add(roles_group(roles.AUDITOR))
    client.force_login(user)
    html = client.get(reverse("audit_videos", args=[event.pk])).content.decode()
    assert "No video registered for draw 1" in html
    pdf_page = client.get(reverse("audit_destructions", args=[event.pk])).content.decode()
    assert "Draws with no registered video: 1" in pdf_page
    _register(drawn, staff_user)
    assert not selectors.draws_needing_video(event).exists()


def roles_group(name):
    from django.contrib.auth.models import Group

    return Group.objects.get(name=name)


def test_draw_staff_register_a_video_through_the_page(event, drawn, client):  # R:D4
    user = UserFactory(is_staff=True)
    user.groups.add(roles_group(roles.DRAW_STAFF))
    client.force_login(user)
    url = reverse("audit_videos", args=[event.pk])
    response = client.post(
        url, {"draw": drawn.pk, "resolution_lines": "480", "duration": "40:00", "held_by": "Pat", "location": "safe"}
    )
    assert "at least 720p" in response.content.decode()
    response = client.post(
        url,
        {
            "draw": drawn.pk,
            "resolution_lines": "1080",
            "duration": "40:00",
            "held_by": "Pat",
            "location": "safe",
            "shows_card_reveal": "on",
        },
    )
    assert response.status_code == 302
    assert DrawVideo.objects.get().shows_card_reveal


def test_a_draw_not_yet_revealed_is_not_offered(event, draw, staff_user):  # R:D4
    run_draw(draw, actor=staff_user, until=DrawState.ENVELOPE_CHOSEN)
    assert not selectors.draws_needing_video(event).exists()
