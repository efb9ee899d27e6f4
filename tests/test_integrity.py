"""Integrity for auditors: destructions signed with each member's own
password (E3), the destruction log exports, the audit trail page, access and
permission changes in the trail (D7), and the Registrar register (D6)."""

import datetime

import pytest
from django.contrib.auth.models import Group, Permission
from django.db import DatabaseError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from core.pdf import pdf_text
from raffle import services
from raffle.errors import RaffleError
from raffle.models import CardDestruction, DrawState, RegistrarNotification
from tests.factories import PASSWORD, MemberFactory, UserFactory, members_for, run_draw

pytestmark = pytest.mark.django_db


def _role_user(role, **kwargs):
    user = UserFactory(is_staff=True, **kwargs)
    user.groups.add(Group.objects.get(name=role))
    return user


# --- E3: both members sign with their own password ------------------------


@pytest.fixture
def revealed(draw, staff_user):
    return run_draw(draw, actor=staff_user, card="9H", until=DrawState.CARD_REVEALED)


@pytest.mark.parametrize("wrong", ["destroyer", "verifier"])
def test_a_wrong_password_is_refused_and_changes_nothing(revealed, staff_user, wrong):  # R:E3
    destroyer, verifier = members_for(revealed.event)
    passwords = {"destroyer_password": PASSWORD, "verifier_password": PASSWORD}
    passwords[f"{wrong}_password"] = "not-the-password"
    before_id = AuditEntry.objects.order_by("-id").values_list("id", flat=True).first()
    with pytest.raises(RaffleError, match="must type their own password"):
        services.draw_roll_over(
            actor=staff_user, draw=revealed, destroyed_by=destroyer, verified_by=verifier, **passwords
        )
    revealed.refresh_from_db()
    assert revealed.state == DrawState.CARD_REVEALED and not CardDestruction.objects.exists()
    # R:D7 nothing changed, but the refused attempt itself is on the trail
    assert list(AuditEntry.objects.filter(id__gt=before_id).values_list("action", flat=True)) == [
        "raffle.card.signature_refused"
    ]
    refused = AuditEntry.objects.get(action="raffle.card.signature_refused")
    member = destroyer if wrong == "destroyer" else verifier
    assert refused.data["member"] == member.full_name and "not-the-password" not in str(refused.data)


def test_repeated_wrong_signatures_lock_that_member_only(revealed, staff_user, settings):  # R:E3 R:D7
    settings.AXES_FAILURE_LIMIT = 2
    destroyer, verifier = members_for(revealed.event)

    def roll_over(member, password):
        services.draw_roll_over(
            actor=staff_user,
            draw=revealed,
            destroyed_by=member,
            verified_by=verifier,
            destroyer_password=password,
            verifier_password=PASSWORD,
        )

    for _ in range(2):
        with pytest.raises(RaffleError, match="own password"):
            roll_over(destroyer, "a-guess")
    # Now even the right password is refused for the cool-off, and nothing changes. The lock ends
    # when the first of the two refusals is older than the cool-off.
    first_refusal = AuditEntry.objects.filter(action="raffle.card.signature_refused").order_by("at").first().at
    until = timezone.localtime(first_refusal + settings.AXES_COOLOFF_TIME)
    with pytest.raises(RaffleError, match=f"wrong password too many times and cannot sign until {until:%H:%M}"):
        roll_over(destroyer, PASSWORD)
    revealed.refresh_from_db()
    assert revealed.state == DrawState.CARD_REVEALED and not CardDestruction.objects.exists()
    # Another member signs instead; the verifier, who never failed, is not locked.
    stand_in = MemberFactory(organisation=revealed.event.licence.organisation, full_name="Sam Stand-In")
    roll_over(stand_in, PASSWORD)
    assert CardDestruction.objects.get().destroyed_by == stand_in
    # Refusals older than the cool-off no longer count.
    settings.AXES_COOLOFF_TIME = datetime.timedelta(0)
    from raffle.services.destruction import _check_not_locked_out

    _check_not_locked_out(destroyer, role="destroyed the card")


