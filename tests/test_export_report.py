"""`manage.py export_report`: the same report the treasurer's page serves,
as PDF or CSV, for archiving and auditors' scripts (RULES R1, R2)."""

import csv
import io

import pytest
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command

from core import roles
from core.pdf import pdf_text
from tests.factories import OrganisationFactory, UserFactory, event_with_closed_draws, user_with_role


@pytest.fixture
def closed(db):
    treasurer = UserFactory(username="treasurer")
    treasurer.groups.add(Group.objects.get(name=roles.TREASURER))
    event, _ = event_with_closed_draws(["795.00", "430.00", "405.00", "385.00"], actor=treasurer)
    return event, treasurer


def test_the_command_writes_the_csv_the_page_serves(closed, client, tmp_path):  # R:R1
    event, treasurer = closed
    target = tmp_path / "period-1.csv"
    call_command(
        "export_report",
        "--licence",
        event.licence.number,
        "--as",
        "treasurer",
        "--period",
        "1",
        "--format",
        "csv",
        "--output",
        str(target),
    )
    client.force_login(treasurer)
    page = client.get(f"/treasury/{event.pk}/reports/period/1.csv")
    assert target.read_bytes() == page.content
    rows = list(csv.DictReader(io.StringIO(target.read_text())))
    draws = [r for r in rows if r["draw_number"].isdigit()]
    assert [r["draw_number"] for r in draws] == ["1", "2", "3", "4"]
    assert [r["ticket_sales"] for r in draws] == ["795.00", "430.00", "405.00", "385.00"]
    totals = {r["licence"]: r for r in rows if not r["draw_number"].isdigit()}  # labelled in the first column
    assert totals["total"]["ticket_sales"] == "2015.00"
    assert totals["prize_board"]["ticket_sales"] == "1007.50"
    assert totals["fee_1.00_percent"]["ticket_sales"] == "10.07"


def test_the_command_writes_the_final_report_as_pdf_to_standard_output(closed, capsysbinary):  # R:R2
    event, _ = closed
    call_command("export_report", "--licence", event.licence.number, "--as", "treasurer", "--final")
    pdf = capsysbinary.readouterr().out
    assert pdf.startswith(b"%PDF")
    text = " ".join(pdf_text(pdf).split())
    assert "Final report (DRAFT: the licence has not ended)" in text and "2,015.00" in text


def test_the_command_refuses_a_period_not_over_and_an_unknown_licence(closed):  # R:R1
    event, _ = closed
    with pytest.raises(CommandError, match="No draw of period 2"):
        call_command("export_report", "--licence", event.licence.number, "--as", "treasurer", "--period", "2")
    with pytest.raises(CommandError, match="No event under licence"):
        call_command("export_report", "--licence", "NOPE", "--as", "treasurer", "--final")
    with pytest.raises(CommandError):
        call_command("export_report", "--licence", event.licence.number, "--as", "treasurer")  # --period or --final


def test_an_issued_report_is_served_as_stored_not_rendered_again(closed, client):  # R:R2
    from licensing.models import IssuedReport

    event, treasurer = closed
    client.force_login(treasurer)
    client.post(f"/treasury/{event.pk}/reports/issue/", {"kind": "final", "format": "pdf"})
    issued = IssuedReport.objects.get()
    stored = issued.file.read()
    response = client.get(f"/treasury/{event.pk}/reports/final.pdf")
    assert response.content == stored and response["X-Content-SHA256"] == issued.sha256
    fresh = client.get(f"/treasury/{event.pk}/reports/final.pdf?fresh=1")
    assert fresh.content.startswith(b"%PDF") and "X-Content-SHA256" not in fresh


def test_the_command_acts_only_for_the_organisation_of_the_person_named(closed):  # R:R1
    """#15 a treasurer of another charity is told the licence is unknown, as if it did not exist;
    the command will not run for nobody."""
    event, _ = closed
    user_with_role(roles.TREASURER, organisation=OrganisationFactory(), username="elsewhere")
    with pytest.raises(CommandError, match="No event under licence"):
        call_command("export_report", "--licence", event.licence.number, "--as", "elsewhere", "--final")
    with pytest.raises(CommandError, match="No active user is named 'nobody'"):
        call_command("export_report", "--licence", event.licence.number, "--as", "nobody", "--final")


def test_the_operator_exports_any_licence_without_naming_a_person(closed, client, tmp_path):  # R:R1
    """The issue's own command line: read-only, so the operator at the server (who
    can read the database anyway) needs no --as; with --as it is cut to a person."""
    event, treasurer = closed
    target = tmp_path / "period-1.csv"
    argv = ["--licence", event.licence.number, "--period", "1", "--format", "csv", "--output", str(target)]
    call_command("export_report", *argv, stderr=io.StringIO())
    client.force_login(treasurer)
    assert target.read_bytes() == client.get(f"/treasury/{event.pk}/reports/period/1.csv").content
    ledger = io.StringIO()
    call_command("export_ledger", "--licence", event.licence.number, stdout=ledger)
    assert ledger.getvalue().startswith("draw_number,draw_date,ticket_sales,") and ledger.getvalue().count("\n") == 5
