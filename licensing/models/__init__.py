"""Licensing models, one module per entity; import them from here."""

from licensing.models.licence import (  # noqa: F401
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    FeeCollection,
    Licence,
    LicenceStatus,
    SalesChannel,
)
from licensing.models.organisation import BonaFideMember, Organisation  # noqa: F401
from licensing.models.treasury import (  # noqa: F401
    ApprovedUse,
    Deposit,
    DonatedPrize,
    Expense,
    ExpenseKind,
    IssuedReport,
    PaymentMethod,
    ReportKind,
    TrustAccount,
)
