"""Writing the audit trail and reading its anchors (see core.models.AuditEntry).

`audit_record` appends one entry to the chain of the organisation the object
belongs to (core.audit_chain). `chain_head` is the anchor printed on issued
reports and on the auditor's page: the newest entry's number and hash, which
`verify_audit --anchor N:HASH` checks later. Verification is in
core.audit_verify (re-exported here).
"""

import re
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone, translation

from core import once
from core.audit_chain import GENESIS_HASH, LOCK_CLASS, SYSTEM_CHAIN, canonical, chain_of, entry_mac, lock_chain
from core.audit_verify import ChainReport, audit_verify, verify_anchor, verify_incremental
from core.models import AuditEntry
from core.prepared import prepared_cursor
from core.rows import insert_one, insert_statement, inserted

__all__ = [
    "GENESIS_HASH",
    "SYSTEM_CHAIN",
    "Anchor",
    "LockedHead",
    "anchors_in_file",
    "ChainReport",
    "audit_record",
    "audit_verify",
    "chain_head",
    "chain_heads",
    "parse_anchors",
    "verify_anchor",
    "verify_incremental",
]


def _repr(obj) -> str:
    """The object as the trail names it: in the project's own words whatever
    language the actor reads (a model's `__str__` is translated), so one
    draw is named alike in every entry."""
    if obj is None:
        return ""
    with translation.override(None):
        return str(obj)[:200]


@dataclass(frozen=True)
class LockedHead:
    """A chain's newest (seq, hash), or None while it is empty, read under the
    chain's lock by a statement of the service's own (`LOCK_AND_LAST_CALL` in
    its FROM) for the one append that follows in the same transaction: the
    lock is held until the transaction ends, so no other append can move the
    head in between. A sale at the counter reads it in the statement that
    writes the sale, one round trip fewer while its draw is locked (#18)."""

    chain: int
    last: tuple[int, str] | None

    @classmethod
    def of_row(cls, chain: int, head_seq: int | None, head_hash: str | None) -> "LockedHead":
        """From the (head_seq, head_hash) of `LOCK_AND_LAST_CALL` (NULLs for an empty chain)."""
        return cls(chain=chain, last=None if head_seq is None else (head_seq, head_hash))


def audit_record(
    *, actor, action: str, obj=None, data: dict | None = None, organisation=None, locked_head: LockedHead | None = None
) -> AuditEntry:
    """Append one entry. Call it inside the service's transaction, LAST: the
    chain's lock is taken here (or was, by the statement that read
    `locked_head`) and held until that transaction commits, so only the
    append itself is serialised, and only within one organisation."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("audit_record must run inside the service's transaction")
    chain = chain_of(obj, organisation)
    actor_id = actor.pk if actor is not None and actor.is_authenticated else None
    fields = {
        "chain": chain,
        "at": timezone.now(),
        "actor_id": actor_id,
        "actor_label": actor.get_username() if actor_id else "system",
        "action": action,
        "object_type": obj._meta.label_lower if obj is not None else "",
        "object_id": str(obj.pk) if obj is not None else "",
        "object_repr": _repr(obj),
        "data": canonical(data or {}),
    }
    if locked_head is None:
        last = locked_chain_last(chain)  # read once the lock is held: the head no other append can move now
    elif locked_head.chain == chain:
        last = locked_head.last  # read under the lock this transaction holds (a second use: a duplicate seq, refused)
    else:  # the statement locked another chain than this entry's: a caller's mistake, never papered over
        raise RuntimeError(f"audit_record got the head of chain {locked_head.chain} for an entry of chain {chain}")
    seq, prev_hash = (last[0] + 1, last[1]) if last else (1, GENESIS_HASH)
    entry_hash = entry_mac(seq=seq, prev_hash=prev_hash, **fields)
    entry = AuditEntry(seq=seq, prev_hash=prev_hash, hash=entry_hash, **fields)
    token = once.token_record_for(obj)
    statement = insert_statement(entry) if token is not None else None
    if statement is None:
        insert_one(entry)  # the INSERT written once, not compiled per entry (#18)
        return entry
    # the form's one-time token recorded by the entry's own statement (core.once, #18)
    pending, token_params = token
    sql, params = statement
    with prepared_cursor() as cursor:
        cursor.execute(ENTRY_AND_TOKEN_SQL.format(entry=sql, token=once.RECORD_SQL), [*params, *token_params])
        pk, recorded = cursor.fetchone()
    inserted(entry, pk)
    pending.recorded = recorded
    return entry


# An entry and a form's one-time token in one statement: both rows are inserted
# (or the token's not, when an earlier POST recorded it: `core.once` then rolls back).
ENTRY_AND_TOKEN_SQL = (
    "WITH entry AS ({entry}), token AS ({token}) SELECT (SELECT id FROM entry), EXISTS (SELECT FROM token)"
)


# Take the chain's lock, then read its newest position and hash, in one call
# (migration core 0005: a function, so the read has a snapshot taken after the lock).
# Its parameters: `lock_and_last_params(chain)`.
LOCK_AND_LAST_CALL = "core_audit_chain_lock_head(%s::integer, %s::integer, %s::bigint)"
LOCK_AND_LAST_SQL = f"SELECT head_seq, head_hash FROM {LOCK_AND_LAST_CALL}"


def lock_and_last_params(chain: int) -> list[int]:
    return [LOCK_CLASS, chain % 2**31, chain]


def locked_chain_last(chain: int) -> tuple[int, str] | None:
    """Lock `chain` until the transaction ends (one append at a time per
    chain), then its newest (seq, hash), or None while it is empty."""
    if connection.vendor != "postgresql":
        lock_chain(chain)  # SQLite (the demo database) serialises writers itself
        return AuditEntry.objects.filter(chain=chain).order_by("-seq").values_list("seq", "hash").first()
    with prepared_cursor() as cursor:
        cursor.execute(LOCK_AND_LAST_SQL, lock_and_last_params(chain))
        row = cursor.fetchone()
    return None if row is None or row[0] is None else (row[0], row[1])


@dataclass(frozen=True)
class Anchor:
    """A chain's newest entry: written down by an auditor, printed on reports."""

    entry_id: int
    hash: str
    chain: int = SYSTEM_CHAIN
    seq: int = 0

    def __str__(self) -> str:
        return f"{self.entry_id}:{self.hash}"


