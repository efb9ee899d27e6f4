"""Pages that belong to no area of the game."""

from django.http import HttpResponse
from django.views import i18n
from django.views.decorators.http import require_GET, require_POST


@require_GET
def healthz(request):
    """For the reverse proxy's health check and the load test's baseline:
    answers without touching the database."""
    return HttpResponse("ok\n", content_type="text/plain")


# The language switch: Django's own view, POST only (a GET, which Django's view
# answers without switching, would be a link that looks like it works).
set_language = require_POST(i18n.set_language)
