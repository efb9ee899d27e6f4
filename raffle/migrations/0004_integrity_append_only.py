from django.db import migrations

from core.append_only import append_only


class Migration(migrations.Migration):
    """R:E4 R:D6 deck commitments and the Registrar register cannot be updated or deleted."""

    dependencies = [("raffle", "0003_integrity_registers")]

    operations = [
        migrations.RunPython(*append_only("raffle_deckcommitment")),
        migrations.RunPython(*append_only("raffle_registrarnotification")),
    ]
