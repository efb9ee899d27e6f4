from django.apps import AppConfig


class RaffleConfig(AppConfig):
    """The game: events, envelopes, draws and their outcome."""

    name = "raffle"
    verbose_name = "Catch the Ace"
