"""Every URL of the project, as every role and as an anonymous visitor,
against the matrix of docs/roles.md.

URLs are collected from the URL resolver (admin included), never listed by
hand: a page without a row in the matrix fails `test_every_url_has_a_matrix_row`.
Adding a page is one row in docs/roles.md, plus one line in KWARG_FILLERS
below if its URL takes an argument this file does not know yet.
"""

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from django.contrib import admin
from django.contrib.auth.tokens import default_token_generator
from django.contrib.contenttypes.models import ContentType
from django.urls import URLPattern, URLResolver, get_resolver, resolve, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from core import roles
from core.roles import ANONYMOUS, MATRIX_COLUMNS, matrix_row, page_matrix
from licensing.models import BonaFideMember
from raffle.models import Draw, DrawState, Sale
from tests import factories
from tests.factories import (
    LicenceFactory,
    OrganisationFactory,
    event_with_draw,
    login_verified,
    members_for,
    run_draw,
    user_with_role,
)


@dataclass(frozen=True)
class Page:
    key: str  # the URL name ("admin:raffle_draw_change"), or the route of an unnamed pattern
    route: str
    pattern: URLPattern
    kwargs: tuple[str, ...]


def _walk(patterns, prefix="", namespace=None):
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = p.namespace
            full_ns = f"{namespace}:{ns}" if namespace and ns else ns or namespace
            yield from _walk(p.url_patterns, prefix + str(p.pattern), full_ns)
        else:
            route = prefix + str(p.pattern)
            name = p.name and (f"{namespace}:{p.name}" if namespace else p.name)
            yield Page(key=name or route, route=route, pattern=p, kwargs=tuple(p.pattern.regex.groupindex))


def all_pages(urlconf=None) -> list[Page]:
    return list(_walk(get_resolver(urlconf).url_patterns))


def pages_without_a_row(pages, matrix) -> list[str]:
    return sorted(p.key for p in pages if matrix_row(matrix, p.key) is None)


MATRIX = page_matrix()
PAGES = all_pages()


def _admin_model(page: Page):
    """The model behind an admin page, from its URL name or route."""
    for model in admin.site._registry:
        opts = model._meta
        if page.key.startswith(f"admin:{opts.app_label}_{opts.model_name}_") or page.route.startswith(
            f"admin/{opts.app_label}/{opts.model_name}/"
        ):
            return model
    return None


# --- a demo-like world: every object an URL can point at ---------------------


def _build_world(users, *, name, licence=None) -> dict:
    """Every object an URL can point at, of one organisation's raffle, made by
    `users` (one per role)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django_otp.plugins.otp_totp.models import TOTPDevice

    event = event_with_draw(actor=users[roles.ADMINISTRATOR], name=name, licence=licence)
    destroyer, verifier = members_for(event)
    BonaFideMember.objects.filter(pk=destroyer.pk).update(user=users[roles.DRAW_STAFF])
    run_draw(
        event.draws.get(number=1),
        actor=users[roles.DRAW_STAFF],
        sales="1250.00",
        destroyer=destroyer,
        verifier=verifier,
    )
    draw = event.draws.exclude(state=DrawState.CLOSED).order_by("number").first()
    # A treasurer's enrolled authenticator, and a failed sign-in on record.
    TOTPDevice.objects.create(user=users[roles.TREASURER], name="Treasurer's phone", confirmed=True)
    seller = users[roles.SELLER].username
    request = {"ip_address": "192.0.2.7", "user_agent": "test", "http_accept": "*/*", "path_info": "/accounts/login/"}
    AccessAttempt.objects.create(username=seller, failures_since_start=2, **request)
    AccessLog.objects.create(username=seller, **request)
    AccessFailureLog.objects.create(username=seller, locked_out=False, **request)
    world = {
        "users": users,
        "event": event,
        "draw": draw,
        "members": (destroyer, verifier),
        **_records_of_every_feature(event, users, destroyer, verifier),
    }
    # The sale the pages open is the seller's own: a seller sees only the sales they made (#15).
    Sale.objects.filter(pk=world["sale"].pk).update(sold_by=users[roles.SELLER])
    return world


@pytest.fixture
def world(db):
    # Made without an organisation: the people work for every organisation of this world.
    users = {role: user_with_role(role, username=role.replace(" ", "")) for role in roles.ALL_ROLES}
    return _build_world(users, name="Harbour Lions Catch the Ace")


@pytest.fixture
def other_world(world):
    """#15 a second charity on the same installation, with its own people in
    each role and its own raffle; the first world's people do not work for it."""
    factories.EVERY_ORGANISATION.clear()  # the first world's people: only its organisations from here on
    hospice = OrganisationFactory(name="Hilltop Hospice")
    users = {
        role: user_with_role(role, organisation=hospice, username=f"hospice-{role.replace(' ', '')}")
        for role in roles.ALL_ROLES
    }
    for role, user in users.items():  # and every organisation the hospice's raffle makes
        factories.EVERY_ORGANISATION[user.pk] = {role}
    return _build_world(users, name="Hilltop Hospice Catch the Ace", licence=LicenceFactory(organisation=hospice))


