"""Test data. Factories build plain rows; `event_with_draw` goes through the
real set-up service so an event always has its 52 envelopes and draw 1."""

import datetime
from decimal import Decimal

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from licensing.models import AuthorityKind, BonaFideMember, Licence, Organisation, SalesChannel
from raffle import services
from raffle.models import DrawState

PASSWORD = "a-long-test-password-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class OrganisationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Organisation

    name = factory.Sequence(lambda n: f"Lakeshore Lions Club {n}")
    charity_registration_number = factory.Sequence(lambda n: f"{100000000 + n}RR0001")
    city = "Kingston"


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BonaFideMember

    organisation = factory.SubFactory(OrganisationFactory)
    user = factory.SubFactory(UserFactory)
    full_name = factory.Faker("name")
    is_in_charge = False


class LicenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Licence

    number = factory.Sequence(lambda n: f"RAF-{1000 + n}")
    organisation = factory.SubFactory(OrganisationFactory)
    authority_kind = AuthorityKind.AGCO
    authority_name = "AGCO"
    sales_channel = SalesChannel.PAPER_STUB
    prize_board = Decimal("1000000.00")
    fee_rate_percent = Decimal("1.00")
    issued_on = factory.LazyFunction(lambda: timezone.localdate() - datetime.timedelta(days=10))
    expires_on = factory.LazyFunction(lambda: timezone.localdate() + datetime.timedelta(days=355))


def event_with_draw(*, actor=None, licence=None, **event_kwargs):
    licence = licence or LicenceFactory()
    event_kwargs.setdefault("name", "Test Catch the Ace")
    event_kwargs.setdefault("first_draw_at", timezone.now() + datetime.timedelta(days=1))
    return services.event_setup(actor=actor, licence=licence, **event_kwargs)


def members_for(event):
    """A member who destroys cards and a member in charge who verifies."""
    organisation = event.licence.organisation
    return (
        MemberFactory(organisation=organisation, full_name="Dana Destroyer"),
        MemberFactory(organisation=organisation, full_name="Vic Verifier", is_in_charge=True),
    )


def run_draw(draw, *, actor, sales="100.00", envelope=None, card=None, until=DrawState.CLOSED,
             destroyer=None, verifier=None):
    """Walk one draw through its steps up to `until` with the real services.

    Without `envelope`/`card`, picks the lowest sealed envelope and the first
    card of the deck not yet seen that is not the Ace of Spades.
    """
    from raffle.cards import ACE_OF_SPADES, DECK
    from raffle.models import Draw

    event = draw.event
    steps = [
        (DrawState.SELLING, lambda d: services.draw_open_sales(actor=actor, draw=d)),
        (DrawState.SALES_CLOSED, lambda d: services.draw_close_sales(actor=actor, draw=d, ticket_sales=sales)),
        (DrawState.ANNOUNCED, lambda d: services.draw_announce(actor=actor, draw=d)),
        (DrawState.TICKET_DRAWN, lambda d: services.draw_record_winning_ticket(
            actor=actor, draw=d, serial=f"T{d.number:05d}")),
        (DrawState.ENVELOPE_CHOSEN, lambda d: services.draw_choose_envelope(
            actor=actor, draw=d,
            envelope_number=envelope or event.envelopes.filter(opened_at__isnull=True).first().number)),
        (DrawState.CARD_REVEALED, lambda d: services.draw_reveal_card(
            actor=actor, draw=d,
            card=card or next(c for c in DECK if c != ACE_OF_SPADES
                              and not event.envelopes.filter(card=c).exists()))),
    ]
    order = list(DrawState.values)
    for state, step in steps:
        draw = Draw.objects.get(pk=draw.pk)
        if order.index(draw.state) >= order.index(state):
            continue  # already past this step
        if order.index(state) > order.index(until):
            break
        step(draw)
    draw = Draw.objects.get(pk=draw.pk)
    if until == DrawState.CLOSED:
        if draw.is_ace:
            return services.draw_award_jackpot(actor=actor, draw=draw)
        if destroyer is None or verifier is None:
            destroyer, verifier = members_for(event)
        return services.draw_roll_over(actor=actor, draw=draw, destroyed_by=destroyer, verified_by=verifier)
    return draw


def user_with_role(role: str, **kwargs):
    """A user holding one role as the project gives it: the group, and the
    admin ("records") for every role but the seller."""
    from django.contrib.auth.models import Group

    from core.roles import STAFF_ROLES

    kwargs.setdefault("is_staff", role in STAFF_ROLES)
    user = UserFactory(**kwargs)
    user.groups.add(Group.objects.get(name=role))
    return user


def login_verified(client, user):
    """Sign `user` in on the test `client` with a session that has passed
    two-factor (as after entering a TOTP code); returns the device used.
    Use it where `REQUIRE_2FA_ROLES` is on (tests/test_url_matrix.py)."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    client.force_login(user)
    device = (TOTPDevice.objects.filter(user=user, confirmed=True).first()
              or TOTPDevice.objects.create(user=user, name="Test authenticator", confirmed=True))
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device
