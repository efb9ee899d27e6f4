"""People work for organisations, each with a role there (#15): an operator
adds them with `manage.py add_user`, an administrator gives and takes roles
only in the organisations they administer, and nobody needs to be a
superuser. The administrator's limits are proven by POST."""

import io
from io import StringIO

import pytest
from axes.models import AccessAttempt, AccessLog
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from core import roles
from core.checks import check_no_active_superuser
from core.models import AuditEntry
from core.scope import organisations_of
from licensing.models import Membership
from tests.factories import PASSWORD, OrganisationFactory, UserFactory, user_with_role

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def two_charities():
    return OrganisationFactory(name="Lakeshore Lions"), OrganisationFactory(name="Hilltop Hospice")


@pytest.fixture
def no_second_factor(settings):
    settings.REQUIRE_2FA_ROLES = []


def add_user(*args, password=f"{PASSWORD}\n"):
    stdin, out = io.StringIO(password), StringIO()
    import sys

    real = sys.stdin
    sys.stdin = stdin
    try:
        call_command("add_user", *args, stdout=out)
    finally:
        sys.stdin = real
    return out.getvalue()


# --- manage.py add_user -----------------------------------------------------


def test_an_operator_adds_a_treasurer_to_one_charity(two_charities):  # R:D7
    lions, hospice = two_charities
    said = add_user("pat", "--organisation", "Lakeshore Lions", "--role", "treasurer")
    assert "pat works for Lakeshore Lions as treasurer" in said
    pat = User.objects.get(username="pat")
    assert pat.check_password(PASSWORD) and not pat.is_superuser and pat.is_staff
    assert roles.user_roles(pat, lions) == {roles.TREASURER} and roles.user_roles(pat, hospice) == set()
    assert list(organisations_of(pat)) == [lions]
    assert set(pat.groups.values_list("name", flat=True)) == {roles.TREASURER}  # the records' permissions
    entry = AuditEntry.objects.get(action="licensing.membership.add")
    assert entry.data == {"user": "pat", "user_id": pat.pk, "organisation": "Lakeshore Lions", "role": "treasurer"}
    assert entry.chain == lions.pk and AuditEntry.objects.filter(action="core.user.create").exists()


def test_a_second_role_for_the_same_person_asks_no_password_and_keeps_it(two_charities):
    lions, hospice = two_charities
    add_user("pat", "--organisation", "Lakeshore Lions", "--role", "treasurer")
    add_user("pat", "--organisation", "Hilltop Hospice", "--role", "draw_staff", password="")
    pat = User.objects.get(username="pat")
    assert pat.check_password(PASSWORD)
    assert roles.user_roles(pat, lions) == {roles.TREASURER} and roles.user_roles(pat, hospice) == {roles.DRAW_STAFF}


@pytest.mark.parametrize(
    "args, message",
    [
        (["--organisation", "Nowhere Club", "--role", "seller"], "No organisation is named 'Nowhere Club'"),
        (["--organisation", "Lakeshore Lions", "--role", "superuser"], "invalid choice: 'superuser'"),
    ],
)
def test_an_unknown_organisation_or_role_is_refused_and_adds_nobody(two_charities, args, message):
    with pytest.raises(CommandError, match=message):
        add_user("pat", *args)
    assert not User.objects.filter(username="pat").exists() and not Membership.objects.exists()


def test_a_weak_or_missing_password_adds_nobody(two_charities):
    for password in ["\n", "pat\n"]:
        with pytest.raises(CommandError):
            add_user("pat", "--organisation", "Lakeshore Lions", "--role", "seller", password=password)
    assert not User.objects.filter(username="pat").exists()


# --- no superuser -------------------------------------------------------------


def test_the_deploy_check_warns_about_an_active_superuser_only():
    UserFactory(username="root", is_superuser=True, is_active=False)
    assert check_no_active_superuser(None) == []
    UserFactory(username="operator", is_superuser=True)
    (warning,) = check_no_active_superuser(None)
    assert warning.id == "core.W020" and "operator" in warning.msg and "root" not in warning.msg


def test_the_demo_administrator_is_an_ordinary_user_with_the_role():
    call_command("load_demo", stdout=StringIO())
    admin = User.objects.get(username="admin")
    assert not admin.is_superuser and admin.is_staff
    assert roles.user_roles(admin) == {roles.ADMINISTRATOR}
    assert not User.objects.filter(is_superuser=True).exists()
    assert check_no_active_superuser(None) == []


# --- what the administrator may not do (by POST) --------------------------------


