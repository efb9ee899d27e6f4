"""The application checklist, exactly as the licensing guide lists it (RULES L4, L7).

Source: `seeds/catch-the-ace-ontario-source.txt`, Step 3 ("The following is a
checklist of the documentation that is required ..."). First-time applicants
enclose one list, returning applicants ("If AGCO has already issued gaming event
licences to your organization") another; the guide's order is kept, because the
package PDF assembles the documents in it. Two items depend on the authority and
the channel, as the guide says:

- "Copy of Municipal notification, if applying to AGCO" (and Step 1: "a copy of
  the notification must be provided to the AGCO (if applying for a provincial
  licence)", which a returning AGCO applicant owes as much as a first-time one);
- the proposed draw schedule and sales plan, which Step 3 asks of every PAPER
  application ("Prize boards up to $50,000" and "over $50,000"); the guide asks
  none of an electronic or online one. The system keeps it as the application's
  planned draws, so it is generated, not attached.

Items the guide qualifies ("if your organization is registered") are answered
with the document or a reason, like every other item.
"""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _

AGCO = "agco"
PAPER_CHANNELS = ("paper_roll", "paper_stub")


class DocumentKind(models.TextChoices):
    GOVERNING_DOCUMENTS = "governing_documents", _("Governing documents")
    CRA_REGISTRATION = "cra_registration", _("Revenue Canada Notification of Registration Letter")
    PROGRAMS = "programs", _("Detailed outline of programs/services")
    OPERATING_BUDGET = "operating_budget", _("Organization's current operating budget")
    MUNICIPAL_NOTIFICATION = "municipal_notification", _("Copy of Municipal notification")
    OUTSTANDING_RAFFLE_REPORTS = "outstanding_raffle_reports", _("Outstanding Raffle Licence Financial Reports")
    OUTSTANDING_OTHER_REPORTS = (
        "outstanding_other_reports",
        _("Outstanding Financial reports for other Charitable gaming events"),
    )
    OUTSTANDING_REQUESTS = (
        "outstanding_requests",
        _("Outstanding information requests from your licensing authority"),
    )
    USE_OF_PROCEEDS = "use_of_proceeds", _("Use of net proceeds")
    RULES_OF_PLAY = "rules_of_play", _("Rules of Play for raffle")
    TICKET_SAMPLE = "ticket_sample", _("Ticket Sample")
    SAFETY_PLAN = "safety_plan", _("Copy of your safety and security plan")
    BOARD_OF_DIRECTORS = "board_of_directors", _("List of Board of Directors with contact information")
    ANNUAL_BOARD_LIST = "annual_board_list", _("Annual updated List of Board of Directors")
    GOVERNING_CHANGES = "governing_changes", _("Changes to governing documents and Revenue Canada status")
    ANNUAL_FINANCIAL_STATEMENTS = "annual_financial_statements", _("Annual verified financial statements")
    SCHEDULE = "schedule", _("Proposed draw schedule and sales plan")


@dataclass(frozen=True)
class ChecklistItem:
    kind: str
    detail: str = ""  # the guide's sub-lines under the item
    agco_only: bool = False
    paper_only: bool = False
    generated: bool = False  # produced by the system (the planned draws), nothing to attach

    @property
    def label(self) -> str:
        return str(DocumentKind(self.kind).label)

    def applies(self, *, authority_kind: str, sales_channel: str) -> bool:
        if self.agco_only and authority_kind != AGCO:
            return False
        return not (self.paper_only and sales_channel not in PAPER_CHANNELS)


PROCEEDS_DETAIL = _(
    "List specific projects or items for which funds will be used. They must fall within your objects or "
    "purposes as outlined in your governing documents."
)
SCHEDULE_ITEM = ChecklistItem(
    DocumentKind.SCHEDULE,
    _("Maximum sales and prizes per draw (from the planned draws)."),
    paper_only=True,
    generated=True,
)

# R:L7 first-time applicants, in the guide's order.
FIRST_TIME_CHECKLIST = (
    ChecklistItem(
        DocumentKind.GOVERNING_DOCUMENTS,
        _(
            "Letters Patent, by-laws, constitution, charter, trust deed, memorandum/articles of association, "
            "signed as required."
        ),
    ),
    ChecklistItem(DocumentKind.CRA_REGISTRATION, _("If your organization is registered.")),
    ChecklistItem(
        DocumentKind.PROGRAMS,
        _("What they are, how delivered to clients, specific costs, supporting materials, etc."),
    ),
    ChecklistItem(
        DocumentKind.OPERATING_BUDGET, _("Organization's verified financial statements for last fiscal year.")
    ),
    ChecklistItem(DocumentKind.MUNICIPAL_NOTIFICATION, _("If applying to AGCO."), agco_only=True),  # R:L4
    ChecklistItem(DocumentKind.USE_OF_PROCEEDS, PROCEEDS_DETAIL),
    ChecklistItem(DocumentKind.RULES_OF_PLAY),
    ChecklistItem(DocumentKind.TICKET_SAMPLE),
    ChecklistItem(DocumentKind.SAFETY_PLAN),
    ChecklistItem(DocumentKind.BOARD_OF_DIRECTORS),
    SCHEDULE_ITEM,
)

# R:L7 returning applicants, in the guide's order.
RETURNING_CHECKLIST = (
    ChecklistItem(
        DocumentKind.OUTSTANDING_RAFFLE_REPORTS,
        _("See Raffle Licence Terms and Conditions Reporting Requirements."),
    ),
    ChecklistItem(DocumentKind.OUTSTANDING_OTHER_REPORTS),
    ChecklistItem(DocumentKind.OUTSTANDING_REQUESTS),
    ChecklistItem(DocumentKind.MUNICIPAL_NOTIFICATION, _("If applying to AGCO."), agco_only=True),  # R:L4
    ChecklistItem(DocumentKind.USE_OF_PROCEEDS, PROCEEDS_DETAIL),
    ChecklistItem(DocumentKind.RULES_OF_PLAY),
    ChecklistItem(DocumentKind.TICKET_SAMPLE),
    ChecklistItem(DocumentKind.SAFETY_PLAN),
    ChecklistItem(DocumentKind.ANNUAL_BOARD_LIST),
    ChecklistItem(
        DocumentKind.GOVERNING_CHANGES,
        _("Includes amendments, supplements, reinstatements, revocations, dissolutions, etc."),
    ),
    ChecklistItem(
        DocumentKind.ANNUAL_FINANCIAL_STATEMENTS,
        _("See Raffle Licence Terms and Conditions Reporting Requirements."),
    ),
    SCHEDULE_ITEM,
)


def checklist_items(*, returning: bool, authority_kind: str, sales_channel: str) -> list[ChecklistItem]:
    """R:L7 the guide's items for this applicant, authority and channel, in the guide's order."""
    items = RETURNING_CHECKLIST if returning else FIRST_TIME_CHECKLIST
    return [item for item in items if item.applies(authority_kind=authority_kind, sales_channel=sales_channel)]