def test_the_password_of_the_recording_user_does_not_sign_for_a_member(revealed):  # R:E3
    destroyer, verifier = members_for(revealed.event)
    recorder = UserFactory(password="the-recorder-own-password")
    with pytest.raises(RaffleError, match="own password"):
        services.draw_roll_over(
            actor=recorder,
            draw=revealed,
            destroyed_by=destroyer,
            verified_by=verifier,
            destroyer_password="the-recorder-own-password",
            verifier_password="the-recorder-own-password",
        )


def test_a_destruction_verified_by_a_non_member_is_refused(revealed, staff_user):  # R:E3
    destroyer = MemberFactory(organisation=revealed.event.licence.organisation)
    other_club = MemberFactory(is_in_charge=True)
    with pytest.raises(RaffleError, match="bona fide member of"):
        services.draw_roll_over(
            actor=staff_user,
            draw=revealed,
            destroyed_by=destroyer,
            verified_by=other_club,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )
    inactive = MemberFactory(organisation=revealed.event.licence.organisation, is_in_charge=True, is_active=False)
    with pytest.raises(RaffleError, match="active bona fide member"):
        services.draw_roll_over(
            actor=staff_user,
            draw=revealed,
            destroyed_by=destroyer,
            verified_by=inactive,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )


def test_the_log_records_when_each_member_signed_in(revealed, staff_user):  # R:E3
    destroyer, verifier = members_for(revealed.event)
    start = timezone.now()
    services.draw_roll_over(
        actor=staff_user,
        draw=revealed,
        destroyed_by=destroyer,
        verified_by=verifier,
        destroyer_password=PASSWORD,
        verifier_password=PASSWORD,
    )
    log = CardDestruction.objects.get()
    assert start <= log.destroyer_authenticated_at <= log.verifier_authenticated_at <= timezone.now()
    entry = AuditEntry.objects.get(action="raffle.card.destroy")
    assert entry.data["destroyer_authenticated_at"] and entry.data["verifier_authenticated_at"]


def test_the_destruction_form_asks_for_both_passwords_hidden(revealed):  # R:E3
    from raffle.steps import step_form

    html = str(step_form(revealed))
    assert html.count('type="password"') == 2


# --- E3: the log, as a page, a PDF and a CSV ------------------------------


@pytest.fixture
def auditor_client(client):
    client.force_login(_role_user(roles.AUDITOR))
    return client


def test_the_destruction_log_pdf_names_the_card_both_members_and_the_method(event, staff_user, auditor_client):  # R:E3
    destroyer, verifier = members_for(event)
    run_draw(event.draws.get(number=1), actor=staff_user, card="QD", destroyer=destroyer, verifier=verifier)
    response = auditor_client.get(reverse("audit_destructions", args=[event.pk]), {"format": "pdf"})
    text = " ".join(pdf_text(response.content).split())
    assert response["Content-Type"] == "application/pdf"
    for expected in [
        "Card destruction log",
        "Queen of Diamonds",
        "Paper card destroyed",
        "Dana Destroyer",
        "Vic Verifier",
        event.licence.number,
    ]:
        assert expected in text


def test_the_destruction_log_csv_has_one_row_per_destruction_and_neutralises_formulas(
    event, staff_user, auditor_client
):  # R:E3
    organisation = event.licence.organisation
    destroyer = MemberFactory(organisation=organisation, full_name='=HYPERLINK("x")')
    verifier = MemberFactory(organisation=organisation, full_name="Vic Verifier", is_in_charge=True)
    run_draw(event.draws.get(number=1), actor=staff_user, card="3C", destroyer=destroyer, verifier=verifier)
    run_draw(event.draws.get(number=2), actor=staff_user, card="4C", destroyer=destroyer, verifier=verifier)
    response = auditor_client.get(reverse("audit_destructions", args=[event.pk]), {"format": "csv"})
    lines = response.content.decode().strip().splitlines()
    assert lines[0].startswith("Draw,Draw date,Card,Card name,Method")
    assert len(lines) == 3 and "3 of Clubs" in lines[1] and "4 of Clubs" in lines[2]
    assert "'=HYPERLINK" in lines[1]


# --- the audit trail page -------------------------------------------------


