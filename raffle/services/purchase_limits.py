"""The Rules of Play's limits on who buys: the per-person maximum per draw and
the organisation's excluded-persons list. One check, called by every sale
path (stub and electronic sales, device imports, supplier imports).

A person is a name with a contact (phone or e-mail): names are compared
without case or extra spaces, phone numbers by their digits, e-mails without
case.
"""

import re
from dataclasses import dataclass

from django.db.models import Sum
from django.utils.translation import gettext, ngettext

from licensing.models import ExcludedPerson
from raffle.errors import RaffleError
from raffle.models import Draw, Sale


class PurchaseRefused(RaffleError):
    """A purchase the Rules of Play forbid; `purchase` is the one refused."""

    def __init__(self, message: str, *, purchase: "Purchase", column: str):
        super().__init__(message)
        self.purchase, self.column = purchase, column


@dataclass
class Purchase:
    name: str
    contact: str
    tickets: int
    line: int | None = None  # the line of an imported file, for its refusal


def normal_name(name: str) -> str:
    return " ".join((name or "").split()).casefold()


def normal_contact(contact: str) -> str:
    contact = (contact or "").strip().casefold()
    if "@" in contact:
        return contact
    digits = "".join(c for c in contact if c.isdigit())
    return digits[-10:]  # 1-519-555-0100 and (519) 555-0100 are one phone


def _check_excluded(draw: Draw, purchases: list[Purchase]) -> None:
    excluded = getattr(draw, "sale_excluded", None)  # read with the draw by a sale (`sale_read`)
    if excluded is None:
        excluded = list(ExcludedPerson.objects.filter(organisation_id=draw.event.licence.organisation_id))
    if not excluded:
        return
    by_name = {normal_name(p.full_name): p for p in excluded}
    by_contact = {normal_contact(p.contact): p for p in excluded if normal_contact(p.contact)}
    for purchase in purchases:
        person = by_name.get(normal_name(purchase.name))
        column = "purchaser_name"
        if person is None and normal_contact(purchase.contact):
            person, column = by_contact.get(normal_contact(purchase.contact)), "purchaser_contact"
        if person is not None:
            raise PurchaseRefused(
                gettext(
                    "Rules of Play, excluded persons: %(name)s matches %(person)s (%(reason)s) on "
                    "%(organisation)s's list of people who may not buy tickets."
                )
                % {
                    "name": purchase.name.strip(),
                    "person": person.full_name,
                    "reason": person.get_reason_display().lower(),
                    "organisation": draw.event.licence.organisation,
                },
                purchase=purchase,
                column=column,
            )


def _bought_already(draw: Draw, purchases: list[Purchase]) -> dict[tuple[str, str], int]:
    """Valid tickets each purchaser already holds in the draw: one query."""
    names = {normal_name(p.name) for p in purchases}
    sales = Sale.objects.filter(draw=draw, voided_at__isnull=True)
    if len(names) == 1:  # one sale: only that name's rows, however its spaces and case were typed
        words = purchases[0].name.split()
        sales = sales.filter(purchaser_name__iregex=r"^\s*" + r"\s+".join(re.escape(w) for w in words) + r"\s*$")
    held: dict[tuple[str, str], int] = {}
    rows = sales.values("purchaser_name", "purchaser_contact").annotate(n=Sum("ticket_count"))
    for row in rows:
        key = (normal_name(row["purchaser_name"]), normal_contact(row["purchaser_contact"]))
        if key[0] in names:
            held[key] = held.get(key, 0) + row["n"]
    return held


def purchase_limits_check(*, draw: Draw, purchases: list[Purchase]) -> None:
    """Refuse a sale or an import that sells to an excluded person, or that
    would give one person more than the event's per-person maximum for this
    draw (their tickets already sold included). The draw is locked."""
    if not purchases:
        return
    _check_excluded(draw, purchases)
    limit = draw.event.max_tickets_per_person
    if not limit:
        return
    held = _bought_already(draw, purchases)
    for purchase in purchases:
        key = (normal_name(purchase.name), normal_contact(purchase.contact))
        held[key] = held.get(key, 0) + purchase.tickets
        if held[key] > limit:
            raise PurchaseRefused(
                ngettext(
                    "Rules of Play, per-person limit: one person may buy at most %(limit)s ticket for draw "
                    "%(number)s; %(name)s (%(contact)s) would hold %(held)s.",
                    "Rules of Play, per-person limit: one person may buy at most %(limit)s tickets for draw "
                    "%(number)s; %(name)s (%(contact)s) would hold %(held)s.",
                    limit,
                )
                % {
                    "limit": limit,
                    "number": draw.number,
                    "name": purchase.name.strip(),
                    "contact": purchase.contact.strip(),
                    "held": held[key],
                },
                purchase=purchase,
                column="purchaser_name",
            )
