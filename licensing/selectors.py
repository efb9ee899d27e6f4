"""Reads behind the licensing pages and the application PDF."""

from django.utils import timezone

from licensing.models import Application, Eligibility, Licence, SalesChannel
from licensing.outstanding import outstanding_reports
from licensing.services.applications import application_checklist, application_problems, plan_totals
from licensing.terms import licences_with_terms


def application_list():
    return Application.objects.select_related("organisation", "licence").order_by("-created_at")


def application_summary(application: Application, *, today=None) -> dict:
    """Everything the package summary shows (L3, L4, L6, L7)."""
    today = today or timezone.localdate()
    planned = list(application.planned_draws.all())
    rows = plan_totals(application.prize_board, [(p.draw_on, p.max_sales) for p in planned])
    eligibility = Eligibility.objects.filter(organisation=application.organisation).first()
    checklist = application_checklist(application)
    outstanding = outstanding_reports(application.organisation)
    return {
        "application": application,
        "organisation": application.organisation,
        "eligibility": eligibility,
        "eligibility_problems": eligibility.problems(today) if eligibility else ["no assessment on file"],
        "plan": rows,
        "planned_sales": sum((r["max_sales"] for r in rows), 0),
        "planned_prizes": rows[-1]["cumulative_prizes"] if rows else 0,
        "checklist": checklist,
        "outstanding": [{"report": report, "overdue": report.is_overdue(today)} for report in outstanding],
        "problems": (
            application_problems(
                application, today=today, planned=planned, checklist=checklist, outstanding=outstanding
            )
            if application.status == "draft"
            else []
        ),
        "earliest_start": application.earliest_start(today),
        "today": today,
    }


def licence_list(today=None):
    """Each licence with its figures in force today, approved amendments from
    their effective day included (`licensing.terms.licences_with_terms`)."""
    licences = Licence.objects.select_related("organisation").prefetch_related("amendments").order_by("-issued_on")
    return licences_with_terms(licences, today or timezone.localdate())


def licence_rows(today=None, *, licences=None) -> list[Licence]:
    """The licence list page's rows: `licence_list` (cut to `licences`, e.g.
    the reader's organisations', when given) with the channel in force's label."""
    rows = licence_list(today)
    rows = list(rows if licences is None else rows.filter(pk__in=licences.values("pk")))
    for licence in rows:
        licence.channel_in_force_label = SalesChannel(licence.channel_in_force).label
    return rows
