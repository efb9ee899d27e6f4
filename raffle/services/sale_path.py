"""The one path every sale takes: a stub or electronic sale, a device's
import, a returned roll.

1. `prepare_sales` runs with no lock held: it prices each line by the event's
   tiers (T1), runs the per-sale checks (`check_sale_line`: purchaser and
   envelope pick, T9; the serial count) and checks the typed serials are not
   sold yet (T3). It reads nothing that can change while the draw sells: the
   tiers, the sealed envelopes and the prizes committed by closed draws only
   change while a draw is in progress, and an event has one at a time.
2. `write_sales` (raffle.services.sale_write) takes the draw's lock with ONE statement, an UPDATE of the
   draw's running totals that also takes the sale's seq numbers (the draw's
   tickets are numbered densely: the last seq is valid + void tickets) and
   refuses unless the draw is still selling. It then checks the prize board
   and the approved sales plan against the returned total (L3), inserts the
   sales and COPYs the tickets. One sale at the counter is written by that
   same statement (its sale and tickets follow the UPDATE in one round trip,
   #18) and checked right after it: a refusal rolls the sale back with the
   service's transaction. The lock is held to the commit, so the close of
   sales (which locks the draw) sees every sale committed before it and none
   after.

The running totals (`Draw.sales_amount`, `sales_valid`, `sales_void`,
`tickets_valid`, `tickets_void`) are also moved by `sale_void`;
`reconcile_draw_totals` proves them against the rows.
"""

import bisect
import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import LockedHead
from core.money import ZERO
from core.scope import scoped
from core.text import ascii_digits
from licensing.terms import read_amendments_once
from raffle.errors import EventConcluded, RaffleError
from raffle.models import Draw, DrawState, Envelope, EventStatus, PriceTier, RollKind, Sale, Ticket, TicketRoll
from raffle.models.ticket_reads import is_roll_number
from raffle.services.ending import check_not_cancelled
from raffle.services.prize_board import (
    sale_columns,
    sale_prizes_committed,
    sales_plan_max,
)
from raffle.services.purchase_limits import Purchase, purchase_limits_check
from raffle.services.sale_read import read_draw_for_sale

# The most serials one roll, book or import may carry.
MAX_BATCH = 2_000_000
# The highest serial a roll or book may carry (12 digits: far above any printed roll,
# far below what the database's 64-bit columns hold).
MAX_SERIAL = 999_999_999_999


@dataclass
class SaleLine:
    """One sale to record: `units` of the tier selling `tier_quantity` tickets."""

    tier_quantity: int
    units: int = 1
    # paper: the printed serials; a returned roll's: their numbers (a range, written
    # as the numbers they are); electronic: none given, generated
    serials: Sequence[str] | range | None = None
    purchaser_name: str = ""
    purchaser_contact: str = ""
    envelope_pick: int | None = None
    device: str = ""
    roll: TicketRoll | None = None
    sold_at: datetime.datetime | None = None
    extra: dict = field(default_factory=dict)


@dataclass
class SaleBatch:
    """Sales priced and checked, ready to be written under the draw's lock."""

    draw: Draw
    sales: list[Sale]
    serial_lists: list[Sequence[str] | range | None]
    committed: Decimal
    max_sales: Decimal | None = None  # R:L3 the approved sales plan's maximum for the draw
    # the audit chain's head, read under its lock by the statement that wrote the sale (`write_sales`)
    locked_head: LockedHead | None = None
    # R:T3 the returned roll whose sold serials these sales are, in order: their
    # tickets are written at their place in it (`TicketRoll.first_seq`, migration 0027)
    roll_range: TicketRoll | None = None

    @property
    def amount(self) -> Decimal:
        return sum((s.amount for s in self.sales), ZERO)

    @property
    def tickets(self) -> int:
        return sum(s.ticket_count for s in self.sales)


def selling_draw(draw: Draw, *, returning: bool = False) -> Draw:
    """Read the draw with its event and licence (no lock) and refuse early
    when it does not sell; `write_sales` checks the state again under the lock.
    A roll sold before its licence was cancelled may still come back
    (`returning`); nothing new is sold under a cancelled licence (R5).
    The licence's approved amendments are read here once for the whole sale
    (its channel, draw place, prize board and sales plan in force, #18).

    A draw just read by `read_sale_draw` (the sales page reads it for its
    form) serves the one sale that follows instead of being read again: that
    read is as unlocked as this one would be, older only by the form's
    checks, and what can change while a draw sells (its state, its total
    against the prize board and the sales plan) is checked again under the
    lock by `write_sales`."""
    if not draw.__dict__.pop(FRESH_FOR_SALE, False):
        draw = read_sale_draw(draw.pk)
        draw.__dict__.pop(FRESH_FOR_SALE)
    check_selling(draw)
    if not returning:
        check_not_cancelled(draw.event.licence, f"a sale for draw {draw.number}")
    return draw


