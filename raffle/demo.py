"""The demo's second raffle, for the seller: electronic tickets sold in person
at the hospice's gift shop, draw 1 selling now (issue 16: the paper-roll
raffle gives a seller nothing to do on their own; rolls are issued and
returned by draw staff). Everything goes through the real services, as in
`load_demo`, which calls it; and `load_demo --reset` starts both over."""

import datetime

from django.utils import timezone

from licensing.models import AuthorityKind, SalesChannel
from licensing.services import licence_create, licence_record_supplier
from raffle import services
from raffle.models import Draw, Event

DEMO_ELECTRONIC_LICENCE = "RAF-2026-0391"
GIFT_SHOP_DEVICE = "Gift shop tablet 1"
# A few sales the seller has already made today: (tier quantity, units, purchaser, contact, envelope pick).
FIRST_SALES = [
    (3, 1, "Anne Gagnon", "519-555-0187", 17),
    (1, 2, "Bill Fraser", "bill.fraser@example.org", 44),
    (10, 1, "Chantal Roy", "519-555-0133", 3),
]


def load_electronic_raffle(*, organisation, admin, seller, today: datetime.date) -> Event:
    """An AGCO licence for electronic in-person sales (D5: its registered
    supplier and the system's approval recorded), its event with draw 1 next
    week, sales open, and the seller's first sales at the gift shop."""
    licence = licence_create(
        actor=admin,
        organisation=organisation,
        number=DEMO_ELECTRONIC_LICENCE,
        authority_kind=AuthorityKind.AGCO,
        authority_name="AGCO",
        sales_channel=SalesChannel.ELECTRONIC,
        prize_board="100000.00",
        issued_on=today - datetime.timedelta(days=3),
        expires_on=today + datetime.timedelta(days=360),
    )
    licence_record_supplier(
        actor=admin,
        licence=licence,
        supplier_name="Northern Raffle Systems Inc.",
        supplier_registration_number="AGCO-GS-0042",
        supplier_system_name="RaffleCloud",
        supplier_system_version="5.1",
        system_approval_reference="AGCO approval EL-2026-117",
        system_approval_on=today - datetime.timedelta(days=3),
    )
    first_draw_day = today + datetime.timedelta(days=6)
    event = services.event_setup(
        actor=admin,
        licence=licence,
        name="Harbourview Hospice Gift Shop Catch the Ace",
        first_draw_at=timezone.make_aware(datetime.datetime.combine(first_draw_day, datetime.time(19, 0))),
        price_tiers=[(1, "5.00"), (3, "10.00"), (10, "20.00")],
        draw_place="Harbourview Hospice gift shop, 240 Harbour Road, Owen Sound",
        rules_approved_on=first_draw_day - datetime.timedelta(days=14),  # R:R4 before the first sale
        rules_approval_reference="City of Owen Sound, letter LL-2026-051",
    )
    draw = Draw.objects.get(event=event, number=1)
    services.draw_open_sales(actor=admin, draw=draw)
    for quantity, units, name, contact, pick in FIRST_SALES:
        services.ticket_sell(
            actor=seller,
            draw=draw,
            tier_quantity=quantity,
            units=units,
            purchaser_name=name,
            purchaser_contact=contact,
            envelope_pick=pick,
            device=GIFT_SHOP_DEVICE,
        )
    return event
