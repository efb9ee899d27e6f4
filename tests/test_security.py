"""Login hardening: lockout, passwords, two-factor, role permissions."""

import pytest
from django.contrib.auth.models import Group
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from core import roles
from core.models import AuditEntry
from core.roles import page_matrix
from tests.factories import PASSWORD, OrganisationFactory, UserFactory, user_with_role


def current_code(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


@pytest.fixture
def two_factor_on(settings):
    settings.REQUIRE_2FA_ROLES = [roles.TREASURER, roles.ADMINISTRATOR]


# --- two-factor ---------------------------------------------------------------


@pytest.mark.django_db
def test_treasurer_without_authenticator_enrols_then_reaches_the_page(client, two_factor_on):
    treasurer = user_with_role(roles.TREASURER)
    client.force_login(treasurer)
    response = client.get("/admin/")
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('two_factor_setup')}?next=%2Fadmin%2F"

    page = client.get(response["Location"])
    assert page.status_code == 200
    assert "<svg" in page.text and "Enter this key by hand" in page.text
    device = TOTPDevice.objects.get(user=treasurer, confirmed=False)

    done = client.post(reverse("two_factor_setup"), {"token": current_code(device), "next": "/admin/"})
    assert done.status_code == 302 and done["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200
    device.refresh_from_db()
    assert device.confirmed
    assert AuditEntry.objects.filter(action="core.two_factor.enrol", object_id=str(treasurer.pk)).exists()


@pytest.mark.django_db
def test_wrong_enrolment_code_is_refused_and_nothing_is_confirmed(client, two_factor_on):
    treasurer = user_with_role(roles.TREASURER)
    client.force_login(treasurer)
    client.get(reverse("two_factor_setup"))
    response = client.post(reverse("two_factor_setup"), {"token": "000000"})
    assert response.status_code == 200
    assert "That code did not match" in response.text
    assert not TOTPDevice.objects.filter(user=treasurer, confirmed=True).exists()
    assert client.get("/admin/").status_code == 302


@pytest.mark.django_db
@pytest.mark.parametrize("token", ["", "12ab56", "1" * 40])
def test_enrolment_code_that_is_empty_letters_or_too_long_gets_a_clear_message(client, two_factor_on, token):
    client.force_login(user_with_role(roles.ADMINISTRATOR))
    response = client.post(reverse("two_factor_setup"), {"token": token})
    assert response.status_code == 200
    assert any(
        message in response.text
        for message in ("This field is required", "Enter the digits shown", "Ensure this value has at most")
    )


@pytest.mark.django_db
def test_enrolled_user_enters_a_code_in_each_new_session(client, two_factor_on):
    admin_user = user_with_role(roles.ADMINISTRATOR)
    device = TOTPDevice.objects.create(user=admin_user, name="phone", confirmed=True)
    client.force_login(admin_user)
    response = client.get("/admin/raffle/draw/")
    assert response["Location"] == f"{reverse('two_factor_verify')}?next=%2Fadmin%2Fraffle%2Fdraw%2F"

    wrong = client.post(reverse("two_factor_verify"), {"token": "000000", "next": "/admin/"})
    assert "That code did not match" in wrong.text
    # Guessing is throttled: right after a wrong code even the right one waits.
    throttled = client.post(reverse("two_factor_verify"), {"token": current_code(device), "next": "/admin/"})
    assert throttled.status_code == 200
    TOTPDevice.objects.get(pk=device.pk).throttle_reset()  # ...the wait has passed
    right = client.post(reverse("two_factor_verify"), {"token": current_code(device), "next": "/admin/"})
    assert right["Location"] == "/admin/"
    assert client.get("/admin/raffle/draw/").status_code == 200


@pytest.mark.django_db
def test_verify_never_sends_the_user_to_another_site(client, two_factor_on):
    user = user_with_role(roles.TREASURER)
    device = TOTPDevice.objects.create(user=user, name="phone", confirmed=True)
    client.force_login(user)
    response = client.post(
        reverse("two_factor_verify"), {"token": current_code(device), "next": "https://evil.example/steal"}
    )
    assert response["Location"] == reverse("home")


@pytest.mark.django_db
def test_anyone_who_enrolled_must_give_a_code_even_if_their_role_does_not_need_it(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    auditor = user_with_role(roles.AUDITOR)
    TOTPDevice.objects.create(user=auditor, name="phone", confirmed=True)
    client.force_login(auditor)
    assert client.get("/admin/")["Location"].startswith(reverse("two_factor_verify"))


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.SELLER, roles.DRAW_STAFF, roles.AUDITOR])
def test_roles_without_money_or_users_need_no_code(client, two_factor_on, role):
    client.force_login(user_with_role(role))
    response = client.get(reverse("password_change"))
    assert response.status_code == 200


