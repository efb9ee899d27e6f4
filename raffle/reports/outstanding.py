"""The four-draw and final reports (R1, R2) an organisation has not filed,
for licensing's list of outstanding reports (`licensing.outstanding`).
Registered by `RaffleConfig.ready`, so licensing never imports the raffle."""

from licensing.models import Organisation
from licensing.outstanding import OutstandingReport
from raffle.models import Event
from raffle.reports.deadlines import event_deadlines

REPORT_RULES = ("R1", "R2")  # R3 (audited statements) licensing knows itself


def organisation_reports_outstanding(organisation: Organisation) -> list[OutstandingReport]:
    out = []
    for event in Event.objects.filter(licence__organisation=organisation).select_related("licence"):
        for deadline in event_deadlines(event, reports_only=True):
            if deadline.kind == "report" and deadline.rule in REPORT_RULES and not deadline.done:
                out.append(
                    OutstandingReport(
                        licence_number=event.licence.number, what=deadline.what, due_on=deadline.on, rule=deadline.rule
                    )
                )
    return out
