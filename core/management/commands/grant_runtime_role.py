from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from core.db_roles import grant_statements


class Command(BaseCommand):
    help = (
        "Grant the runtime database ROLE exactly what the application needs (run as the tables' owner, "
        "MIGRATION_DATABASE_URL, after every migrate): read and insert on the append-only tables, never "
        "update, delete or truncate them; no ownership."
    )

    def add_arguments(self, parser):
        parser.add_argument("role", help="The role DATABASE_URL connects as.")
        parser.add_argument("--dry-run", action="store_true", help="Print the statements without running them.")

    def handle(self, *args, role, dry_run, **options):
        if connection.vendor != "postgresql":
            raise CommandError("Database roles are PostgreSQL's; the SQLite demo has none.")
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = %s", [role])
            row = cursor.fetchone()
            if row is None:
                raise CommandError(f"No database role {role!r}: create it first (CREATE ROLE ... LOGIN PASSWORD ...).")
            if row[0]:
                raise CommandError(f"{role!r} is a superuser: the runtime role must be an ordinary role.")
            cursor.execute(
                "SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') "
                "AND pg_has_role(%s, c.relowner, 'USAGE')",
                [role],
            )
            if cursor.fetchone()[0]:
                raise CommandError(
                    f"{role!r} owns (or inherits the owner of) tables of this database: it could disable their "
                    "triggers. Migrate as another role (MIGRATION_DATABASE_URL) and serve with this one."
                )
            statements = grant_statements(cursor, role, connection.ops.quote_name)
            for statement in statements:
                if dry_run:
                    self.stdout.write(statement + ";")
                else:
                    cursor.execute(statement)
        if not dry_run:
            self.stdout.write(
                self.style.SUCCESS(f"Granted {role} the runtime privileges ({len(statements)} statements).")
            )
