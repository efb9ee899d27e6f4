"""Production settings: `manage.py check --deploy` is clean, and the settings
refuse to start without what production needs."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def production_env(**extra) -> dict:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DATABASE_URL", "GUNICORN_", "AUDIT_CHAIN_KEY", "MIGRATION_DATABASE_URL"))
    }
    env.update(
        {
            "DJANGO_SECRET_KEY": "p9Jx-2vQ_0rT8mZk4LbN7wYc1sHfA6eUgD3iO5pRtXyVzKqWjMnBl",
            "DJANGO_ALLOWED_HOSTS": "raffle.example.org",
            "DJANGO_CSRF_TRUSTED_ORIGINS": "https://raffle.example.org",
            "DATABASE_URL": "postgres://raffle@db.internal:5432/raffle",
            "AUDIT_CHAIN_KEY": "Qe7-vX2_kR9mZp4LtN8wYc1sHfA6eUgD3iO5pRtXyVzKqWjMnBl0",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            # Not the demo's .env that `make run` leaves in the checkout (DEBUG on): production reads none.
            "DJANGO_ENV_FILE": os.devnull,
        }
    )
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def manage(*args, **extra):
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=production_env(**extra),
        timeout=120,
    )


def test_check_deploy_is_clean_under_production_settings():
    result = manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", DJANGO_SECRET_KEY=None)
    assert result.returncode != 0
    assert "DJANGO_SECRET_KEY" in result.stderr


def test_production_deploy_check_fails_without_the_audit_chain_key():
    result = manage("check", "--deploy", AUDIT_CHAIN_KEY=None)
    assert result.returncode != 0
    assert "core.E001" in result.stderr and "AUDIT_CHAIN_KEY" in result.stderr


def test_migrate_connects_as_the_owner_and_the_app_as_the_runtime_role():
    owner = "postgres://raffle_owner@db.internal:5432/raffle"
    served = settings_value('s.DATABASES["default"]["USER"]', MIGRATION_DATABASE_URL=owner)
    migrating = settings_value(
        's.DATABASES["default"]["USER"]', MIGRATION_DATABASE_URL=owner, DJANGO_DATABASE_AS="owner"
    )
    assert (served, migrating) == ("'raffle'", "'raffle_owner'")
    # manage.py sets DJANGO_DATABASE_AS=owner for the commands that need the owner.
    sys.path.insert(0, str(ROOT))
    from manage import OWNER_COMMANDS

    assert {"migrate", "grant_runtime_role"} <= OWNER_COMMANDS


def settings_value(expression: str, **extra) -> str:
    code = f"import django; django.setup(); from django.conf import settings as s; print(repr(({expression})))"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, env=production_env(**extra), timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_production_defaults_are_the_safe_ones():
    values = settings_value(
        "s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, "
        "s.SECURE_HSTS_SECONDS >= 31536000, s.DATABASES['default']['CONN_MAX_AGE'] > 0, "
        "s.REQUIRE_2FA_ROLES, 'axes.middleware.AxesMiddleware' in s.MIDDLEWARE, "
        "s.STORAGES['staticfiles']['BACKEND']"
    )
    assert values == (
        "(False, True, True, True, True, True, ['treasurer', 'administrator'], True, "
        "'whitenoise.storage.CompressedManifestStaticFilesStorage')"
    )


def test_uploaded_files_can_live_on_s3_compatible_storage():
    backend = settings_value(
        "s.STORAGES['default']['BACKEND'], s.STORAGES['default']['OPTIONS']['bucket_name']",
        DJANGO_MEDIA_STORAGE="s3",
        DJANGO_S3_BUCKET="lions-raffle-files",
    )
    assert backend == "('storages.backends.s3.S3Storage', 'lions-raffle-files')"


@pytest.mark.parametrize("debug", ["true"])
def test_the_demo_runs_without_a_secret_key_or_second_factor(debug):
    assert settings_value("s.DEBUG, s.REQUIRE_2FA_ROLES", DJANGO_DEBUG=debug, DJANGO_SECRET_KEY=None) == "(True, [])"


@pytest.mark.parametrize(("setting", "expected"), [(None, "50000"), ("12345", "12345")])
def test_the_served_application_raises_the_young_gc_threshold(setting, expected):
    """config/wsgi.py applies core.runtime.tune_garbage_collector (docs/benchmarks.md, reports)."""
    result = subprocess.run(
        [sys.executable, "-c", "import gc, config.wsgi; print(gc.get_threshold()[0])"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=production_env(GC_YOUNG_THRESHOLD=setting),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_the_served_application_freezes_what_it_loaded_out_of_the_collectors_sight():
    """config/wsgi.py applies core.runtime.freeze_loaded_objects (#18, docs/architecture.md)."""
    code = "import gc, sys, config.wsgi; print(gc.get_freeze_count() > 10000, 'raffle.views.sales' in sys.modules)"
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, env=production_env()
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True"]


def test_the_settings_read_the_env_file_named_and_the_environment_wins(tmp_path):
    # `make run` then `make test` in one checkout: the demo's .env (DEBUG on) must not leak into
    # the production checks above, which name no file (os.devnull); a named file is read, under
    # whatever the environment itself sets.
    demo = tmp_path / "demo.env"
    demo.write_text("DJANGO_DEBUG=true\nDJANGO_ALLOWED_HOSTS=demo.example.org\n")
    code = "from django.conf import settings; print(settings.DEBUG, settings.ALLOWED_HOSTS)"

    def settings_with(**extra) -> str:
        result = subprocess.run(
            [sys.executable, "-c", code],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env=production_env(**extra),
        )
        assert result.returncode == 0, result.stderr
        return result.stdout.strip()

    assert settings_with() == "False ['raffle.example.org']"
    assert settings_with(DJANGO_ENV_FILE=str(demo)) == "True ['raffle.example.org']"
