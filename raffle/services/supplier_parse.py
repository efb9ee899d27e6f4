"""Reading a supplier's files into checked rows (RULES T1, T3, T9, T11, D5).

Everything that can be checked from the file and the event's settings alone
is checked here, row by row, and refused with the file, line and column; what
needs the database (serials already sold, prize board, limits) is checked by
`raffle.services.supplier_import`.
"""

import datetime
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext

from core.errors import DomainError
from core.money import ZERO, format_money_here, parse_amount
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
            _refuse(
                self.file,
                number,
                "sold_at",
                gettext("“%(text)s” is not a date and time (e.g. 2026-12-03T19:45:00-05:00).") % {"text": text},
            )
        opens, closes = self.window.opens, self.window.closes
        if moment < opens or moment > closes:  # R:T4 a ticket is sold for one draw, inside its sales window
            _refuse(
                self.file,
                number,
                "sold_at",
                gettext(
                    "the ticket was sold at %(isoformat)s, outside draw %(draw_number)s's sales (from "
                    "%(isoformat2)s until the draw at %(isoformat3)s)."
                )
                % {
                    "isoformat": moment.isoformat(),
                    "draw_number": self.draw_number,
                    "isoformat2": opens.isoformat(),
                    "isoformat3": closes.isoformat(),
                },
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
                _refuse(
                    self.file,
                    number,
                    "price_tier",
                    gettext("there is no “%(text)s” tier; this event sells %(offers)s.")
                    % {"text": text, "offers": offers},
                    "T1",
                )
            self.tier_of[text] = tier
        return tier

    def amount(self, number: int, text: str) -> Decimal:
        amount = self.amounts.get(text)
        if amount is None:
            try:
                amount = self.amounts[text] = parse_amount(text, what=gettext("The amount"))
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
            _refuse(
                file,
                number,
                "ticket_number",
                gettext("ticket %(serial)s is also on line %(lines)s.") % {"serial": serial, "lines": lines[serial]},
                "T3",
            )
        lines[serial] = number
        moment = read.moment(number, sold_at)
        if status not in STATUSES:
            status = status.strip()
            if status not in STATUSES:
                _refuse(
                    file,
                    number,
                    "status",
                    gettext("the status is “%(status)s”; it must be sold, void or refunded.") % {"status": status},
                    "T11",
                )
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
        _refuse(file, number, "order_id", gettext("the order number is empty."))
    name, contact = name.strip(), contact.strip()
    if not name or not contact:  # R:T9
        column = "purchaser_name" if not name else "purchaser_phone"
        _refuse(
            file,
            number,
            column,
            gettext("an electronic ticket carries the purchaser's name and phone or e-mail."),
            "T9",
        )
    for column, text, multiline in (
        ("purchaser_name", name, False),
        ("purchaser_phone", contact, False),
        ("purchaser_address", address, True),
    ):
        if has_control_characters(text, multiline=multiline):  # they are printed on tickets and exports
            _refuse(
                file, number, column, gettext("it holds control characters that cannot be printed; correct the file.")
            )
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
            gettext(
                "order %(order_id)s has %(count)s ticket(s) at the tier %(tier)s; that tier sells "
                "%(quantity)s at a time."
            )
            % {"order_id": group.order_id, "count": count, "tier": tier, "quantity": tier.quantity},
            "T1",
        )
    if group.amount != tier.price * units:
        _refuse(
            file,
            group.line,
            "amount",
            gettext(
                "order %(order_id)s pays %(amount)s for %(count)s ticket(s) at the tier %(tier)s; the "
                "price is %(value)s."
            )
            % {
                "order_id": group.order_id,
                "amount": format_money_here(group.amount),
                "count": count,
                "tier": tier,
                "value": format_money_here(tier.price * units),
            },
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
        _refuse(
            file,
            line,
            "",
            gettext("the %(kind)s file holds one line for one draw; it has %(count)s.")
            % {"kind": kind, "count": len(found)},
        )
    return found[0]


def parse_result(file: SupplierFile, *, mapping: SupplierMapping, draw_number: int) -> ParsedResult:
    line, (number_text, ticket, drawn_at, reference) = _single_row(file, "result", mapping)
    if number_text != str(draw_number):
        _refuse(
            file,
            line,
            "draw_number",
            gettext("this result is for draw %(number_text)s, not draw %(draw_number)s.")
            % {"number_text": number_text, "draw_number": draw_number},
            "T4",
        )
    try:
        serial = normalise_serial(ticket)
    except RaffleError as error:
        _refuse(file, line, "winning_ticket_number", str(error))
    try:
        moment = parse_datetime(drawn_at, mapping)
    except ValueError:
        _refuse(file, line, "drawn_at", gettext("“%(drawn_at)s” is not a date and time.") % {"drawn_at": drawn_at})
    if not reference:  # R:D5 every draw's inputs and outcome are logged
        _refuse(file, line, "rng_reference", gettext("the supplier's RNG reference of the draw is empty."), "D5")
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
        _refuse(file, line, "settlement_date", gettext("“%(day)s” is not a date (e.g. 2026-12-04).") % {"day": day})
    parsed = []
    for column, text in zip(("gross", "processing_fees", "supplier_fees", "net_deposited"), amounts, strict=True):
        try:
            parsed.append(parse_amount(text, what=gettext("The %(column)s") % {"column": column.replace("_", " ")}))
        except DomainError as error:
            _refuse(file, line, column, str(error))
    gross, processing, supplier, net = parsed
    if processing + supplier + net != gross:  # R:L12 every dollar of the sales is accounted for
        _refuse(
            file,
            line,
            "net_deposited",
            gettext("fees %(value)s and net %(net)s add up to %(value2)s, not the gross %(gross)s.")
            % {
                "value": format_money_here(processing + supplier),
                "net": format_money_here(net),
                "value2": format_money_here(processing + supplier + net),
                "gross": format_money_here(gross),
            },
            "L12",
        )
    if not reference:
        _refuse(
            file, line, "deposit_reference", gettext("name the deposit slip the net went into the trust account on.")
        )
    return ParsedSettlement(file.name, line, settlement_date, gross, processing, supplier, net, reference[:40])
