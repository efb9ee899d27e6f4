"""People and credentials in the audit trail, and the destruction log keeping
the names as signed (R:E3, R:D7, R:L13)."""

import pytest
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from core import roles
from core.models import AuditEntry
from core.signals import current_actor
from licensing.models import BonaFideMember
from raffle.models import CardDestruction
from tests.factories import MemberFactory, UserFactory, members_for, run_draw, user_with_role

pytestmark = pytest.mark.django_db


@pytest.fixture
def acting_as():
    tokens = []

    def act(user):
        tokens.append(current_actor.set(user))

    yield act
    for token in reversed(tokens):
        current_actor.reset(token)


def test_renaming_a_member_leaves_the_destruction_log_as_signed(event, staff_user, client):  # R:E3
    destroyer, verifier = members_for(event)
    run_draw(event.draws.get(number=1), actor=staff_user, destroyer=destroyer, verifier=verifier)
    destroyer.full_name = "Someone Else"
    destroyer.save()
    BonaFideMember.objects.filter(pk=verifier.pk).update(full_name="Another Name")  # even behind the signals
    logged = CardDestruction.objects.get()
    assert (logged.destroyed_by_name, logged.verified_by_name) == ("Dana Destroyer", "Vic Verifier")
    assert logged.verified_by_role == "bona fide member in charge"
    client.force_login(user_with_role(roles.AUDITOR))
    page = client.get(reverse("audit_destructions", args=[event.pk]))
    csv = client.get(reverse("audit_destructions", args=[event.pk]), {"format": "csv"}).content.decode()
    for text in (page.content.decode(), csv):
        assert "Dana Destroyer" in text and "Vic Verifier" in text
        assert "Someone Else" not in text and "Another Name" not in text
    rename = AuditEntry.objects.filter(action="licensing.member.change").latest("id")
    assert rename.data == {"full_name": {"from": "Dana Destroyer", "to": "Someone Else"}}
    assert rename.chain == event.licence.organisation_id


def test_adding_a_member_and_putting_them_in_charge_are_audit_entries(event, acting_as):  # R:L13
    admin = user_with_role(roles.ADMINISTRATOR)
    acting_as(admin)
    member = MemberFactory(organisation=event.licence.organisation, full_name="New Member")
    member.is_in_charge = True
    member.save()
    created = AuditEntry.objects.filter(action="licensing.member.create").latest("id")
    changed = AuditEntry.objects.filter(action="licensing.member.change").latest("id")
    assert created.data["full_name"] == "New Member" and created.actor == admin
    assert changed.data == {"is_in_charge": {"from": False, "to": True}} and changed.actor == admin


def test_a_user_change_names_the_fields_from_and_to(acting_as):  # R:D7
    user = UserFactory(username="sam", first_name="Sam")
    acting_as(user_with_role(roles.ADMINISTRATOR))
    user.first_name = "Samantha"
    user.save()
    entry = AuditEntry.objects.get(action="core.user.change")
    assert entry.data == {"first_name": {"from": "Sam", "to": "Samantha"}}
    assert AuditEntry.objects.filter(action="core.user.create", object_id=str(user.pk)).exists()


def test_password_changes_sets_and_resets_are_audit_entries_without_the_password(acting_as):  # R:D7
    user, admin = UserFactory(), user_with_role(roles.ADMINISTRATOR)
    start = AuditEntry.objects.order_by("-id").values_list("id", flat=True).first()
    user.set_password("first-new-password-123")
    user.save()  # no one signed in: a reset link or the command
    acting_as(user)
    user.set_password("second-new-password-123")
    user.save()
    acting_as(admin)
    user.set_password("third-new-password-123")
    user.save()
    entries = AuditEntry.objects.filter(action__startswith="core.user.password", id__gt=start).order_by("id")
    assert [e.action for e in entries] == [
        "core.user.password_reset",
        "core.user.password_changed",
        "core.user.password_set",
    ]
    assert entries[2].actor == admin and admin.username in entries[2].data["how"]
    assert not any("new-password" in str(e.data) for e in entries)
    user.save()  # saved again without a new password: nothing more
    assert AuditEntry.objects.filter(action__startswith="core.user.password", id__gt=start).count() == 3


def test_a_password_changed_on_its_page_is_recorded(client):  # R:D7
    user = UserFactory()
    user.set_password("old-password-for-this-test")
    user.save()
    client.force_login(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": "old-password-for-this-test",
            "new_password1": "a-brand-new-passphrase-42",
            "new_password2": "a-brand-new-passphrase-42",
        },
    )
    assert response.status_code == 302
    entry = AuditEntry.objects.filter(action="core.user.password_changed").latest("id")
    assert entry.actor == user


def test_an_authenticator_added_for_someone_else_is_an_audit_entry(acting_as):  # R:D7
    treasurer = user_with_role(roles.TREASURER)
    admin = user_with_role(roles.ADMINISTRATOR)
    acting_as(admin)
    device = TOTPDevice.objects.create(user=treasurer, name="planted", confirmed=False)
    device.confirmed = True
    device.save()
    device.delete()
    actions = list(
        AuditEntry.objects.filter(action__startswith="core.two_factor").order_by("id").values_list("action", flat=True)
    )
    assert actions == ["core.two_factor.device_add", "core.two_factor.device_change", "core.two_factor.device_remove"]
    added = AuditEntry.objects.get(action="core.two_factor.device_add")
    assert added.actor == admin and added.data["owner"] == treasurer.username


def test_enrolling_ones_own_authenticator_is_one_entry(client):  # R:D7
    from django_otp.oath import totp

    user = UserFactory()
    client.force_login(user)
    client.get(reverse("two_factor_setup"))
    device = TOTPDevice.objects.get(user=user)
    client.post(reverse("two_factor_setup"), {"token": f"{totp(device.bin_key):06d}"})
    actions = list(AuditEntry.objects.filter(action__startswith="core.two_factor").values_list("action", flat=True))
    assert actions == ["core.two_factor.enrol"]
