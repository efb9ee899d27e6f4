"""The audit chain's primitives: the key, the entry MAC, the chains and their lock.

Entries are chained with HMAC-SHA-256 under `settings.AUDIT_CHAIN_KEY`, a key
that lives in the environment and never in the database: whoever can write to
the database (a stolen backup restored, the database administrator, an SQL
injection) cannot recompute a chain they changed. There is one chain per
organisation (its id) and one system chain (0) for what belongs to no
organisation (sign-ins, user changes made by the system); appends to different
chains do not wait for each other.
"""

import functools
import hashlib
import hmac
import json

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection

from core.prepared import prepared_cursor

GENESIS_HASH = "0" * 64
SYSTEM_CHAIN = 0
# pg_advisory_xact_lock(int, int): this class id and the chain; "CATA".
LOCK_CLASS = 0x43_41_54_41
MIN_KEY_LENGTH = 32

# How an audited object leads to its organisation: the first of these foreign
# keys it has is followed, up to a few steps (a sale -> its licence -> the
# organisation; a draw -> its event -> its licence -> the organisation).
OWNER_STEPS = ("licence", "event", "draw", "sale", "application", "account", "deposit", "prize", "member")


def chain_key() -> bytes:
    key = getattr(settings, "AUDIT_CHAIN_KEY", "") or ""
    if not key:
        raise ImproperlyConfigured(
            "AUDIT_CHAIN_KEY is not set: the audit trail cannot be written or verified without it. "
            "Set it in the environment (see docs/deploy.md)."
        )
    return key.encode()


def canonical(value) -> object:
    """What the database will give back: JSON types only, Decimals as text."""
    return json.loads(json.dumps(value, cls=DjangoJSONEncoder))


def entry_mac(*, chain, seq, prev_hash, at, actor_id, actor_label, action, object_type, object_id, object_repr, data):
    payload = json.dumps(
        {
            "chain": chain,
            "seq": seq,
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
    mac = _keyed(chain_key()).copy()
    mac.update(payload.encode())
    return mac.hexdigest()


@functools.lru_cache(maxsize=4)
def _keyed(key: bytes):
    """The HMAC state after the key, copied for each entry (the key's two
    SHA-256 blocks are hashed once, not once per entry)."""
    return hmac.new(key, digestmod=hashlib.sha256)


def mac_of(entry) -> str:
    """Recompute a stored entry's MAC."""
    return entry_mac(
        chain=entry.chain,
        seq=entry.seq,
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


def text_mac(text: str) -> str:
    return hmac.new(chain_key(), text.encode(), hashlib.sha256).hexdigest()


def chain_of(obj, organisation=None) -> int:
    """The chain an entry about `obj` belongs to: its organisation's id, or the
    system chain. `organisation` (an instance or an id) saves the look-up."""
    if organisation is not None:
        return int(getattr(organisation, "pk", organisation))
    current = obj
    for _ in range(5):
        if current is None:
            return SYSTEM_CHAIN
        if current._meta.label_lower == "licensing.organisation":
            return current.pk
        if hasattr(current, "organisation_id"):
            return current.organisation_id or SYSTEM_CHAIN
        names = {f.name for f in current._meta.concrete_fields if f.many_to_one or f.one_to_one}
        step = next((name for name in OWNER_STEPS if name in names), None)
        if step is None:
            return SYSTEM_CHAIN
        current = getattr(current, step)
    return SYSTEM_CHAIN


def lock_chain(chain: int) -> None:
    """Serialise appends to ONE chain until the transaction ends. Called by
    `audit_record`, which services call last, so it is held briefly."""
    if connection.vendor == "postgresql":
        with prepared_cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [LOCK_CLASS, chain % 2**31])
    # SQLite (the demo database) serialises writers itself.