@pytest.mark.django_db
def test_demo_settings_let_a_treasurer_in_with_a_password_alone(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    client.force_login(user_with_role(roles.TREASURER))
    assert client.get("/admin/").status_code == 200


@pytest.mark.django_db
def test_superuser_needs_a_code_when_administrators_do(client, two_factor_on):
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get("/admin/")["Location"].startswith(reverse("two_factor_setup"))


@pytest.mark.django_db
def test_admin_never_shows_an_authenticators_secret(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    device = TOTPDevice.objects.create(user=user_with_role(roles.TREASURER), name="phone", confirmed=True)
    change = client.get(reverse("admin:otp_totp_totpdevice_change", args=[device.pk]))
    assert change.status_code == 200
    assert device.key not in change.text
    assert client.get(reverse("admin:otp_totp_totpdevice_qrcode", args=[device.pk])).status_code == 403


# --- lockout -----------------------------------------------------------------


@pytest.fixture
def axes_on(settings):
    settings.AXES_ENABLED = True


def sign_in(client, username, password, ip="198.51.100.10"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip)


@pytest.mark.django_db
def test_five_failed_sign_ins_lock_the_pair_out_even_with_the_right_password(client, axes_on):
    UserFactory(username="pat")
    for _ in range(4):
        assert sign_in(client, "pat", "wrong-password-here").status_code == 200
    assert sign_in(client, "pat", "wrong-password-here").status_code == 429  # the fifth locks
    locked = sign_in(client, "pat", PASSWORD)
    assert locked.status_code == 429
    assert "Sign-in temporarily locked" in locked.text
    assert "_auth_user_id" not in client.session
    # The same person from another address is not locked out by an attacker elsewhere.
    assert sign_in(client, "pat", PASSWORD, ip="203.0.113.5").status_code == 302


@pytest.mark.django_db
def test_a_successful_sign_in_clears_the_failures(client, axes_on):
    UserFactory(username="sam")
    for _ in range(4):
        sign_in(client, "sam", "wrong-password-here")
    assert sign_in(client, "sam", PASSWORD).status_code == 302
    client.logout()
    for _ in range(4):
        sign_in(client, "sam", "wrong-password-here")
    assert sign_in(client, "sam", PASSWORD).status_code == 302


# --- passwords and sessions -----------------------------------------------------


@pytest.mark.parametrize("password", ["short-pw1", "password1234", "123456789012345"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_a_long_uncommon_password_is_accepted():
    validate_password("lantern-harbour-ace-of-spades-2026")


def test_sessions_expire_and_their_cookies_are_not_readable_by_scripts(settings):
    assert settings.SESSION_COOKIE_HTTPONLY and settings.CSRF_COOKIE_HTTPONLY
    assert settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
    assert settings.SESSION_COOKIE_AGE <= 8 * 60 * 60
    assert settings.SESSION_COOKIE_SECURE and settings.CSRF_COOKIE_SECURE  # DEBUG is off here


# --- the roles' record permissions --------------------------------------------


def _perms(role):
    return set(Group.objects.get(name=role).permissions.values_list("content_type__app_label", "codename"))


@pytest.mark.django_db
def test_the_auditor_can_only_view():
    assert _perms(roles.AUDITOR)
    assert all(codename.startswith("view_") for _, codename in _perms(roles.AUDITOR))


@pytest.mark.django_db
def test_the_seller_holds_no_record_permission():
    assert _perms(roles.SELLER) == set()


@pytest.mark.django_db
def test_only_the_administrator_manages_users_and_only_draw_staff_run_draws():
    for role in roles.ALL_ROLES:
        perms = _perms(role)
        assert (("auth", "change_user") in perms) == (role == roles.ADMINISTRATOR)
        assert (("raffle", "change_draw") in perms) == (role == roles.DRAW_STAFF)
        assert not any(codename.startswith("delete_") and app in roles.OUR_APPS for app, codename in perms), role


# --- the matrix machinery itself fails loudly -------------------------------------


def _doc(tmp_path, rows):
    path = tmp_path / "roles.md"
    path.write_text(
        "<!-- matrix:start -->\n"
        "| page | anonymous | seller | draw staff | treasurer | auditor | administrator |\n"
        "|---|---|---|---|---|---|---|\n" + rows + "<!-- matrix:end -->\n"
    )
    return path


def test_matrix_rejects_an_outcome_it_does_not_know(tmp_path):
    with pytest.raises(ValueError, match="outcomes must be one of"):
        page_matrix(_doc(tmp_path, "| `home` | yes | yes | maybe | yes | yes | yes |\n"))


def test_matrix_rejects_a_page_listed_twice(tmp_path):
    row = "| `home` | yes | yes | yes | yes | yes | yes |\n"
    with pytest.raises(ValueError, match="appears twice"):
        page_matrix(_doc(tmp_path, row + row))


def test_matrix_first_matching_pattern_wins():
    matrix = {"admin:licensing_*_add": {}, "admin:*_add": {}}
    assert roles.matrix_row(matrix, "admin:licensing_licence_add") == "admin:licensing_*_add"
    assert roles.matrix_row(matrix, "admin:raffle_event_add") == "admin:*_add"
    assert roles.matrix_row(matrix, "sales_new") is None


# --- managing users in the records ------------------------------------------------


@pytest.mark.django_db
def test_administrator_gives_a_role_and_records_access_follows_it_in_the_audit_trail(client, settings):
    # R:D7 administrative access changes are logged; R:L14 users are never deleted.
    settings.REQUIRE_2FA_ROLES = []
    charity = OrganisationFactory()
    administrator = user_with_role(roles.ADMINISTRATOR, organisation=charity)
    volunteer = UserFactory(username="robin")
    client.force_login(administrator)
    person = {
        "username": "robin",
        "first_name": "Robin",
        "last_name": "",
        "email": "",
        "is_active": "on",
        "date_joined_0": "2026-01-01",
        "date_joined_1": "10:00:00",
    }
    response = client.post(
        reverse("admin:auth_user_change", args=[volunteer.pk]),
        {
            **person,
            "is_superuser": "on",
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-user": volunteer.pk,
            "memberships-0-organisation": charity.pk,
            "memberships-0-role": roles.AUDITOR,
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    volunteer.refresh_from_db()
    assert not volunteer.is_superuser  # an administrator cannot make a superuser
    assert volunteer.is_staff and roles.user_roles(volunteer, charity) == {roles.AUDITOR}
    entry = AuditEntry.objects.get(action="core.user.roles", object_id=str(volunteer.pk))
    assert entry.data == {"before": [], "after": [roles.AUDITOR]}
    # R:E3 R:L12 R:L13 a treasurer without a bona fide member record is flagged.
    flagged = client.post(
        reverse("admin:auth_user_change", args=[volunteer.pk]),
        {
            **person,
            "memberships-TOTAL_FORMS": "1",
            "memberships-INITIAL_FORMS": "0",
            "memberships-0-user": volunteer.pk,
            "memberships-0-organisation": charity.pk,
            "memberships-0-role": roles.TREASURER,
        },
        follow=True,
    )
    assert "has no bona fide member record" in flagged.text
    assert "Robin" in client.get(reverse("admin:auth_user_changelist")).text
    delete = client.post(reverse("admin:auth_user_delete", args=[volunteer.pk]), {"post": "yes"})
    assert delete.status_code == 403 and type(volunteer).objects.filter(pk=volunteer.pk).exists()


@pytest.mark.django_db
def test_each_sign_in_and_sign_out_is_logged_with_its_times(client, axes_on):
    # R:D7 access to the records is logged: who, from where, when, for how long.
    from axes.models import AccessLog

    UserFactory(username="morgan")
    assert sign_in(client, "morgan", PASSWORD).status_code == 302
    client.post(reverse("logout"))
    log = AccessLog.objects.get(username="morgan")
    assert log.ip_address == "198.51.100.10"
    assert log.attempt_time and log.logout_time and log.logout_time >= log.attempt_time


@pytest.mark.django_db
def test_a_forgotten_password_is_reset_by_email(client, mailoutbox):
    UserFactory(username="jordan", email="jordan@example.org")
    response = client.post(reverse("password_reset"), {"email": "jordan@example.org"})
    assert response.status_code == 302
    assert len(mailoutbox) == 1 and mailoutbox[0].to == ["jordan@example.org"]
    assert "/accounts/reset/" in mailoutbox[0].body


@pytest.mark.django_db
def test_a_page_reads_the_verified_user_itself_not_through_lazy_wrappers(client, two_factor_on):
    # #18: once the user and their device are known, the view reads the user object itself
    # (core.twofactor.concrete_user); who it is and what they proved stay the same
    from django.contrib.auth import get_user_model

    from tests.factories import login_verified

    admin_user = user_with_role(roles.ADMINISTRATOR)
    device = login_verified(client, admin_user)
    seen = client.get("/admin/raffle/draw/").wsgi_request.user
    assert type(seen) is get_user_model() and seen.pk == admin_user.pk
    assert seen.is_verified() and seen.otp_device == device
    # a page sent to enter a code first: still the user who must give one, not verified
    client.logout()
    client.force_login(admin_user)
    refused = client.get("/admin/raffle/draw/")
    assert refused["Location"].startswith(reverse("two_factor_verify"))
    assert not refused.wsgi_request.user.is_verified()
    client.logout()
    assert not client.get(reverse("home")).wsgi_request.user.is_authenticated
