"""The chain's lock and its head in one statement (#18).

An append takes its chain's advisory lock, then reads the chain's newest
entry. Both must be separate statements (a statement's snapshot is taken
before it waits for the lock, so a read in the same statement could miss the
entry committed while it waited), which cost the append two round trips to
the database while its transaction holds the sale's draw. A function runs
each of its statements with a fresh snapshot: this one takes the lock, then
reads the head as committed once the lock is held, in one call. PostgreSQL
only; SQLite (the demo) serialises its writers itself.
"""

from django.db import migrations

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION core_audit_chain_lock_head(lock_class integer, lock_key integer, of_chain bigint,
                                                      OUT head_seq bigint, OUT head_hash varchar)
AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(lock_class, lock_key);
    SELECT e.seq, e.hash INTO head_seq, head_hash FROM core_auditentry e
        WHERE e.chain = of_chain ORDER BY e.seq DESC LIMIT 1;
END;
$$ LANGUAGE plpgsql VOLATILE;
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTION_SQL, params=None)


def backward(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            "DROP FUNCTION IF EXISTS core_audit_chain_lock_head(integer, integer, bigint)", params=None
        )


class Migration(migrations.Migration):
    dependencies = [("core", "0004_submission_tokens")]

    operations = [migrations.RunPython(forward, backward)]
