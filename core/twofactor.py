"""Two-factor authentication (TOTP through django-otp) for the roles that move
money or manage users.

`settings.REQUIRE_2FA_ROLES` names the roles (treasurer and administrator in
production; none in the DEBUG demo). A user holding one of them, a superuser
when administrators need it, and anyone who has enrolled an authenticator
must enter a current code before any page that needs a sign-in. Pages anyone
may see (home, sign in, sign out, password reset, these two pages) are exempt.
"""

import functools
from base64 import b32encode
from contextlib import suppress

from django import forms
from django.apps import apps
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import LazyObject, empty
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_otp import DEVICE_ID_SESSION_KEY, match_token, user_has_device
from django_otp import login as otp_login
from django_otp.middleware import OTPMiddleware as DjangoOTPMiddleware
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

from core.audit import audit_record
from core.prepared import instance_from_row, row_by_pk
from core.roles import ADMINISTRATOR, user_roles
from core.signals_accounts import enrolment_recorded_by_caller

# Pages a signed-in user may open before entering a code.
EXEMPT_URL_NAMES = {
    "home",
    "healthz",
    "login",
    "logout",
    "password_reset",
    "password_reset_done",
    "password_reset_confirm",
    "password_reset_complete",
    "two_factor_setup",
    "two_factor_verify",
    "admin:login",
    "admin:logout",
    "admin:jsi18n",
}


def needs_second_factor(user) -> bool:
    """True when this user must prove a code in this session."""
    if not user.is_authenticated:
        return False
    if user_has_device(user, confirmed=True):
        return True
    required = set(settings.REQUIRE_2FA_ROLES)
    if not required:
        return False
    if user.is_superuser and ADMINISTRATOR in required:
        return True
    return bool(user_roles(user) & required)


def is_verified(user) -> bool:
    return bool(getattr(user, "is_verified", None) and user.is_verified())


# The attribute on a request's user holding their confirmed authenticators,
# read in the user's own statement (core.auth_backend, #18): the device the
# session names is found among them, with no statement of its own.
DEVICES_READ_WITH_USER = "confirmed_devices_read_with_user"
NOT_READ = object()


@functools.cache
def devices_read_with_user_sql() -> str:
    """The user's confirmed TOTP devices as one JSON array of rows (every
    column, in the model's order), for the statement that reads the user
    (auth_user is the table read)."""
    meta = TOTPDevice._meta
    columns = ", ".join(f'd."{field.column}"' for field in meta.concrete_fields)
    return (
        f'(SELECT json_agg(json_build_array({columns}) ORDER BY d.id) FROM "{meta.db_table}" d '
        f"WHERE d.{meta.get_field('user').column} = auth_user.id AND d.confirmed)"
    )


def device_from_read(values) -> TOTPDevice:
    """The device of one row of `devices_read_with_user_sql`, as the ORM
    builds it: JSON gives numbers, text and booleans as they are, and the
    times as ISO text, which each field turns back into its value."""
    fields = TOTPDevice._meta.concrete_fields
    converted = [field.to_python(value) for field, value in zip(fields, values, strict=True)]
    return instance_from_row(TOTPDevice, [field.attname for field in fields], converted)


class OTPMiddleware(DjangoOTPMiddleware):
    """django-otp's, finding the session's device among the confirmed ones
    read with the user (#18), else reading it by a prepared statement
    (core.prepared); django-otp still checks that the device is the user's
    and confirmed, and forgets a device that is not."""

    def _verify_user_sync(self, request, user):
        # django-otp's own steps (`_init_user_fields`, `_finalize_device`), with the device found as above
        self._init_user_fields(user)
        if user.is_authenticated:
            persistent_id = request.session.get(DEVICE_ID_SESSION_KEY)
            device = self._session_device(user, persistent_id) if persistent_id else None
            user.otp_device = self._finalize_device(request, user, device)
        return user

    def _session_device(self, user, persistent_id: str):
        read = getattr(user, DEVICES_READ_WITH_USER, NOT_READ)
        model_label, _, device_id = self._normalize_persistent_id(persistent_id).rpartition("/")
        if read is NOT_READ or model_label != TOTPDevice.model_label():
            return self._device_from_persistent_id(persistent_id)
        # not among them: not a confirmed device of this user, which django-otp refuses too
        return next((device_from_read(row) for row in read or () if str(row[0]) == device_id), None)

    def _device_from_persistent_id(self, persistent_id: str):
        model_label, _, device_id = self._normalize_persistent_id(persistent_id).rpartition("/")
        with suppress(ValueError, LookupError):
            model = apps.get_model(model_label)
            if issubclass(model, Device):
                return row_by_pk(model, int(device_id))
        return None


