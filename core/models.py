"""The audit trail: one append-only, hash-chained log of business events.

Every service appends an entry in the same transaction as the change it
records. PostgreSQL refuses UPDATE, DELETE and TRUNCATE on the table
(triggers, see core.append_only) and the runtime database role holds no
privilege to do them (`manage.py grant_runtime_role`). Each entry's hash is an
HMAC-SHA-256, under a key kept outside the database, over the entry and the
previous entry's hash in its chain (one chain per organisation), so a row
altered behind the application's back breaks the chain and
`manage.py verify_audit` names it.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


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
    chain = models.PositiveBigIntegerField(
        default=0, help_text=gettext_lazy("The organisation's id; 0 for the system chain.")
    )
    seq = models.PositiveBigIntegerField(help_text=gettext_lazy("Position in its chain, from 1."))
    at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=gettext_lazy("Empty for the system itself (commands, scheduled jobs)."),
    )
    actor_label = models.CharField(max_length=150, help_text=gettext_lazy("Username at the time."))
    action = models.CharField(max_length=80, db_index=True, help_text=gettext_lazy("app.entity.verb"))
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
        constraints = [
            # One successor per entry: two appends can never both take a position.
            models.UniqueConstraint(fields=["chain", "seq"], name="audit_one_entry_per_chain_position"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.action} {self.object_repr}"


class AuditCheckpoint(models.Model):
    """The last entry of a chain verified so far, so a page verifies only what
    was appended since. Its MAC (same key as the chain) means a forged
    checkpoint is refused; an old genuine one only makes the next check longer."""

    chain = models.PositiveBigIntegerField(unique=True)
    seq = models.PositiveBigIntegerField()
    entry_id = models.BigIntegerField()
    hash = models.CharField(max_length=64)
    verified_at = models.DateTimeField()
    full_verified_at = models.DateTimeField(
        null=True, blank=True, help_text=gettext_lazy("Last check from the first entry.")
    )
    mac = models.CharField(max_length=64)

    def __str__(self) -> str:
        return f"chain {self.chain} verified to #{self.entry_id}"


class Submission(models.Model):
    """One use of a form's one-time token (`core.once`): the first POST that
    carries the token records what it did here, in the same transaction; a
    second POST with the same token (a double click, a retry after a lost
    response) is sent to that result instead of doing it again."""

    token = models.CharField(max_length=64, unique=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    made_at = models.DateTimeField(auto_now_add=True)
    result = models.CharField(
        max_length=500, blank=True, help_text=gettext_lazy("Where the first submission's result is shown.")
    )

    def __str__(self) -> str:
        return f"submission {self.token[:8]}… by {self.user_id}"
