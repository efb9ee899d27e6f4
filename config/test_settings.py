"""Settings for the test suite: PostgreSQL, because the constraints, triggers
and row locks under test are PostgreSQL's. DATABASE_URL overrides the local
server; TEST_DATABASE_NAME lets several suites run side by side."""

import os

os.environ.setdefault("DJANGO_DEBUG", "false")
os.environ.setdefault("DJANGO_SECRET_KEY", "test-only-secret-key-with-enough-length-and-entropy-0123")
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
os.environ.setdefault("AUDIT_CHAIN_KEY", "test-only-audit-chain-key-0123456789abcdef")

from config.settings import *  # noqa: E402,F403
from config.settings import BASE_DIR, DATABASES, TEMPLATES, env  # noqa: E402

DATABASES["default"]["CONN_MAX_AGE"] = 0
DATABASES["default"]["TEST"] = {"NAME": env("TEST_DATABASE_NAME", default="test_catch_the_ace")}

# Hashing passwords slowly protects users, not tests.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
SECURE_SSL_REDIRECT = False
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Serve static files from the finders; no collectstatic in tests.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True

# Templates used only by tests (e.g. a minimal PDF page).
TEMPLATES[0]["DIRS"] = [*TEMPLATES[0]["DIRS"], BASE_DIR / "tests" / "templates"]

# Login hardening stays out of the way of tests that use `client.login()` or
# sign in a treasurer with `force_login`; the tests of the hardening itself
# switch it on (tests/test_security.py, tests/test_url_matrix.py), and
# `tests.factories.login_verified` gives a session that passed two-factor.
AXES_ENABLED = False
# Each test sees the Rules of Play PDF as its data stand (tests/test_rules_pdf_cache.py switches the memo on).
RULES_PDF_VERSION_SECONDS = 0
# ... and the board as its data stand (tests/test_board_cache.py switches the copy on).
BOARD_CACHE_SECONDS = 0
# Tasks run at once (after the commit, as in production); tests of the queue switch to the database backend.
TASKS = {"default": {"BACKEND": "django.tasks.backends.immediate.ImmediateBackend"}}
REQUIRE_2FA_ROLES: list[str] = []
