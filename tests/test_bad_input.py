"""Bad input on every form gets a clear message and changes nothing; text is
escaped wherever it is shown, PDFs included; formulas in names never reach a
spreadsheet as formulas."""

import inspect

import pytest
from django import forms
from django.contrib import admin
from django.contrib.messages import get_messages
from django.test import RequestFactory
from django.urls import reverse

from core import roles
from core.csvsafe import csv_text
from core.pdf import pdf_text, render_pdf
from core.twofactor import TokenForm
from licensing.models import BonaFideMember
from raffle import forms as raffle_forms
from raffle import services
from raffle.forms import drawnight as drawnight_forms
from raffle.forms import rules as rules_forms
from raffle.models import Draw, DrawState, Ticket
from tests.factories import event_with_draw, login_verified, run_draw, user_with_role

SCRIPT = '<script>alert("ace")</script>'
REQUIRED = "This field is required."


def all_plain_forms():
    """Every form class of the project's pages (the draw steps, two-factor)."""
    found = [
        cls
        for module in (drawnight_forms, rules_forms)
        for _, cls in inspect.getmembers(module, inspect.isclass)
        if issubclass(cls, forms.Form) and cls.__module__ == module.__name__
    ]
    return [*found, TokenForm]


def build(form_class, data):
    if form_class is raffle_forms.DestructionForm:
        return form_class(data, members=BonaFideMember.objects.all())
    return form_class(data)


@pytest.mark.django_db
@pytest.mark.parametrize("form_class", all_plain_forms(), ids=lambda c: c.__name__)
def test_every_form_refuses_empty_and_too_long_input_by_field(form_class):
    form = build(form_class, {})
    for name, field in form.fields.items():
        if field.required:
            assert not form.is_valid()
            assert form.errors[name] == [REQUIRED], name
    for name, field in form.fields.items():
        max_length = getattr(field, "max_length", None)
        if max_length:
            long_form = build(form_class, {name: "7" * (max_length + 1)})
            long_form.is_valid()
            assert any("Ensure this value has at most" in e for e in long_form.errors[name]), name


@pytest.mark.django_db
def test_member_choice_of_the_wrong_type_is_refused():
    form = build(raffle_forms.DestructionForm, {"destroyed_by": "abc", "verified_by": "<b>1</b>"})
    assert not form.is_valid()
    assert "Select a valid choice" in form.errors["destroyed_by"][0]
    assert "Select a valid choice" in form.errors["verified_by"][0]


# --- the draw step page: wrong values are refused with a message, nothing changes ----