# Put on a draw by `read_sale_draw`, taken off by the one `selling_draw` that uses it.
FRESH_FOR_SALE = "read_for_the_next_sale"


def read_sale_draw(pk: int, *, user=None, roles: tuple[str, ...] = ()) -> Draw:
    """The draw with its event, licence and all a sale checks, read once with
    no lock: on PostgreSQL in one statement written once (`sale_read`); the
    sales page's form reads its choices from it too. With a `user`, only a
    draw of the organisations they work for in one of `roles` is found (#15:
    any other is Draw.DoesNotExist, like a draw that does not exist)."""
    if connection.vendor == "postgresql":
        draw = read_draw_for_sale(pk, user=user, roles=roles)
    else:
        draws = Draw.objects.select_related("event__licence").annotate(**sale_columns())
        draw = (draws if user is None else scoped(draws, user, *roles)).get(pk=pk)
        read_amendments_once(draw.event.licence)
    draw.__dict__[FRESH_FOR_SALE] = True
    return draw


def check_selling(draw: Draw) -> None:
    if draw.event.status == EventStatus.CONCLUDED:  # R:P4
        raise EventConcluded(
            gettext("%(event)s is concluded; nothing more can be sold under this licence.") % {"event": draw.event},
            rule="P4",
        )
    if draw.state != DrawState.SELLING:  # R:T4
        when = "are not open yet" if draw.state == DrawState.SCHEDULED else "are closed"
        raise RaffleError(
            gettext("Sales for draw %(number)s %(when)s; a ticket is sold only for a draw whose sales are open.")
            % {"number": draw.number, "when": when},
            rule="T4",
        )


def whole_number(value, what: str, *, at_most: int | None = None) -> int:
    text = str(value).strip()
    if not ascii_digits(text.removeprefix("-")) or len(text) > 30:
        raise RaffleError(
            gettext("%(what)s must be a whole number, not “%(text)s”.") % {"what": what, "text": text[:30]}
        )
    number = int(text)
    if number < 1:
        raise RaffleError(gettext("%(what)s must be at least 1.") % {"what": what})
    if at_most is not None and number > at_most:
        raise RaffleError(
            gettext("%(what)s must be at most %(at_most)s.") % {"what": what, "at_most": format(at_most, ",")}
        )
    return number


def price_tiers(draw: Draw) -> dict[int, PriceTier]:
    if (tiers := getattr(draw, "sale_tiers", None)) is not None:  # read with the draw (`sale_read`)
        return tiers
    return {t.quantity: t for t in PriceTier.objects.filter(event_id=draw.event_id)}


def price_tier(tiers: dict[int, PriceTier], quantity) -> PriceTier:
    # R:T1 a sale is priced only by the event's advertised price tiers.
    quantity = whole_number(quantity, "The number of tickets in the price tier")
    if quantity not in tiers:
        offers = ", ".join(str(t) for t in tiers.values())
        raise RaffleError(
            gettext("There is no price for %(quantity)s ticket(s); this event sells %(offers)s.")
            % {"quantity": quantity, "offers": offers},
            rule="T1",
        )
    return tiers[quantity]


def sealed_envelopes(draw: Draw) -> set[int]:
    if (sealed := getattr(draw, "sale_sealed", None)) is not None:  # read with the draw (`sale_read`)
        return sealed
    return set(Envelope.objects.filter(event_id=draw.event_id, opened_at__isnull=True).values_list("number", flat=True))


def check_sale_line(line: SaleLine, *, sealed: set[int] | None, count: int) -> None:
    """The checks every single sale passes, in one place. `sealed`: the sealed
    envelopes when the sale carries a purchaser (stub and electronic), None
    for a returned roll."""
    if line.serials is not None and len(line.serials) != count:
        raise RaffleError(
            gettext(
                "%(tier_quantity)s ticket(s) x %(units)s is %(count)s ticket(s), but %(count2)s serial(s) were given."
            )
            % {"tier_quantity": line.tier_quantity, "units": line.units, "count": count, "count2": len(line.serials)}
        )
    if sealed is None:
        return
    # R:T9 stub and electronic tickets carry the purchaser and the envelope picked.
    if not line.purchaser_name.strip() or not line.purchaser_contact.strip():
        raise RaffleError(
            gettext(
                "Enter the purchaser's name and a phone number or e-mail: the ticket carries them so the "
                "winner can be reached."
            ),
            rule="T9",
        )
    if line.envelope_pick is None or str(line.envelope_pick).strip() == "":
        raise RaffleError(gettext("Ask the purchaser which sealed envelope they pick."), rule="T9")
    pick = whole_number(line.envelope_pick, "The envelope picked")
    if pick not in sealed:
        if 1 <= pick <= 52:
            raise RaffleError(
                gettext("Envelope %(pick)s is already open; the purchaser must pick one that is still sealed.")
                % {"pick": pick},
                rule="T9",
            )
        raise RaffleError(
            gettext("Envelope numbers run from 1 to 52; there is no envelope %(pick)s.") % {"pick": pick}, rule="T9"
        )
    line.envelope_pick = pick


