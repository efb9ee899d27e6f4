"""Makes the signed-in user known to the audit signals (core.signals) for the
length of a request, so a permission change made in the admin names who made
it; and remembers which record pages a signed-in user viewed (RULES D7), so
the sign-out entry of the audit trail says what was viewed and for how long
without writing one trail entry per page."""

from core.signals import VIEWED_SESSION_KEY, current_actor

# Pages whose viewing is worth recording: the records (admin) and the auditor's pages.
WATCHED_PREFIXES = ("/admin/", "/audit/")
MAX_REMEMBERED = 200


class AuditActorMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        token = current_actor.set(user if user is not None and user.is_authenticated else None)
        try:
            response = self.get_response(request)
        finally:
            current_actor.reset(token)
        if (
            request.method == "GET"
            and response.status_code == 200
            and user is not None
            and user.is_authenticated
            and request.path.startswith(WATCHED_PREFIXES)
            and hasattr(request, "session")
        ):
            viewed = request.session.get(VIEWED_SESSION_KEY, [])
            if request.path not in viewed and len(viewed) < MAX_REMEMBERED:
                request.session[VIEWED_SESSION_KEY] = [*viewed, request.path]
        return response