def chain_head(organisation=None) -> Anchor | None:
    """The anchor of an organisation's chain (an instance or an id; None for
    the system chain): None while the chain is empty."""
    chain = int(getattr(organisation, "pk", organisation) or SYSTEM_CHAIN)
    row = AuditEntry.objects.filter(chain=chain).order_by("-seq").values_list("id", "hash", "seq").first()
    return Anchor(entry_id=row[0], hash=row[1], chain=chain, seq=row[2]) if row else None


# Each chain's newest entry, one index probe per chain in one statement.
HEADS_SQL = """
SELECT c.chain, h.id, h.hash, h.seq
FROM unnest(%s::bigint[]) AS c(chain)
CROSS JOIN LATERAL (
    SELECT e.id, e.hash, e.seq FROM core_auditentry e WHERE e.chain = c.chain ORDER BY e.seq DESC LIMIT 1
) AS h
"""


def chain_heads(chains) -> dict[int, Anchor]:
    """`chain_head` of several chains (organisation ids, SYSTEM_CHAIN for the
    system chain) in one query: {chain: anchor}, empty chains left out."""
    chains = [int(chain) for chain in chains]
    if connection.vendor != "postgresql":
        return {chain: head for chain in chains if (head := chain_head(chain or None)) is not None}
    with connection.cursor() as cursor:
        cursor.execute(HEADS_SQL, [chains])
        return {
            chain: Anchor(entry_id=pk, hash=hash, chain=chain, seq=seq) for chain, pk, hash, seq in cursor.fetchall()
        }


# How an anchor is printed on a report ("Audit anchor 1234:<64 hex>"); a PDF's
# extracted text may break the hash across lines, so whitespace is allowed.
ANCHOR_PATTERN = re.compile(r"Audit anchor\s+(\d+)\s*:\s*((?:[0-9a-f]\s*){64})")


def parse_anchors(text: str) -> list[tuple[int, str]]:
    """Every anchor printed in a report's text."""
    return [(int(m.group(1)), re.sub(r"\s+", "", m.group(2))) for m in ANCHOR_PATTERN.finditer(text)]


def anchors_in_file(content: bytes, file_format: str) -> list[tuple[int, str]]:
    """The anchors printed in an issued report's file (PDF text or CSV)."""
    if file_format == "pdf":
        from pypdf.errors import PyPdfError

        from core.pdf import pdf_text

        try:
            text = pdf_text(content)
        except (PyPdfError, ValueError):
            return []  # not a PDF this application could read: it prints no anchor it can check
    else:
        text = content.decode("utf-8", errors="replace")
    return parse_anchors(text)


def anchor_text(organisation=None) -> str:
    """The line a report prints: `Audit anchor N:HASH`, read back by `parse_anchors`."""
    anchor = chain_head(organisation)
    return f"Audit anchor {anchor}" if anchor else "Audit anchor: none yet (the audit trail has no entry)"
