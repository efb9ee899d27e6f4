from django.db import migrations

# R:T11 a void is recorded, never deleted; R:T5 R:T7 tickets, sales, rolls and
# winner selections are records of the draw. Rows may be updated by the
# services (a void, a return, a claim) but never deleted. PostgreSQL only;
# on SQLite (the demo) the admin's guards apply.
TABLES = ["raffle_ticket", "raffle_sale", "raffle_ticketroll", "raffle_winnerselection", "raffle_drawpool"]

FUNCTION_SQL = """
CREATE OR REPLACE FUNCTION raffle_refuse_delete() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'Rows of % are records of a draw: they are voided or returned, never deleted.', TG_TABLE_NAME
        USING ERRCODE = 'insufficient_privilege';
END;
$$ LANGUAGE plpgsql;
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION_SQL, params=None)
    for table in TABLES:
        schema_editor.execute(
            f"CREATE TRIGGER {table}_never_deleted BEFORE DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION raffle_refuse_delete()"
        )


def backward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_never_deleted ON {table}")


class Migration(migrations.Migration):
    dependencies = [("raffle", "0007_tickets")]

    operations = [migrations.RunPython(forward, backward)]
