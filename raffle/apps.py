from django.apps import AppConfig


class RaffleConfig(AppConfig):
    """The game: events, envelopes, draws and their outcome."""

    name = "raffle"
    verbose_name = "Catch the Ace"

    def ready(self):
        # R:L10 licensing guards spending with the jackpot and unpaid prizes, which only the draws know.
        from licensing.services import register_trust_position
        from raffle.reports.trust_ledger import trust_position

        register_trust_position(trust_position)
