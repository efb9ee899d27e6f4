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
from itertools import groupby

from django.db import connection
from django.db.models import Q
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


def _walk(chain: int, rows, *, after_seq: int, prev_hash: str, prev_id: int | None) -> _Walk:
    """Check the chain's entries after position `after_seq` (`rows`: the chain's
    entries after it, in order)."""
    seq, entry_id, checked = after_seq, prev_id, 0
    for row in rows:
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


def _rows_by_chain(after: dict[int, int], *, one_query: bool, chunk_size: int):
    """(chain, rows) for each chain of `after` ({chain: position verified}), in
    chain order, each chain's entries after that position in order. The page's
    check reads every chain's new entries in one query; the full check reads
    chain by chain through the (chain, seq) index (no sort of the whole trail)."""
    entries = AuditEntry.objects.order_by("chain", "seq").values_list(*FIELDS)
    if not after:
        return
    if one_query:
        wanted = Q()
        for chain, seq in after.items():
            wanted |= Q(chain=chain, seq__gt=seq)
        rows = entries.filter(wanted).iterator(chunk_size=chunk_size)
        groups = groupby(rows, key=lambda row: row[1])  # FIELDS[1] is the chain
    else:
        groups = (
            (chain, entries.filter(chain=chain, seq__gt=seq).iterator(chunk_size=chunk_size))
            for chain, seq in sorted(after.items())
        )
    current = next(groups, None)
    for chain in sorted(after):
        while current is not None and current[0] < chain:
            current = next(groups, None)
        if current is not None and current[0] == chain:
            yield chain, current[1]
            current = next(groups, None)
        else:
            yield chain, iter(())


def _checkpoint_mac(*, chain, seq, entry_id, hash, full_verified_at) -> str:
    full = full_verified_at.isoformat() if full_verified_at else ""
    return text_mac(f"checkpoint|{chain}|{seq}|{entry_id}|{hash}|{full}")


def _save_checkpoints(walks: dict[int, tuple[_Walk, object]]) -> None:
    """Each chain's checkpoint after a check, all in one statement (an upsert:
    two checks at the same moment both succeed, the later one's row stays)."""
    now = timezone.now()
    rows = [
        AuditCheckpoint(
            chain=chain,
            seq=walk.seq,
            entry_id=walk.entry_id,
            hash=walk.hash,
            verified_at=now,
            full_verified_at=full_at,
            mac=_checkpoint_mac(
                chain=chain, seq=walk.seq, entry_id=walk.entry_id, hash=walk.hash, full_verified_at=full_at
            ),
        )
        for chain, (walk, full_at) in walks.items()
        if walk.entry_id is not None
    ]
    if rows:
        AuditCheckpoint.objects.bulk_create(
            rows,
            update_conflicts=True,
            unique_fields=["chain"],
            update_fields=["seq", "entry_id", "hash", "verified_at", "full_verified_at", "mac"],
        )


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
    """A fixed number of queries whatever the number of chains: the
    checkpoints, the chains, the entries each checkpoint names, the entries
    after them, and one write of the new checkpoints."""
    checkpoints = {c.chain: c for c in AuditCheckpoint.objects.all()}
    starts = {}
    for chain in _chains(checkpoints):
        start = checkpoints.get(chain)
        starts[chain] = start if start is not None and _genuine(start) else None  # forged: from the first entry
    resume = {chain: start for chain, start in starts.items() if incremental and start is not None}
    kept = {}
    if resume:
        named = AuditEntry.objects.filter(pk__in=[start.entry_id for start in resume.values()])
        kept = {row[0]: row[1:] for row in named.values_list("id", "chain", "seq", "hash")}
    walks: dict[int, tuple[_Walk, object]] = {}
    after = {chain: (resume[chain].seq if chain in resume else 0) for chain in starts}
    broken = _walk_all(_rows_by_chain(after, one_query=incremental, chunk_size=chunk_size), starts, resume, kept, walks)
    _save_checkpoints(walks)  # the chains verified before a break keep their progress
    if broken is not None:
        return broken
    full_times = [full_at for _, full_at in walks.values()]
    oldest_full = min((t for t in full_times if t), default=None) if all(full_times) else None
    total = sum(walk.seq for walk, _ in walks.values())
    checked = sum(walk.checked for walk, _ in walks.values())
    return ChainReport(True, total, checked=checked, full_verified_at=oldest_full)


def _walk_all(chains, starts, resume, kept, walks) -> ChainReport | None:
    """Walk each chain in turn, recording each intact walk in `walks`; the
    report of the first break, or None."""
    total = checked = 0
    now = timezone.now()
    for chain, rows in chains:
        start = starts[chain]
        if chain in resume:
            if kept.get(start.entry_id) != (chain, start.seq, start.hash):
                return ChainReport(
                    False,
                    total,
                    start.entry_id,
                    "the entry verified last time is missing or changed (entries deleted, or the table truncated)",
                )
            walk = _walk(chain, rows, after_seq=start.seq, prev_hash=start.hash, prev_id=start.entry_id)
            full_at = start.full_verified_at
        else:
            walk = _walk(chain, rows, after_seq=0, prev_hash=GENESIS_HASH, prev_id=None)
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
        walks[chain] = (walk, full_at)
    return None


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