def _existing_serials(licence_id: int, serials: list[str]) -> list[str]:
    found = []
    for start in range(0, len(serials), 5000):
        found += Ticket.objects.with_serials(serials[start : start + 5000], licence_id=licence_id).values_list(
            "serial", flat=True
        )[:5]
        if found:
            break
    return found


def serial_on_a_roll(licence_id: int, serials: list[str]) -> tuple[str, TicketRoll] | None:
    """A given serial that a roll of the licence carries, and that roll (R:T3:
    a roll's serials are its own, sold or not; its returned tickets are not on
    the serial index to refuse them). One read of the rolls that can hold them."""
    numbers = sorted({int(serial) for serial in serials if is_roll_number(serial)})
    if not numbers:
        return None
    rolls = TicketRoll.objects.filter(
        licence_id=licence_id, kind=RollKind.ROLL, first_serial__lte=numbers[-1], last_serial__gte=numbers[0]
    ).select_related("draw")
    for roll in rolls:
        at = bisect.bisect_left(numbers, roll.first_serial)
        if at < len(numbers) and numbers[at] <= roll.last_serial:
            return str(numbers[at]), roll
    return None


def prepare_sales(
    *, actor, draw: Draw, channel: str, lines: list[SaleLine], needs_purchaser: bool, serials_checked: bool = False
) -> SaleBatch:
    """Price and check every line; no lock is taken, nothing is written.
    `draw` comes from `selling_draw`. `serials_checked`: the serials come from
    a roll whose range was checked against every other roll of the licence
    when it was issued."""
    tiers = price_tiers(draw)
    sealed = sealed_envelopes(draw) if needs_purchaser else None
    licence_id = draw.event.licence_id
    sold_by = actor if getattr(actor, "is_authenticated", False) else None
    now = timezone.now()
    sales, serial_lists, total_tickets = [], [], 0
    for line in lines:
        tier = price_tier(tiers, line.tier_quantity)
        units = whole_number(line.units, "The number of sales of this price")
        count = tier.quantity * units
        check_sale_line(line, sealed=sealed, count=count)
        total_tickets += count
        if total_tickets > MAX_BATCH:
            raise RaffleError(
                gettext("At most %(MAX_BATCH)s tickets can be issued at once; split the batch.")
                % {"MAX_BATCH": format(MAX_BATCH, ",")}
            )
        sales.append(
            Sale(
                licence_id=licence_id,
                draw=draw,
                channel=channel,
                tier=tier,
                units=units,
                ticket_count=count,
                amount=tier.price * units,
                roll=line.roll,
                purchaser_name=line.purchaser_name.strip()[:150],
                purchaser_contact=line.purchaser_contact.strip()[:200],
                envelope_pick=line.envelope_pick,
                device=line.device.strip()[:60],
                sold_by=sold_by,
                sold_at=line.sold_at or now,
            )
        )
        serial_lists.append(line.serials)
    if needs_purchaser:  # the Rules of Play's per-person limit and excluded persons
        purchase_limits_check(
            draw=draw, purchases=[Purchase(s.purchaser_name, s.purchaser_contact, s.ticket_count) for s in sales]
        )
    given = [] if serials_checked else [s for serials in serial_lists if serials for s in serials]
    if len(set(given)) != len(given):
        raise RaffleError(gettext("The same serial appears twice in this sale; each serial is sold once."), rule="T3")
    taken = _existing_serials(licence_id, given) if given else []
    if taken:  # R:T3
        raise RaffleError(
            gettext("Ticket %(taken)s is already sold under this licence; a serial is sold once across all draws.")
            % {"taken": taken[0]},
            rule="T3",
        )
    on_a_roll = serial_on_a_roll(licence_id, given) if given else None
    if on_a_roll:  # R:T3
        serial, roll = on_a_roll
        raise RaffleError(
            gettext(
                "Serial %(serial)s is printed on %(roll)s, issued for draw %(number)s; a serial is used once "
                "under a licence. Check the ticket."
            )
            % {"serial": serial, "roll": roll, "number": roll.draw.number},
            rule="T3",
        )
    return SaleBatch(
        draw=draw,
        sales=sales,
        serial_lists=serial_lists,
        committed=sale_prizes_committed(draw),
        max_sales=sales_plan_max(draw=draw),
    )
