"""Admin pages of the game, one module per entity."""

from raffle.admin import draw, event, integrity, must_go, ticket, treasury  # noqa: F401
