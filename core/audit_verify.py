"""Verifying the audit trail: every chain in full, incrementally from a
checkpoint, and against anchors written down or printed on issued reports.

What each check finds (docs/auditor-guide.md):
- an entry changed in the database: its MAC no longer matches (the key is not
  in the database, so the chain cannot be recomputed);
- an entry removed from the middle, or inserted: a gap in its chain's positions
  or a `prev_hash` that does not follow;
- the newest entries deleted, the table truncated, or a chain rewritten by
  someone who has the key: only an anchor kept outside the database (an
  auditor's note, a report sent to the regulator) shows it.
"""

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from core.audit_chain import GENESIS_HASH, entry_mac, text_mac
from core.models import AuditCheckpoint, AuditEntry

FIELDS = (
    "id",
    "chain",
    "seq",
    "prev_hash",
    "hash",
    "at",
    "actor_id",
    "actor_label",
    "action",
    "object_type",
    "object_id",
    "object_repr",
    "data",
)


@dataclass(frozen=True)
class ChainReport:
    intact: bool
    entries: int
    first_bad_id: int | None = None
    reason: str = ""
    checked: int = 0
    full_verified_at: object = None

    def __str__(self) -> str:
        if self.intact:
            return f"intact, {self.entries} entries"
        where = f"entry #{self.first_bad_id}" if self.first_bad_id else "an entry"
        return f"BROKEN at {where}: {self.reason}"


@dataclass(frozen=True)
class _Walk:
    ok: bool
    seq: int
    entry_id: int | None
    hash: str
    checked: int
    bad_id: int | None = None
    reason: str = ""


def _walk(chain: int, *, after_seq: int, prev_hash: str, prev_id: int | None, chunk_size: int) -> _Walk:
    """Check the chain's entries after position `after_seq`, in order."""
    seq, entry_id, checked = after_seq, prev_id, 0
    rows = AuditEntry.objects.filter(chain=chain, seq__gt=after_seq).order_by("seq").values_list(*FIELDS)
    for row in rows.iterator(chunk_size=chunk_size):
        fields = dict(zip(FIELDS, row, strict=True))
        stored, row_id = fields.pop("hash"), fields.pop("id")
        if fields["seq"] != seq + 1 or fields["prev_hash"] != prev_hash:
            reason = (
                f"it does not follow the entry before it in its chain (position {seq + 1} was removed, "
                "or an entry was inserted)"
            )
        elif entry_mac(**fields) != stored:
            reason = "its content was changed after it was written, or it was written without the chain's key"
        else:
            seq, entry_id, prev_hash, checked = fields["seq"], row_id, stored, checked + 1
            continue
        return _Walk(False, seq, entry_id, prev_hash, checked, row_id, reason)
    return _Walk(True, seq, entry_id, prev_hash, checked)


def _checkpoint_mac(*, chain, seq, entry_id, hash, full_verified_at) -> str:
    full = full_verified_at.isoformat() if full_verified_at else ""
    return text_mac(f"checkpoint|{chain}|{seq}|{entry_id}|{hash}|{full}")


def _save_checkpoint(chain: int, walk: _Walk, *, full_verified_at) -> None:
    if walk.entry_id is None:
        return
    values = {
        "seq": walk.seq,
        "entry_id": walk.entry_id,
        "hash": walk.hash,
        "verified_at": timezone.now(),
        "full_verified_at": full_verified_at,
    }
    values["mac"] = _checkpoint_mac(
        chain=chain,
        seq=walk.seq,
        entry_id=walk.entry_id,
        hash=walk.hash,
        full_verified_at=full_verified_at,
    )
    try:
        with transaction.atomic():
            AuditCheckpoint.objects.update_or_create(chain=chain, defaults=values)
    except IntegrityError:
        pass  # another check saved the same chain's checkpoint at the same moment


def _genuine(checkpoint: AuditCheckpoint) -> bool:
    return checkpoint.mac == _checkpoint_mac(
        chain=checkpoint.chain,
        seq=checkpoint.seq,
        entry_id=checkpoint.entry_id,
        hash=checkpoint.hash,
        full_verified_at=checkpoint.full_verified_at,
    )


# The chains present, one index probe each (a "loose index scan" on the
# (chain, seq) unique index), instead of reading every entry for DISTINCT.
CHAINS_SQL = """
WITH RECURSIVE chains AS (
    SELECT min(chain) AS chain FROM core_auditentry
    UNION ALL
    SELECT (SELECT min(chain) FROM core_auditentry WHERE chain > chains.chain)
    FROM chains WHERE chains.chain IS NOT NULL
)
SELECT chain FROM chains WHERE chain IS NOT NULL
"""


def _chains(checkpoints: dict) -> list[int]:
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(CHAINS_SQL)
            present = {row[0] for row in cursor.fetchall()}
    else:
        present = set(AuditEntry.objects.order_by().values_list("chain", flat=True).distinct())
    return sorted(present | set(checkpoints))


