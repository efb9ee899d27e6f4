"""Pages that belong to no area of the game."""

from django.http import HttpResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request):
    """For the reverse proxy's health check and the load test's baseline:
    answers without touching the database."""
    return HttpResponse("ok\n", content_type="text/plain")
