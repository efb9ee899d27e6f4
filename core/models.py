"""The audit trail: one append-only, hash-chained log of business events.

Every service appends an entry in the same transaction as the change it
records. PostgreSQL refuses UPDATE and DELETE on the table (a trigger, see
migration 0002), and each entry's hash covers the previous entry's hash, so a
row altered behind the application's back breaks the chain and
`manage.py verify_audit` names it.
"""

from django.conf import settings
from django.db import models


class AppendOnlyQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise PermissionError(f"{self.model.__name__} rows are append-only.")

    def delete(self):
        raise PermissionError(f"{self.model.__name__} rows are append-only.")


class AppendOnlyModel(models.Model):
    """A row that is written once. The database trigger is the real guard;
    these overrides only stop honest mistakes early with a clear message."""

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise PermissionError(f"{type(self).__name__} rows are append-only.")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise PermissionError(f"{type(self).__name__} rows are append-only.")


class AuditEntry(AppendOnlyModel):
    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Empty for the system itself (commands, scheduled jobs).",
    )
    actor_label = models.CharField(max_length=150, help_text="Username at the time.")
    action = models.CharField(max_length=80, db_index=True, help_text="app.entity.verb")
    object_type = models.CharField(max_length=80, blank=True)
    object_id = models.CharField(max_length=64, blank=True)
    object_repr = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["id"]
        verbose_name_plural = "audit entries"
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.action} {self.object_repr}"