def test_the_trail_page_reports_an_intact_chain(event, auditor_client):
    html = auditor_client.get(reverse("audit_trail")).content.decode()
    count = AuditEntry.objects.count()
    assert f"Intact, {count} entries" in html and "raffle.event.setup" in html


def test_the_trail_page_names_the_first_altered_entry(event, auditor_client):
    target = AuditEntry.objects.get(action="raffle.event.setup")
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute("ALTER TABLE core_auditentry DISABLE TRIGGER core_auditentry_append_only")
        cursor.execute("UPDATE core_auditentry SET data = '{}' WHERE id = %s", [target.pk])
        cursor.execute("ALTER TABLE core_auditentry ENABLE TRIGGER core_auditentry_append_only")
    html = auditor_client.get(reverse("audit_trail")).content.decode()
    assert f"Broken at entry #{target.pk}" in html and "changed after it was written" in html


def test_the_trail_exports_as_csv_with_its_hashes(event, auditor_client):
    response = auditor_client.get(reverse("audit_trail"), {"format": "csv", "action": "raffle.event"})
    assert response.streaming  # a season's trail is sent as it is read, never held whole (#18)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    lines = b"".join(response.streaming_content).decode().strip().splitlines()
    entry = AuditEntry.objects.get(action="raffle.event.setup")
    assert lines[0].startswith("id,at,actor_id") and len(lines) == 2
    assert lines[1].startswith(f"{entry.pk},") and lines[1].endswith(entry.hash)


def test_the_trail_page_is_closed_to_sellers(client):
    client.force_login(_role_user(roles.SELLER))
    assert client.get(reverse("audit_trail")).status_code == 403


# --- D7: access and permission changes ------------------------------------


def test_sign_in_sign_out_and_a_failed_sign_in_are_in_the_trail(client):  # R:D7
    user = UserFactory(username="treasurer1")
    assert client.post(reverse("login"), {"username": "treasurer1", "password": "wrong-password"}).status_code == 200
    failed = AuditEntry.objects.get(action="core.user.login_failed")
    assert failed.data["username"] == "treasurer1" and "wrong-password" not in str(failed.data)
    client.post(reverse("login"), {"username": "treasurer1", "password": PASSWORD})
    login = AuditEntry.objects.get(action="core.user.login")
    assert login.actor == user and login.data["ip"] == "127.0.0.1"
    client.post(reverse("logout"))
    logout = AuditEntry.objects.get(action="core.user.logout")
    assert logout.actor == user and logout.data["login_at"]


def test_the_sign_out_entry_lists_the_record_pages_viewed(client):  # R:D7
    user = UserFactory(is_staff=True)
    user.groups.add(Group.objects.get(name=roles.AUDITOR))
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    client.get("/admin/raffle/draw/")
    client.get(reverse("audit_trail"))
    client.get("/admin/raffle/draw/")
    client.post(reverse("logout"))
    logout = AuditEntry.objects.get(action="core.user.logout")
    assert logout.data["viewed"] == ["/admin/raffle/draw/", "/audit/"]


def test_group_and_permission_changes_are_in_the_trail(db):  # R:D7
    user = UserFactory()
    group = Group.objects.get(name=roles.TREASURER)
    user.groups.add(group)
    entry = AuditEntry.objects.filter(action="core.user.groups_changed").latest("id")
    assert entry.object_id == str(user.pk) and entry.data == {
        "change": "added",
        "reverse": False,
        "items": [roles.TREASURER],
    }
    user.groups.clear()
    assert AuditEntry.objects.filter(action="core.user.groups_changed").latest("id").data["change"] == "cleared"
    perm = Permission.objects.get(codename="change_draw")
    group.permissions.add(perm)
    entry = AuditEntry.objects.filter(action="core.group.permissions_changed").latest("id")
    assert entry.data["items"] == ["raffle.change_draw"]
    user.user_permissions.add(perm)
    assert AuditEntry.objects.filter(action="core.user.permissions_changed").exists()


def test_making_someone_a_superuser_is_in_the_trail(db):  # R:D7
    user = UserFactory()
    user.is_superuser = True
    user.save()
    entry = AuditEntry.objects.get(action="core.user.flags_changed")
    assert entry.data == {"is_superuser": {"from": False, "to": True}}


