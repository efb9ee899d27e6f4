from django.db import migrations, models

# A sale's tickets are one run of its draw's seqs, taken together under the
# draw's lock: first_seq .. first_seq + ticket_count - 1. Stored on the sale,
# that run is a range of the tickets' primary key (draw * 2**32 + seq, 0024),
# so the (sale, seq) index, which every ticket row entered only so that a
# sale could find its tickets, goes (#18). The tickets' statement-level check
# now also refuses a ticket outside its sale's run, and a sale's first seq and
# ticket count never change, so the range always holds exactly the sale's
# tickets (readers still filter on the sale too). The reports' void lists,
# which went from a draw's voided sales to their tickets on that index, read
# a draw's void tickets instead, on a partial index that only void tickets
# enter (R:T11; a void marks its sale and its tickets in one transaction).

BACKFILL_SQL = """
UPDATE raffle_sale SET first_seq = (SELECT min(t.seq) FROM raffle_ticket t WHERE t.sale_id = raffle_sale.id)
"""

SCATTERED_SQL = """
SELECT s.id FROM raffle_sale s LEFT JOIN raffle_ticket t ON t.sale_id = s.id
GROUP BY s.id, s.ticket_count
HAVING count(t.seq) <> s.ticket_count OR coalesce(max(t.seq) - min(t.seq) + 1, 0) <> s.ticket_count
LIMIT 1
"""

FUNCTIONS_SQL = """
CREATE OR REPLACE FUNCTION raffle_ticket_check_sales() RETURNS trigger AS $$
DECLARE bad record;
BEGIN
    -- One primary-key probe of raffle_sale per sale in the insert (not per
    -- ticket, not a scan): the settings below keep the plan an index nested
    -- loop whatever the transition table's size. A ticket belongs to a sale
    -- of its own draw and licence, within the sale's run of seqs.
    SELECT n.sale_id INTO bad FROM (
        SELECT sale_id, draw_id, licence_id, min(seq) AS low, max(seq) AS high
        FROM new_tickets GROUP BY sale_id, draw_id, licence_id
    ) n
    WHERE NOT EXISTS (
        SELECT 1 FROM raffle_sale s WHERE s.id = n.sale_id AND s.draw_id = n.draw_id AND s.licence_id = n.licence_id
            AND n.low >= s.first_seq AND n.high < s.first_seq + s.ticket_count
    ) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'A ticket does not belong to a sale % of its draw and licence, within the sale''s seqs.',
            bad.sale_id USING ERRCODE = 'foreign_key_violation';
    END IF;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql SET enable_seqscan = off SET enable_hashjoin = off SET enable_mergejoin = off;

DROP TRIGGER raffle_sale_keys_fixed ON raffle_sale;
CREATE TRIGGER raffle_sale_keys_fixed BEFORE UPDATE OF id, licence_id, draw_id, first_seq, ticket_count
    ON raffle_sale FOR EACH ROW EXECUTE FUNCTION raffle_refuse_key_change('draw, licence and tickets');
"""


def backfill(apps, schema_editor):
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(SCATTERED_SQL)
        scattered = cursor.fetchone()
        if scattered is not None:
            raise RuntimeError(
                f"Sale {scattered[0]}'s tickets are not one run of seqs; this migration cannot store it."
            )
        cursor.execute(BACKFILL_SQL)


def checks(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(FUNCTIONS_SQL, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("raffle", "0025_ticket_serial_index_by_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="sale",
            name="first_seq",
            field=models.PositiveIntegerField(null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=False),
        migrations.AlterField(
            model_name="sale",
            name="first_seq",
            field=models.PositiveIntegerField(),
        ),
        migrations.AddConstraint(
            model_name="sale",
            constraint=models.CheckConstraint(condition=models.Q(first_seq__gte=1), name="sale_first_seq_positive"),
        ),
        migrations.RemoveIndex(
            model_name="ticket",
            name="ticket_sale_seq",
        ),
        migrations.AddIndex(
            model_name="ticket",
            index=models.Index(condition=models.Q(is_void=True), fields=["id"], name="ticket_void"),
        ),
        migrations.RunPython(checks, migrations.RunPython.noop, elidable=False),
    ]
