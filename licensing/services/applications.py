"""The licence application package (RULES L3, L4, L6, L7)."""

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import Rounding, format_money_here, parse_amount, prizes_of
from licensing.errors import LicensingError
from licensing.models import (
    ApplicantKind,
    Application,
    ApplicationDocument,
    ApplicationSigner,
    ApplicationStatus,
    DocumentKind,
    Organisation,
    PlannedDraw,
)
from licensing.outstanding import outstanding_reports
from licensing.services.eligibility import eligibility_check
from licensing.services.licences import check_authority_allows, default_authority_name
from licensing.services.members import check_adult


def lock_draft(application: Application) -> Application:
    application = Application.objects.select_for_update().get(pk=application.pk)
    if application.status != ApplicationStatus.DRAFT:
        raise LicensingError(
            gettext(
                "The application was submitted on %(submitted_on)s; it can no longer be changed. Start a "
                "new application to change it."
            )
            % {"submitted_on": format(application.submitted_on, "%Y-%m-%d")}
        )
    return application


@transaction.atomic
def application_create(
    *,
    actor,
    organisation: Organisation,
    applicant_kind: str,
    authority_kind: str,
    authority_name: str,
    sales_channel: str,
    prize_board,
) -> Application:
    eligibility_check(organisation=organisation)  # R:L1
    if applicant_kind not in ApplicantKind.values:
        raise LicensingError(gettext("Say whether this is a first-time or a returning applicant."))
    prize_board = parse_amount(prize_board, what=gettext("The prize board"), allow_zero=False)
    check_authority_allows(authority_kind=authority_kind, sales_channel=sales_channel, prize_board=prize_board)
    application = Application.objects.create(
        organisation=organisation,
        applicant_kind=applicant_kind,
        authority_kind=authority_kind,
        authority_name=(authority_name or "").strip() or default_authority_name(authority_kind),
        sales_channel=sales_channel,
        prize_board=prize_board,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    audit_record(
        actor=actor,
        action="licensing.application.create",
        obj=application,
        data={
            "organisation": organisation.name,
            "applicant_kind": applicant_kind,
            "authority_kind": authority_kind,
            "sales_channel": sales_channel,
            "prize_board": prize_board,
        },
    )
    return application


def plan_totals(prize_board, draws: list[tuple[datetime.date, object]]) -> list[dict]:
    """Each planned draw with its prizes (20% + 30% of the maximum sales) and
    the cumulative prizes so far, against the prize board (L3)."""
    rows, total = [], parse_amount("0")
    for number, (draw_on, max_sales) in enumerate(draws, start=1):
        prizes = prizes_of(max_sales, rounding=Rounding.CENT)
        total += prizes
        rows.append(
            {
                "number": number,
                "draw_on": draw_on,
                "max_sales": max_sales,
                "prizes": prizes,
                "cumulative_prizes": total,
                "fits": total <= prize_board,
            }
        )
    return rows


def sales_plan_parse(draws, prize_board) -> tuple[list[tuple[datetime.date, object]], list[dict]]:
    """A draw schedule and sales plan, (date, maximum sales) per draw, checked:
    dates in order, amounts positive, and R:L3 the cumulative prizes within the
    prize board. Returns the parsed plan and its rows with the prizes."""
    parsed = []
    for index, (draw_on, max_sales) in enumerate(draws or [], start=1):
        if not isinstance(draw_on, datetime.date):
            raise LicensingError(gettext("Planned draw %(index)s needs a date.") % {"index": index})
        parsed.append(
            (
                draw_on,
                parse_amount(
                    max_sales, what=gettext("The maximum sales of draw %(index)s") % {"index": index}, allow_zero=False
                ),
            )
        )
    if not parsed:
        raise LicensingError(gettext("Plan at least one draw: its date and the most you expect to sell."))
    dates = [d for d, _ in parsed]
    if dates != sorted(dates) or len(set(dates)) != len(dates):
        raise LicensingError(gettext("List the planned draws in date order, one draw per day."))
    rows = plan_totals(prize_board, parsed)
    over = next((row for row in rows if not row["fits"]), None)
    if over:  # R:L3
        raise LicensingError(
            gettext(
                "The sales plan carries the prizes to %(format_money)s by draw %(over)s (%(over2)s), past "
                "the prize board of %(format_money2)s. Lower the maximum sales, plan fewer draws, or ask "
                "for a larger prize board."
            )
            % {
                "format_money": format_money_here(over["cumulative_prizes"]),
                "over": over["number"],
                "over2": format(over["draw_on"], "%Y-%m-%d"),
                "format_money2": format_money_here(prize_board),
            },
            rule="L3",
        )
    return parsed, rows


@transaction.atomic
def application_set_schedule(*, actor, application: Application, draws) -> list[PlannedDraw]:
    """Replace the draw schedule and sales plan: `draws` is a list of (date,
    maximum sales). R:L3 the planned cumulative prizes must fit the prize board."""
    application = lock_draft(application)
    parsed, rows = sales_plan_parse(draws, application.prize_board)
    application.planned_draws.all().delete()
    planned = PlannedDraw.objects.bulk_create(
        [
            PlannedDraw(application=application, number=n, draw_on=d, max_sales=s)
            for n, (d, s) in enumerate(parsed, start=1)
        ]
    )
    audit_record(
        actor=actor,
        action="licensing.application.schedule",
        obj=application,
        data={"draws": [[d, s] for d, s in parsed], "planned_prizes": rows[-1]["cumulative_prizes"]},
    )
    return planned


@transaction.atomic
def application_attach_document(
    *, actor, application: Application, kind: str, file=None, note: str = ""
) -> ApplicationDocument:
    """R:L7 attach a checklist document (a file, or a note of where the
    original is kept). Attaching again replaces it."""
    application = lock_draft(application)
    if kind not in application.required_documents():
        raise LicensingError(gettext("Choose a document of this application's checklist."), rule="L7")
    note = (note or "").strip()
    if not file and not note:
        raise LicensingError(
            gettext("Attach the file, or give the reason there is none (e.g. not registered; original in the binder).")
        )
    document = ApplicationDocument.objects.filter(application=application, kind=kind).first()
    document = document or ApplicationDocument(application=application, kind=kind)
    if file:
        document.file = file
    document.note = note
    document.attached_by = actor if actor is not None and actor.is_authenticated else None
    document.attached_at = timezone.now()
    document.save()
    audit_record(
        actor=actor,
        action="licensing.application.attach",
        obj=application,
        data={"kind": kind, "file": document.file.name if document.file else "", "note": note},
    )
    return document


def application_checklist(application: Application) -> list[dict]:
    """R:L7 every item of the guide's checklist for this applicant, in the
    guide's order: its document (or the reason there is none), or missing.
    The draw schedule is generated from the planned draws."""
    attached = {d.kind: d for d in application.documents.all()}
    planned = application.planned_draws.exists()
    rows = []
    for number, item in enumerate(application.checklist_items(), start=1):
        document = attached.get(item.kind)
        plan = application.safety_plan if item.kind == DocumentKind.SAFETY_PLAN else None  # R:L4 the guided plan
        rows.append(
            {
                "number": number,
                "kind": item.kind,
                "label": item.label,
                "detail": item.detail,
                "generated": item.generated,
                "document": document,
                "plan": plan,
                "attached": planned if item.generated else document is not None or plan is not None,
            }
        )
    return rows


def application_problems(
    application: Application,
    *,
    today: datetime.date | None = None,
    planned: list | None = None,
    checklist: list[dict] | None = None,
    outstanding: list | None = None,
) -> list[str]:
    """What must be fixed before the application can be submitted. A page
    that has read the planned draws, the checklist or the outstanding reports
    already passes them, so they are not read twice."""
    today = today or timezone.localdate()
    problems = []
    planned = list(application.planned_draws.all()) if planned is None else planned
    if not planned:
        problems.append(gettext("plan the draws: dates and maximum sales (L3)"))
    checklist = application_checklist(application) if checklist is None else checklist
    missing = [row["label"] for row in checklist if not row["attached"] and not row["generated"]]
    if missing:
        problems.append(gettext("attach the missing documents: %(documents)s (L7)") % {"documents": "; ".join(missing)})
    outstanding = outstanding_reports(application.organisation) if outstanding is None else outstanding
    overdue = [r for r in outstanding if r.is_overdue(today)]
    if overdue:  # R:L7 the outstanding reports are filed first
        problems.append(
            gettext("file the overdue reports first: %(reports)s (L7)")
            % {"reports": "; ".join(report.describe() for report in overdue)}
        )
    if not application.signers.exists():
        problems.append(gettext("name the Licence Application signers (L7)"))
    earliest = application.earliest_start(today)
    if planned and planned[0].draw_on < earliest:
        problems.append(
            gettext(
                "the first draw is planned for %(first)s, before the earliest realistic start of %(earliest)s; "
                "move the schedule later (L6)"
            )
            % {"first": f"{planned[0].draw_on:%Y-%m-%d}", "earliest": f"{earliest:%Y-%m-%d}"}
        )
    return problems


@transaction.atomic
def application_submit(*, actor, application: Application, today: datetime.date | None = None) -> Application:
    today = today or timezone.localdate()
    application = lock_draft(application)
    eligibility_check(organisation=application.organisation, today=today)  # R:L1
    # submitted_on is what the earliest start counts from.
    problems = application_problems(application, today=today)
    if problems:
        raise LicensingError(gettext("The application is not ready: %(problems)s.") % {"problems": "; ".join(problems)})
    application.status = ApplicationStatus.SUBMITTED
    application.submitted_on = today
    application.save(update_fields=["status", "submitted_on"])
    audit_record(
        actor=actor,
        action="licensing.application.submit",
        obj=application,
        data={"submitted_on": today, "earliest_start": application.earliest_start()},
    )
    return application


@transaction.atomic
def application_record_licence(*, actor, application: Application, licence) -> Application:
    """R:L7 keep the application package (its checklist and plan) with the
    licence granted on it."""
    application = Application.objects.select_for_update().get(pk=application.pk)
    if application.status != ApplicationStatus.SUBMITTED:
        raise LicensingError(gettext("Submit the application before recording the licence granted on it."))
    if application.licence_id:
        raise LicensingError(
            gettext("This application already has its licence, %(number)s.") % {"number": application.licence.number}
        )
    if licence.organisation_id != application.organisation_id:
        raise LicensingError(
            gettext("Licence %(number)s belongs to %(organisation)s, not to %(organisation2)s.")
            % {
                "number": licence.number,
                "organisation": licence.organisation,
                "organisation2": application.organisation,
            }
        )
    if Application.objects.filter(licence=licence).exists():
        raise LicensingError(
            gettext("Licence %(number)s is already kept with another application.") % {"number": licence.number}
        )
    application.licence = licence
    application.save(update_fields=["licence"])
    audit_record(
        actor=actor, action="licensing.application.record_licence", obj=application, data={"licence": licence.number}
    )
    return application


@transaction.atomic
def application_add_signer(
    *, actor, application: Application, name: str, title: str, date_of_birth: datetime.date | None = None
) -> ApplicationSigner:
    """A Licence Application signer: named on the package's signature block;
    they sign every written change to the submitted package (amendments).
    R:L13 their date of birth is recorded first, and nobody under 18 signs."""
    application = lock_draft(application)
    name, title = (name or "").strip(), (title or "").strip()
    if not name or not title:
        raise LicensingError(gettext("Give the signer's name and title (e.g. President)."))
    check_adult(name, date_of_birth, role=gettext("sign the Licence Application"))
    if application.signers.filter(name=name).exists():
        raise LicensingError(gettext("%(name)s already signs this application.") % {"name": name})
    signer = ApplicationSigner.objects.create(
        application=application,
        name=name,
        title=title,
        date_of_birth=date_of_birth,
        position=application.signers.count() + 1,
    )
    audit_record(
        actor=actor,
        action="licensing.application.add_signer",
        obj=application,
        data={"name": name, "title": title, "date_of_birth": date_of_birth},
    )
    return signer