def _records_of_every_feature(event, users, destroyer, verifier) -> dict:
    """One of each record the pages of #3-#8 point at, made by the services:
    a sale, a recording, an issue notified to the Registrar, a licence
    application and amendment, the trust account with a deposit, spending,
    a paid and an unclaimed prize, an issued report, a sealed electronic deck
    and a must-go draw's tickets."""
    import datetime

    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.utils import timezone

    from licensing import services as licensing_services
    from licensing.models import ApplicantKind, AuthorityKind, ExpenseKind, PaymentMethod, ReportKind, SalesChannel
    from raffle import services
    from raffle.models import MustGoReason, PrizeKind, Sale, Ticket
    from tests.factories import PASSWORD, LicenceFactory, trust_account_for

    staff, treasurer = users[roles.DRAW_STAFF], users[roles.TREASURER]
    today = timezone.localdate()
    first, second = event.draws.get(number=1), event.draws.get(number=2)
    run_draw(second, actor=staff, sales="400.00", destroyer=destroyer, verifier=verifier)
    video = services.video_register(
        actor=staff,
        draw=first,
        resolution_lines=720,
        duration="30:00",
        held_by="Pat",
        file=SimpleUploadedFile("draw-1.mp4", b"fake video"),
    )
    services.registrar_notification_record(
        actor=staff,
        event=event,
        occurred_on=today,
        kind="other",
        description="Envelope seal torn",
        method="email",
        notified_at=timezone.now(),
    )
    application = licensing_services.application_create(
        actor=users[roles.ADMINISTRATOR],
        organisation=event.licence.organisation,
        applicant_kind=ApplicantKind.FIRST_TIME,
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Perth",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="50000",
    )
    licensing_services.licence_amend_channel(
        actor=None,
        licence=LicenceFactory(),
        to_channel=SalesChannel.ELECTRONIC,
        notice_given_on=today,
        effective_on=today + datetime.timedelta(days=14),
        signed_by=["Ana Roy"],
        letterhead_note="Signed letter on letterhead",
        today=today,
    )
    account = trust_account_for(event, actor=treasurer)
    deposit = licensing_services.deposit_record(
        actor=treasurer,
        account=account,
        slip_number="DS-0001",
        deposited_on=timezone.localdate(first.scheduled_at),
        amount=first.ticket_sales,
        slip_scan=SimpleUploadedFile("slip.png", b"\x89PNG fake"),
    )
    services.deposit_cover_draws(actor=treasurer, deposit=deposit, amounts={first: first.ticket_sales})
    use = licensing_services.approved_use_add(
        actor=treasurer, licence=event.licence, description="Palliative care beds", approved_on=event.licence.issued_on
    )
    licensing_services.expense_record(
        actor=treasurer,
        licence=event.licence,
        kind=ExpenseKind.PROCEEDS_USE,
        paid_on=today,
        amount="100.00",
        payee="Medical Supply Co",
        description="A bed",
        reference="CHQ 13",
        approved_use=use,
    )
    licensing_services.donated_prize_record(
        actor=treasurer,
        licence=event.licence,
        description="Hockey tickets",
        donor="Attack",
        value="250.00",
        received_on=today,
    )
    services.prize_payment_record(
        actor=treasurer,
        draw=first,
        kind=PrizeKind.DRAW_PRIZE,
        method=PaymentMethod.CHEQUE,
        reference="CHQ 1001",
        paid_on=first.held_on,  # the day it was held: an hour after it was due, past midnight at times
        payee="A. MacLeod",
    )
    prize = services.prize_mark_unclaimed(actor=treasurer, draw=second)
    services.prize_log_contact_attempt(
        actor=treasurer,
        prize=prize,
        means="phone",
        attempted_on=second.held_on,
        outcome="no answer",
    )
    report = licensing_services.report_issue(
        actor=treasurer,
        licence=event.licence,
        kind=ReportKind.FOUR_DRAW,
        file_format="pdf",
        content=b"%PDF-1.4 test",
        period=1,
    )
    licensing_services.audited_statement_request_record(
        actor=treasurer, licence=event.licence, requested_on=timezone.localdate(), requested_by="AGCO Registrar"
    )
    electronic = event_with_draw(actor=staff, deck_kind="electronic", name="Electronic deck")
    must_go_event = event_with_draw(actor=staff, name="Must go")
    must_go = services.draw_set_must_go(
        actor=staff, draw=must_go_event.draws.get(number=1), reason=MustGoReason.LAST_DRAW
    )
    must_go = run_draw(must_go, actor=staff, sales="100.00", until=DrawState.CARD_REVEALED)
    next_serial = (
        Ticket.objects.filter(draw=must_go)
        .exclude(serial=must_go.winning_serial)
        .values_list("serial", flat=True)
        .first()
    )
    must_go_destroyer, must_go_verifier = members_for(must_go_event)
    services.draw_must_go_redraw(
        actor=staff,
        draw=must_go,
        destroyed_by=must_go_destroyer,
        verified_by=must_go_verifier,
        destroyer_password=PASSWORD,
        verifier_password=PASSWORD,
        serial=next_serial,
        serial_again=next_serial,
    )
    return {
        "electronic": electronic,
        "sale": Sale.objects.filter(draw=first).order_by("pk").first(),
        "video": video,
        "application": application,
        "deposit": deposit,
        "prize": prize,
        "report": report,
        "organisation": event.licence.organisation,
        "licence": event.licence,
    }