@pytest.fixture
def administrator(two_charities, no_second_factor, client):
    lions, _ = two_charities
    user = user_with_role(roles.ADMINISTRATOR, organisation=lions, username="lee")
    client.force_login(user)
    return user


def test_the_administrator_cannot_change_or_delete_a_role_group(client, administrator):
    sellers = Group.objects.get(name=roles.SELLER)
    permission = Permission.objects.get(codename="change_draw")
    renamed = client.post(
        reverse("admin:auth_group_change", args=[sellers.pk]), {"name": "renamed", "permissions": [permission.pk]}
    )
    deleted = client.post(reverse("admin:auth_group_delete", args=[sellers.pk]), {"post": "yes"})
    added = client.post(reverse("admin:auth_group_add"), {"name": "mallory", "permissions": [permission.pk]})
    assert (renamed.status_code, deleted.status_code, added.status_code) == (403, 403, 403)
    sellers.refresh_from_db()
    assert sellers.name == roles.SELLER and not sellers.permissions.filter(pk=permission.pk).exists()
    assert not Group.objects.filter(name="mallory").exists()


def test_the_administrator_cannot_grant_superuser_permissions_or_groups_directly(client, administrator, two_charities):
    lions, _ = two_charities
    volunteer = user_with_role(roles.SELLER, organisation=lions, username="robin")
    permission = Permission.objects.get(codename="change_draw")
    response = client.post(
        reverse("admin:auth_user_change", args=[volunteer.pk]),
        {
            "username": "robin",
            "is_active": "on",
            "is_superuser": "on",
            "is_staff": "on",
            "user_permissions": [permission.pk],
            "groups": [Group.objects.get(name=roles.TREASURER).pk],
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
            "memberships-TOTAL_FORMS": "0",
            "memberships-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302
    volunteer.refresh_from_db()
    assert not volunteer.is_superuser and not volunteer.is_staff and not volunteer.user_permissions.exists()
    assert roles.user_roles(volunteer) == {roles.SELLER}
    assert set(volunteer.groups.values_list("name", flat=True)) == {roles.SELLER}


def test_the_administrator_cannot_enrol_or_change_someone_elses_authenticator(client, administrator, two_charities):
    lions, _ = two_charities
    treasurer = user_with_role(roles.TREASURER, organisation=lions)
    device = TOTPDevice.objects.create(user=treasurer, name="Pat's phone", confirmed=True)
    key = device.key
    changed = client.post(
        reverse("admin:otp_totp_totpdevice_change", args=[device.pk]),
        {"user": treasurer.pk, "name": "mine", "key": "00" * 20, "confirmed": "on", "step": 30, "digits": 6},
    )
    added = client.post(
        reverse("admin:otp_totp_totpdevice_add"),
        {"user": treasurer.pk, "name": "mine", "key": "00" * 20, "confirmed": "on", "step": 30, "digits": 6},
    )
    assert changed.status_code == 403 and added.status_code == 403
    device.refresh_from_db()
    assert device.key == key and device.name == "Pat's phone" and TOTPDevice.objects.count() == 1


def test_the_administrator_cannot_delete_or_change_a_sign_in_log(client, administrator, two_charities):
    user_with_role(roles.SELLER, organisation=two_charities[0], username="pat")
    log = AccessLog.objects.create(username="pat", ip_address="198.51.100.7", user_agent="x")
    attempt = AccessAttempt.objects.create(username="pat", ip_address="198.51.100.7", failures_since_start=5)
    responses = [
        client.post(reverse("admin:axes_accesslog_delete", args=[log.pk]), {"post": "yes"}),
        client.post(reverse("admin:axes_accesslog_change", args=[log.pk]), {"username": "nobody"}),
        client.post(reverse("admin:axes_accessattempt_change", args=[attempt.pk]), {"username": "nobody"}),
    ]
    assert [r.status_code for r in responses] == [403, 403, 403]
    assert AccessLog.objects.get(pk=log.pk).username == "pat"
    assert AccessAttempt.objects.get(pk=attempt.pk).username == "pat"


def test_the_administrator_sees_only_the_sign_ins_and_authenticators_of_their_people(
    client, administrator, two_charities
):
    lions, hospice = two_charities
    ours = user_with_role(roles.TREASURER, organisation=lions, username="pat")
    theirs = user_with_role(roles.TREASURER, organisation=hospice, username="kim")
    for person in (ours, theirs):
        AccessLog.objects.create(username=person.username, ip_address="198.51.100.7", user_agent="x")
        TOTPDevice.objects.create(user=person, name=f"phone of {person.username}", confirmed=True)
    logs = client.get(reverse("admin:axes_accesslog_changelist")).text
    devices = client.get(reverse("admin:otp_totp_totpdevice_changelist")).text
    assert "pat" in logs and "kim" not in logs
    assert "phone of pat" in devices and "phone of kim" not in devices
    their_device = TOTPDevice.objects.get(user=theirs)
    assert client.get(reverse("admin:otp_totp_totpdevice_change", args=[their_device.pk])).status_code == 404
    client.post(reverse("admin:otp_totp_totpdevice_delete", args=[their_device.pk]), {"post": "yes"})
    assert TOTPDevice.objects.filter(pk=their_device.pk).exists()  # not theirs to reset


# --- roles in the records: only in the administrator's own organisations --------


def membership_post(client, user, organisation, role):
    return client.post(
        reverse("admin:licensing_membership_add"), {"user": user.pk, "organisation": organisation.pk, "role": role}
    )


def test_the_administrator_gives_a_role_in_their_organisation_and_it_is_audited(client, administrator, two_charities):
    lions, _ = two_charities
    newcomer = UserFactory(username="robin")  # just added: works for nobody yet
    response = membership_post(client, newcomer, lions, roles.DRAW_STAFF)
    assert response.status_code == 302
    newcomer.refresh_from_db()
    assert roles.user_roles(newcomer, lions) == {roles.DRAW_STAFF} and newcomer.is_staff
    entry = AuditEntry.objects.get(
        action="licensing.membership.add", object_id=str(Membership.objects.get(user=newcomer).pk)
    )
    assert entry.actor == administrator and entry.chain == lions.pk


def test_the_administrator_cannot_give_a_role_in_another_organisation(client, administrator, two_charities):
    _, hospice = two_charities
    newcomer = UserFactory(username="robin")
    response = membership_post(client, newcomer, hospice, roles.TREASURER)
    assert response.status_code == 200 and "Select a valid choice" in response.text
    assert not Membership.objects.filter(user=newcomer).exists()


def test_the_administrator_neither_sees_nor_changes_another_organisations_people(client, administrator, two_charities):
    lions, hospice = two_charities
    theirs = user_with_role(roles.TREASURER, organisation=hospice, username="hospice-treasurer")
    ours = user_with_role(roles.SELLER, organisation=lions, username="lions-seller")
    people = client.get(reverse("admin:auth_user_changelist")).text
    memberships = client.get(reverse("admin:licensing_membership_changelist")).text
    assert "lions-seller" in people and "hospice-treasurer" not in people
    assert "lions-seller" in memberships and "hospice-treasurer" not in memberships
    their_role = Membership.objects.get(user=theirs)
    client.post(reverse("admin:licensing_membership_delete", args=[their_role.pk]), {"post": "yes"})
    client.post(
        reverse("admin:auth_user_change", args=[theirs.pk]),
        {"username": "renamed", "is_active": "", "date_joined_0": "2026-01-01", "date_joined_1": "10:00:00"},
    )
    theirs.refresh_from_db()
    assert theirs.username == "hospice-treasurer" and theirs.is_active
    assert Membership.objects.filter(pk=their_role.pk).exists() and ours.is_active


def test_the_administrator_takes_a_role_away_on_the_persons_page(client, administrator, two_charities):
    lions, _ = two_charities
    volunteer = user_with_role(roles.DRAW_STAFF, organisation=lions, username="robin")
    membership = Membership.objects.get(user=volunteer)
    response = client.post(
        reverse("admin:auth_user_change", args=[volunteer.pk]),
        {
            "username": "robin",
            "is_active": "on",
            "date_joined_0": "2026-01-01",
            "date_joined_1": "10:00:00",
            "memberships-TOTAL_FORMS": "2",
            "memberships-INITIAL_FORMS": "1",
            "memberships-0-id": membership.pk,
            "memberships-0-user": volunteer.pk,
            "memberships-0-DELETE": "on",
            "memberships-1-user": volunteer.pk,
            "memberships-1-organisation": lions.pk,
            "memberships-1-role": roles.SELLER,
        },
    )
    assert response.status_code == 302, response.text[:3000]
    volunteer.refresh_from_db()
    assert roles.user_roles(volunteer) == {roles.SELLER} and not volunteer.is_staff
    assert set(volunteer.groups.values_list("name", flat=True)) == {roles.SELLER}
    assert AuditEntry.objects.filter(action="licensing.membership.remove").count() == 1
    entry = AuditEntry.objects.get(action="core.user.roles", object_id=str(volunteer.pk))
    assert entry.data == {"before": [roles.DRAW_STAFF], "after": [roles.SELLER]}
