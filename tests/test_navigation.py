import pytest

from core import roles
from tests.factories import user_with_role

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "role, shown",
    [
        (roles.SELLER, False),
        (roles.DRAW_STAFF, False),
        (roles.TREASURER, True),
        (roles.AUDITOR, True),
        (roles.ADMINISTRATOR, True),
    ],
)
def test_the_header_offers_licensing_treasury_and_audit_only_to_those_who_may_open_them(client, role, shown):
    client.force_login(user_with_role(role))
    page = client.get("/").content.decode()
    for label in ("Licensing</a>", "Treasury</a>", "Audit trail</a>"):
        assert (label in page) is shown, (role, label)