def _records_of_the_world(model, world):
    """The rows of `model` that belong to this world's organisations (core.scope)."""
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.contrib.auth import get_user_model
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from core.models import AuditEntry
    from core.scope import organisation_path, scoped, trail_of

    users = world["users"]
    rows = model._default_manager.order_by("pk")
    if model is get_user_model():
        return rows.filter(pk=users[roles.SELLER].pk)
    if model is AuditEntry:  # an entry of the world's own organisation's chain
        return trail_of(users[roles.AUDITOR]).filter(chain=world["event"].licence.organisation_id).order_by("pk")
    if model is TOTPDevice:
        return rows.filter(user=users[roles.TREASURER])
    if model in (AccessAttempt, AccessLog, AccessFailureLog):
        return rows.filter(username=users[roles.SELLER].username)
    try:
        organisation_path(model)
    except LookupError:
        return rows  # not any organisation's (role groups, permissions)
    return scoped(rows, users[roles.AUDITOR])


def belongs_to_an_organisation(model) -> bool:
    from axes.models import AccessAttempt, AccessFailureLog, AccessLog
    from django.contrib.auth import get_user_model
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from core.models import AuditEntry
    from core.scope import organisation_path

    if model in (get_user_model(), AuditEntry, TOTPDevice, AccessAttempt, AccessLog, AccessFailureLog):
        return True
    try:
        organisation_path(model)
    except LookupError:
        return False
    return True


def _object_pk(page: Page, world) -> str:
    if "content_type_id" in page.kwargs:  # view_on_site: the draw, with Draw's content type
        return str(world["draw"].pk)
    model = _admin_model(page)
    assert model is not None, f"{page.key}: cannot tell which model's object to use"
    obj = _records_of_the_world(model, world).first()
    assert obj is not None, f"{page.key}: the test world has no {model._meta.verbose_name}"
    return str(obj.pk)


# How to fill each URL argument from the world. A new kind of argument is one line here.
KWARG_FILLERS = {
    "object_id": _object_pk,
    "pk": _object_pk,
    "id": lambda page, world: str(world["users"][roles.SELLER].pk),
    "draw_id": lambda page, world: world["draw"].pk,
    # The public deck verification exists only for an electronic deck (R:E4).
    "event_id": lambda page, world: world["electronic" if page.key == "deck_public" else "event"].pk,
    "app_label": lambda page, world: "raffle",
    "content_type_id": lambda page, world: str(ContentType.objects.get_for_model(Draw).pk),
    "uidb64": lambda page, world: urlsafe_base64_encode(force_bytes(world["users"][roles.SELLER].pk)),
    "token": lambda page, world: default_token_generator.make_token(world["users"][roles.SELLER]),
    "url": lambda page, world: "no-such-page/",
    "sale_id": lambda page, world: world["sale"].pk,
    "video_id": lambda page, world: world["video"].pk,
    "application_id": lambda page, world: world["application"].pk,
    "organisation_id": lambda page, world: world["organisation"].pk,
    "licence_id": lambda page, world: world["licence"].pk,
    "deposit_id": lambda page, world: world["deposit"].pk,
    "prize_id": lambda page, world: world["prize"].pk,
    "report_id": lambda page, world: world["report"].pk,
    "period": lambda page, world: 1,
    "file_format": lambda page, world: "pdf",
}


