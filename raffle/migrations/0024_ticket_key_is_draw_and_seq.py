# A ticket row entered four B-trees: the surrogate `id`, (serial, licence),
# (draw, seq) and (sale, seq). The surrogate `id` guaranteed nothing the
# (draw, seq) key did not: here it becomes that key, a column PostgreSQL
# computes from the row (draw_id * 2**32 + seq; seq is a positive 32-bit
# integer, so the key is unique exactly when (draw, seq) is), and the primary
# key's index replaces both the identity index and the (draw, seq) unique
# constraint. Writers do not name `id` (PostgreSQL fills it), readers read a
# draw's tickets as a key range (`Ticket.objects.of_draw`). Winner selections
# point at the new keys. PostgreSQL only: the SQLite demo keeps its surrogate
# id and its (draw, seq) index.
from django.db import migrations

FORWARD_SQL = """
ALTER TABLE raffle_winnerselection DROP CONSTRAINT {fk};
DROP TRIGGER raffle_ticket_keys_fixed ON raffle_ticket;
ALTER TABLE raffle_ticket ADD COLUMN ticket_key bigint GENERATED ALWAYS AS (draw_id * 4294967296 + seq) STORED;
UPDATE raffle_winnerselection w SET ticket_id = t.ticket_key FROM raffle_ticket t WHERE t.id = w.ticket_id;
ALTER TABLE raffle_ticket DROP COLUMN id;
ALTER TABLE raffle_ticket RENAME COLUMN ticket_key TO id;
ALTER TABLE raffle_ticket ADD CONSTRAINT raffle_ticket_pkey PRIMARY KEY (id);
ALTER TABLE raffle_ticket DROP CONSTRAINT ticket_seq_unique_per_draw;
ALTER TABLE raffle_winnerselection ADD CONSTRAINT {fk}
    FOREIGN KEY (ticket_id) REFERENCES raffle_ticket (id) DEFERRABLE INITIALLY DEFERRED;
CREATE TRIGGER raffle_ticket_keys_fixed BEFORE UPDATE OF licence_id, draw_id, sale_id, serial, seq
    ON raffle_ticket FOR EACH ROW EXECUTE FUNCTION raffle_refuse_key_change('serial, seq, sale, draw and licence');
"""

FK_SQL = """
SELECT conname FROM pg_constraint
WHERE conrelid = 'raffle_winnerselection'::regclass AND confrelid = 'raffle_ticket'::regclass AND contype = 'f'
"""


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(FK_SQL)
        (fk,) = cursor.fetchone()
    schema_editor.execute(FORWARD_SQL.format(fk=schema_editor.quote_name(fk)), params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("raffle", "0023_sale_rows_for_bulk"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterModelOptions(name="ticket", options={"ordering": ["id"]}),
                migrations.RemoveConstraint(model_name="ticket", name="ticket_seq_unique_per_draw"),
            ],
            database_operations=[migrations.RunPython(forward, elidable=False)],
        ),
    ]
