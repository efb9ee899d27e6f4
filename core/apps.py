from django.apps import AppConfig
from django.db.models.signals import post_migrate


def sync_role_groups_quietly(**kwargs):
    """The roles' permissions come from code; re-syncing them after `migrate`
    is not a permission change to audit (see core.signals)."""
    from core import signals
    from core.roles import sync_role_groups

    with signals.suppress_permission_audit():
        sync_role_groups(**kwargs)


class CoreConfig(AppConfig):
    """What both `licensing` and `raffle` need without importing each other:
    the audit trail, money arithmetic, the domain error base and the roles."""

    name = "core"
    verbose_name = "Audit trail and shared rules"

    def ready(self):
        from core import checks, signals, signals_accounts  # noqa: F401 (checks register themselves)
        from core.text import guard_every_text_field

        guard_every_text_field()  # text that reaches PDFs and CSVs: no control characters

        post_migrate.connect(sync_role_groups_quietly, dispatch_uid="core.sync_role_groups")
        signals.connect()
        signals_accounts.connect()