def _verify(*, incremental: bool, chunk_size: int) -> ChainReport:
    checkpoints = {c.chain: c for c in AuditCheckpoint.objects.all()}
    total = checked = 0
    full_times = []
    now = timezone.now()
    for chain in _chains(checkpoints):
        start = checkpoints.get(chain)
        if start is not None and not _genuine(start):
            start = None  # a checkpoint nobody with the key wrote: start from the first entry
        if incremental and start is not None:
            kept = AuditEntry.objects.filter(pk=start.entry_id).values_list("chain", "seq", "hash").first()
            if kept != (chain, start.seq, start.hash):
                return ChainReport(
                    False,
                    total,
                    start.entry_id,
                    "the entry verified last time is missing or changed (entries deleted, or the table truncated)",
                )
            walk = _walk(
                chain, after_seq=start.seq, prev_hash=start.hash, prev_id=start.entry_id, chunk_size=chunk_size
            )
            full_at = start.full_verified_at
        else:
            walk = _walk(chain, after_seq=0, prev_hash=GENESIS_HASH, prev_id=None, chunk_size=chunk_size)
            full_at = now
            if start is not None and walk.ok and walk.seq < start.seq:
                return ChainReport(
                    False,
                    total + walk.seq,
                    start.entry_id,
                    f"the chain ends at position {walk.seq} but position {start.seq} was verified before "
                    "(its newest entries were deleted)",
                )
        total += walk.seq
        checked += walk.checked
        if not walk.ok:
            return ChainReport(False, total, walk.bad_id, walk.reason, checked)
        _save_checkpoint(chain, walk, full_verified_at=full_at)
        full_times.append(full_at)
    oldest_full = min((t for t in full_times if t), default=None) if all(full_times) else None
    return ChainReport(True, total, checked=checked, full_verified_at=oldest_full)


def audit_verify(*, chunk_size: int = 5000) -> ChainReport:
    """Recompute every chain from its first entry; report the first entry that
    does not match. Records each chain's checkpoint as verified in full."""
    return _verify(incremental=False, chunk_size=chunk_size)


def verify_incremental(*, chunk_size: int = 5000) -> ChainReport:
    """Check only what was appended since each chain's checkpoint (and that the
    checkpoint's entry is still there). The page's check; `verify_audit` does
    the full one."""
    return _verify(incremental=True, chunk_size=chunk_size)


@dataclass(frozen=True)
class AnchorCheck:
    entry_id: int
    hash: str
    ok: bool
    reason: str = ""
    source: str = ""

    def __str__(self) -> str:
        where = f" ({self.source})" if self.source else ""
        if self.ok:
            return f"anchor {self.entry_id}:{self.hash[:12]}…{where} holds"
        return f"anchor {self.entry_id}:{self.hash[:12]}…{where} FAILS: {self.reason}"


def verify_anchor(entry_id: int, hash: str, *, chain: int | None = None, seq: int | None = None, source: str = ""):
    """Does the trail still hold the entry an anchor names, with its hash? When
    the anchor also knows its chain and position, a missing entry is reported
    with the first position that differs."""
    row = AuditEntry.objects.filter(pk=entry_id).values_list("chain", "seq", "hash").first()
    if row is None:
        reason = f"entry #{entry_id} is missing (deleted, or the table truncated)"
        if chain is not None:
            head = AuditEntry.objects.filter(chain=chain).order_by("-seq").values_list("id", "seq").first()
            head_id, head_seq = head if head else (None, 0)
            after = f"after entry #{head_id}" if head_id else "from the first entry"
            reason += (
                f"; the first entry that differs is position {head_seq + 1} of its chain ({after}): "
                f"the chain now ends at position {head_seq}" + (f", the anchor was at position {seq}" if seq else "")
            )
        return AnchorCheck(entry_id, hash, False, reason, source)
    if row[2] != hash:
        return AnchorCheck(
            entry_id,
            hash,
            False,
            f"entry #{entry_id} no longer has the anchored hash: it, or an entry before it in its chain, was "
            "rewritten (the chain re-computed)",
            source,
        )
    if (chain is not None and row[0] != chain) or (seq and row[1] != seq):
        return AnchorCheck(entry_id, hash, False, f"entry #{entry_id} moved in the chain", source)
    return AnchorCheck(entry_id, hash, True, source=source)


# Where stored anchors come from (e.g. licensing's issued reports): callables
# returning (entry_id, hash, chain, seq, source) tuples, registered by apps.
ANCHOR_SOURCES: list[Callable[[], Iterable[tuple]]] = []


def stored_anchors() -> list[tuple]:
    return [anchor for source in ANCHOR_SOURCES for anchor in source()]


def verify_stored_anchors() -> list[AnchorCheck]:
    return [
        verify_anchor(entry_id, hash, chain=chain, seq=seq, source=source)
        for entry_id, hash, chain, seq, source in stored_anchors()
    ]