@pytest.fixture
def staff_client(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    user = user_with_role(roles.DRAW_STAFF)
    client.force_login(user)
    client.user = user
    return client


def post_step(client, draw, data):
    response = client.post(reverse("admin:raffle_draw_step", args=[draw.pk]), data, follow=True)
    return response, [str(m) for m in get_messages(response.wsgi_request)] or [
        str(e)
        for errors in (
            response.context.get("form").errors.values() if response.context and response.context.get("form") else []
        )
        for e in errors
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("until", "data"),
    [
        (DrawState.SELLING, {"ticket_sales": "twelve dollars"}),
        (DrawState.SELLING, {"ticket_sales": "-50.00"}),
        (DrawState.SELLING, {"ticket_sales": "1e9999"}),
        (DrawState.SELLING, {"ticket_sales": "NaN"}),
        (DrawState.SELLING, {"ticket_sales": "12.345"}),
        (DrawState.TICKET_DRAWN, {"envelope_number": "seven"}),
        (DrawState.TICKET_DRAWN, {"envelope_number": "53"}),
        (DrawState.TICKET_DRAWN, {"envelope_number": "0"}),
        (DrawState.ENVELOPE_CHOSEN, {"card": "ZZ"}),
        (DrawState.ENVELOPE_CHOSEN, {"card": SCRIPT[:20]}),
        (DrawState.CARD_REVEALED, {"destroyed_by": "abc", "verified_by": ""}),
    ],
)
def test_wrong_values_in_a_draw_step_get_a_clear_message_and_change_nothing(staff_client, until, data):
    event = event_with_draw(actor=staff_client.user)
    draw = run_draw(
        event.draws.get(number=1),
        actor=staff_client.user,
        until=until,
        card="2H" if until == DrawState.CARD_REVEALED else None,
    )
    before = Draw.objects.get(pk=draw.pk)
    response, shown = post_step(staff_client, draw, data)
    assert response.status_code == 200
    assert shown and all(len(message) > 10 for message in shown), shown
    after = Draw.objects.get(pk=draw.pk)
    assert (after.state, after.ticket_sales, after.envelope_id) == (
        before.state,
        before.ticket_sales,
        before.envelope_id,
    )


# --- the records' forms (admin) --------------------------------------------------


def admin_forms_an_administrator_can_add():
    return [model for model, model_admin in admin.site._registry.items() if model._meta.app_label in roles.OUR_APPS]


@pytest.mark.django_db
@pytest.mark.parametrize("model", admin_forms_an_administrator_can_add(), ids=lambda m: m._meta.label)
def test_every_admin_add_form_refuses_empty_too_long_and_wrong_type_input(model):
    administrator = user_with_role(roles.ADMINISTRATOR)
    request = RequestFactory().get("/")
    request.user = administrator
    model_admin = admin.site._registry[model]
    if not model_admin.has_add_permission(request):
        # Made by the services only: the records offer no form to get wrong.
        assert admin.site._registry[model].has_add_permission(request) is False
        return
    form_class = model_admin.get_form(request, None)
    empty = form_class({})
    assert not empty.is_valid()
    for name, field in empty.fields.items():
        if field.required:
            assert REQUIRED in empty.errors[name], name
    wrong = {}
    for name, field in empty.fields.items():
        if isinstance(field, forms.CharField) and field.max_length:
            wrong[name] = "x" * (field.max_length + 1)
        elif isinstance(field, (forms.DecimalField, forms.IntegerField)):
            wrong[name] = "a lot"
        elif isinstance(field, forms.DateField):
            wrong[name] = "31/02/2026"
        elif isinstance(field, forms.ModelChoiceField):
            wrong[name] = "not-an-id"
    form = form_class(wrong)
    assert not form.is_valid()
    expected = (
        "Ensure this value has at most",
        "Enter a number",
        "Enter a whole number",
        "Enter a valid date",
        "Select a valid choice",
    )
    for name in wrong:
        assert any(e.startswith(expected) for e in form.errors.get(name, [])), (name, form.errors)


# --- escaping: pages, records, PDFs, CSV -------------------------------------------


@pytest.mark.django_db
def test_script_in_names_is_shown_as_text_on_pages_and_in_the_records(client, settings):
    settings.REQUIRE_2FA_ROLES = []
    staff = user_with_role(roles.DRAW_STAFF)
    event = event_with_draw(actor=staff, name=f"Lions {SCRIPT}")
    draw = run_draw(event.draws.get(number=1), actor=staff, until=DrawState.SALES_CLOSED)
    services.draw_announce(actor=staff, draw=draw)
    # A paper draw's winning ticket is a sold ticket of the draw, its serial typed twice (#3).
    serial = Ticket.objects.filter(draw=draw).order_by("seq").values_list("serial", flat=True).first()
    services.draw_record_winning_ticket(
        actor=staff, draw=Draw.objects.get(pk=draw.pk), serial=serial, serial_again=serial, winner_name=SCRIPT
    )
    assert Draw.objects.get(pk=draw.pk).winner_name == SCRIPT
    client.force_login(staff)
    pages = [
        reverse("home"),
        reverse("event_detail", args=[event.pk]),
        reverse("admin:raffle_event_changelist"),
        reverse("admin:raffle_draw_changelist"),
        reverse("admin:raffle_draw_change", args=[draw.pk]),
        reverse("admin:raffle_draw_step", args=[draw.pk]),
        reverse("admin:core_auditentry_changelist"),
    ]
    for url in pages:
        text = client.get(url).text
        assert SCRIPT not in text, url
    assert (
        "&lt;script&gt;alert(&quot;ace&quot;)&lt;/script&gt;"
        in client.get(reverse("event_detail", args=[event.pk])).text
    )


def test_script_in_a_name_is_printed_as_text_in_a_pdf():
    pdf = render_pdf("pdf/test_page.html", {"name": SCRIPT})
    assert SCRIPT in pdf_text(pdf).replace("\n", "")


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x","win")', "+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"])
def test_formulas_in_names_are_written_as_text_in_exports(name):
    line = csv_text(["purchaser"], [[name]]).splitlines()[1]
    assert line.lstrip('"').startswith("'"), line


@pytest.mark.django_db
def test_administrator_sees_html_typed_into_a_licence_as_text(client, settings):
    settings.REQUIRE_2FA_ROLES = [roles.ADMINISTRATOR]
    administrator = user_with_role(roles.ADMINISTRATOR)
    login_verified(client, administrator)
    response = client.post(
        reverse("admin:licensing_organisation_add"),
        {
            "name": SCRIPT,
            "charity_registration_number": "123456789RR0001",
            "province": "ON",
            "contact_name": "<img src=x onerror=alert(1)>",
        },
    )
    assert response.status_code == 302, response.context and response.context["adminform"].form.errors
    changelist = client.get(reverse("admin:licensing_organisation_changelist")).text
    assert SCRIPT not in changelist and "<img src=x" not in changelist
    assert "&lt;script&gt;" in changelist