def url_for(page: Page, world) -> str:
    missing = [k for k in page.kwargs if k not in KWARG_FILLERS]
    assert not missing, f"{page.key}: add a filler for {missing} to KWARG_FILLERS"
    kwargs = {k: KWARG_FILLERS[k](page, world) for k in page.kwargs}
    path = "/" + page.route
    if page.pattern.pattern.regex.pattern.startswith("^") and "(?P<" in page.route:
        for name, value in kwargs.items():  # a regex route: fill its named groups
            path = re.sub(rf"\(\?P<{name}>[^)]*\)", str(value), path, count=1)
        path = path.replace("^", "").replace("$", "")
        return path
    for name, value in kwargs.items():
        path = path.replace(f"<{name}>", str(value))
        for converter in ("int", "path", "str", "slug"):
            path = path.replace(f"<{converter}:{name}>", str(value))
    assert "<" not in path, f"{page.key}: could not fill {path}"
    resolve(path)  # the URL really reaches a view
    return path


LOGIN_PATHS = {reverse("login"), reverse("admin:login")}
TWO_FACTOR_PATHS = {reverse("two_factor_setup"), reverse("two_factor_verify")}


def outcome(response) -> str:
    if response.status_code in (301, 302, 303, 307, 308):
        target = urlsplit(response["Location"]).path
        if target in LOGIN_PATHS:
            return roles.LOGIN
        if target in TWO_FACTOR_PATHS:
            return "two-factor"
        return roles.ALLOWED
    if response.status_code < 300:
        return roles.ALLOWED
    return str(response.status_code)


def sign_in(client, visitor, world):
    client.logout()
    if visitor == ANONYMOUS:
        return
    login_verified(client, world["users"][visitor])


@pytest.fixture
def two_factor_on(settings):
    settings.REQUIRE_2FA_ROLES = [roles.TREASURER, roles.ADMINISTRATOR]


# --- the matrix itself -------------------------------------------------------


def test_every_url_has_a_matrix_row():
    missing = pages_without_a_row(PAGES, MATRIX)
    assert not missing, f"pages without a row in docs/roles.md: {missing}"


def test_a_new_page_without_a_row_is_caught():
    pages = all_pages("tests.urls_with_new_page")
    assert pages_without_a_row(pages, MATRIX) == ["sales_new"]


def test_every_matrix_row_matches_a_url():
    keys = [p.key for p in PAGES]
    stale = [row for row in MATRIX if not any(matrix_row({row: MATRIX[row]}, k) for k in keys)]
    assert not stale, f"rows of docs/roles.md for pages that no longer exist: {stale}"


def test_role_required_views_declare_what_the_matrix_says():
    checked = 0
    for page in PAGES:
        allowed = getattr(page.pattern.callback, "allowed_roles", None)
        if allowed is None:
            continue
        checked += 1
        row = MATRIX[matrix_row(MATRIX, page.key)]
        # A POST-only page (`require_POST` inside `role_required`) gives its roles 405 on a GET.
        opened = roles.METHOD if row[allowed[0]] == roles.METHOD else roles.ALLOWED
        declared = {ANONYMOUS: roles.LOGIN} | {
            role: opened if role in allowed else roles.FORBIDDEN for role in roles.ALL_ROLES
        }
        assert row == declared, f"{page.key}: the view allows {allowed}, docs/roles.md says {row}"
    # `checked` may be 0 on a branch without staff pages; the behaviour test still covers them.


# Record pages: their URL names one record (a draw, a sale, an admin row...).
RECORD_KWARGS = {
    "event_id",
    "draw_id",
    "sale_id",
    "video_id",
    "application_id",
    "organisation_id",
    "licence_id",
    "deposit_id",
    "prize_id",
    "report_id",
    "object_id",
    "id",
}


def points_at_a_record_of_an_organisation(page: Page) -> bool:
    if not set(page.kwargs) & RECORD_KWARGS:
        return False
    if not page.key.startswith("admin"):
        return True
    if not page.key.startswith("admin:"):  # the admin's old links redirect to the record, whoever asks
        return False
    model = _admin_model(page)
    return model is not None and belongs_to_an_organisation(model)


