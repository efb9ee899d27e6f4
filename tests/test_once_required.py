"""One sale per click (#15), the other half: the one-time token is REQUIRED.
A form that creates money or tickets sent without its token (or with one
from a page more than a day old) is refused with a message that says what to
do, and nothing is recorded; the records of used tokens are purged after a
day by `purge_submissions`, which can then never let an old page be sent
again to make a second sale."""

import datetime
import inspect
import io
import time
from unittest import mock

import pytest
from django.contrib.auth.models import Group
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone

from core import once, roles
from core.models import AuditEntry, Submission
from licensing.models import BonaFideMember, Deposit, Expense, SalesChannel
from raffle import services
from raffle.models import Sale, TicketRoll
from tests.factories import UserFactory, event_with_closed_draws, trust_account_for
from tests.test_once import sale_form, selling_draw

REFUSED = "without a valid one-time code"
TODAY = timezone.localdate()


@pytest.fixture
def world(db):
    """A treasurer who also runs draws, an event with four closed draws, its
    trust account with a deposit, an unclaimed prize, an issued report, a
    draw selling electronically and a draw selling paper rolls with one roll out."""
    user = UserFactory(username="terry")
    user.groups.add(*Group.objects.filter(name__in=[roles.TREASURER, roles.DRAW_STAFF]))
    event, draws = event_with_closed_draws(["500.00", "400.00", "300.00", "200.00"], actor=user)
    account = trust_account_for(event, actor=user)
    deposit = services.deposit_record_for_draws(
        actor=user, account=account, slip_number="DS-1", deposited_on=TODAY, amount="100.00"
    )
    unclaimed = services.prize_mark_unclaimed(actor=user, draw=draws[0])
    issued = services.event_report_issue(actor=user, event=event, kind="four_draw", file_format="pdf", period=1)
    rolls = selling_draw(SalesChannel.PAPER_ROLL)
    roll = services.roll_issue(actor=user, draw=rolls, seller_name="Jo", first_serial=1, last_serial=100, kind="roll")
    officers = list(BonaFideMember.objects.filter(organisation=event.licence.organisation).values_list("pk", flat=True))
    return {
        "user": user,
        "event": event,
        "draws": draws,
        "deposit": deposit,
        "unclaimed": unclaimed,
        "issued": issued,
        "selling": selling_draw(),
        "rolls": rolls,
        "roll": roll,
        "officers": officers[:2],
    }


def _file(name, content=b"png-bytes"):
    return SimpleUploadedFile(name, content)


