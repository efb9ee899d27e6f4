"""Reading a supplier's files into checked rows (RULES T1, T3, T9, T11, D5).

Everything that can be checked from the file and the event's settings alone
is checked here, row by row, and refused with the file, line and column; what
needs the database (serials already sold, prize board, limits) is checked by
`raffle.services.supplier_import`.
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from core.errors import DomainError
from core.money import ZERO, parse_amount
from core.text import ascii_digits, has_control_characters
from raffle.errors import RaffleError
from raffle.models import PriceTier
from raffle.services.pool import normalise_serial
from raffle.services.supplier_formats import (
    ImportRefused,
    SupplierFile,
    SupplierMapping,
    parse_date,
    parse_datetime,
    read_rows,
)

STATUSES = ("sold", "void", "refunded")


@dataclass
class SaleGroup:
    """The tickets of one order bought at one tier with one status: one Sale."""

    line: int  # the group's first line
    order_id: str
    tier: PriceTier
    status: str
    sold_at: datetime.datetime
    name: str
    address: str
    contact: str
    envelope_pick: int
    serials: list[str] = field(default_factory=list)
    amount: Decimal = ZERO
    last_line: int = 0


@dataclass
class ParsedSales:
    file: str
    groups: list[SaleGroup]
    lines: dict[str, int]  # serial -> line
    rows: int
    last_sold_at: datetime.datetime | None

    @property
    def valid_groups(self) -> list[SaleGroup]:
        return [g for g in self.groups if g.status == "sold"]


@dataclass
class SalesWindow:
    opens: datetime.datetime
    closes: datetime.datetime


def _refuse(file: SupplierFile, line: int, column: str, problem: str, rule: str | None = None):
    raise ImportRefused(file=file.name, line=line, column=column, problem=problem, rule=rule)


class _RowReader:
    """Turns one line's text into checked values, remembering the texts it has
    already read: a million lines repeat a few amounts, tiers, envelopes and
    timestamps, so each distinct text is parsed and checked once."""

    def __init__(self, file, mapping, tiers, sealed, window, draw_number):
        self.file, self.mapping, self.tiers, self.sealed = file, mapping, tiers, sealed
        self.window, self.draw_number = window, draw_number
        self.moments: dict[str, datetime.datetime] = {}
        self.amounts: dict[str, Decimal] = {}
        self.tier_of: dict[str, PriceTier] = {}
        self.picks: dict[str, int] = {}

    def serial(self, number: int, text: str) -> str:
        if ascii_digits(text) and len(text) <= 40:
            return str(int(text))  # printed leading zeros do not make another ticket
        try:
            return normalise_serial(text)
        except RaffleError as error:
            _refuse(self.file, number, "ticket_number", str(error))

    def moment(self, number: int, text: str) -> datetime.datetime:
        moment = self.moments.get(text)
        if moment is not None:
            return moment
        try:
            moment = parse_datetime(text.strip(), self.mapping)
        except ValueError:
            _refuse(self.file, number, "sold_at", f"“{text}” is not a date and time (e.g. 2026-12-03T19:45:00-05:00).")
        opens, closes = self.window.opens, self.window.closes
        if moment < opens or moment > closes:  # R:T4 a ticket is sold for one draw, inside its sales window
            _refuse(
                self.file,
                number,
                "sold_at",
                f"the ticket was sold at {moment.isoformat()}, outside draw {self.draw_number}'s sales "
                f"(from {opens.isoformat()} until the draw at {closes.isoformat()}).",
                "T4",
            )
        self.moments[text] = moment
        return moment

    def tier(self, number: int, text: str) -> PriceTier:
        tier = self.tier_of.get(text)
        if tier is None:
            clean = text.strip()
            tier = self.tiers.get(int(clean)) if ascii_digits(clean) else None
            if tier is None:  # R:T1
                offers = ", ".join(str(t) for t in self.tiers.values())
                _refuse(self.file, number, "price_tier", f"there is no “{text}” tier; this event sells {offers}.", "T1")
            self.tier_of[text] = tier
        return tier

    def amount(self, number: int, text: str) -> Decimal:
        amount = self.amounts.get(text)
        if amount is None:
            try:
                amount = self.amounts[text] = parse_amount(text, what="The amount")
            except DomainError as error:
                _refuse(self.file, number, "amount", str(error))
        return amount

    def pick(self, number: int, text: str) -> int:
        pick = self.picks.get(text)
        if pick is None:
            clean = text.strip()
            pick = int(clean) if ascii_digits(clean) else 0
            if pick not in self.sealed:  # R:T9
                problem = (
                    f"envelope {pick} is already open; a purchaser picks a sealed one."
                    if 1 <= pick <= 52
                    else f"“{text}” is not an envelope number from 1 to 52."
                )
                _refuse(self.file, number, "envelope_pick", problem, "T9")
            self.picks[text] = pick
        return pick


def parse_sales(
    file: SupplierFile,
    *,
    mapping: SupplierMapping,
    tiers: dict[int, PriceTier],
    sealed: set[int],
    window: SalesWindow,
    draw_number: int,
) -> ParsedSales:
    groups: dict[tuple[str, int, str], SaleGroup] = {}
    lines: dict[str, int] = {}
    rows, last = 0, None
    read = _RowReader(file, mapping, tiers, sealed, window, draw_number)
    for number, row in read_rows(file, "sales", mapping, strip=False):
        rows += 1
        order_id, ticket, sold_at, tier_text, amount_text, name, address, phone, email, pick, status = row
        serial = read.serial(number, ticket)
        if serial in lines:  # R:T3
            _refuse(file, number, "ticket_number", f"ticket {serial} is also on line {lines[serial]}.", "T3")
        lines[serial] = number
        moment = read.moment(number, sold_at)
        if status not in STATUSES:
            status = status.strip()
            if status not in STATUSES:
                _refuse(file, number, "status", f"the status is “{status}”; it must be sold, void or refunded.", "T11")
        tier = read.tier(number, tier_text)
        amount = read.amount(number, amount_text)
        key = (order_id, tier.quantity, status)
        group = groups.get(key)
        if group is None:
            group = groups[key] = _new_group(file, number, key, tier, moment, name, address, phone or email)
            group.envelope_pick = read.pick(number, pick)
        group.serials.append(serial)
        group.amount += amount
        group.last_line = number
        if last is None or moment > last:
            last = moment
    for group in groups.values():
        _check_group_price(file, group)
    return ParsedSales(file.name, list(groups.values()), lines, rows, last)


def _new_group(file, number: int, key, tier: PriceTier, moment, name: str, address: str, contact: str) -> SaleGroup:
    """The first line of an order at a tier: the purchaser is checked once per order."""
    order_id = key[0].strip()
    if not order_id:
        _refuse(file, number, "order_id", "the order number is empty.")
    name, contact = name.strip(), contact.strip()
    if not name or not contact:  # R:T9
        column = "purchaser_name" if not name else "purchaser_phone"
        _refuse(file, number, column, "an electronic ticket carries the purchaser's name and phone or e-mail.", "T9")
    for column, text, multiline in (
        ("purchaser_name", name, False),
        ("purchaser_phone", contact, False),
        ("purchaser_address", address, True),
    ):
        if has_control_characters(text, multiline=multiline):  # they are printed on tickets and exports
            _refuse(file, number, column, "it holds control characters that cannot be printed; correct the file.")
    return SaleGroup(number, order_id, tier, key[2], moment, name[:150], address.strip()[:300], contact[:200], 0)


def _check_group_price(file: SupplierFile, group: SaleGroup) -> None:
    """R:T1 an order's tickets at a tier are whole purchases of that tier at its price."""
    tier, count = group.tier, len(group.serials)
    units, extra = divmod(count, tier.quantity)
    if extra:
        _refuse(
            file,
            group.last_line,
            "price_tier",
            f"order {group.order_id} has {count} ticket(s) at the tier {tier}; that tier sells "
            f"{tier.quantity} at a time.",
            "T1",
        )
    if group.amount != tier.price * units:
        _refuse(
            file,
            group.line,
            "amount",
            f"order {group.order_id} pays ${group.amount:,.2f} for {count} ticket(s) at the tier {tier}; "
            f"the price is ${tier.price * units:,.2f}.",
            "T1",
        )


