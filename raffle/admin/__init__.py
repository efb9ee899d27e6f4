"""Admin pages of the game, one module per entity."""

from raffle.admin import draw, event  # noqa: F401
