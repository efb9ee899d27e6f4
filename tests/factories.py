"""Test data. Factories build plain rows; `event_with_draw` goes through the
real set-up service so an event always has its 52 envelopes and draw 1."""

import contextlib
import datetime
from decimal import Decimal
from unittest import mock

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from licensing.models import (
    AuthorityKind,
    BonaFideMember,
    CharitablePurpose,
    Eligibility,
    Licence,
    Organisation,
    SalesChannel,
)
from raffle import services
from raffle.models import DrawState

PASSWORD = "a-long-test-password-42"
# R:L13 the date of birth of an adult member or signer; a test of a minor gives its own.
ADULT_BIRTHDAY = datetime.date(1980, 4, 12)
# Both members sign a card destruction with their own password (R:E3).
SIGNATURES = {"destroyer_password": PASSWORD, "verifier_password": PASSWORD}


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
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Lakeshore Lions Club {n}")
    charity_registration_number = factory.Sequence(lambda n: f"{100000000 + n}RR0001")
    city = "Kingston"

    @factory.post_generation
    def eligible(obj, create, extracted, **kwargs):
        """Organisations are eligible (R:L1) unless made with `eligible=False`."""
        if create and extracted is not False:
            EligibilityFactory(organisation=obj)


class EligibilityFactory(factory.django.DjangoModelFactory):
    """An L1 assessment that passes: non-profit in Ontario, three years of
    community work, each with its evidence."""

    class Meta:
        model = Eligibility
        django_get_or_create = ["organisation"]

    organisation = factory.SubFactory(OrganisationFactory, eligible=False)
    is_non_profit = True
    non_profit_evidence = "Letters patent no. 1234567 (Ontario, 2015)"
    located_in_ontario = True
    location_evidence = "Head office: 12 King Street, Kingston, Ontario"
    charitable_activity_since = factory.LazyFunction(lambda: timezone.localdate() - datetime.timedelta(days=3 * 365))
    activity_evidence = "Annual reports 2023 to 2025"
    purpose = CharitablePurpose.COMMUNITY
    purpose_description = "Runs the community food bank and youth sports."


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = BonaFideMember

    organisation = factory.SubFactory(OrganisationFactory)
    user = factory.SubFactory(UserFactory)
    full_name = factory.Faker("name")
    date_of_birth = ADULT_BIRTHDAY
    is_in_charge = False


class LicenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Licence

    number = factory.Sequence(lambda n: f"RAF-{1000 + n}")
    organisation = factory.SubFactory(OrganisationFactory)
    authority_kind = AuthorityKind.AGCO
    authority_name = "AGCO"
    sales_channel = SalesChannel.PAPER_ROLL
    prize_board = Decimal("1000000.00")
    fee_rate_percent = Decimal("1.00")
    issued_on = factory.LazyFunction(lambda: timezone.localdate() - datetime.timedelta(days=10))
    expires_on = factory.LazyFunction(lambda: timezone.localdate() + datetime.timedelta(days=355))
    # R:D5 the registered supplier, and the approval that lets this software's own RNG and
    # electronic deck run; a test of the supplier's draw makes its licence with `without_approval()`.
    supplier_name = "Northern Raffle Systems Inc."
    supplier_registration_number = "AGCO-GS-0042"
    supplier_system_name = "RaffleCloud"
    supplier_system_version = "5.1"
    system_approval_reference = "AGCO approval EL-2026-117"
    system_approval_on = factory.LazyFunction(lambda: timezone.localdate() - datetime.timedelta(days=20))


def without_approval(**kwargs):
    """An electronic licence whose draws the registered supplier's system runs (D5)."""
    kwargs.setdefault("sales_channel", SalesChannel.ONLINE)
    return LicenceFactory(system_approval_reference="", system_approval_on=None, **kwargs)


def event_with_draw(*, actor=None, licence=None, **event_kwargs):
    """An event whose first draw was advertised for an hour ago, so its
    winning ticket may be drawn now (R:D9); `run_draw` runs a later draw on
    its own night (`clock_at`)."""
    licence = licence or LicenceFactory()
    event_kwargs.setdefault("name", "Test Catch the Ace")
    event_kwargs.setdefault("first_draw_at", timezone.now() - datetime.timedelta(hours=1))
    # R:R4 the authority approved the Rules of Play before the first sale.
    event_kwargs.setdefault("rules_approved_on", min(licence.issued_on, timezone.localdate()))
    event_kwargs.setdefault("rules_approval_reference", "RP-TEST-001")
    return services.event_setup(actor=actor, licence=licence, **event_kwargs)