# Every form that creates money or tickets: (URL name, its arguments, a form
# the page would accept, but without its token). The last test below proves
# the list is complete.
FORMS = {
    "sales_sell": (lambda w: [w["selling"].pk], lambda w: {k: v for k, v in sale_form("").items() if k != "once"}),
    "sales_rolls": (
        lambda w: [w["rolls"].pk],
        lambda w: {"action": "issue", "seller_name": "Kim", "first_serial": 101, "last_serial": 200},
    ),
    "sales_rolls return": (
        lambda w: [w["rolls"].pk],
        lambda w: {"action": "return", "roll": w["roll"].pk, "first_unsold": 11, "tier_1": 10},
    ),
    "sales_rolls lost": (
        lambda w: [w["rolls"].pk],
        lambda w: {"action": "lost", "roll": w["roll"].pk, "reason": "Never came back"},
    ),
    "treasury_account_open": (
        lambda w: [w["event"].pk],
        lambda w: {
            "bank_name": "Another Credit Union",
            "account_number": "999",
            "opened_on": TODAY,
            "deposit_within_days": 3,
            "signing_officers": w["officers"],
        },
    ),
    "treasury_account_officers": (lambda w: [w["event"].pk], lambda w: {"signing_officers": w["officers"]}),
    "treasury_deposit_add": (
        lambda w: [w["event"].pk],
        lambda w: {"slip_number": "DS-2", "deposited_on": TODAY, "amount": "50.00", "slip_scan": _file("slip.png")},
    ),
    "treasury_deposit_cover": (
        lambda w: [w["event"].pk, w["deposit"].pk],
        lambda w: {"draw": w["draws"][1].pk, "amount": "100.00"},
    ),
    "treasury_deduction_add": (
        lambda w: [w["event"].pk],
        lambda w: {
            "category": "bank_charge",
            "paid_on": TODAY,
            "amount": "4.95",
            "payee": "Kawartha Credit Union",
            "description": "Monthly fee",
            "evidence_reference": "Statement line SERVICE CHARGE",
        },
    ),
    "treasury_interest_add": (
        lambda w: [w["event"].pk],
        lambda w: {"credited_on": TODAY, "amount": "0.42", "evidence_reference": "Statement line INTEREST"},
    ),
    "treasury_statement_import": (
        lambda w: [w["event"].pk],
        lambda w: {"statement": _file("statement.csv", f"Date,Description,Amount,Balance\n{TODAY},DEP,1,1\n".encode())},
    ),
    "treasury_prize_pay": (
        lambda w: [w["event"].pk],
        lambda w: {
            "draw": w["draws"][1].pk,
            "kind": "draw_prize",
            "payee": "A. MacLeod",
            "method": "cheque",
            "reference": "1001",
            "paid_on": TODAY,
            "cheque_image": _file("cheque.png"),
        },
    ),
    "treasury_prize_unclaimed": (lambda w: [w["event"].pk], lambda w: {"draw": w["draws"][2].pk, "kind": "draw_prize"}),
    "treasury_prize_attempt": (
        lambda w: [w["event"].pk, w["unclaimed"].pk],
        lambda w: {"attempted_on": TODAY, "means": "telephone", "outcome": "No answer"},
    ),
    "treasury_publication_add": (
        lambda w: [w["event"].pk],
        lambda w: {"draw": w["draws"][1].pk, "published_on": TODAY, "where": "Community board"},
    ),
    "treasury_use_add": (
        lambda w: [w["event"].pk],
        lambda w: {"description": "Food hampers", "approved_on": TODAY},
    ),
    "treasury_expense_add": (
        lambda w: [w["event"].pk],
        lambda w: {
            "kind": "expense",
            "paid_on": TODAY,
            "amount": "100",
            "payee": "Printer",
            "description": "Tickets",
            "reference": "CHQ 1",
        },
    ),
    "treasury_donated_add": (
        lambda w: [w["event"].pk],
        lambda w: {"description": "A quilt", "donor": "The guild", "value": "150.00", "received_on": TODAY},
    ),
    "treasury_report_return": (
        lambda w: [w["event"].pk, w["issued"].pk],
        lambda w: {"returned_on": TODAY, "returned_by": "J. Morin, AGCO", "reasons": "Slip not legible"},
    ),
}


def _recorded():
    """What any of these forms would change: every service writes an audit
    entry in the same transaction as its rows; the rows themselves as well."""
    return (
        AuditEntry.objects.count(),
        Submission.objects.count(),
        Sale.objects.count(),
        TicketRoll.objects.count(),
        Deposit.objects.count(),
        Expense.objects.count(),
    )


def _post_refused(client, world, key, token):
    args, data = FORMS[key]
    form = data(world)
    if token == "malformed":
        form[once.FIELD] = "not a token"
    elif token == "a day old":
        form[once.FIELD] = once.new_token(now=time.time() - once.TOKEN_LIFETIME.total_seconds() - 5)
    client.force_login(world["user"])
    url = reverse(key.split()[0], args=args(world))
    before = _recorded()
    response = client.post(url, form, follow=True)
    assert response.status_code == 200
    assert REFUSED in response.text and "Reload the page and send the form again" in response.text
    assert _recorded() == before


@pytest.mark.parametrize("key", sorted(FORMS))
def test_a_form_that_creates_money_or_tickets_is_refused_without_its_token_and_records_nothing(
    client, world, key
):  # R:T3 R:T11
    _post_refused(client, world, key, "missing")


