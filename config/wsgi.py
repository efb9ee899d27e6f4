"""WSGI entry point, served by gunicorn in production (docs/deploy.md)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from core.runtime import freeze_loaded_objects, tune_garbage_collector  # noqa: E402  (needs the settings loaded above)

tune_garbage_collector()
freeze_loaded_objects()
