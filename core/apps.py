from django.apps import AppConfig
from django.db.models.signals import post_migrate


class CoreConfig(AppConfig):
    """What both `licensing` and `raffle` need without importing each other:
    the audit trail, money arithmetic, the domain error base and the roles."""

    name = "core"
    verbose_name = "Audit trail and shared rules"

    def ready(self):
        from core.roles import sync_role_groups

        post_migrate.connect(sync_role_groups, dispatch_uid="core.sync_role_groups")
