"""The two database roles (docs/deploy.md): the owner runs migrations; the
runtime role serves the application with only the privileges it needs.

The privileges follow from the triggers the migrations put on each table, so
a new append-only table is covered without editing this module:
- append-only tables (trigger function core_refuse_change): SELECT, INSERT;
- tables whose rows are never deleted (raffle_refuse_delete): SELECT, INSERT, UPDATE;
- Django's migration history: SELECT;
- every other table: SELECT, INSERT, UPDATE, DELETE.
Never TRUNCATE, REFERENCES or TRIGGER, and never ownership: only a table's
owner may ALTER it (and so disable its triggers).
"""

from dataclasses import dataclass

from core.append_only import REFUSE_CHANGE_FUNCTION

NEVER_DELETED_FUNCTION = "raffle_refuse_delete"
READ_ONLY_TABLES = {"django_migrations"}

TABLES_SQL = """
SELECT c.relname,
       COALESCE(bool_or(p.proname = %s), false) AS append_only,
       COALESCE(bool_or(p.proname = %s), false) AS never_deleted
FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace
LEFT JOIN pg_trigger t ON t.tgrelid = c.oid AND NOT t.tgisinternal
LEFT JOIN pg_proc p ON p.oid = t.tgfoid
WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
GROUP BY c.relname
ORDER BY c.relname
"""

OWNERSHIP_SQL = """
SELECT current_user,
       (SELECT rolsuper FROM pg_roles WHERE rolname = current_user),
       (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
          AND pg_has_role(current_user, c.relowner, 'USAGE'))
"""


@dataclass(frozen=True)
class TablePrivileges:
    table: str
    privileges: tuple[str, ...]


def append_only_tables(cursor) -> list[str]:
    cursor.execute(TABLES_SQL, [REFUSE_CHANGE_FUNCTION, NEVER_DELETED_FUNCTION])
    return [name for name, append_only, _ in cursor.fetchall() if append_only]


def runtime_privileges(cursor) -> list[TablePrivileges]:
    cursor.execute(TABLES_SQL, [REFUSE_CHANGE_FUNCTION, NEVER_DELETED_FUNCTION])
    plan = []
    for table, append_only, never_deleted in cursor.fetchall():
        if table in READ_ONLY_TABLES:
            privileges = ("SELECT",)
        elif append_only:
            privileges = ("SELECT", "INSERT")
        elif never_deleted:
            privileges = ("SELECT", "INSERT", "UPDATE")
        else:
            privileges = ("SELECT", "INSERT", "UPDATE", "DELETE")
        plan.append(TablePrivileges(table, privileges))
    return plan


def role_ownership(cursor) -> tuple[str, bool, int]:
    """(role, is superuser, how many of the schema's tables it owns or inherits)."""
    cursor.execute(OWNERSHIP_SQL)
    role, superuser, owned = cursor.fetchone()
    return role, bool(superuser), int(owned)


def grant_statements(cursor, role: str, quote) -> list[str]:
    """Everything `grant_runtime_role` runs: revoke all, then grant the plan."""
    cursor.execute("SELECT current_schema()")
    schema = quote(cursor.fetchone()[0])
    who = quote(role)
    statements = [
        f"REVOKE ALL ON ALL TABLES IN SCHEMA {schema} FROM {who}",
        f"REVOKE ALL ON ALL SEQUENCES IN SCHEMA {schema} FROM {who}",
        f"REVOKE CREATE ON SCHEMA {schema} FROM {who}",
        f"GRANT USAGE ON SCHEMA {schema} TO {who}",
    ]
    for item in runtime_privileges(cursor):
        statements.append(f"GRANT {', '.join(item.privileges)} ON TABLE {schema}.{quote(item.table)} TO {who}")
    # Inserting takes the next id from each table's identity sequence.
    statements.append(f"GRANT USAGE ON ALL SEQUENCES IN SCHEMA {schema} TO {who}")
    return statements
