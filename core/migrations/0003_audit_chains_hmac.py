"""One audit chain per organisation, chained with HMAC-SHA-256 under
AUDIT_CHAIN_KEY; checkpoints for incremental verification; TRUNCATE refused.

Entries written before this migration are re-chained, in order, as the system
chain (0) under the key (nothing was deployed with the old unkeyed chain)."""

from django.conf import settings
from django.db import migrations, models

from core.append_only import no_truncate


def rechain(apps, schema_editor):
    from core.audit_chain import GENESIS_HASH, mac_of

    AuditEntry = apps.get_model("core", "AuditEntry")
    if not AuditEntry.objects.exists():
        return
    if not settings.AUDIT_CHAIN_KEY:
        raise RuntimeError("Set AUDIT_CHAIN_KEY before migrating: the existing audit entries are re-chained with it.")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute("ALTER TABLE core_auditentry DISABLE TRIGGER core_auditentry_append_only")
    prev_hash = GENESIS_HASH
    for seq, entry in enumerate(AuditEntry.objects.order_by("id").iterator(chunk_size=2000), start=1):
        entry.chain, entry.seq, entry.prev_hash = 0, seq, prev_hash
        mac = mac_of(entry)
        AuditEntry.objects.filter(pk=entry.pk).update(chain=0, seq=seq, prev_hash=prev_hash, hash=mac)
        prev_hash = mac
    if postgres:
        schema_editor.execute("ALTER TABLE core_auditentry ENABLE TRIGGER core_auditentry_append_only")


class Migration(migrations.Migration):
    dependencies = [("core", "0002_audit_append_only")]

    operations = [
        migrations.AddField(
            model_name="auditentry",
            name="chain",
            field=models.PositiveBigIntegerField(default=0, help_text="The organisation's id; 0 for the system chain."),
        ),
        migrations.AddField(
            model_name="auditentry",
            name="seq",
            field=models.PositiveBigIntegerField(default=0, help_text="Position in its chain, from 1."),
            preserve_default=False,
        ),
        migrations.RunPython(rechain, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="auditentry",
            constraint=models.UniqueConstraint(fields=("chain", "seq"), name="audit_one_entry_per_chain_position"),
        ),
        migrations.CreateModel(
            name="AuditCheckpoint",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("chain", models.PositiveBigIntegerField(unique=True)),
                ("seq", models.PositiveBigIntegerField()),
                ("entry_id", models.BigIntegerField()),
                ("hash", models.CharField(max_length=64)),
                ("verified_at", models.DateTimeField()),
                (
                    "full_verified_at",
                    models.DateTimeField(blank=True, help_text="Last check from the first entry.", null=True),
                ),
                ("mac", models.CharField(max_length=64)),
            ],
        ),
        migrations.RunPython(*no_truncate("core_auditentry")),
    ]
