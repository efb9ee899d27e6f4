"""Bona fide members who run the lottery (RULES L13): nobody under 18 is named
for anything, a date of birth comes first, and every draw names its two
members in charge before its sales close."""

import datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from core import roles
from core.errors import DomainError
from core.models import AuditEntry
from licensing.admin import BonaFideMemberAdminForm
from licensing.models import BonaFideMember
from licensing.services import member_set_in_charge, trust_account_open
from raffle import services
from raffle.models import CardDestruction, Draw, DrawState, Event
from raffle.reports.builders.common import members_in_charge
from tests.factories import (
    PASSWORD,
    MemberFactory,
    run_draw,
    sell_tickets,
    user_with_role,
)

pytestmark = pytest.mark.django_db


def born_years_ago(years: int, *, days: int = 0) -> datetime.date:
    today = timezone.localdate()
    return today.replace(year=today.year - years) - datetime.timedelta(days=days)


def test_a_14_year_old_cannot_destroy_the_card_nor_a_15_year_old_in_charge_verify_it(draw, staff_user):  # R:L13 R:E3
    """Today's story: the youth club helps at the draw. Jamie (14) destroys
    the card and Alex (15), recorded as "in charge" before the rule, verifies
    it. The system refuses each of them by name, logs nothing, and the draw
    waits at the destruction until two adults sign."""
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    organisation = draw.event.licence.organisation
    jamie = MemberFactory(organisation=organisation, full_name="Jamie Young", date_of_birth=born_years_ago(14))
    alex = MemberFactory(
        organisation=organisation, full_name="Alex Teen", date_of_birth=born_years_ago(15), is_in_charge=True
    )
    adult_destroyer = MemberFactory(organisation=organisation, full_name="Dana Destroyer")
    adult_verifier = MemberFactory(organisation=organisation, full_name="Vic Verifier", is_in_charge=True)
    signatures = {"destroyer_password": PASSWORD, "verifier_password": PASSWORD}

    with pytest.raises(DomainError, match="Jamie Young is under 18, so they cannot destroy the card") as refused:
        services.draw_roll_over(
            actor=staff_user, draw=draw, destroyed_by=jamie, verified_by=adult_verifier, **signatures
        )
    assert refused.value.rule == "L13"
    with pytest.raises(
        DomainError, match="Alex Teen is under 18, so they cannot verify the card's destruction"
    ) as refused:
        services.draw_roll_over(
            actor=staff_user, draw=draw, destroyed_by=adult_destroyer, verified_by=alex, **signatures
        )
    assert refused.value.rule == "L13"
    assert not CardDestruction.objects.exists()
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CARD_REVEALED

    # Two adults sign: the card is destroyed and the log names them.
    services.draw_roll_over(
        actor=staff_user, draw=draw, destroyed_by=adult_destroyer, verified_by=adult_verifier, **signatures
    )
    logged = CardDestruction.objects.get(draw=draw)
    assert (logged.destroyed_by_name, logged.verified_by_name) == ("Dana Destroyer", "Vic Verifier")


def test_a_member_whose_date_of_birth_is_not_recorded_cannot_sign_a_destruction(draw, staff_user):  # R:L13
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    organisation = draw.event.licence.organisation
    unknown = MemberFactory(organisation=organisation, full_name="Pat Unknown", date_of_birth=None)
    verifier = MemberFactory(organisation=organisation, is_in_charge=True)
    with pytest.raises(DomainError, match="Pat Unknown's date of birth is not recorded, so they cannot destroy"):
        services.draw_roll_over(
            actor=staff_user,
            draw=draw,
            destroyed_by=unknown,
            verified_by=verifier,
            destroyer_password=PASSWORD,
            verifier_password=PASSWORD,
        )
    assert not CardDestruction.objects.exists()


def test_a_member_turning_18_today_may_sign_and_one_a_day_short_may_not(draw, staff_user):  # R:L13
    draw = run_draw(draw, actor=staff_user, until=DrawState.CARD_REVEALED)
    organisation = draw.event.licence.organisation
    verifier = MemberFactory(organisation=organisation, is_in_charge=True)
    tomorrow_18 = MemberFactory(organisation=organisation, date_of_birth=born_years_ago(18, days=-1))
    today_18 = MemberFactory(organisation=organisation, date_of_birth=born_years_ago(18))
    kwargs = {"verified_by": verifier, "destroyer_password": PASSWORD, "verifier_password": PASSWORD}
    with pytest.raises(DomainError, match="under 18"):
        services.draw_roll_over(actor=staff_user, draw=draw, destroyed_by=tomorrow_18, **kwargs)
    services.draw_roll_over(actor=staff_user, draw=draw, destroyed_by=today_18, **kwargs)
    assert Draw.objects.get(pk=draw.pk).state == DrawState.CLOSED


