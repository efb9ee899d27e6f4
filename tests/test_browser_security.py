"""In a real browser (Chromium through Playwright): a treasurer signs in,
enrols an authenticator from the page's own key and reaches the records."""

import re
from base64 import b32decode
from pathlib import Path

import pytest
from django_otp.oath import totp

from core import roles
from tests.factories import PASSWORD, user_with_role

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": "/usr/bin/chromium"}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_treasurer_signs_in_enrols_two_factor_and_reaches_the_records(live_server, page, settings):
    settings.REQUIRE_2FA_ROLES = [roles.TREASURER, roles.ADMINISTRATOR]
    user_with_role(roles.TREASURER, username="pat")
    page.goto(f"{live_server.url}/admin/")
    page.get_by_label("Username").fill("pat")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name=re.compile("Log in|Sign in")).click()

    page.wait_for_url(re.compile(r"/accounts/two-factor/"))
    assert page.get_by_role("heading", name="Two-factor sign-in").is_visible()
    assert page.locator("svg.segno").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "two-factor-enrolment.png"), full_page=True)

    key = b32decode(page.locator("code").inner_text().replace(" ", ""))
    page.get_by_label("6-digit code from your authenticator app").fill(f"{totp(key):06d}")
    page.get_by_role("button", name="Confirm and continue").click()
    page.wait_for_url(re.compile(r"/admin/$"))
    assert page.get_by_role("heading", name="Records").is_visible()