@pytest.mark.parametrize("key", ["sales_sell", "sales_rolls", "treasury_expense_add"])
@pytest.mark.parametrize("token", ["malformed", "a day old"])
def test_a_malformed_token_or_one_from_a_page_a_day_old_is_refused_the_same_way(client, world, key, token):  # R:T3
    _post_refused(client, world, key, token)


@pytest.mark.parametrize("key", ["sales_sell", "treasury_use_add", "treasury_deposit_add"])
def test_the_same_form_with_a_fresh_token_is_recorded(client, world, key):
    """The forms above are ones the page accepts: only the token was missing."""
    args, data = FORMS[key]
    client.force_login(world["user"])
    before = _recorded()
    response = client.post(reverse(key, args=args(world)), {**data(world), once.FIELD: once.new_token()}, follow=True)
    assert REFUSED not in response.text
    assert _recorded()[0] > before[0]


def test_a_token_says_when_its_page_was_made_and_is_good_for_a_day():
    now = time.time()
    assert once.token_is_fresh(once.new_token(now=now), now=now + once.TOKEN_LIFETIME.total_seconds() - 1)
    assert not once.token_is_fresh(once.new_token(now=now), now=now + once.TOKEN_LIFETIME.total_seconds() + 1)
    assert not once.token_is_fresh(once.new_token(now=now + 3600), now=now)  # made "in the future"
    for bad in ["", "short", "zz-" + "a" * 30, "a" * 40, "-" + "a" * 30, "1\n-" + "a" * 30]:
        assert not once.token_is_fresh(bad, now=now), bad


def _views_that_use_tokens() -> set[str]:
    """URL names whose view sends its form through core.once."""
    found = set()

    def walk(patterns):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                walk(pattern.url_patterns)
            elif isinstance(pattern, URLPattern) and pattern.name:
                view = inspect.unwrap(pattern.callback)
                source = inspect.getsource(view) if inspect.isfunction(view) else ""
                if "write_and_back(" in source or "once." in source or "_rolls_page(" in source:
                    found.add(pattern.name)

    walk(get_resolver().url_patterns)
    return found


def test_every_view_that_uses_a_token_is_in_the_list_above():
    assert _views_that_use_tokens() == {key.split()[0] for key in FORMS}


# --- purging the records of used tokens ---------------------------------------------


@pytest.mark.django_db
def test_purge_submissions_removes_only_the_records_older_than_a_day():
    user = UserFactory()
    old = Submission.objects.create(token=once.new_token(), user=user, result="/a/")
    recent = Submission.objects.create(token=once.new_token(), user=user, result="/b/")
    Submission.objects.filter(pk=old.pk).update(made_at=timezone.now() - datetime.timedelta(hours=25))
    Submission.objects.filter(pk=recent.pk).update(made_at=timezone.now() - datetime.timedelta(hours=23))
    out = io.StringIO()
    call_command("purge_submissions", stdout=out)
    assert "1 used form token(s) older than 24 hours removed." in out.getvalue()
    assert list(Submission.objects.values_list("pk", flat=True)) == [recent.pk]


@pytest.mark.django_db
def test_after_the_purge_the_old_page_sent_again_still_sells_nothing_twice(client):  # R:T3
    """The record of a used token goes after a day, and so does the token:
    the old page sent again is refused, not sold a second time."""
    draw = selling_draw()
    seller = UserFactory(username="sally")
    seller.groups.add(Group.objects.get(name=roles.SELLER))
    client.force_login(seller)
    url = reverse("sales_sell", args=[draw.pk])
    made = time.time() - 2 * 3600
    form = sale_form(once.new_token(now=made))
    assert client.post(url, form).status_code == 302
    Submission.objects.update(made_at=timezone.now() - datetime.timedelta(days=1, minutes=1))
    assert once.purge_used_tokens() == 1
    later = made + once.TOKEN_LIFETIME.total_seconds() + 60
    with mock.patch("core.once.time.time", return_value=later):
        again = client.post(url, form, follow=True)
    assert REFUSED in again.text
    assert Sale.objects.filter(draw=draw).count() == 1