def test_nobody_under_18_or_without_a_date_of_birth_is_put_in_charge(staff_user):  # R:L13
    """The administrator puts members in charge from the records: a
    16-year-old is refused in plain words, a member without a date of birth
    too, and the database itself refuses a member in charge without one."""
    sixteen = MemberFactory(full_name="Robin Sixteen", date_of_birth=born_years_ago(16))
    with pytest.raises(DomainError, match="Robin Sixteen is under 18, so they cannot be put in charge"):
        member_set_in_charge(actor=staff_user, member=sixteen)
    assert not BonaFideMember.objects.get(pk=sixteen.pk).is_in_charge

    base = {"organisation": sixteen.organisation.pk, "user": sixteen.user.pk, "is_active": True}
    form = BonaFideMemberAdminForm(
        data={**base, "full_name": "Robin Sixteen", "date_of_birth": born_years_ago(16), "is_in_charge": True},
        instance=sixteen,
    )
    assert not form.is_valid() and "under 18" in str(form.errors)
    form = BonaFideMemberAdminForm(
        data={**base, "full_name": "Robin Sixteen", "date_of_birth": "", "is_in_charge": True}, instance=sixteen
    )
    assert not form.is_valid() and "date of birth is not recorded" in str(form.errors)

    adult = MemberFactory(full_name="Morgan Adult")
    assert member_set_in_charge(actor=staff_user, member=adult).is_in_charge
    assert AuditEntry.objects.filter(action="licensing.member.set_in_charge", object_id=str(adult.pk)).exists()

    with pytest.raises(IntegrityError), transaction.atomic():
        MemberFactory(date_of_birth=None, is_in_charge=True)


def test_a_trust_account_signing_officer_must_be_18_or_over(event, staff_user):  # R:L13 R:L12
    organisation = event.licence.organisation
    adult = MemberFactory(organisation=organisation, is_in_charge=True)
    minor = MemberFactory(organisation=organisation, full_name="Sky Minor", date_of_birth=born_years_ago(17))
    with pytest.raises(DomainError, match="Sky Minor is under 18, so they cannot sign for the lottery trust account"):
        trust_account_open(
            actor=staff_user,
            licence=event.licence,
            bank_name="Kawartha Credit Union",
            account_number="000123-45",
            opened_on=event.licence.issued_on,
            signing_officers=[adult, minor],
        )


def test_the_reports_are_signed_only_by_members_in_charge_aged_18_or_over(event):  # R:L13
    organisation = event.licence.organisation
    MemberFactory(organisation=organisation, full_name="Ann Adult", is_in_charge=True)
    MemberFactory(organisation=organisation, full_name="Alex Teen", is_in_charge=True, date_of_birth=born_years_ago(15))
    assert [m.full_name for m in members_in_charge(event.licence)] == ["Ann Adult"]


def test_sales_cannot_close_until_the_draw_names_its_two_members_in_charge(draw, staff_user):  # R:L13
    """Sales are open and the night's tickets are sold, but nobody has said
    who is in charge of this draw: closing is refused, saying so. Naming a
    15-year-old, a member not in charge or the same person twice is refused;
    two adults in charge are named, and sales close."""
    draw = services.draw_open_sales(actor=staff_user, draw=draw)
    sell_tickets(draw, actor=staff_user, sales="100.00")
    organisation = draw.event.licence.organisation
    lee, kim = (MemberFactory(organisation=organisation, full_name=n, is_in_charge=True) for n in ("Lee", "Kim"))
    with pytest.raises(DomainError, match="Draw 1 has no members in charge yet") as refused:
        services.draw_close_sales(actor=staff_user, draw=draw)
    assert refused.value.rule == "L13"
    assert Draw.objects.get(pk=draw.pk).state == DrawState.SELLING

    teen = MemberFactory(
        organisation=organisation, full_name="Alex Teen", is_in_charge=True, date_of_birth=born_years_ago(15)
    )
    helper = MemberFactory(organisation=organisation, full_name="Hal Helper")
    for first, second, message in [
        (lee, teen, "Alex Teen is under 18, so they cannot be a member in charge of draw 1"),
        (lee, helper, "Hal Helper is not a member in charge of the lottery"),
        (lee, lee, "two different members in charge"),
        (lee, MemberFactory(is_in_charge=True), "active bona fide member of"),
    ]:
        with pytest.raises(DomainError, match=message):
            services.draw_name_members_in_charge(actor=staff_user, draw=draw, first=first, second=second)
    assert not Draw.objects.get(pk=draw.pk).members_in_charge_named

    services.draw_name_members_in_charge(actor=staff_user, draw=draw, first=lee, second=kim)
    draw = services.draw_close_sales(actor=staff_user, draw=draw)
    assert draw.state == DrawState.SALES_CLOSED
    assert (draw.member_in_charge, draw.second_member_in_charge) == (lee, kim)
    # Once sales are closed, the members in charge stay as named.
    with pytest.raises(DomainError, match="Sales of draw 1 are closed"):
        services.draw_name_members_in_charge(actor=staff_user, draw=draw, first=kim, second=lee)


