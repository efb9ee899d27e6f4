"""gunicorn settings: `gunicorn -c config/gunicorn.conf.py config.wsgi`.

Behind a reverse proxy (nginx, Caddy) that terminates TLS and sets
X-Forwarded-Proto; see docs/deploy.md. Every value can be overridden from the
environment, e.g. GUNICORN_WORKERS=8."""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
# Sync workers: each request holds one database connection for its duration.
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
threads = int(os.environ.get("GUNICORN_THREADS", 1))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", 60))  # PDF reports can take a few seconds
graceful_timeout = 30
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", 2000))
max_requests_jitter = 200
# Only the proxy on this host may say which scheme and address the client used.
forwarded_allow_ips = os.environ.get("GUNICORN_FORWARDED_ALLOW_IPS", "127.0.0.1")
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
errorlog = "-"