def across_organisations(page: Page, visitor: str) -> set[str]:
    """What a person of another organisation gets on this page of the first's
    records (#15): a record page they could open at home is a 404, never a 403
    that confirms the record exists; one their role may not open stays refused
    (403, or the 404 of a record they cannot see at all); public pages and
    pages without a record are as the matrix says."""
    expected = MATRIX[matrix_row(MATRIX, page.key)][visitor]
    if visitor == ANONYMOUS or not points_at_a_record_of_an_organisation(page):
        return {expected}
    if MATRIX[matrix_row(MATRIX, page.key)][ANONYMOUS] == roles.ALLOWED:  # public: the same for everyone
        return {expected}
    if expected == roles.ALLOWED:
        return {roles.NOT_FOUND}
    if expected == roles.FORBIDDEN:
        return {roles.FORBIDDEN, roles.NOT_FOUND}
    return {expected}


@pytest.mark.django_db
def test_every_url_as_every_role_of_each_of_two_organisations_both_ways(client, world, other_world, two_factor_on):
    """#15 every URL, as every role of each organisation and anonymously: on
    their own organisation's records as the matrix says, on the other's a 404
    wherever the matrix would open the record."""
    wrong = []
    for mine, theirs, who in ((world, other_world, "lions"), (other_world, world, "hospice")):
        for visitor in MATRIX_COLUMNS:
            sign_in(client, visitor, mine)
            for page in PAGES:
                expected = MATRIX[matrix_row(MATRIX, page.key)][visitor]
                got = outcome(client.get(url_for(page, mine)))
                if got != expected:
                    wrong.append(f"{page.key} as {who} {visitor} on their own: expected {expected}, got {got}")
                got = outcome(client.get(url_for(page, theirs)))
                if got not in across_organisations(page, visitor):
                    wrong.append(
                        f"{page.key} as {who} {visitor} on the other's: expected "
                        f"{' or '.join(sorted(across_organisations(page, visitor)))}, got {got}"
                    )
                if page.key in ("logout", "admin:logout"):
                    sign_in(client, visitor, mine)
    assert not wrong, "\n".join(wrong)


def test_the_two_organisations_test_sees_record_pages_of_each_kind():
    """The two-organisation test checks 404s on the pages that matter (a test
    that found no record page would pass for nothing)."""
    keys = {p.key for p in PAGES if points_at_a_record_of_an_organisation(p)}
    assert {
        "event_dashboard",
        "sale_detail",
        "draw_night",
        "admin:raffle_draw_change",
        "admin:auth_user_change",
    } <= keys
    assert not keys & {"home", "admin:auth_group_change", "admin:index"}


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.TREASURER, roles.ADMINISTRATOR])
def test_treasurer_and_administrator_must_enter_a_code_before_any_signed_in_page(client, world, two_factor_on, role):
    client.force_login(world["users"][role])  # password only: no code yet
    wrong = []
    for page in PAGES:
        expected = MATRIX[matrix_row(MATRIX, page.key)][role]
        got = outcome(client.get(url_for(page, world)))
        view_name = resolve(url_for(page, world)).view_name
        if view_name in ("two_factor_setup", "two_factor_verify"):
            if got not in (expected, "two-factor"):  # setup sends an enrolled user to verify
                wrong.append(f"{page.key}: expected {expected} or the code page, got {got}")
        elif view_name in _exempt():
            if got != expected:
                wrong.append(f"{page.key}: exempt page, expected {expected}, got {got}")
        elif expected != roles.LOGIN and got != "two-factor":
            wrong.append(f"{page.key}: expected the two-factor page, got {got}")
        if page.key in ("logout", "admin:logout"):
            client.force_login(world["users"][role])
    assert not wrong, "\n".join(wrong)


def _exempt():
    from core.twofactor import EXEMPT_URL_NAMES

    return EXEMPT_URL_NAMES


# --- POSTs change nothing they may not change ------------------------------

SIGN_IN_ACTIONS = ["core.user.login", "core.user.logout", "core.user.login_failed"]


