"""PostgreSQL triggers that make a table append-only.

Used from migrations: `migrations.RunPython(*append_only("core_auditentry"))`.
A row trigger refuses UPDATE and DELETE, a statement trigger refuses TRUNCATE.
On SQLite (the demo database) they do nothing; the models' own guards apply.

The triggers stop the application's mistakes and anyone connected as the
runtime role, which also holds no UPDATE, DELETE or TRUNCATE privilege on
these tables and does not own them, so cannot disable the triggers
(`manage.py grant_runtime_role`). The tables' owner CAN disable them: that is
what the audit chain's key and its anchors are for (docs/deploy.md).
"""

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION core_refuse_change() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'The % table is append-only: its rows cannot be changed or deleted.', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""

# The trigger function every append-only table uses: `grant_runtime_role`
# finds the append-only tables by it.
REFUSE_CHANGE_FUNCTION = "core_refuse_change"


def truncate_trigger_sql(table: str) -> str:
    return (
        f"CREATE OR REPLACE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
        "FOR EACH STATEMENT EXECUTE FUNCTION core_refuse_change()"
    )


def append_only(table: str):
    """(forward, backward) functions for RunPython that add or drop the triggers."""

    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(FUNCTION_SQL, params=None)
        schema_editor.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION core_refuse_change()"
        )
        schema_editor.execute(truncate_trigger_sql(table))

    def backward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_append_only ON {table}")
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")

    return forward, backward


def no_truncate(*tables: str):
    """(forward, backward) for RunPython: add only the TRUNCATE trigger, to
    tables made append-only before it existed."""

    def forward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in tables:
            schema_editor.execute(truncate_trigger_sql(table))

    def backward(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        for table in tables:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_truncate ON {table}")

    return forward, backward