@dataclass
class ParsedResult:
    file: str
    line: int
    serial: str
    drawn_at: datetime.datetime
    rng_reference: str


def _single_row(file: SupplierFile, kind: str, mapping: SupplierMapping):
    found = list(read_rows(file, kind, mapping))
    if len(found) != 1:
        line = found[1][0] if found else 2
        _refuse(file, line, "", f"the {kind} file holds one line for one draw; it has {len(found)}.")
    return found[0]


def parse_result(file: SupplierFile, *, mapping: SupplierMapping, draw_number: int) -> ParsedResult:
    line, (number_text, ticket, drawn_at, reference) = _single_row(file, "result", mapping)
    if number_text != str(draw_number):
        _refuse(file, line, "draw_number", f"this result is for draw {number_text}, not draw {draw_number}.", "T4")
    try:
        serial = normalise_serial(ticket)
    except RaffleError as error:
        _refuse(file, line, "winning_ticket_number", str(error))
    try:
        moment = parse_datetime(drawn_at, mapping)
    except ValueError:
        _refuse(file, line, "drawn_at", f"“{drawn_at}” is not a date and time.")
    if not reference:  # R:D5 every draw's inputs and outcome are logged
        _refuse(file, line, "rng_reference", "the supplier's RNG reference of the draw is empty.", "D5")
    return ParsedResult(file.name, line, serial, moment, reference[:120])


@dataclass
class ParsedSettlement:
    file: str
    line: int
    settlement_date: datetime.date
    gross: Decimal
    processing_fees: Decimal
    supplier_fees: Decimal
    net_deposited: Decimal
    deposit_reference: str


def parse_settlement(file: SupplierFile, *, mapping: SupplierMapping) -> ParsedSettlement:
    line, (day, *amounts, reference) = _single_row(file, "settlement", mapping)
    try:
        settlement_date = parse_date(day, mapping)
    except ValueError:
        _refuse(file, line, "settlement_date", f"“{day}” is not a date (e.g. 2026-12-04).")
    parsed = []
    for column, text in zip(("gross", "processing_fees", "supplier_fees", "net_deposited"), amounts, strict=True):
        try:
            parsed.append(parse_amount(text, what=f"The {column.replace('_', ' ')}"))
        except DomainError as error:
            _refuse(file, line, column, str(error))
    gross, processing, supplier, net = parsed
    if processing + supplier + net != gross:  # R:L12 every dollar of the sales is accounted for
        _refuse(
            file,
            line,
            "net_deposited",
            f"fees ${processing + supplier:,.2f} and net ${net:,.2f} add up to ${processing + supplier + net:,.2f}, "
            f"not the gross ${gross:,.2f}.",
            "L12",
        )
    if not reference:
        _refuse(file, line, "deposit_reference", "name the deposit slip the net went into the trust account on.")
    return ParsedSettlement(file.name, line, settlement_date, gross, processing, supplier, net, reference[:40])
