from django.apps import AppConfig


class RaffleConfig(AppConfig):
    """The game: events, envelopes, draws and their outcome."""

    name = "raffle"
    verbose_name = "Catch the Ace"

    def ready(self):
        from licensing.outstanding import register_outstanding_reports
        from licensing.services import register_amendment_follower, register_trust_position
        from raffle.reports.outstanding import organisation_reports_outstanding
        from raffle.reports.trust_ledger import trust_position
        from raffle.services.schedule import draws_follow_schedule_amendment

        # A new licence application lists the game's reports not yet filed (R1, R2).
        register_outstanding_reports(organisation_reports_outstanding)
        # R:L10 licensing guards spending with the jackpot and unpaid prizes, which only the draws know.
        register_trust_position(trust_position)
        # R:L3 R:D9 an approved amendment of the draw schedule moves the draws from its effective day.
        register_amendment_follower(draws_follow_schedule_amendment)
