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

One sale's contact (the sale page, the winner on draw night, the sale in the
records) goes through `sale_contact_for`: only the roles held in THAT sale's
organisation count (#15), and a seller sees the contacts of the sales they
made themselves, not a colleague's.
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


# Who sees one sale's purchaser contact in full, in the sale's organisation
# (besides the seller who made it).
SALE_CONTACT_ROLES = (TREASURER, ADMINISTRATOR)


def may_see_sale_contact(user, *, organisation, sold_by_id) -> bool:
    """R:T9 whether `user` sees the contact of a sale of `organisation` made by
    `sold_by_id`: its treasurer or administrator, or the seller who made it.
    Roles in any other organisation do not count."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user_has_role(user, *SALE_CONTACT_ROLES, organisation=organisation):
        return True
    return sold_by_id == user.pk and user_has_role(user, SELLER, organisation=organisation)


def sale_contact_for(user, value, *, organisation, sold_by_id) -> str:
    """One sale's purchaser contact as `user` may see it (`may_see_sale_contact`)."""
    if value is None:
        return ""
    if may_see_sale_contact(user, organisation=organisation, sold_by_id=sold_by_id):
        return str(value)
    return mask_contact(value)
