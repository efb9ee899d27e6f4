from django.apps import AppConfig


class LicensingConfig(AppConfig):
    """Who may run a raffle and what they owe the regulator."""

    name = "licensing"
    verbose_name = "Licensing"

    def ready(self):
        from core.audit_verify import ANCHOR_SOURCES
        from licensing import signals
        from licensing.services.anchors import stored_report_anchors

        signals.connect()

        if stored_report_anchors not in ANCHOR_SOURCES:
            ANCHOR_SOURCES.append(stored_report_anchors)
