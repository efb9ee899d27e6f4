from django.apps import AppConfig


class LicensingConfig(AppConfig):
    """Who may run a raffle and what they owe the regulator."""

    name = "licensing"
    verbose_name = "Licensing"