def members_for(event):
    """A member who destroys cards and a member in charge who verifies; both
    sign in with `PASSWORD`."""
    organisation = event.licence.organisation
    return (
        MemberFactory(organisation=organisation, full_name="Dana Destroyer"),
        MemberFactory(organisation=organisation, full_name="Vic Verifier", is_in_charge=True),
    )


def name_members_in_charge(draw, *, actor=None):
    """R:L13 name the draw's two members in charge (adults, in charge of the
    organisation), made if the organisation has fewer than two, as the staff
    do before sales close. Returns the draw."""
    from licensing.services import adults_in_charge

    organisation = draw.event.licence.organisation
    members = list(adults_in_charge(organisation.pk).order_by("pk")[:2])
    while len(members) < 2:
        members.append(
            MemberFactory(organisation=organisation, full_name=f"Chris In-Charge {len(members) + 1}", is_in_charge=True)
        )
    return services.draw_name_members_in_charge(actor=actor, draw=draw, first=members[0], second=members[1])


def _tier_units(event, amount: Decimal) -> list[tuple[int, int]]:
    """(tier quantity, units) worth exactly `amount` with the event's price
    tiers, dearest first; an odd remainder gets a test-only tier of its own."""
    from raffle.models import PriceTier

    lines = []
    for tier in sorted(event.price_tiers.all(), key=lambda t: -t.price):
        units = int(amount // tier.price)
        if units:
            lines.append((tier.quantity, units))
            amount -= tier.price * units
    if amount:
        used = set(event.price_tiers.values_list("quantity", flat=True))
        quantity = next(q for q in range(2, 1000) if q not in used)
        PriceTier.objects.create(event=event, quantity=quantity, price=amount)
        lines.append((quantity, 1))
    return lines


def sell_tickets(draw, *, actor, sales="100.00", envelope_pick=None):
    """Sell real tickets worth `sales` for a selling draw, on the licence's
    channel: a roll issued and returned (roll), a book and stub sales (stub),
    a device import (electronic/online). Returns the sales."""
    from raffle.models import TicketRoll
    from raffle.services import SaleLine

    event = draw.event
    amount = Decimal(str(sales))
    if not amount:
        return []
    lines = _tier_units(event, amount)
    channel = event.licence.sales_channel
    pick = envelope_pick or event.envelopes.filter(opened_at__isnull=True).first().number
    purchaser = {"purchaser_name": "Pat Buyer", "purchaser_contact": "519-555-0100", "envelope_pick": pick}
    count = sum(q * u for q, u in lines)
    start = (
        max(
            TicketRoll.objects.filter(licence=event.licence)
            .order_by("-last_serial")
            .values_list("last_serial", flat=True)
            .first()
            or 100000,
            100000,
        )
        + 1
    )
    if channel == SalesChannel.PAPER_ROLL:
        roll = services.roll_issue(
            actor=actor, draw=draw, seller_name="Sam Seller", first_serial=start, last_serial=start + count + 9
        )
        return services.roll_return(actor=actor, roll=roll, first_unsold=start + count, tier_counts=dict(lines))
    if channel == SalesChannel.PAPER_STUB:
        book = services.roll_issue(
            actor=actor,
            draw=draw,
            seller_name="Sam Seller",
            first_serial=start,
            last_serial=start + count + 9,
            kind="book",
        )
        sold, serial = [], start
        for quantity, units in lines:
            serials = [str(n) for n in range(serial, serial + quantity * units)]
            serial += quantity * units
            sold.append(
                services.ticket_sell(
                    actor=actor, draw=draw, tier_quantity=quantity, units=units, serials=serials, **purchaser
                )
            )
        # R:T7 the seller hands the book back with its unsold stubs before sales close
        services.roll_return(actor=actor, roll=book, first_unsold=serial, tier_counts={})
        return sold
    return services.tickets_import(
        actor=actor,
        draw=draw,
        device="POS-1",
        lines=[SaleLine(tier_quantity=q, units=u, **purchaser) for q, u in lines],
    )


@contextlib.contextmanager
def clock_at(moment: datetime.datetime):
    """The clock of the services (`django.utils.timezone.now`, which
    `timezone.localdate` reads too) set to `moment` and ticking from there:
    a test lives through a draw night a week away without waiting for it."""
    offset = moment - timezone.now()
    real_now = timezone.now
    with mock.patch("django.utils.timezone.now", lambda: real_now() + offset):
        yield


def run_draw(
    draw, *, actor, sales="100.00", envelope=None, card=None, until=DrawState.CLOSED, destroyer=None, verifier=None
):
    """Walk one draw through its steps up to `until` (see `_run_draw`). A
    draw whose winning ticket is to be drawn and whose advertised time is still
    to come is run on its night: the clock is moved to an hour before it for
    the sales and to its time for the ticket (R:D9 no winning ticket is drawn
    before the draw's advertised time)."""
    from raffle.models import DRAW_ORDER, Draw

    draw = Draw.objects.get(pk=draw.pk)
    steps = {"actor": actor, "sales": sales, "envelope": envelope, "card": card}
    steps.update(destroyer=destroyer, verifier=verifier)
    draws_ticket = DRAW_ORDER.index(draw.state) <= DRAW_ORDER.index(DrawState.ANNOUNCED) < DRAW_ORDER.index(until)
    if not draws_ticket or draw.scheduled_at <= timezone.now():
        return _run_draw(draw, until=until, **steps)
    with clock_at(max(timezone.now(), draw.scheduled_at - datetime.timedelta(hours=1))):
        draw = _run_draw(draw, until=DrawState.ANNOUNCED, **steps)
    with clock_at(draw.scheduled_at):
        return _run_draw(draw, until=until, **steps)


def run_draw_on_its_night(draw, **kwargs):
    """`run_draw` with the clock at the draw's advertised time, past or to
    come: the draw is held on its night, as the season it belongs to was."""
    with clock_at(draw.scheduled_at):
        return run_draw(draw, **kwargs)


def _run_draw(
    draw, *, actor, sales="100.00", envelope=None, card=None, until=DrawState.CLOSED, destroyer=None, verifier=None
):
    """Walk one draw through its steps up to `until` with the real services,
    as the staff wizard does: the table's next step (`Draw.next_step`), run
    by `raffle.steps.perform_step` with what its form's fields would hold.

    Sales are real tickets worth `sales` (see `sell_tickets`), sold while the
    draw is selling; the winning ticket is the draw's first ticket typed twice
    (paper) or the RNG's pick. Without `envelope`/`card`, picks the lowest
    sealed envelope and the first card of the deck not yet seen that is not
    the Ace of Spades. A must-go draw stops at its re-draw (R:P7).
    """
    from raffle.cards import ACE_OF_SPADES, DECK
    from raffle.models import DRAW_ORDER, Draw, Ticket
    from raffle.models.draw_steps import step_choices
    from raffle.steps import perform_step

    event = draw.event

    def first_serial(d):
        return Ticket.objects.filter(draw=d, is_void=False).order_by("seq").values_list("serial", flat=True).first()

    def field_value(name, d):
        """What a volunteer would type in the step form's field `name`."""
        nonlocal destroyer, verifier
        if name in ("serial", "serial_again"):
            return first_serial(d)
        if name == "envelope_number":
            return envelope or event.envelopes.filter(opened_at__isnull=True).first().number
        if name in ("card", "card_again"):  # R:E3 typed twice; an electronic deck opens the envelope itself
            if card or event.deck_kind == "electronic":
                return card or ""
            return next(c for c in DECK if c != ACE_OF_SPADES and not event.envelopes.filter(card=c).exists())
        if name == "ace_confirmed":  # R:P4 the volunteer confirms the Ace of Spades they see
            return True
        if name in ("destroyed_by", "verified_by"):
            if destroyer is None or verifier is None:
                destroyer, verifier = members_for(event)
            return destroyer if name == "destroyed_by" else verifier
        if name.endswith("_password"):
            return PASSWORD
        if name == "rng_reference":  # the supplier system's reference of its draw (D5)
            return "RNG-TEST"
        return None

    for _ in DRAW_ORDER:
        draw = Draw.objects.get(pk=draw.pk)
        if draw.state == DrawState.SELLING and not draw.members_in_charge_named:
            draw = name_members_in_charge(draw, actor=actor)  # R:L13 as the staff do once sales are open
        # R:T8 a row the staff choose instead (the holder is not here) is taken when it leads to `until`
        step = next((s for s in step_choices(draw) if s.to == until), None) or draw.next_step
        if step is None or step.to is None or step.back or DRAW_ORDER.index(draw.state) >= DRAW_ORDER.index(until):
            break
        if draw.state == DrawState.SELLING:
            sell_tickets(draw, actor=actor, sales=sales, envelope_pick=envelope)
        perform_step(step, actor=actor, draw=draw, cleaned={name: field_value(name, draw) for name in step.fields})
    return Draw.objects.get(pk=draw.pk)


# Users given a role group without an organisation (user_with_role(role), or
# `user.groups.add(...)` in an older test) work for every organisation of the
# test, the ones that exist and the ones made later: one charity per
# installation, as before organisations. tests/conftest.py keeps this table
# and empties it after each test. A test of two organisations names each
# user's organisation (`user_with_role(role, organisation=...)`).
EVERY_ORGANISATION: dict[int, set[str]] = {}


def works_for_every_organisation(user, roles) -> None:
    from licensing.models import Membership, Organisation

    EVERY_ORGANISATION.setdefault(user.pk, set()).update(roles)
    for organisation in Organisation.objects.all():
        for role in roles:
            Membership.objects.get_or_create(user=user, organisation=organisation, role=role)


def give_role(user, role: str, *, organisation=None):
    """`user` holds `role` in `organisation` (a membership, its group kept in
    step, as `manage.py add_user` does), or in every organisation of the test."""
    from django.contrib.auth.models import Group

    from licensing.models import Membership
    from licensing.services import role_groups_sync

    if organisation is None:
        user.groups.add(Group.objects.get(name=role))  # conftest: every organisation
        return user
    Membership.objects.get_or_create(user=user, organisation=organisation, role=role)
    role_groups_sync(user)
    return user


def user_with_role(role: str, *, organisation=None, **kwargs):
    """A user holding one role as the project gives it: a membership of
    `organisation` (by default: every organisation of the test), the role's
    group, and the admin ("records") for every role but the seller."""
    from core.roles import STAFF_ROLES

    kwargs.setdefault("is_staff", role in STAFF_ROLES)
    return give_role(UserFactory(**kwargs), role, organisation=organisation)


def login_verified(client, user):
    """Sign `user` in on the test `client` with a session that has passed
    two-factor (as after entering a TOTP code); returns the device used.
    Use it where `REQUIRE_2FA_ROLES` is on (tests/test_url_matrix.py)."""
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    client.force_login(user)
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first() or TOTPDevice.objects.create(
        user=user, name="Test authenticator", confirmed=True
    )
    session = client.session
    session[DEVICE_ID_SESSION_KEY] = device.persistent_id
    session.save()
    return device


def event_with_closed_draws(sales, *, actor, licence=None, **event_kwargs):
    """An event whose first draws are closed with these ticket sales, one
    rollover each (no Ace of Spades), each held on its night (R:D9);
    returns (event, closed draws)."""
    from raffle.models import Draw

    event_kwargs.setdefault("first_draw_at", timezone.now() - datetime.timedelta(days=7 * len(sales) + 1))
    if licence is None:
        licence = LicenceFactory(
            issued_on=timezone.localdate(event_kwargs["first_draw_at"]) - datetime.timedelta(days=30)
        )
    event = event_with_draw(actor=actor, licence=licence, **event_kwargs)
    destroyer, verifier = members_for(event)
    draws = []
    for number, amount in enumerate(sales, start=1):
        draw = Draw.objects.get(event=event, number=number)
        draws.append(run_draw_on_its_night(draw, actor=actor, sales=amount, destroyer=destroyer, verifier=verifier))
    event.refresh_from_db()
    return event, draws


def trust_account_for(event, *, actor, **kwargs):
    """A trust account with two signing officers in charge (L12). Their names
    are fixed so that reports, which list the members in charge by name, print
    the same signers on every run."""
    from licensing.services import trust_account_open

    organisation = event.licence.organisation
    officers = [
        MemberFactory(organisation=organisation, full_name=f"Sam Signing Officer {n}", is_in_charge=True)
        for n in (1, 2)
    ]
    kwargs.setdefault("opened_on", event.licence.issued_on)
    return trust_account_open(
        actor=actor,
        licence=event.licence,
        bank_name="Kawartha Credit Union",
        account_number="000123-45",
        signing_officers=officers,
        **kwargs,
    )


def once(form: dict | None = None, **fields) -> dict:
    """A form that creates money or tickets as its page sends it: with a fresh
    one-time token (core.once; a form without one is refused, #15)."""
    from core.once import FIELD, new_token

    return {**(form or {}), **fields, FIELD: new_token()}


def acting_as(role: str = "treasurer") -> list[str]:
    """`--as USERNAME` for a management command that acts for a person (#15):
    someone holding `role` in every organisation of the test."""
    user = get_user_model().objects.filter(username=f"acting-{role}").first()
    if user is None:
        user = user_with_role(role, username=f"acting-{role}")
    return ["--as", user.username]
