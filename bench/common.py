"""What the benchmarks share."""

import os


def prepare_database(name: str) -> None:
    """Drop and recreate the benchmark's own database on the server of
    DATABASE_URL (default the local one) and point DATABASE_URL at it."""
    import psycopg

    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    os.environ["DATABASE_URL"] = base.rsplit("/", 1)[0] + "/" + name


def django_on_a_fresh_database(default_name: str) -> None:
    """Django with the test settings on its own database, BENCH_DATABASE_NAME
    (default `default_name`), dropped, recreated and migrated."""
    prepare_database(os.environ.get("BENCH_DATABASE_NAME", default_name))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def django_on_a_scratch_database(default_name: str) -> None:
    """Django with the test settings, its test database named
    BENCH_DATABASE_NAME (default `default_name`), for benchmarks that build
    it with the test runner's `create_test_db`."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.test_settings")
    os.environ["TEST_DATABASE_NAME"] = os.environ.get("BENCH_DATABASE_NAME", default_name)
    import django

    django.setup()


def selling_draw(*, actor, organisation, number: str, channel: str):
    """Draw 1 of a fresh event, selling, under a new AGCO licence `number` of
    `organisation` on `channel`, with a prize board no benchmark reaches."""
    import datetime

    from django.utils import timezone

    from licensing.models import Licence
    from raffle import services

    licence = Licence.objects.create(
        number=number,
        organisation=organisation,
        authority_kind="agco",
        authority_name="AGCO",
        sales_channel=channel,
        prize_board="100000000.00",
        fee_rate_percent="1.00",
        issued_on=timezone.localdate() - datetime.timedelta(days=1),
        expires_on=timezone.localdate() + datetime.timedelta(days=300),
        # R:D5 electronic sales run on a registered supplier's system, recorded on the licence.
        **(
            {}
            if channel.startswith("paper")
            else {
                "supplier_name": "Bench Supplier Inc.",
                "supplier_registration_number": "GS-1",
                "supplier_system_name": "BenchRaffle",
                "supplier_system_version": "1.0",
            }
        ),
    )
    event = services.event_setup(
        actor=actor,
        licence=licence,
        name=number,
        price_tiers=[(1, "5.00"), (3, "10.00")],
        first_draw_at=timezone.now() + datetime.timedelta(days=1),
        rules_approved_on=timezone.localdate(),  # R:R4 before the first sale
        rules_approval_reference="RP-BENCH",
    )
    return services.draw_open_sales(actor=actor, draw=event.draws.get(number=1))


def signed_in_seller():
    """A seller of a new organisation (its administrator by membership, not
    a superuser, two-factor verified, django-axes on) with a test client on
    draw 1 of a new electronic event, selling. Returns two functions of a
    request number i: `sale(i)`, the sales page's POST of one ticket, sent
    urlencoded as a browser sends that form, each with a fresh one-time token
    and the next envelope; `healthz(i)`, GET /healthz with the same session.
    Each response's message cookie is dropped, as the next page would."""
    import secrets
    from urllib.parse import urlencode

    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from core.once import new_token
    from licensing.models import Organisation, SalesChannel
    from licensing.services import membership_add
    from tests.factories import login_verified

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.AXES_ENABLED = True
    settings.REQUIRE_2FA_ROLES = ["treasurer", "administrator"]
    tag = secrets.token_hex(4)  # a database kept between runs gets new names each time
    admin = get_user_model().objects.create_superuser(f"bench-{tag}", "bench@example.org", "bench-password-123")
    organisation = Organisation.objects.create(
        name=f"Bench {tag}", charity_registration_number="1RR0001", city="Ottawa"
    )
    draw = selling_draw(actor=admin, organisation=organisation, number=f"SR-{tag}", channel=SalesChannel.ELECTRONIC)
    seller = get_user_model().objects.create_user(f"seller-{tag}", password=None, is_staff=True)
    seller.groups.add(Group.objects.get(name="administrator"))
    membership_add(actor=None, user=seller, organisation=organisation, role="administrator")
    client = Client()
    login_verified(client, seller)
    url = f"/draws/{draw.pk}/sales/"

    def sale(i: int) -> None:
        form = {
            "tier": "1",
            "units": "1",
            "purchaser_name": f"Buyer {i}",
            "purchaser_contact": "613-555-0142",
            "envelope_pick": str(i % 52 + 1),
            "device": "POS-1",
            "once": new_token(),
        }
        response = client.post(url, urlencode(form), content_type="application/x-www-form-urlencoded")
        assert response.status_code == 302, response.status_code
        client.cookies.pop("messages", None)

    def healthz(_i: int) -> None:
        assert client.get("/healthz").status_code == 200

    return sale, healthz
