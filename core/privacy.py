"""Purchasers' personal data: shown in full only to the roles that need it.

R:T9 stub and electronic tickets carry the purchaser's name and contact.

A seller takes a purchaser's phone, e-mail and address at the sale; the
treasurer and the administrator need them to pay and report a prize. Draw
staff and auditors see them masked: enough to tell two purchasers apart and
to check that a contact was recorded, not enough to contact anyone.

Use `contact_for(user, value)` wherever a purchaser's contact detail is shown
or exported (pages, CSV, PDF), or the `{{ value|contact_for:request.user }}`
filter (`{% load privacy %}`). Names and ticket serials are not masked: the
winner's name is announced publicly.
"""

import re

from core.roles import ADMINISTRATOR, SELLER, TREASURER, user_has_role
from core.scope import organisations_of

# The roles that see purchasers' contact details in full.
CONTACT_ROLES = (SELLER, TREASURER, ADMINISTRATOR)
MASK = "•••"

_EMAIL = re.compile(r"^\s*([^@\s]+)@([^@\s]+)\s*$")


def may_see_contact(user, organisation=None) -> bool:
    """Whether `user` sees contacts in full: in `organisation` when given, else
    in every organisation they work for (a search by contact would otherwise
    confirm, in one where they see it masked, what they may not read)."""
    if organisation is not None or getattr(user, "is_superuser", False):
        return user_has_role(user, *CONTACT_ROLES, organisation=organisation)
    readable = organisations_of(user)
    if not readable.exists():  # working for no organisation: the roles they hold, if any
        return user_has_role(user, *CONTACT_ROLES)
    return not readable.exclude(pk__in=organisations_of(user, *CONTACT_ROLES)).exists()


def mask_email(value: str) -> str:
    """`jordan.b@example.org` -> `j•••@example.org`: the domain shows whether
    an address was recorded, the person cannot be reached."""
    match = _EMAIL.match(value)
    if not match:
        return mask_text(value)
    local, domain = match.groups()
    return f"{local[0]}{MASK}@{domain}"


def mask_phone(value: str) -> str:
    """`613-555-0142` -> `•••-•••-0142`: the last four digits only."""
    digits = re.sub(r"\D", "", value)
    if len(digits) < 7:
        return mask_text(value)
    return f"{MASK}-{MASK}-{digits[-4:]}"


def mask_text(value: str) -> str:
    """Anything else (an address, a note): the first character only."""
    value = value.strip()
    return f"{value[0]}{MASK}" if value else ""


def mask_contact(value) -> str:
    """Mask one contact detail, whatever it is (e-mail, phone or address)."""
    if value is None:
        return ""
    value = str(value)
    if "@" in value:
        return mask_email(value)
    if sum(ch.isdigit() for ch in value) >= 7 and not re.search(r"[A-Za-z]{3,}", value):
        return mask_phone(value)
    return mask_text(value)


def contact_for(user, value, organisation=None) -> str:
    """The contact detail as `user` may see it (in `organisation`): in full or masked."""
    if value is None:
        return ""
    return str(value) if may_see_contact(user, organisation) else mask_contact(value)
