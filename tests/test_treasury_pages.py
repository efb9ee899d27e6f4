"""The treasurer's pages work without the admin; auditors read, only
treasurers and administrators write."""

import hashlib

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from core import roles
from licensing.models import Deposit, IssuedReport
from tests.factories import MemberFactory, UserFactory, event_with_closed_draws, once

SALES = ["795.00", "430.00", "405.00", "385.00"]


def _user(role, username):
    user = UserFactory(username=username)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def setup(db):
    treasurer = _user(roles.TREASURER, "treasurer")
    event, draws = event_with_closed_draws(SALES, actor=treasurer)
    return event, draws, treasurer


def test_treasurer_records_account_and_deposit_and_sees_the_flag(client, setup):  # R:L12
    event, draws, treasurer = setup
    client.force_login(treasurer)
    org = event.licence.organisation
    officers = [MemberFactory(organisation=org, is_in_charge=True) for _ in range(2)]
    response = client.post(
        f"/treasury/{event.pk}/deposits/account/",
        once(
            {
                "bank_name": "Kawartha Credit Union",
                "account_number": "12345",
                "opened_on": event.licence.issued_on,
                "deposit_within_days": 3,
                "signing_officers": [o.pk for o in officers],
            }
        ),
        follow=True,
    )
    assert "Trust account recorded." in response.content.decode()
    day = timezone.localdate(draws[0].scheduled_at)
    response = client.post(
        f"/treasury/{event.pk}/deposits/add/",
        once(
            {
                "slip_number": "DS-1",
                "deposited_on": day,
                "amount": "700.00",
                "draw": draws[0].pk,
                "slip_scan": SimpleUploadedFile("slip.png", b"png-bytes"),
            }
        ),
        follow=True,
    )
    page = response.content.decode()
    assert "Deposit recorded." in page and "short" in page
    assert Deposit.objects.get().slip_scan.read() == b"png-bytes"
    overview = client.get(f"/treasury/{event.pk}/").content.decode()
    assert "not reconciled" in overview and "Four-draw report" in overview


def test_a_deposit_whose_allocation_is_refused_leaves_no_slip_behind(client, setup):  # R:L12
    """The slip and its draw allocation are one write: when the allocation is
    refused, neither the slip's row nor its stored scan remains."""
    from django.core.files.storage import default_storage

    event, draws, treasurer = setup
    client.force_login(treasurer)
    officers = [MemberFactory(organisation=event.licence.organisation, is_in_charge=True) for _ in range(2)]
    client.post(
        f"/treasury/{event.pk}/deposits/account/",
        once(
            {
                "bank_name": "Kawartha Credit Union",
                "account_number": "12345",
                "opened_on": event.licence.issued_on,
                "deposit_within_days": 3,
                "signing_officers": [o.pk for o in officers],
            }
        ),
    )
    response = client.post(
        f"/treasury/{event.pk}/deposits/add/",
        once(
            {
                "slip_number": "DS-9",
                "deposited_on": timezone.localdate(draws[0].scheduled_at),
                "amount": "100.00",
                "draw": draws[0].pk,
                "draw_amount": "500.00",
                "slip_scan": SimpleUploadedFile("refused-slip.png", b"png-bytes"),
            }
        ),
        follow=True,
    )
    page = response.content.decode()
    assert "Check the amounts" in page and "Deposit recorded." not in page
    assert not Deposit.objects.exists()

    def stored(folder):
        dirs, files = default_storage.listdir(folder) if default_storage.exists(folder) else ([], [])
        return files + [name for d in dirs for name in stored(f"{folder}/{d}")]

    assert not [name for name in stored("deposit_slips") if "refused-slip" in name]


