from django.db import migrations

from core.append_only import append_only


class Migration(migrations.Migration):
    """R:E3 the card destruction log cannot be updated or deleted."""

    dependencies = [("raffle", "0001_initial"), ("core", "0002_audit_append_only")]

    operations = [migrations.RunPython(*append_only("raffle_carddestruction"))]
