# Quick start: `make run` (demo on http://127.0.0.1:8000, SQLite) and `make test`
# (the whole suite against PostgreSQL, DATABASE_URL or the local server).
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
HOST_PORT ?= 127.0.0.1:8000

# Django 6.1 needs Python 3.12 or newer. Look on PATH, then in pyenv.
define FIND_PYTHON
py=""; \
for c in python3.13 python3.12 python3; do \
  p=$$(command -v $$c 2>/dev/null) || continue; \
  if "$$p" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then py=$$p; break; fi; \
done; \
if [ -z "$$py" ]; then \
  root=$$(pyenv root 2>/dev/null || echo "$$HOME/.pyenv"); \
  for p in "$$root"/versions/3.13*/bin/python3.13 "$$root"/versions/3.12*/bin/python3.12; do \
    if [ -x "$$p" ]; then py=$$p; break; fi; \
  done; \
fi; \
if [ -z "$$py" ]; then \
  echo "No Python 3.12 or newer found (Django 6.1 needs it)." >&2; \
  echo "Install one, for example: 'pyenv install 3.12' or 'sudo apt-get install python3.12 python3.12-venv'," >&2; \
  echo "then run make again." >&2; \
  exit 1; \
fi
endef

$(VENV)/bin/python:
	@$(FIND_PYTHON); echo "Creating $(VENV) with $$py"; "$$py" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet .
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet ".[test]"
	@touch $@ $(VENV)/.installed-run

.PHONY: install demo run test lint messages compile-messages bench loadtest check clean vendor
install: $(VENV)/.installed-test compile-messages

# The French catalogue is compiled at install: locale/fr/LC_MESSAGES/django.mo
# from django.po with GNU gettext's msgfmt (apt-get install gettext). Without
# msgfmt the committed .mo is used as it is (tests/test_catalogue_compiled.py
# checks that it matches the .po), so `make run` works on a machine without it.
PO := locale/fr/LC_MESSAGES/django.po
MO := locale/fr/LC_MESSAGES/django.mo
compile-messages:
	@if command -v msgfmt >/dev/null; then msgfmt --check -o $(MO) $(PO) && echo "Compiled $(MO) from $(PO)"; \
	else echo "msgfmt (GNU gettext) not found: using the committed $(MO) as it is (apt-get install gettext to compile it)"; fi

# The demo's settings go in .env (unless there is one), so the README's
# `python manage.py ...` commands work in this folder after `make run`.
# Production never uses this file: it sets the variables of README.md.
demo: $(VENV)/.installed-run compile-messages
	@test -f .env || printf '%s\n' "# Written by 'make run' for the demo on this machine (SQLite, DEBUG, demo keys)." \
	  "# Never deploy with it: delete it and set the variables listed in README.md." "DJANGO_DEBUG=true" > .env
	DJANGO_DEBUG=true $(PY) manage.py migrate --noinput
	DJANGO_DEBUG=true $(PY) manage.py load_demo

run: demo
	@echo "Serving on http://$(HOST_PORT)/  (admin: http://$(HOST_PORT)/admin/)"
	DJANGO_DEBUG=true $(PY) manage.py runserver $(HOST_PORT)

# axe-core (npm) for the browser tests' accessibility checks; without npm the
# browser tests skip locally and fail in CI (CI=true).
node_modules/axe-core/axe.min.js: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "npm not found: browser tests will skip (install nodejs and npm)"; fi

# Bootstrap is served from our own static files (no CDN, no npm at run time):
# `make vendor` copies the version pinned in package.json into
# static/vendor/bootstrap/ (committed). The last line of each file, its
# source-map comment, is dropped: the maps are not shipped, and the
# manifest storage of collectstatic would look for them.
BOOTSTRAP := node_modules/bootstrap
VENDOR := static/vendor/bootstrap
vendor: node_modules/axe-core/axe.min.js
	mkdir -p $(VENDOR)/css $(VENDOR)/js
	sed '$${/sourceMappingURL=/d}' $(BOOTSTRAP)/dist/css/bootstrap.min.css > $(VENDOR)/css/bootstrap.min.css
	sed '$${/sourceMappingURL=/d}' $(BOOTSTRAP)/dist/js/bootstrap.bundle.min.js > $(VENDOR)/js/bootstrap.bundle.min.js
	cp $(BOOTSTRAP)/LICENSE $(VENDOR)/LICENSE

test: $(VENV)/.installed-test node_modules/axe-core/axe.min.js compile-messages
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(PY) -m pytest $(PYTEST_ARGS)

# The same checks as .pre-commit-config.yaml; .ci/run fails on either.
lint: $(VENV)/.installed-test
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

# Gather the translatable strings into locale/fr/LC_MESSAGES/django.po, then
# compile it (needs GNU gettext: apt-get install gettext). Commit both files.
messages: $(VENV)/.installed-test
	DJANGO_SETTINGS_MODULE=config.test_settings $(PY) manage.py makemessages -l fr --no-obsolete \
	  --ignore node_modules --ignore tests --ignore bench --ignore test-artifacts
	msgfmt --check -o $(MO) $(PO)

check: $(VENV)/.installed-test
	DJANGO_SETTINGS_MODULE=config.test_settings $(PY) manage.py check
	DJANGO_SETTINGS_MODULE=config.test_settings $(PY) manage.py makemigrations --check --dry-run

bench: $(VENV)/.installed-test
	$(PY) bench/run.py

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles build *.egg-info

# 8 concurrent users against gunicorn on 127.0.0.1 (bench/loadtest.py; needs PostgreSQL).
loadtest: $(VENV)/.installed-test
	$(PY) bench/loadtest.py $(LOADTEST_ARGS)