def test_refusal_is_shown_in_plain_words_and_nothing_saved(client, setup):  # R:L11
    event, draws, treasurer = setup
    client.force_login(treasurer)
    response = client.post(
        f"/treasury/{event.pk}/spending/expense/",
        once(
            {
                "kind": "proceeds_use",
                "paid_on": timezone.localdate(),
                "amount": "100",
                "payee": "X",
                "description": "Y",
                "reference": "CHQ 1",
            }
        ),
        follow=True,
    )
    assert "only be spent on an approved use" in response.content.decode()
    assert not event.licence.expenses.exists()


def test_issuing_a_report_keeps_the_file_and_its_hash(client, setup):  # R:R1
    event, draws, treasurer = setup
    client.force_login(treasurer)
    client.post(f"/treasury/{event.pk}/reports/issue/", {"kind": "four_draw", "period": "1", "format": "pdf"})
    issued = IssuedReport.objects.get()
    response = client.get(f"/treasury/{event.pk}/reports/issued/{issued.pk}/")
    assert response["Content-Type"] == "application/pdf"
    assert hashlib.sha256(response.content).hexdigest() == issued.sha256 == response["X-Content-SHA256"]
    assert issued.generated_by == treasurer
    assert "matches its SHA-256" in client.get(f"/treasury/{event.pk}/").content.decode()


def test_auditor_reads_but_cannot_write(client, setup):
    event, draws, _ = setup
    client.force_login(_user(roles.AUDITOR, "auditor"))
    for url in (
        "",
        "deposits/",
        "prizes/",
        "spending/",
        "reports/period/1.pdf",
        "reports/period/1.csv",
        "reports/final.pdf",
        "ledger.csv",
        "deadlines.ics",
    ):
        assert client.get(f"/treasury/{event.pk}/{url}").status_code == 200, url
    assert (
        client.post(
            f"/treasury/{event.pk}/reports/issue/", {"kind": "four_draw", "period": "1", "format": "pdf"}
        ).status_code
        == 403
    )
    assert not IssuedReport.objects.exists()


def test_sellers_and_visitors_are_kept_out(client, setup):
    event, _, _ = setup
    assert client.get(f"/treasury/{event.pk}/").status_code == 302
    client.force_login(_user(roles.SELLER, "seller"))
    assert client.get(f"/treasury/{event.pk}/ledger.csv").status_code == 403


def test_ledger_download_matches_the_command(client, setup):
    import io

    from django.core.management import call_command

    event, _, treasurer = setup
    client.force_login(treasurer)
    out = io.StringIO()
    call_command("export_ledger", "--licence", event.licence.number, "--as", treasurer.username, stdout=out)
    assert client.get(f"/treasury/{event.pk}/ledger.csv").content.decode() == out.getvalue()


def test_calendar_app_subscribes_with_the_readers_token_only_while_they_hold_a_role(client, setup):
    import re

    event, _, treasurer = setup
    client.force_login(treasurer)
    page = client.get(f"/treasury/{event.pk}/").content.decode()
    feed = re.search(r'value="(http[^"]+deadlines\.ics\?token=[^"]+)"', page).group(1)
    client.logout()
    path = feed.split("testserver", 1)[1].replace("&amp;", "&")
    response = client.get(path)
    assert response.status_code == 200 and response.content.startswith(b"BEGIN:VCALENDAR")
    assert client.get(path[:-3] + "xyz").status_code == 403
    treasurer.groups.clear()
    assert client.get(path).status_code == 403
    assert client.get(f"/treasury/{event.pk}/deadlines.ics").status_code == 302


def test_treasurer_changes_the_signing_officers_but_not_below_two(client, setup):  # R:L12
    from tests.factories import trust_account_for

    event, _, treasurer = setup
    account = trust_account_for(event, actor=treasurer)
    client.force_login(treasurer)
    one = MemberFactory(organisation=event.licence.organisation, full_name="Only One")
    page = client.post(
        f"/treasury/{event.pk}/deposits/officers/", once(signing_officers=[one.pk]), follow=True
    ).content.decode()
    assert "at least two different bona fide members" in page
    assert account.signing_officers.count() == 2
