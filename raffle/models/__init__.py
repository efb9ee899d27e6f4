"""Models of the game, one module per entity; import them from here.

Models hold fields, constraints and the draw's step table (`draw_steps`); every write
that matters goes through `raffle.services`.
"""

from raffle.models.compliance import IssueKind, NotificationMethod, RegistrarNotification  # noqa: F401
from raffle.models.deck import COMMITMENT_DOMAIN, DeckCommitment, deck_commitment_hash  # noqa: F401
from raffle.models.draw import (  # noqa: F401
    BEFORE_WINNING_TICKET,
    DRAW_IN_PROGRESS,
    DRAW_ORDER,
    DRAW_STEPS,
    DRAW_TRANSITIONS,
    MUST_GO_SETTABLE,
    MUST_GO_TRANSITIONS,
    CardDestruction,
    DestructionMethod,
    Draw,
    DrawOutcome,
    DrawState,
    MustGoReason,
    MustGoTicket,
    Step,
)
from raffle.models.event import (  # noqa: F401
    DEFAULT_UNCLAIMED_POLICY,
    ENVELOPE_COUNT,
    MUST_GO_PAYOUTS_OFFERED,
    DeckKind,
    Envelope,
    EnvelopeTakenProcedure,
    Event,
    EventStatus,
    MustGoPayout,
    PriceTier,
    RevenueModel,
    SeedSource,
    money_field,
)
from raffle.models.payments import (  # noqa: F401
    UNCLAIMED_HOLD_MONTHS,
    ContactAttempt,
    DepositCoverage,
    PrizeKind,
    PrizePayment,
    SeedDeposit,
    UnclaimedPrize,
    add_months,
)
from raffle.models.postponement import DrawPostponement  # noqa: F401
from raffle.models.publication import WinnersPublication  # noqa: F401
from raffle.models.results import WinnerNameConsent  # noqa: F401
from raffle.models.supplier import (  # noqa: F401
    SettlementDeduction,
    SupplierImport,
    SupplierResult,
    SupplierSettlement,
)
from raffle.models.ticket import (  # noqa: F401
    DESTRUCTION_DELAY_DAYS,
    DrawPool,
    RollKind,
    Sale,
    SelectionMethod,
    Ticket,
    TicketRoll,
    WinnerSelection,
)
from raffle.models.video import MIN_RESOLUTION_LINES, MIN_RETENTION_DAYS, REQUIRED_SHOTS, DrawVideo  # noqa: F401
