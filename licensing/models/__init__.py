"""Licensing models, one module per entity; import them from here."""

from licensing.models.amendment import (  # noqa: F401
    AMENDMENT_NOTICE_DAYS,
    NOTICE_DAYS_BY_AUTHORITY,
    AmendedDraw,
    AmendmentKind,
    AmendmentStatus,
    LicenceAmendment,
)
from licensing.models.application import (  # noqa: F401
    AGCO_PROCESSING_DAYS,
    ApplicantKind,
    Application,
    ApplicationDocument,
    ApplicationSigner,
    ApplicationStatus,
    DocumentKind,
    PlannedDraw,
)
from licensing.models.audited_statement import (  # noqa: F401
    AUDITED_STATEMENT_DUE_DAYS,
    AuditedStatementRequest,
)
from licensing.models.bank import BankStatement, BankStatementLine, InterestCredit  # noqa: F401
from licensing.models.eligibility import (  # noqa: F401
    MIN_CHARITABLE_ACTIVITY_DAYS,
    CharitablePurpose,
    Eligibility,
)
from licensing.models.exclusion import ExcludedPerson, ExclusionReason  # noqa: F401
from licensing.models.licence import (  # noqa: F401
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    FeeCollection,
    Licence,
    LicenceStatus,
    SalesChannel,
)
from licensing.models.organisation import BonaFideMember, Membership, Organisation  # noqa: F401
from licensing.models.report_return import ReportReturn  # noqa: F401
from licensing.models.safety_plan import SafetyPlan, SafetyThreshold  # noqa: F401
from licensing.models.treasury import (  # noqa: F401
    DEDUCTION_CATEGORIES,
    ApprovedUse,
    Deposit,
    DonatedPrize,
    Expense,
    ExpenseCategory,
    ExpenseKind,
    ExpenseMethod,
    IssuedReport,
    PaymentMethod,
    ReportKind,
    TrustAccount,
)
