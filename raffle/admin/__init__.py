"""Admin pages of the game, one module per entity."""

from raffle.admin import draw, event, integrity, must_go, treasury  # noqa: F401
