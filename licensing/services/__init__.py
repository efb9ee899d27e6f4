"""Writes of licensing, one module per entity; import services from here."""

from licensing.services.amendments import (  # noqa: F401
    licence_amend,
    licence_amend_channel,
    licence_amendment_approve,
    register_amendment_follower,
)
from licensing.services.applications import (  # noqa: F401
    application_add_signer,
    application_attach_document,
    application_checklist,
    application_create,
    application_problems,
    application_record_licence,
    application_set_schedule,
    application_submit,
    plan_totals,
)
from licensing.services.audited_statements import (  # noqa: F401
    audited_statement_deliver,
    audited_statement_request_record,
)
from licensing.services.eligibility import eligibility_check, eligibility_record  # noqa: F401
from licensing.services.issued_reports import (  # noqa: F401
    latest_issued,
    report_file_intact,
    report_issue,
    report_return_record,
    report_to_correct,
)
from licensing.services.licences import (  # noqa: F401
    DEFAULT_FEE_RATE_PERCENT,
    check_authority_allows,
    licence_cancel,
    licence_conclude,
    licence_create,
    organisation_get_or_create,
)
from licensing.services.members import (  # noqa: F401
    ADULT_AGE,
    adults_in_charge,
    check_member_may_act,
    member_set_in_charge,
)
from licensing.services.memberships import membership_add, membership_remove, role_groups_sync  # noqa: F401
from licensing.services.safety_plans import (  # noqa: F401
    application_attach_safety_plan,
    safety_plan_create,
    safety_threshold_warning,
)
from licensing.services.suppliers import excluded_person_add, licence_record_supplier  # noqa: F401
from licensing.services.treasury import (  # noqa: F401
    approved_use_add,
    deposit_record,
    donated_prize_record,
    expense_record,
    licence_fee,
    trust_account_open,
    trust_account_set_officers,
)
from licensing.services.trust_guard import TrustPosition, register_trust_position, trust_position  # noqa: F401
from licensing.services.trust_ledger import (  # noqa: F401
    StatementRefused,
    bank_statement_import,
    deduction_record,
    interest_record,
    statement_rows,
)
