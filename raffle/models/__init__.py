"""Models of the game, one module per entity; import them from here.

Models hold fields, constraints and the draw's transition table; every write
that matters goes through `raffle.services`.
"""

from raffle.models.draw import (  # noqa: F401
    DRAW_IN_PROGRESS,
    DRAW_TRANSITIONS,
    CardDestruction,
    DestructionMethod,
    Draw,
    DrawOutcome,
    DrawState,
)
from raffle.models.event import (  # noqa: F401
    ENVELOPE_COUNT,
    DeckKind,
    Envelope,
    EnvelopeTakenProcedure,
    Event,
    EventStatus,
    PriceTier,
    money_field,
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