def snapshot(world, *, except_user=None) -> list:
    """Every business row (our apps, users, groups and their memberships and
    permissions, the admin log, other people's authenticators), as tuples.
    `last_login` moves when a test signs in."""
    from django.apps import apps
    from django.contrib.admin.models import LogEntry
    from django.contrib.auth.models import Group, User
    from django_otp.plugins.otp_totp.models import TOTPDevice

    from core.models import AuditCheckpoint, AuditEntry

    # The audit page's verification checkpoint is where the last check stopped, not a record.
    models = [
        m
        for label in roles.OUR_APPS
        for m in apps.get_app_config(label).get_models()
        if m not in (AuditEntry, AuditCheckpoint)
    ]
    models += [Group, LogEntry, User.groups.through, User.user_permissions.through, Group.permissions.through]
    rows = [list(m._default_manager.order_by("pk").values_list()) for m in models]
    # The audit trail records every sign-in and sign-out (R:D7): those are not business changes.
    entries = AuditEntry.objects.exclude(action__in=SIGN_IN_ACTIONS)
    if except_user is not None:  # nor is the trail's entry of that enrolment
        entries = entries.exclude(action__startswith="core.two_factor.", object_id=str(except_user.pk))
    rows.append(list(entries.order_by("pk").values_list()))
    rows.append(
        list(
            User.objects.order_by("pk")
            .defer("last_login")
            .values_list(*[f.attname for f in User._meta.concrete_fields if f.name != "last_login"])
        )
    )
    devices = TOTPDevice.objects.order_by("pk")
    if except_user is not None:  # enrolling one's own authenticator is not a business change
        devices = devices.exclude(user=except_user)
    rows.append(list(devices.values_list()))
    return rows


def hostile_posts(page: Page, world, *, each_action=True) -> list[dict]:
    """What someone trying to change things would send to this page: every
    admin action on every row, a delete confirmation, a full draw step, a
    new licence or user, each with a fresh one-time token (core.once) so the
    page's own role check, not a missing token, is what turns it away."""
    destroyer, verifier = world["members"]
    base = factories.once() | {
        "ticket_sales": "999.00",
        "serial": "T00001",
        "winner_name": "Mallory",
        "envelope_number": "7",
        "card": "AS",
        "card_again": "AS",
        "ace_confirmed": "on",
        "destroyed_by": destroyer.pk,
        "verified_by": verifier.pk,
        "post": "yes",
        "name": "Changed by a POST",
        "number": "RAF-EVIL",
        "full_name": "Mallory",
        "username": "mallory",
        "password1": "a-long-new-password-99",
        "password2": "a-long-new-password-99",
        "is_superuser": "on",
        "is_staff": "on",
        "confirmed": "on",
        "token": "123456",
        "new_password1": "a-long-new-password-99",
        "new_password2": "a-long-new-password-99",
    }
    model = _admin_model(page)
    if model is None or not page.key.endswith("_changelist") or not each_action:
        return [base]
    model_admin = admin.site._registry[model]
    ids = [str(pk) for pk in model._default_manager.values_list("pk", flat=True)]
    names = {action.name for action in model_admin._get_base_actions()} | set(model_admin.actions or [])
    names = {n if isinstance(n, str) else n.__name__ for n in names}
    return [base | {"action": name, "index": "0", "_selected_action": ids} for name in sorted(names)]


@pytest.mark.django_db
def test_an_auditors_post_anywhere_changes_nothing(client, world, two_factor_on):
    auditor = world["users"][roles.AUDITOR]
    before = snapshot(world, except_user=auditor)
    changed = []
    for page in PAGES:
        for data in hostile_posts(page, world):
            sign_in(client, roles.AUDITOR, world)
            client.post(url_for(page, world), data)
            after = snapshot(world, except_user=auditor)
            if after != before:
                changed.append(f"{page.key} {data.get('action', '')}")
                before = after
    assert not changed, f"an auditor changed records through: {changed}"


@pytest.mark.django_db
@pytest.mark.parametrize("visitor", [ANONYMOUS, roles.SELLER, roles.DRAW_STAFF, roles.TREASURER])
def test_a_post_to_a_page_the_visitor_may_not_open_changes_nothing(client, world, two_factor_on, visitor):
    sign_in(client, visitor, world)  # a first sign-in may enrol the test authenticator
    before = snapshot(world)
    changed = []
    for page in PAGES:
        if MATRIX[matrix_row(MATRIX, page.key)][visitor] not in (roles.FORBIDDEN, roles.LOGIN):
            continue
        # Without records access the admin turns a POST away before any action.
        for data in hostile_posts(page, world, each_action=visitor in roles.STAFF_ROLES):
            sign_in(client, visitor, world)
            response = client.post(url_for(page, world), data)
            after = snapshot(world)
            if after != before:
                changed.append(f"{page.key} {data.get('action', '')} -> {response.status_code}")
                before = after
    assert not changed, f"{visitor} changed records through: {changed}"