def test_a_permission_change_in_the_admin_names_who_made_it(client):  # R:D7
    admin = UserFactory(is_staff=True, is_superuser=True)
    target = UserFactory()
    client.force_login(admin)
    group = Group.objects.get(name=roles.AUDITOR)
    response = client.post(
        f"/admin/auth/user/{target.pk}/change/",
        {
            "username": target.username,
            "email": target.email,
            "is_active": "on",
            "groups": [group.pk],
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
            "initial-date_joined_0": "2026-01-01",
            "initial-date_joined_1": "10:00:00",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = AuditEntry.objects.filter(action="core.user.groups_changed").latest("id")
    assert entry.actor == admin and entry.data["items"] == [roles.AUDITOR]


def test_the_role_sync_after_migrate_is_not_an_audited_change(db):  # R:D7
    from core.apps import sync_role_groups_quietly

    before = AuditEntry.objects.count()
    Group.objects.get(name=roles.AUDITOR).permissions.clear()
    assert AuditEntry.objects.count() == before + 1  # a real change is recorded
    sync_role_groups_quietly()
    assert AuditEntry.objects.count() == before + 1


# --- D6: the Registrar register -------------------------------------------


def _notify(event, actor, **overrides):
    kwargs = {
        "occurred_on": timezone.localdate(),
        "kind": "draw_irregularity",
        "description": "The camera stopped during the reveal.",
        "method": "email",
        "notified_at": timezone.now(),
        "reference": "RAF-2026-17",
        **overrides,
    }
    return services.registrar_notification_record(actor=actor, event=event, **kwargs)


def test_an_issue_is_recorded_with_how_and_when_it_was_notified(event, staff_user):  # R:D6
    entry = _notify(event, staff_user)
    assert entry.get_method_display() == "Email" and entry.reference == "RAF-2026-17"
    assert AuditEntry.objects.get(action="raffle.registrar.notify").data["kind"] == "draw_irregularity"
    with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("UPDATE raffle_registrarnotification SET description = 'nothing happened'")


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"description": "  "}, "Describe the issue"),
        ({"kind": "nonsense"}, "what kind of issue"),
        ({"method": "pigeon"}, "how the Registrar was notified"),
        ({"occurred_on": timezone.localdate() + datetime.timedelta(days=2)}, "in the future"),
        ({"notified_at": timezone.now() - datetime.timedelta(days=3)}, "before the issue happened"),
    ],
)
def test_an_incomplete_or_impossible_notification_is_refused(event, staff_user, overrides, message):  # R:D6
    with pytest.raises(RaffleError, match=message):
        _notify(event, staff_user, **overrides)
    assert not RegistrarNotification.objects.exists()


def test_the_treasurer_records_a_notification_through_the_page(event, client):  # R:D6
    client.force_login(_role_user(roles.TREASURER))
    url = reverse("audit_registrar", args=[event.pk])
    response = client.post(
        url,
        {
            "occurred_on": timezone.localdate().isoformat(),
            "kind": "sales",
            "description": "Ticket printer jammed",
            "method": "phone",
            "notified_at": timezone.localtime().strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 302
    assert "Ticket printer jammed" in client.get(url).content.decode()


def test_a_wrong_password_on_the_admin_draw_page_is_shown_and_changes_nothing(revealed, client):  # R:E3
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    destroyer, verifier = members_for(revealed.event)
    response = client.post(
        reverse("admin:raffle_draw_step", args=[revealed.pk]),
        {
            "destroyed_by": destroyer.pk,
            "verified_by": verifier.pk,
            "destroyer_password": PASSWORD,
            "verifier_password": "guess",
        },
        follow=True,
    )
    assert "Vic Verifier must type their own password" in response.content.decode()
    revealed.refresh_from_db()
    assert revealed.state == DrawState.CARD_REVEALED and not CardDestruction.objects.exists()


def test_the_pdf_footer_prints_dates_and_quotes_as_written(event, auditor_client):  # shared PDF base
    response = auditor_client.get(reverse("audit_destructions", args=[event.pk]), {"format": "pdf"})
    text = " ".join(pdf_text(response.content).split())
    assert f"{timezone.localdate():%Y-%m-%d}" in text.split("destruction log ·")[-1]
