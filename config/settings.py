"""Settings for the Catch the Ace raffle manager.

Everything that differs between a laptop and production comes from the
environment (django-environ). The defaults are safe: DEBUG is off and a
SECRET_KEY is required unless DJANGO_DEBUG=true. `make run` sets DEBUG and uses
an embedded SQLite file; production sets DATABASE_URL to PostgreSQL.
"""

import datetime
from pathlib import Path

import environ
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
# The demo's `.env` beside manage.py (written by `make run`), or the file
# DJANGO_ENV_FILE names; what the environment sets wins over either.
environ.Env.read_env(env.str("DJANGO_ENV_FILE", default=str(BASE_DIR / ".env")), overwrite=False)

DEBUG = env.bool("DJANGO_DEBUG", default=False)

if DEBUG:
    SECRET_KEY = env("DJANGO_SECRET_KEY", default="dev-only-insecure-key-never-use-in-production")
else:
    SECRET_KEY = env("DJANGO_SECRET_KEY")

ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_otp",
    "django_otp.plugins.otp_totp",
    "axes",
    # The queue of background tasks (e-mailed receipts, winner notices) in production.
    "django_tasks_db",
    "core",
    "licensing",
    "raffle",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Django's, except that a failed session save never hides a committed sale (core.sessions).
    "core.sessions.SessionMiddleware",
    # The visitor's language: the switch's cookie, else the browser's Accept-Language (fr-CA gives French).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "core.middleware.AuditActorMiddleware",
    # django-otp's, reading the session's device by a prepared statement (#18).
    "core.twofactor.OTPMiddleware",
    "core.twofactor.TwoFactorMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "core.context_processors.user_roles",
            ],
        },
    },
]

# Every form in Bootstrap 5's design (core/bootstrap.py; Bootstrap itself is
# vendored in static/vendor/bootstrap/, no CDN).
FORM_RENDERER = "core.bootstrap.BootstrapRenderer"

WSGI_APPLICATION = "config.wsgi.application"

# SQLite by default so `make run` needs nothing installed; PostgreSQL in
# production and in the test suite (its constraints and locks are the real ones).
#
# Two database roles in production (docs/deploy.md): DATABASE_URL is the
# runtime role the app serves with (it may insert into and read the
# append-only tables, never change them); MIGRATION_DATABASE_URL is the owner
# of the tables, used only by the commands that change the schema or grant
# privileges (manage.py sets DJANGO_DATABASE_AS=owner for those).
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
}
if env("DJANGO_DATABASE_AS", default="runtime") == "owner" and env("MIGRATION_DATABASE_URL", default=""):
    DATABASES["default"] = env.db("MIGRATION_DATABASE_URL")
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend, whose health check below asks the server only when
    # the socket shows something (core/postgresql/base.py, #18).
    DATABASES["default"]["ENGINE"] = "core.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("DATABASE_CONN_MAX_AGE", default=60)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The audit trail's entries are chained with HMAC-SHA-256 under this key, so
# whoever can write to the database cannot recompute the chain without it. It
# lives only in the environment (or a secrets manager), never in the database.
# Required in production (a deploy check and the first audited write say so);
# the demo (DEBUG) uses a fixed key that protects nothing.
AUDIT_CHAIN_KEY = env("AUDIT_CHAIN_KEY", default="demo-only-audit-chain-key-protects-nothing" if DEBUG else "")

# Objects CPython's youngest GC generation may hold before a collection; see
# core/runtime.py (applied by config/wsgi.py) and docs/benchmarks.md.
GC_YOUNG_THRESHOLD = env.int("GC_YOUNG_THRESHOLD", default=50_000)

# Login hardening. django-axes counts failed logins per username and address
# and locks that pair out for a cool-off time; a treasurer can still sign in
# from elsewhere, an attacker cannot keep guessing. Axes must come first.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # Django's, reading the signed-in user by a prepared statement (#18).
    "core.auth_backend.ModelBackend",
]
AXES_FAILURE_LIMIT = env.int("DJANGO_LOGIN_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = datetime.timedelta(minutes=env.int("DJANGO_LOGIN_COOLOFF_MINUTES", default=30))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
# R:D7 every sign-in and sign-out to the records is logged (who, from where,
# when, for how long) in axes' access log, kept like the other records.
AXES_DISABLE_ACCESS_LOG = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Behind a reverse proxy the client address is in X-Forwarded-For; trust as
# many proxies as are really in front of the app (docs/deploy.md). The lockout,
# the sign-in log and the per-address limits all read it through
# core.client_ip.client_address, so they see the same real address.
TRUSTED_PROXY_COUNT = env.int("DJANGO_TRUSTED_PROXY_COUNT", default=0)
TRUSTED_PROXY_HEADER = "HTTP_" + env("DJANGO_TRUSTED_PROXY_HEADER", default="X-Forwarded-For").upper().replace("-", "_")
AXES_CLIENT_IP_CALLABLE = "core.client_ip.client_address"

# Two-factor authentication (TOTP, django-otp) for the roles that move money
# or manage users. Anyone who has enrolled a device is asked for a code too.
# The demo (DEBUG) lets its users in with a password alone.
REQUIRE_2FA_ROLES = env.list("DJANGO_REQUIRE_2FA_ROLES", default=[] if DEBUG else ["treasurer", "administrator"])
OTP_TOTP_ISSUER = env("DJANGO_OTP_ISSUER", default="Catch the Ace")
# The admin never shows an authenticator's secret key or QR code: whoever can see
# it could produce that person's codes.
OTP_ADMIN_HIDE_SENSITIVE_DATA = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 12},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Password-reset e-mails: e.g. DJANGO_EMAIL_URL=smtp+tls://user:password@smtp.example.org:587
# The demo prints them on the console.
_email = env.email_url("DJANGO_EMAIL_URL", default="consolemail://" if DEBUG else "smtp://localhost:25")
_smtp_options = {
    "host": _email.get("EMAIL_HOST"),
    "port": _email.get("EMAIL_PORT"),
    "username": _email.get("EMAIL_HOST_USER"),
    "password": _email.get("EMAIL_HOST_PASSWORD"),
    "use_tls": _email.get("EMAIL_USE_TLS", False),
    "use_ssl": _email.get("EMAIL_USE_SSL", False),
}
MAILERS = {
    "default": {
        "BACKEND": _email["EMAIL_BACKEND"],
        "OPTIONS": (
            {k: v for k, v in _smtp_options.items() if v not in (None, "")}
            if _email["EMAIL_BACKEND"].endswith("smtp.EmailBackend")
            else {}
        ),
    },
}
DEFAULT_FROM_EMAIL = env("DJANGO_DEFAULT_FROM_EMAIL", default="Catch the Ace <raffle@localhost>")
# The site's public address, for links in e-mails (e.g. https://raffle.example.org); none when unset.
PUBLIC_BASE_URL = env("DJANGO_PUBLIC_URL", default="")

