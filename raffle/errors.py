from core.errors import DomainError


class RaffleError(DomainError):
    """A rule of the game refused the request; nothing was changed."""


class TransitionNotAllowed(RaffleError):
    """A draw step out of order, repeated or skipped (RULES D8)."""


class EventConcluded(RaffleError):
    """The Ace of Spades has been found: nothing more is sold or drawn (P4)."""
