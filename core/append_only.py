"""PostgreSQL triggers that make a table append-only.

Used from migrations: `migrations.RunPython(*append_only("core_auditentry"))`.
On SQLite (the demo database) they do nothing; the models' own guards apply.
"""

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION core_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'The % table is append-only: its rows cannot be changed or deleted.', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def append_only(table: str):
    """(forward, backward) functions for RunPython that add or drop the trigger."""

    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(FUNCTION_SQL, params=None)
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION core_refuse_change()"
        )

    def backward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")

    return forward, backward
