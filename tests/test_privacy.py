"""Purchasers' contact details: full for the roles that need them, masked for the others."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template

from core import roles
from core.csvsafe import csv_text
from core.privacy import contact_for, mask_contact
from tests.factories import UserFactory, user_with_role


@pytest.mark.parametrize(
    ("value", "masked"),
    [
        ("jordan.b@example.org", "j•••@example.org"),
        ("613-555-0142", "•••-•••-0142"),
        ("+1 (613) 555 0142", "•••-•••-0142"),
        ("12 Harbour Street, Kingston", "1•••"),
        ("", ""),
        (None, ""),
    ],
)
def test_contact_details_are_masked_to_what_tells_them_apart(value, masked):
    assert mask_contact(value) == masked


def test_masking_never_leaves_the_reachable_part():
    for value in ("a@b.ca", "pat.morrison@lakeshore-lions.ca", "6135550142"):
        masked = mask_contact(value)
        assert "pat.morrison" not in masked and "555" not in masked and masked != value


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("role", "full"),
    [
        (roles.SELLER, True),
        (roles.TREASURER, True),
        (roles.ADMINISTRATOR, True),
        (roles.DRAW_STAFF, False),
        (roles.AUDITOR, False),
    ],
)
def test_only_the_roles_that_need_contact_details_see_them_in_full(role, full):
    # R:T9 purchasers' contact details are recorded; only some roles read them.
    user = user_with_role(role)
    shown = contact_for(user, "jordan.b@example.org")
    assert (shown == "jordan.b@example.org") is full


@pytest.mark.django_db
def test_anonymous_visitors_and_users_without_a_role_see_masked_details():
    assert contact_for(AnonymousUser(), "613-555-0142") == "•••-•••-0142"
    assert contact_for(UserFactory(), "613-555-0142") == "•••-•••-0142"


@pytest.mark.django_db
def test_template_filter_masks_for_an_auditor_and_escapes():
    auditor = user_with_role(roles.AUDITOR)
    seller = user_with_role(roles.SELLER)
    template = Template("{% load privacy %}{{ value|contact_for:user }}")
    assert template.render(Context({"value": "jo@x.ca", "user": auditor})) == "j•••@x.ca"
    shown = template.render(Context({"value": "<b>jo@x.ca</b>", "user": seller}))
    assert shown == "&lt;b&gt;jo@x.ca&lt;/b&gt;"


@pytest.mark.django_db
def test_an_auditors_export_carries_masked_contacts():
    auditor = user_with_role(roles.AUDITOR)
    rows = [["T00042", "Jordan B", contact_for(auditor, "jordan.b@example.org"), contact_for(auditor, "613-555-0142")]]
    text = csv_text(["serial", "purchaser", "email", "phone"], rows)
    assert "jordan.b@" not in text and "555-0142" not in text
    assert "j•••@example.org" in text and "•••-•••-0142" in text
