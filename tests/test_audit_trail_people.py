"""Whose audit entries an organisation reads (#15, R:D7). An entry belongs to
the chain it was appended to. The system chain (sign-ins, accounts,
authenticators) belongs to no organisation: each of its entries is about one
person, and is read by the organisations that person works for or once worked
for. The auditor of Lakeshore Lions never reads Hilltop Hospice's people: not
while they work there, not after they left every organisation, not when
someone who works for both charities changed their account."""

import csv
import io

import pytest
from django.db import transaction
from django.urls import reverse

from core import roles
from core.audit import audit_record
from core.models import AuditEntry
from core.scope import people_of, trail_of
from licensing.models import Membership
from licensing.services import membership_add, membership_remove
from tests.factories import OrganisationFactory, UserFactory, give_role, user_with_role

pytestmark = pytest.mark.django_db

PAT = "pat-hospice-volunteer"


def record(actor, action, obj):
    with transaction.atomic():
        return audit_record(actor=actor, action=action, obj=obj, data={})


@pytest.fixture
def story(settings):
    """Pat volunteered for the hospice, signed in, had a password set by a
    person who administers both charities, then left: Pat works for nobody."""
    settings.REQUIRE_2FA_ROLES = []
    lions, hospice = OrganisationFactory(name="Lakeshore Lions"), OrganisationFactory(name="Hilltop Hospice")
    both = user_with_role(roles.ADMINISTRATOR, organisation=lions, username="quinn-both")
    give_role(both, roles.ADMINISTRATOR, organisation=hospice)
    pat = UserFactory(username=PAT)
    membership = membership_add(actor=both, user=pat, organisation=hospice, role=roles.SELLER)
    entries = [
        record(pat, "core.user.login", pat),
        record(both, "core.user.password_set", pat),
        record(pat, "core.user.logout", pat),
    ]
    membership_remove(actor=both, membership=membership)
    assert not Membership.objects.filter(user=pat).exists()
    auditors = {
        lions: user_with_role(roles.AUDITOR, organisation=lions, username="lions-auditor"),
        hospice: user_with_role(roles.AUDITOR, organisation=hospice, username="hospice-auditor"),
    }
    return lions, hospice, auditors, pat, entries


def test_the_other_charitys_auditor_never_reads_a_person_who_left_it(story):  # R:D7
    lions, hospice, auditors, pat, entries = story
    ids = {e.pk for e in entries}
    assert not ids & set(trail_of(auditors[lions], roles.AUDITOR).values_list("pk", flat=True))
    assert ids <= set(trail_of(auditors[hospice], roles.AUDITOR).values_list("pk", flat=True))
    # Nor do the records' people lists name them to the other charity.
    assert pat not in people_of(auditors[lions]) and pat in people_of(auditors[hospice])


def test_the_trail_page_its_csv_and_the_records_follow_the_same_rule(client, story):  # R:D7
    lions, hospice, auditors, _, entries = story
    for organisation, sees in ((lions, False), (hospice, True)):
        client.force_login(auditors[organisation])
        page = client.get(reverse("audit_trail")).text
        exported = b"".join(client.get(reverse("audit_trail"), {"format": "csv"}).streaming_content).decode()
        ids = {row[0] for row in list(csv.reader(io.StringIO(exported)))[1:]}
        records = client.get(reverse("admin:core_auditentry_changelist")).text
        assert (PAT in page) is sees, organisation
        wanted = {str(e.pk) for e in entries}
        assert (wanted & ids) == (wanted if sees else set()), organisation
        assert (PAT in records) is sees, organisation


def test_a_person_who_works_for_both_leaves_no_trace_of_the_others_people(story):  # R:D7
    """Quinn administers both charities: the Lions' auditor reads Quinn's own
    sign-ins, not what Quinn did to the hospice's people's accounts."""
    lions, _, auditors, _, entries = story
    both = entries[1].actor
    own = record(both, "core.user.login", both)
    lions_trail = trail_of(auditors[lions], roles.AUDITOR)
    assert lions_trail.filter(pk=own.pk).exists()
    assert not lions_trail.filter(pk=entries[1].pk).exists()  # the password Quinn set for Pat


def test_an_account_no_organisation_has_yet_is_read_where_the_person_who_made_it_works(story):  # R:D7
    lions, hospice, auditors, *_ = story
    maker = user_with_role(roles.ADMINISTRATOR, organisation=lions, username="lions-admin")
    newcomer = UserFactory(username="just-added")
    made = record(maker, "core.user.create", newcomer)
    assert trail_of(auditors[lions], roles.AUDITOR).filter(pk=made.pk).exists()
    assert not trail_of(auditors[hospice], roles.AUDITOR).filter(pk=made.pk).exists()
    # Once they work for the hospice, their account's history is the hospice's to read as well.
    membership_add(actor=None, user=newcomer, organisation=hospice, role=roles.SELLER)
    assert trail_of(auditors[hospice], roles.AUDITOR).filter(pk=made.pk).exists()


def test_an_entry_about_nobody_is_read_by_no_organisation(story):  # R:D7
    lions, hospice, auditors, *_ = story
    with transaction.atomic():
        failed = audit_record(actor=None, action="core.user.login_failed", data={"username": "mallory"})
    for organisation in (lions, hospice):
        assert not trail_of(auditors[organisation], roles.AUDITOR).filter(pk=failed.pk).exists()
    assert AuditEntry.objects.filter(pk=failed.pk).exists()