def _setup_event_without_members() -> Event:
    starts = timezone.localdate() + datetime.timedelta(days=10)
    call_command(
        "setup_event",
        "--licence",
        "MUN-RAF-2026-777",
        "--organisation",
        "Harbourview Legion",
        "--authority",
        "municipality",
        "--authority-name",
        "Town of Cobourg",
        "--channel",
        "paper-roll",
        "--prize-board",
        "50000",
        "--ticket-price",
        "5",
        "--starts",
        f"{starts:%Y-%m-%d}",
        "--purpose",
        "community",
        "--active-since",
        "2019-03-01",
        "--non-profit-evidence",
        "Letters patent 1234567",
        "--location-evidence",
        "12 King St, Cobourg ON",
        "--activity-evidence",
        "Annual reports 2019-2025",
        stdout=StringIO(),
    )
    return Event.objects.get(licence__number="MUN-RAF-2026-777")


def test_a_raffle_set_up_without_members_hears_it_at_the_first_step(client, staff_user):  # R:L13
    """A volunteer sets up the raffle with `setup_event` and opens draw 1 in
    the wizard: the very first screen says the draw needs two members in
    charge aged 18 or over and what to do about it, long before any card is
    revealed. Once an administrator has put two adults in charge, the same
    screen names them in two clicks, and the notice goes."""
    event = _setup_event_without_members()
    draw = event.draws.get(number=1)
    client.force_login(user_with_role(roles.DRAW_STAFF))
    url = reverse("draw_night", args=[draw.pk])
    page = client.get(url).content.decode()
    assert "Open ticket sales" in page
    assert "Draw 1 needs two members in charge, aged 18 or over, before its sales close" in page
    assert "Harbourview Legion has 0 recorded" in page

    organisation = event.licence.organisation
    first = MemberFactory(organisation=organisation, full_name="Frances First", is_in_charge=True)
    second = MemberFactory(organisation=organisation, full_name="Sam Second", is_in_charge=True)
    MemberFactory(organisation=organisation, full_name="Alex Teen", date_of_birth=born_years_ago(15))
    page = client.get(url).content.decode()
    assert "Draw 1 has no members in charge yet" in page
    assert "Frances First" in page and "Alex Teen" not in page  # only adults in charge are offered
    response = client.post(
        reverse("draw_members_in_charge", args=[draw.pk]), {"first": first.pk, "second": second.pk}, follow=True
    )
    page = response.content.decode()
    assert "Members in charge of draw 1: Frances First and Sam Second." in page
    assert "no members in charge yet" not in page
    draw.refresh_from_db()
    assert (draw.member_in_charge, draw.second_member_in_charge) == (first, second)


def test_naming_the_members_in_charge_from_the_wizard_refuses_in_plain_words(client, draw, staff_user):  # R:L13
    organisation = draw.event.licence.organisation
    lee = MemberFactory(organisation=organisation, full_name="Lee", is_in_charge=True)
    client.force_login(user_with_role(roles.DRAW_STAFF))
    response = client.post(
        reverse("draw_members_in_charge", args=[draw.pk]), {"first": lee.pk, "second": lee.pk}, follow=True
    )
    assert "two different members in charge; Lee is named twice" in response.content.decode()
    assert not Draw.objects.get(pk=draw.pk).members_in_charge_named


def test_a_licence_application_is_signed_only_by_adults_whose_date_of_birth_is_recorded():  # R:L13
    """The club's president signs the Licence Application with the
    treasurer. The youth representative (16) offered to sign too: refused,
    as is a signer whose date of birth is not given."""
    from licensing.models import ApplicantKind, AuthorityKind, SalesChannel
    from licensing.services import application_add_signer, application_create
    from tests.factories import ADULT_BIRTHDAY, OrganisationFactory

    application = application_create(
        actor=None,
        organisation=OrganisationFactory(),
        applicant_kind=ApplicantKind.FIRST_TIME,
        authority_kind=AuthorityKind.MUNICIPALITY,
        authority_name="Town of Perth",
        sales_channel=SalesChannel.PAPER_ROLL,
        prize_board="50000",
    )
    with pytest.raises(DomainError, match="Jo Youth is under 18, so they cannot sign the Licence Application"):
        application_add_signer(
            actor=None, application=application, name="Jo Youth", title="Youth rep", date_of_birth=born_years_ago(16)
        )
    with pytest.raises(DomainError, match="Ana Roy's date of birth is not recorded"):
        application_add_signer(actor=None, application=application, name="Ana Roy", title="President")
    assert not application.signers.exists()
    signer = application_add_signer(
        actor=None, application=application, name="Ana Roy", title="President", date_of_birth=ADULT_BIRTHDAY
    )
    assert signer.date_of_birth == ADULT_BIRTHDAY
