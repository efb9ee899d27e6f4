#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

OWNER_COMMANDS = {"migrate", "grant_runtime_role", "createcachetable"}


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if len(sys.argv) > 1 and sys.argv[1] in OWNER_COMMANDS:
        # These change the schema or the privileges: they connect as the
        # tables' owner (MIGRATION_DATABASE_URL), when one is configured.
        os.environ.setdefault("DJANGO_DATABASE_AS", "owner")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
