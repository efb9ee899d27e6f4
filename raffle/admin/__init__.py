"""Admin pages of the game, one module per entity."""

from raffle.admin import draw, event, ticket  # noqa: F401
