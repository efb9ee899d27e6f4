"""Licensing models, one module per entity; import them from here."""

from licensing.models.licence import (  # noqa: F401
    LOCAL_AUTHORITY_PRIZE_BOARD_CAP,
    AuthorityKind,
    Licence,
    LicenceStatus,
    SalesChannel,
)
from licensing.models.organisation import BonaFideMember, Organisation  # noqa: F401
