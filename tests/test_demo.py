"""The demo (`make run`) as a newcomer meets it (issue 16): the seller has a
raffle to sell on, `load_demo --reset` starts the demo over, and the README's
commands work as written once `make run` has set the demo up."""

import os
import re
import shlex
import shutil
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from licensing.models import Licence
from raffle.demo import DEMO_ELECTRONIC_LICENCE
from raffle.management.commands.load_demo import DEMO_LICENCE, DEMO_PASSWORD
from raffle.models import DrawState, Event, Sale

ROOT = Path(__file__).resolve().parents[1]


def hidden_inputs(page: str) -> dict[str, str]:
    """The form's hidden fields (the CSRF token and any one-time token)."""
    fields = {}
    for tag in re.findall(r"<input[^>]*type=\"hidden\"[^>]*>", page):
        name, value = re.search(r'name="([^"]*)"', tag), re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = value.group(1) if value else ""
    return fields


@pytest.mark.django_db
def test_the_demo_seller_sells_tickets_at_the_gift_shop(client):  # R:T11
    call_command("load_demo", stdout=StringIO())
    event = Event.objects.get(licence__number=DEMO_ELECTRONIC_LICENCE)
    draw = event.draws.get(number=1)
    assert draw.state == DrawState.SELLING and Sale.objects.filter(draw=draw).count() == 3
    assert client.login(username="seller", password=DEMO_PASSWORD)
    page = client.get(reverse("event_detail", args=[event.pk])).content.decode()
    sell_url = reverse("sales_sell", args=[draw.pk])
    assert f'href="{sell_url}"' in page and "Sell tickets for this draw" in page
    form = client.get(sell_url)
    assert form.status_code == 200
    response = client.post(
        sell_url,
        {
            **hidden_inputs(form.content.decode()),
            "tier": "3",
            "units": "1",
            "purchaser_name": "Dale Newcomer",
            "purchaser_contact": "519-555-0199",
            "envelope_pick": "21",
            "device": "Gift shop tablet 1",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    sale = Sale.objects.filter(draw=draw).latest("pk")
    assert sale.purchaser_name == "Dale Newcomer" and sale.ticket_count == 3 and sale.device == "Gift shop tablet 1"
    # The paper-roll raffle is still the one mid-season.
    assert Event.objects.get(licence__number=DEMO_LICENCE).draws.filter(state=DrawState.CLOSED).count() == 12


@pytest.mark.django_db
def test_reset_refuses_anything_but_the_sqlite_demo_and_deletes_nothing():
    call_command("load_demo", stdout=StringIO())
    with pytest.raises(CommandError, match="only works on the demo"):
        call_command("load_demo", "--reset", stdout=StringIO())
    assert Licence.objects.filter(number__in=[DEMO_LICENCE, DEMO_ELECTRONIC_LICENCE]).count() == 2


def readme_commands() -> list[str]:
    """The README's `python manage.py verify_audit` and its `setup_event`
    example, as written (continuation lines joined)."""
    text = (ROOT / "README.md").read_text()
    setup = re.search(r"```sh\n(python manage\.py setup_event .*?)\n```", text, re.S).group(1)
    assert "`python manage.py verify_audit" in text
    return ["python manage.py verify_audit", setup.replace("\\\n", " ")]


def test_the_readme_commands_work_as_written_after_make_run(tmp_path):
    """A copy of the project; `make demo` (what `make run` does before it
    serves) with this virtualenv; then the README's commands in a shell whose
    `python` is the virtualenv's, without any of the settings' variables."""
    project = tmp_path / "project"
    shutil.copytree(
        ROOT,
        project,
        ignore=shutil.ignore_patterns(
            ".git", ".venv", "node_modules", "test-artifacts", "db.sqlite3", ".env", "__pycache__", "build"
        ),
    )
    venv = Path(sys.prefix)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_", "AUDIT_"))}
    env.pop("MIGRATION_DATABASE_URL", None)
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env['PATH']}"

    def run(command: list[str]) -> str:
        done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, timeout=1200)
        assert done.returncode == 0, f"{shlex.join(command)}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
        return done.stdout

    # `make run` = `make demo` then runserver; the virtualenv is taken as installed.
    run(["make", "-o", f"{venv}/.installed-run", f"VENV={venv}", "demo"])
    assert "DJANGO_DEBUG=true" in (project / ".env").read_text()
    for command in readme_commands():
        run(["sh", "-c", command])
    # --reset starts over: the README's new licence is gone, so the example works again.
    assert "deleted and made again" in run(["python", "manage.py", "load_demo", "--reset"])
    for command in readme_commands():
        run(["sh", "-c", command])