def concrete_user(user):
    """The user object behind `request.user`, read by now: Django's
    authentication and django-otp each wrap it in a lazy object, so every
    attribute a view reads went through both wrappers (about 4% of a sale
    POST's instructions, #18). Set back on the request once the user and
    their device are known, the view and the services it calls read the user
    itself; nothing is read that was not read already."""
    while isinstance(user, LazyObject):
        if user._wrapped is empty:
            user._setup()
        user = user._wrapped
    return user


class TwoFactorMiddleware:
    """After django-otp's middleware: sends a user who needs a second factor
    and has not given one in this session to enrol or to enter a code."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_view(self, request, view_func, view_args, view_kwargs):
        match = request.resolver_match
        if match is None or match.view_name in EXEMPT_URL_NAMES:
            return None
        user = request.user
        if not user.is_authenticated or is_verified(user) or not needs_second_factor(user):
            request.user = concrete_user(user)
            return None
        enrolled = user_has_device(user, confirmed=True)
        return _to(request, "two_factor_verify" if enrolled else "two_factor_setup", request.get_full_path())


class TokenForm(forms.Form):
    token = forms.CharField(
        label=_("6-digit code from your authenticator app"),
        min_length=6,
        max_length=8,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric"}),
    )

    def clean_token(self):
        token = self.cleaned_data["token"].replace(" ", "")
        if not token.isdigit():
            raise forms.ValidationError(_("Enter the digits shown in your authenticator app."))
        return token


def _to(request, url_name: str, next_url: str):
    return redirect(f"{reverse(url_name)}?{urlencode({'next': next_url})}")


def _next_url(request) -> str:
    candidate = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        candidate, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return candidate
    return reverse(settings.LOGIN_REDIRECT_URL)


def _qr_svg(url: str) -> str:
    import segno

    return segno.make(url, error="m").svg_inline(
        scale=4, border=4, dark="#000", light="#fff", title=gettext("QR code for your authenticator app")
    )


def two_factor_device_for_enrolment(*, user) -> TOTPDevice:
    """The authenticator being set up: the unconfirmed one, or a new one."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("pk").first()
    return device or TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=False)


def two_factor_confirm(*, actor, device: TOTPDevice, token: str) -> bool:
    """Confirm `actor`'s new authenticator with a code it produced. False (and
    nothing confirmed) when the code does not match; the device's throttle
    still counts the failure, so it is not wrapped in the audit transaction."""
    if device.user_id != actor.pk or device.confirmed or not device.verify_token(token):
        return False
    with transaction.atomic(), enrolment_recorded_by_caller():
        device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
        device.confirmed = True
        device.save(update_fields=["confirmed"])
        audit_record(actor=actor, action="core.two_factor.enrol", obj=actor, data={"device": device.persistent_id})
    return True


@login_required
def two_factor_setup(request):
    """Enrol an authenticator app: scan the code (or type the key), then prove it."""
    user = request.user
    if user_has_device(user, confirmed=True):
        if not is_verified(user):
            return _to(request, "two_factor_verify", _next_url(request))
        return render(request, "registration/two_factor_setup.html", {"enrolled": True})
    device = two_factor_device_for_enrolment(user=user)
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if two_factor_confirm(actor=user, device=device, token=form.cleaned_data["token"]):
            device.refresh_from_db()
            otp_login(request, device)
            return redirect(_next_url(request))
        form.add_error(
            "token",
            _(
                "That code did not match. Codes change every 30 seconds: "
                "check the time on your phone and enter the current one."
            ),
        )
    secret = b32encode(device.bin_key).decode()
    return render(
        request,
        "registration/two_factor_setup.html",
        {
            "form": form,
            "qr_svg": _qr_svg(device.config_url),
            "secret": " ".join(secret[i : i + 4] for i in range(0, len(secret), 4)),
            "next": _next_url(request),
            "required": needs_second_factor(user),
        },
    )


@login_required
def two_factor_verify(request):
    """Enter the current code to finish signing in."""
    if not user_has_device(request.user, confirmed=True):
        return _to(request, "two_factor_setup", _next_url(request))
    form = TokenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = match_token(request.user, form.cleaned_data["token"])
        if device is not None:
            otp_login(request, device)
            return redirect(_next_url(request))
        form.add_error(
            "token",
            _(
                "That code did not match, or too many codes were tried: wait a "
                "moment and enter the current code. Lost your phone? Ask an "
                "administrator to reset your authenticator."
            ),
        )
    return render(
        request,
        "registration/two_factor_verify.html",
        {
            "form": form,
            "next": _next_url(request),
        },
    )
