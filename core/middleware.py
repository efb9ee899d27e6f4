"""Makes the signed-in user known to the audit signals (core.signals) for the
length of a request, so a permission change made in the admin names who made it."""

from core.signals import current_actor


class AuditActorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        token = current_actor.set(user if user is not None and user.is_authenticated else None)
        try:
            return self.get_response(request)
        finally:
            current_actor.reset(token)
