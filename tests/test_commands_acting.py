"""Management commands act for a person (#15): `--as USERNAME` reaches only
the records of the organisations where that person holds the command's
roles. Another organisation's licence (or event) is refused with exactly the
message of one that does not exist, so a command cannot even confirm it.

import_history and import_supplier_draw change records: `--as` is required
and the audit entries are the person's. verify_deck and reconcile_draw_totals
only check: without `--as` the operator checks every organisation."""

import datetime
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from core import roles
from core.models import AuditEntry
from raffle import services
from raffle.models import Draw, Sale
from tests.factories import (
    LicenceFactory,
    OrganisationFactory,
    UserFactory,
    event_with_draw,
    give_role,
    without_approval,
)
from tests.supplier_files import four_sales, sales_file

pytestmark = pytest.mark.django_db

NO_SUCH = "RAF-0000-NOPE"


@pytest.fixture
def orgs():
    return OrganisationFactory(name="Lakeshore Lions"), OrganisationFactory(name="Hilltop Hospice")


def person(username, organisation, *held):
    user = UserFactory(username=username)
    for role in held:
        give_role(user, role, organisation=organisation)
    return user


def refusal(*args) -> str:
    with pytest.raises(CommandError) as refused:
        call_command(*args, stdout=io.StringIO(), stderr=io.StringIO())
    return str(refused.value)


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


# --- import_history ------------------------------------------------------------------


def moved_in(organisation, actor):
    weeks_ago = timezone.now() - datetime.timedelta(weeks=20)
    return event_with_draw(
        actor=actor,
        licence=LicenceFactory(organisation=organisation, issued_on=timezone.localdate(weeks_ago)),
        first_draw_at=weeks_ago,
    )


def history(tmp_path) -> str:
    day = (timezone.localdate() - datetime.timedelta(weeks=19)).isoformat()
    path = tmp_path / "history.csv"
    path.write_text(f"draw_number,draw_date,ticket_sales,envelope,card\n1,{day},100.00,7,QD\n")
    return str(path)


def test_import_history_acts_for_the_treasurer_within_their_organisation_only(orgs, tmp_path):
    lions, hospice = orgs
    terry = person("terry", lions, roles.TREASURER)
    mine, theirs = moved_in(lions, terry), moved_in(hospice, terry)
    file = history(tmp_path)
    out = run("import_history", "--as", "terry", "--licence", mine.licence.number, file)
    assert "Imported 1 draw(s)" in out
    assert Draw.objects.get(event=mine, number=1).is_imported
    assert AuditEntry.objects.filter(action__startswith="raffle.", actor=terry).exists()  # recorded as theirs
    unknown = refusal("import_history", "--as", "terry", "--licence", NO_SUCH, file)
    other = refusal("import_history", "--as", "terry", "--licence", theirs.licence.number, file)
    assert other == unknown.replace(NO_SUCH, theirs.licence.number)
    assert not Draw.objects.filter(event=theirs, is_imported=True).exists()


def test_import_history_needs_someone_to_act_for_and_the_role(orgs, tmp_path):
    lions, _ = orgs
    sally = person("sally", lions, roles.SELLER)
    event = moved_in(lions, sally)
    file = history(tmp_path)
    with pytest.raises(CommandError, match="--as"):
        call_command("import_history", "--licence", event.licence.number, file, stdout=io.StringIO())
    # A seller of the organisation is not one who imports its history: the licence is not theirs to reach.
    assert refusal("import_history", "--as", "sally", "--licence", event.licence.number, file).startswith(
        f"No licence {event.licence.number}"
    )


# --- import_supplier_draw ------------------------------------------------------------


def supplier_draw(organisation, actor):
    event = event_with_draw(
        actor=actor,
        licence=without_approval(organisation=organisation),
        first_draw_at=timezone.now() - datetime.timedelta(hours=1),
    )
    return services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))


def test_import_supplier_draw_acts_within_the_persons_organisation_only(orgs, tmp_path):  # R:D5
    lions, hospice = orgs
    dana = person("dana", lions, roles.DRAW_STAFF)
    mine, theirs = supplier_draw(lions, dana), supplier_draw(hospice, dana)
    path = tmp_path / "sales.csv"
    path.write_bytes(sales_file(four_sales(mine)).content)
    args = ["import_supplier_draw", "--as", "dana", "--draw", "1", "--sales", str(path)]
    assert "Imported for draw 1" in run(*args, "--licence", mine.event.licence.number)
    assert Sale.objects.filter(draw=mine).count() == 5
    assert AuditEntry.objects.filter(actor=dana, action__contains="supplier").exists()
    unknown = refusal(*args, "--licence", NO_SUCH)
    other = refusal(*args, "--licence", theirs.event.licence.number)
    assert other == unknown.replace(NO_SUCH, theirs.event.licence.number)
    assert not Sale.objects.filter(draw=theirs).exists()


# --- verify_deck and reconcile_draw_totals: the operator's checks, or a person's ----------


def test_verify_deck_as_a_person_checks_their_organisations_decks_only(orgs):  # R:E4
    lions, hospice = orgs
    audrey = person("audrey", lions, roles.AUDITOR)
    mine = event_with_draw(actor=audrey, licence=LicenceFactory(organisation=lions), deck_kind="electronic")
    theirs = event_with_draw(actor=audrey, licence=LicenceFactory(organisation=hospice), deck_kind="electronic")
    everyone = run("verify_deck")  # the operator: every organisation
    assert everyone.count("fingerprint") == 2
    assert run("verify_deck", "--as", "audrey").count("fingerprint") == 1
    assert "fingerprint" in run("verify_deck", "--as", "audrey", "--event", str(mine.pk))
    unknown = refusal("verify_deck", "--as", "audrey", "--event", "999999")
    other = refusal("verify_deck", "--as", "audrey", "--event", str(theirs.pk))
    assert other == unknown.replace("999999", str(theirs.pk))


def test_reconcile_draw_totals_as_a_person_checks_their_organisations_draws_only(orgs):  # R:T11
    lions, hospice = orgs
    audrey = person("audrey", lions, roles.AUDITOR)
    mine = event_with_draw(actor=audrey, licence=LicenceFactory(organisation=lions))
    theirs = event_with_draw(actor=audrey, licence=LicenceFactory(organisation=hospice))
    per_event = mine.draws.count()
    assert f"{2 * per_event} draw(s): totals equal the rows" in run("reconcile_draw_totals")
    assert f"{per_event} draw(s): totals equal the rows" in run("reconcile_draw_totals", "--as", "audrey")
    assert "totals equal the rows" in run("reconcile_draw_totals", "--as", "audrey", "--event", str(mine.pk))
    unknown = refusal("reconcile_draw_totals", "--as", "audrey", "--event", "999999")
    other = refusal("reconcile_draw_totals", "--as", "audrey", "--event", str(theirs.pk))
    assert other == unknown.replace("999999", str(theirs.pk))


def test_a_person_who_is_not_an_active_user_is_refused(orgs):
    assert "No active user is named 'nobody'" in refusal("verify_deck", "--as", "nobody")
