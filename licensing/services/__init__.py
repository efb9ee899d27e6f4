"""Writes of licensing, one module per entity; import services from here."""

from licensing.services.licences import (  # noqa: F401
    DEFAULT_FEE_RATE_PERCENT,
    licence_cancel,
    licence_conclude,
    licence_create,
    organisation_get_or_create,
)
from licensing.services.treasury import (  # noqa: F401
    approved_use_add,
    deposit_record,
    donated_prize_record,
    expense_record,
    licence_fee,
    report_file_intact,
    report_issue,
    trust_account_open,
    trust_account_set_officers,
)
