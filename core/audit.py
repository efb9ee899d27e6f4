"""Writing and verifying the audit trail (see core.models.AuditEntry)."""

import hashlib
import json
from dataclasses import dataclass

from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.utils import timezone

from core.models import AuditEntry

GENESIS_HASH = "0" * 64
# Any constant shared by every writer: it serialises appends so the chain has
# exactly one successor per entry.
_ADVISORY_LOCK_KEY = 0x43_41_54_41  # "CATA"


def _canonical(value) -> object:
    """What the database will give back: JSON types only, Decimals as text."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def _entry_hash(*, prev_hash, at, actor_id, actor_label, action, object_type, object_id, object_repr, data) -> str:
    payload = json.dumps(
        {
            "prev": prev_hash,
            "at": at.isoformat(),
            "actor": actor_id,
            "actor_label": actor_label,
            "action": action,
            "object_type": object_type,
            "object_id": object_id,
            "object_repr": object_repr,
            "data": data,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=False,
    )
    return hashlib.sha256(payload.encode()).hexdigest()


def _lock_chain() -> None:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_ADVISORY_LOCK_KEY])
    # SQLite (the demo database) serialises writers itself.


def audit_record(*, actor, action: str, obj=None, data: dict | None = None) -> AuditEntry:
    """Append one entry. Call it inside the service's transaction, last, so the
    chain lock is held only until that transaction commits."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the service's transaction")
    _lock_chain()
    last = AuditEntry.objects.order_by("-id").only("hash").first()
    prev_hash = last.hash if last else GENESIS_HASH
    actor_id = actor.pk if actor is not None and actor.is_authenticated else None
    fields = {
        "at": timezone.now(),
        "actor_id": actor_id,
        "actor_label": actor.get_username() if actor_id else "system",
        "action": action,
        "object_type": obj._meta.label_lower if obj is not None else "",
        "object_id": str(obj.pk) if obj is not None else "",
        "object_repr": str(obj)[:200] if obj is not None else "",
        "data": _canonical(data or {}),
    }
    entry_hash = _entry_hash(prev_hash=prev_hash, **fields)
    return AuditEntry.objects.create(prev_hash=prev_hash, hash=entry_hash, **fields)


@dataclass(frozen=True)
class ChainReport:
    intact: bool
    entries: int
    first_bad_id: int | None = None
    reason: str = ""

    def __str__(self) -> str:
        if self.intact:
            return f"intact, {self.entries} entries"
        return f"BROKEN at entry #{self.first_bad_id}: {self.reason}"


def audit_verify(*, chunk_size: int = 5000) -> ChainReport:
    """Recompute every hash in order; report the first entry that does not match."""
    prev_hash = GENESIS_HASH
    count = 0
    for entry in AuditEntry.objects.order_by("id").iterator(chunk_size=chunk_size):
        if entry.prev_hash != prev_hash:
            return ChainReport(
                False, count, entry.pk, "it does not follow the entry before it (an entry was removed or inserted)"
            )
        expected = _entry_hash(
            prev_hash=entry.prev_hash,
            at=entry.at,
            actor_id=entry.actor_id,
            actor_label=entry.actor_label,
            action=entry.action,
            object_type=entry.object_type,
            object_id=entry.object_id,
            object_repr=entry.object_repr,
            data=entry.data,
        )
        if expected != entry.hash:
            return ChainReport(False, count, entry.pk, "its content was changed after it was written")
        prev_hash = entry.hash
        count += 1
    return ChainReport(True, count)
