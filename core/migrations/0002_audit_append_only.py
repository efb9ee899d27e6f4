from django.db import migrations

from core.append_only import append_only


class Migration(migrations.Migration):
    """R:E3 the audit trail cannot be updated or deleted, even in raw SQL."""

    dependencies = [("core", "0001_initial")]

    operations = [migrations.RunPython(*append_only("core_auditentry"))]
