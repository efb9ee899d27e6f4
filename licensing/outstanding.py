"""The organisation's own reports not yet filed (RULES R1, R2, R3, L7): what a
returning applicant's new application lists, and what stops it being submitted
while any is overdue.

Licensing knows the audited statements the Registrar asked for (R3). The
four-draw and final reports (R1, R2) follow from the game's draws, which
licensing must not import: the raffle app registers a provider here when it
starts (`raffle.apps.RaffleConfig.ready`), and licensing asks every provider.
"""

import datetime
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.utils.translation import gettext

from licensing.models import AuditedStatementRequest, Organisation


@dataclass(frozen=True)
class OutstandingReport:
    licence_number: str
    what: str
    due_on: datetime.date
    rule: str

    def is_overdue(self, today: datetime.date) -> bool:
        return self.due_on < today

    def describe(self) -> str:
        return gettext("%(what)s of licence %(number)s, due %(day)s") % {
            "what": self.what,
            "number": self.licence_number,
            "day": f"{self.due_on:%Y-%m-%d}",
        }


Provider = Callable[[Organisation], Iterable[OutstandingReport]]
PROVIDERS: list[Provider] = []


def register_outstanding_reports(provider: Provider) -> Provider:
    """Add a source of outstanding reports (once; registering again is a no-op)."""
    if provider not in PROVIDERS:
        PROVIDERS.append(provider)
    return provider


def audited_statements_outstanding(organisation: Organisation) -> list[OutstandingReport]:
    """R:R3 audited statements requested and not delivered."""
    requests = AuditedStatementRequest.objects.filter(
        licence__organisation=organisation, delivered_on__isnull=True
    ).select_related("licence")
    return [
        OutstandingReport(
            licence_number=request.licence.number,
            what=gettext("Audited financial statement requested by %(whom)s on %(day)s")
            % {"whom": request.requested_by, "day": f"{request.requested_on:%Y-%m-%d}"},
            due_on=request.due_on,
            rule="R3",
        )
        for request in requests
    ]


def outstanding_reports(organisation: Organisation) -> list[OutstandingReport]:
    """Every report of the organisation's licences not yet filed, by due date."""
    reports = list(audited_statements_outstanding(organisation))
    for provider in PROVIDERS:
        reports.extend(provider(organisation))
    return sorted(reports, key=lambda report: (report.due_on, report.licence_number, report.what))
