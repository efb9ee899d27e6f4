"""Reads behind the licensing pages and the application PDF."""

from django.utils import timezone

from licensing.models import Application, Eligibility, Licence
from licensing.outstanding import outstanding_reports
from licensing.services.applications import application_checklist, application_problems, plan_totals


def application_list():
    return Application.objects.select_related("organisation", "licence").order_by("-created_at")


def application_summary(application: Application, *, today=None) -> dict:
    """Everything the package summary shows (L3, L4, L6, L7)."""
    today = today or timezone.localdate()
    planned = list(application.planned_draws.all())
    rows = plan_totals(application.prize_board, [(p.draw_on, p.max_sales) for p in planned])
    eligibility = Eligibility.objects.filter(organisation=application.organisation).first()
    return {
        "application": application,
        "organisation": application.organisation,
        "eligibility": eligibility,
        "eligibility_problems": eligibility.problems(today) if eligibility else ["no assessment on file"],
        "plan": rows,
        "planned_sales": sum((r["max_sales"] for r in rows), 0),
        "planned_prizes": rows[-1]["cumulative_prizes"] if rows else 0,
        "checklist": application_checklist(application),
        "outstanding": [
            {"report": report, "overdue": report.is_overdue(today)}
            for report in outstanding_reports(application.organisation)
        ],
        "problems": application_problems(application, today=today) if application.status == "draft" else [],
        "earliest_start": application.earliest_start(today),
        "today": today,
    }


def licence_list():
    return Licence.objects.select_related("organisation").prefetch_related("amendments").order_by("-issued_on")