# Background tasks (Django's tasks framework): e-mailed receipts and winner
# notices are sent after the sale commits, never inside it, so a slow mail
# server never slows a sale. The demo runs them at once; production queues
# them in the database for `python manage.py db_worker` (docs/deploy.md).
TASKS = {
    "default": {
        "BACKEND": env(
            "DJANGO_TASKS_BACKEND",
            default=(
                "django.tasks.backends.immediate.ImmediateBackend" if DEBUG else "django_tasks_db.DatabaseBackend"
            ),
        ),
    },
}
SERVER_EMAIL = DEFAULT_FROM_EMAIL

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-ca"
# Ontario's two official languages; translations in locale/ (`make messages`).
LANGUAGES = [("en", "English"), ("fr", "Français")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "America/Toronto"
USE_I18N = True
USE_TZ = True

# Caches (the "did I win?" look-up limit): per process by default; a shared
# cache (CACHE_URL, e.g. redis:// or dbcache://) makes the limit count across workers.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# R:D10 "did I win?" look-ups one address may make in a window.
TICKET_CHECKS_PER_WINDOW = env.int("TICKET_CHECKS_PER_WINDOW", default=20)
TICKET_CHECK_WINDOW_SECONDS = env.int("TICKET_CHECK_WINDOW_SECONDS", default=600)
# The public Rules of Play PDF: how long each worker remembers which stored
# version is current before building the text again (raffle.views.rules).
RULES_PDF_VERSION_SECONDS = env.int("RULES_PDF_VERSION_SECONDS", default=30)
# The public envelope board: how long each worker (or the shared cache) keeps
# it rendered, so an opened envelope shows within these seconds (raffle.views.board).
BOARD_CACHE_SECONDS = env.int("BOARD_CACHE_SECONDS", default=5)

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "media/"
MEDIA_ROOT = env.path("DJANGO_MEDIA_ROOT", default=BASE_DIR / "media")

# Uploaded files (deposit slips, draw videos): the local disk (MEDIA_ROOT, one
# app server or a shared volume) or S3-compatible storage through
# django-storages (`pip install ".[s3]"`, DJANGO_MEDIA_STORAGE=s3), see docs/deploy.md.
MEDIA_STORAGE = env("DJANGO_MEDIA_STORAGE", default="local")
if MEDIA_STORAGE == "s3":
    _default_storage = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env("DJANGO_S3_BUCKET"),
            "endpoint_url": env("DJANGO_S3_ENDPOINT_URL", default=None),
            "region_name": env("DJANGO_S3_REGION", default=None),
            "access_key": env("DJANGO_S3_ACCESS_KEY_ID", default=None),
            "secret_key": env("DJANGO_S3_SECRET_ACCESS_KEY", default=None),
            "default_acl": None,  # private: files are served through signed, expiring URLs
            "querystring_auth": True,
            "querystring_expire": 300,
            "file_overwrite": False,
        },
    }
else:
    _default_storage = {"BACKEND": "django.core.files.storage.FileSystemStorage"}

STORAGES = {
    "default": _default_storage,
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# Security: cookies, HSTS and the Content Security Policy (Django's own).
# Django's database sessions, each request's read by a prepared statement (#18).
SESSION_ENGINE = "core.sessions"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = env.int("DJANGO_SESSION_COOKIE_AGE", default=8 * 60 * 60)
SESSION_EXPIRE_AT_BROWSER_CLOSE = True
CSRF_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if not DEBUG:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("DJANGO_SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    # The header only allows a submission to the browsers' preload list; the
    # submission itself (hstspreload.org) stays the domain owner's decision.
    SECURE_HSTS_PRELOAD = env.bool("DJANGO_SECURE_HSTS_PRELOAD", default=True)
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# CSP.NONCE (not the string "'nonce'", which browsers reject as an invalid
# source) makes Django put a per-request nonce here for {{ csp_nonce }}.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF, CSP.NONCE],
    "img-src": ["'self'", "data:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "frame-ancestors": ["'none'"],
    "form-action": ["'self'"],
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        # WeasyPrint reports every CSS property it ignores; keep real problems only.
        "weasyprint": {"level": "ERROR"},
        "fontTools": {"level": "ERROR"},
        # Lockouts are in the audit trail and the admin; skip axes' per-login chatter.
        "axes": {"level": "WARNING"},
    },
}

# Mappings of registered suppliers' own export formats to the generic import
# format (docs/suppliers.md): one JSON file per supplier.
SUPPLIER_MAPPINGS_DIR = env.path("SUPPLIER_MAPPINGS_DIR", default=BASE_DIR / "suppliers")
