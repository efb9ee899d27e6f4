"""Import one draw's files from the AGCO-registered supplier (RULES D5, T3,
T4, T9, T11, L3, L12): its sales, its winning-ticket selection and its
settlement, all or nothing.

Every refusal names the file, the line and the column, and changes nothing.
The sales become ordinary sales and tickets of the draw (written with
PostgreSQL COPY), so ticket numbers stay unique across the licence together
with paper ones (T3, the database constraint). The result waits for the
draw-night wizard; the settlement's fees become deductions of their kind with
the settlement file as evidence, and its net is matched to the trust
account's deposit.
"""

import datetime
import hashlib
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Max, Sum
from django.utils import timezone
from django.utils.translation import gettext

from core.audit import audit_record
from core.money import ZERO
from raffle.errors import RaffleError
from raffle.models import (
    BEFORE_WINNING_TICKET,
    Draw,
    DrawState,
    Envelope,
    Event,
    PriceTier,
    Sale,
    SupplierImport,
    SupplierResult,
    Ticket,
)
from raffle.services.pool import draws_by_supplier
from raffle.services.prize_board import prize_board_check, sales_plan_check
from raffle.services.purchase_limits import Purchase, PurchaseRefused, purchase_limits_check
from raffle.services.sale_path import serial_on_a_roll
from raffle.services.schedule import check_draw_time
from raffle.services.supplier_bulk import bulk_sales_import
from raffle.services.supplier_formats import GENERIC, ImportRefused, SupplierFile, SupplierMapping, their_columns
from raffle.services.supplier_parse import (
    ParsedResult,
    ParsedSales,
    SalesWindow,
    parse_result,
    parse_sales,
    parse_settlement,
)
from raffle.services.supplier_settlement import check_settlement
from raffle.services.supplier_write import copy_sales_and_tickets, write_settlement


@dataclass
class ImportSummary:
    """What an import brought in (or, dry run, would bring in): the preview."""

    draw_number: int
    rows: int = 0
    orders: int = 0
    tickets_sold: int = 0
    tickets_void: int = 0
    amount_sold: object = ZERO
    amount_void: object = ZERO
    winning_ticket: str = ""
    rng_reference: str = ""
    settlement_gross: object = None
    settlement_fees: object = None
    settlement_net: object = None
    deposit_slip: str = ""
    dry_run: bool = False


def lock_event_and_draw(draw: Draw) -> tuple[Event, Draw]:
    """Lock and re-read the event, then the draw (the order every draw service uses)."""
    event = Event.objects.select_for_update().select_related("licence").get(pk=draw.event_id)
    draw = Draw.objects.select_for_update().get(pk=draw.pk)
    draw.event = event
    return event, draw


def sales_window(draw: Draw) -> SalesWindow:
    """R:T4 R:T11 a draw's tickets are sold after the previous draw is held and
    before this draw's time (sales close before the draw)."""
    previous = Draw.objects.filter(event_id=draw.event_id, number=draw.number - 1).first()
    if previous is not None:
        opens = previous.closed_at or previous.scheduled_at
    else:
        issued = draw.event.licence.issued_on
        opens = timezone.make_aware(datetime.datetime.combine(issued, datetime.time.min))
    return SalesWindow(opens=opens, closes=draw.scheduled_at)


def _refuse_at(file: str, line: int, column: str, error: RaffleError):
    raise ImportRefused(file=file, line=line, column=column, problem=str(error), rule=error.rule) from None


def check_serials_unused(draw: Draw, sales: ParsedSales) -> None:
    """R:T3 no ticket number of the file is already sold under the licence,
    paper tickets included, and none is printed on a paper roll of the
    licence (R:T3, its returned tickets are off the serial index). The import itself leaves this to the database's
    unique constraint and calls it only to name the line when that refuses;
    a dry run calls it to show the refusal without writing."""
    serials = list(sales.lines)
    for start in range(0, len(serials), 20_000):
        taken = (
            Ticket.objects.with_serials(serials[start : start + 20_000], licence_id=draw.event.licence_id)
            .select_related("draw")
            .first()
        )
        if taken is not None:
            raise ImportRefused(
                file=sales.file,
                line=sales.lines[taken.serial],
                column="ticket_number",
                problem=gettext(
                    "ticket %(serial)s is already sold under this licence (draw %(number)s); a ticket number "
                    "is used once across all draws, paper and electronic."
                )
                % {"serial": taken.serial, "number": taken.draw.number},
                rule="T3",
            )
    on_a_roll = serial_on_a_roll(draw.event.licence_id, serials)
    if on_a_roll is not None:  # a paper roll's serial, sold or not: the trigger's refusal (migration 0027)
        serial, roll = on_a_roll
        raise ImportRefused(
            file=sales.file,
            line=sales.lines[serial],
            column="ticket_number",
            problem=gettext(
                "ticket %(serial)s is printed on %(roll)s, issued for draw %(number)s; a ticket number is used "
                "once across all draws, paper and electronic."
            )
            % {"serial": serial, "roll": roll, "number": roll.draw.number},
            rule="T3",
        )


def _check_sales(draw: Draw, sales: ParsedSales) -> None:
    valid = sum((g.amount for g in sales.valid_groups), ZERO)
    sold = Sale.objects.filter(draw=draw, voided_at__isnull=True).aggregate(s=Sum("amount"))["s"] or ZERO
    last_line = max((g.last_line for g in sales.groups), default=1)
    for check in (prize_board_check, sales_plan_check):
        try:
            if check is prize_board_check:
                check(event=draw.event, extra_sales=sold + valid)
            else:
                check(draw=draw, total=sold + valid)
        except RaffleError as error:
            _refuse_at(sales.file, last_line, "amount", error)
    purchases = [Purchase(g.name, g.contact, len(g.serials), g.line) for g in sales.valid_groups]
    try:
        purchase_limits_check(draw=draw, purchases=purchases)
    except PurchaseRefused as error:
        column = "purchaser_name" if error.column == "purchaser_name" else "purchaser_phone"
        raise ImportRefused(file=sales.file, line=error.purchase.line, column=column, problem=str(error)) from None


def _check_result(draw: Draw, result: ParsedResult, sales: ParsedSales | None) -> None:
    """R:D5 R:D2 the supplier's winner is a sold, valid ticket of this draw,
    drawn after its sales closed."""
    drawn = draw.state not in BEFORE_WINNING_TICKET or draw.state == DrawState.SCHEDULED
    if drawn or SupplierResult.objects.filter(draw=draw).exists():
        raise ImportRefused(
            file=result.file,
            line=result.line,
            column="winning_ticket_number",
            problem=gettext("draw %(number)s's winning ticket is already recorded or imported.")
            % {"number": draw.number},
            rule="D8",
        )
    imported = next((g for g in (sales.groups if sales else []) if result.serial in g.serials), None)
    if imported is not None:
        status, number = imported.status, draw.number
    else:
        ticket = (
            Ticket.objects.with_serial(result.serial, licence_id=draw.event.licence_id)
            .select_related("draw", "sale")
            .first()
        )
        if ticket is None:
            raise ImportRefused(
                file=result.file,
                line=result.line,
                column="winning_ticket_number",
                problem=gettext("ticket %(serial)s was never sold under this licence.") % {"serial": result.serial},
                rule="D2",
            )
        status, number = ("void" if ticket.is_void else "sold"), ticket.draw.number
    column = "winning_ticket_number"
    if number != draw.number:  # R:T4
        problem = gettext("ticket %(serial)s was sold for draw %(number)s; only draw %(draw)s's tickets can win it.")
        problem %= {"serial": result.serial, "number": number, "draw": draw.number}
        raise ImportRefused(file=result.file, line=result.line, column=column, problem=problem, rule="T4")
    if status != "sold":  # R:T11
        problem = gettext("ticket %(serial)s is %(status)s; a void or refunded ticket cannot win.")
        problem %= {"serial": result.serial, "status": status}
        raise ImportRefused(file=result.file, line=result.line, column=column, problem=problem, rule="T11")
    try:
        check_draw_time(draw, at=result.drawn_at)  # R:D9
    except RaffleError as error:
        _refuse_at(result.file, result.line, "drawn_at", error)
    last_sale = Sale.objects.filter(draw=draw).aggregate(m=Max("sold_at"))["m"]
    closes = max(m for m in (draw.scheduled_at, last_sale, sales.last_sold_at if sales else None) if m)
    if result.drawn_at < closes:
        raise ImportRefused(
            file=result.file,
            line=result.line,
            column="drawn_at",
            problem=gettext(
                "the winner was drawn at %(isoformat)s, before draw %(number)s's sales closed "
                "(%(isoformat2)s); a winning ticket is drawn after sales close."
            )
            % {"isoformat": result.drawn_at.isoformat(), "number": draw.number, "isoformat2": closes.isoformat()},
            rule="D2",
        )


@transaction.atomic
def supplier_draw_import(
    *,
    actor,
    draw: Draw,
    sales: SupplierFile | None = None,
    result: SupplierFile | None = None,
    settlement: SupplierFile | None = None,
    mapping: SupplierMapping = GENERIC,
    dry_run: bool = False,
) -> ImportSummary:
    """Check every file whole, then (unless `dry_run`) write it all; a refusal
    raises `ImportRefused` naming the file, line and column, and nothing is kept.
    A sales file the bulk path vouches for is checked and written by it first
    (supplier_bulk), inside this transaction: a settlement refused after it
    still leaves nothing."""
    event, draw = lock_event_and_draw(draw)
    if not draws_by_supplier(draw):  # R:D5
        raise RaffleError(
            gettext(
                "Draw %(number)s is not drawn by a registered supplier's system (a paper draw, or a "
                "licence that records the approval of this software's own RNG); there is nothing to import."
            )
            % {"number": draw.number},
            rule="D5",
        )
    if not (sales or result or settlement):
        raise RaffleError(gettext("Choose at least one file to import: sales, result or settlement."))
    summary = ImportSummary(draw_number=draw.number, dry_run=dry_run)
    parsed_sales = parsed_result = parsed_settlement = None
    if sales is not None:
        if draw.state != DrawState.SELLING:  # R:T4
            raise ImportRefused(
                file=sales.name,
                line=1,
                column="",
                problem=gettext("draw %(number)s's sales are not open (it is at “%(lower)s”).")
                % {"number": draw.number, "lower": draw.get_state_display().lower()},
                rule="T4",
            )
        sealed = set(Envelope.objects.filter(event=event, opened_at__isnull=True).values_list("number", flat=True))
        tiers = {t.quantity: t for t in PriceTier.objects.filter(event=event)}
        window = sales_window(draw)
        bulk = None
        if not dry_run and result is None and mapping == GENERIC:  # the bulk path: checked and written set-based
            bulk = bulk_sales_import(actor=actor, draw=draw, file=sales, tiers=tiers, sealed=sealed, window=window)
        if bulk is not None:
            summary.rows, summary.orders = bulk.rows, bulk.orders
            summary.tickets_sold, summary.amount_sold = bulk.tickets_sold, bulk.amount_sold
            summary.tickets_void, summary.amount_void = bulk.tickets_void, bulk.amount_void
        else:  # row by row: every refusal names its line and column
            with their_columns(mapping, "sales"):
                parsed_sales = parse_sales(
                    sales, mapping=mapping, tiers=tiers, sealed=sealed, window=window, draw_number=draw.number
                )
                _check_sales(draw, parsed_sales)
            summary.rows, summary.orders = parsed_sales.rows, len({g.order_id for g in parsed_sales.groups})
            for group in parsed_sales.groups:
                if group.status == "sold":
                    summary.tickets_sold += len(group.serials)
                    summary.amount_sold += group.amount
                else:
                    summary.tickets_void += len(group.serials)
                    summary.amount_void += group.amount
    if result is not None:
        with their_columns(mapping, "result"):
            parsed_result = parse_result(result, mapping=mapping, draw_number=draw.number)
            _check_result(draw, parsed_result, parsed_sales)
        summary.winning_ticket, summary.rng_reference = parsed_result.serial, parsed_result.rng_reference
    if settlement is not None:
        with their_columns(mapping, "settlement"):
            parsed_settlement = parse_settlement(settlement, mapping=mapping)
            deposit = check_settlement(draw, parsed_settlement, parsed_sales)
        summary.settlement_gross = parsed_settlement.gross
        summary.settlement_fees = parsed_settlement.processing_fees + parsed_settlement.supplier_fees
        summary.settlement_net = parsed_settlement.net_deposited
        summary.deposit_slip = deposit.slip_number
    if dry_run:
        if parsed_sales is not None:
            with their_columns(mapping, "sales"):
                check_serials_unused(draw, parsed_sales)
        return summary
    record = SupplierImport.objects.create(
        draw=draw,
        files={
            kind: {"name": f.name, "sha256": hashlib.sha256(f.content).hexdigest()}
            for kind, f in (("sales", sales), ("result", result), ("settlement", settlement))
            if f is not None
        },
        sales_rows=summary.rows,
        tickets_sold=summary.tickets_sold,
        tickets_void=summary.tickets_void,
        sales_amount=summary.amount_sold,
        imported_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    if parsed_sales is not None:
        try:
            with transaction.atomic():
                copy_sales_and_tickets(actor=actor, draw=draw, groups=parsed_sales.groups)
        except IntegrityError:  # R:T3 the constraint refused a ticket number: name its line
            with their_columns(mapping, "sales"):
                check_serials_unused(draw, parsed_sales)
            raise RaffleError(
                gettext(
                    "%(name)s: a ticket number was sold under this licence while the file was imported; "
                    "nothing was imported. Import it again to see which."
                )
                % {"name": sales.name},
                rule="T3",
            ) from None
    if parsed_result is not None:
        SupplierResult.objects.create(
            draw=draw,
            supplier_import=record,
            winning_ticket_number=parsed_result.serial,
            drawn_at=parsed_result.drawn_at,
            rng_reference=parsed_result.rng_reference,
        )
    if parsed_settlement is not None:
        write_settlement(draw=draw, record=record, parsed=parsed_settlement, file=settlement)
        summary.deposit_slip = deposit.slip_number
    audit_record(
        actor=actor,
        action="raffle.supplier.import",
        obj=draw,
        data={
            "number": draw.number,
            "files": record.files,
            "rows": summary.rows,
            "tickets_sold": summary.tickets_sold,
            "tickets_void": summary.tickets_void,
            "amount_sold": summary.amount_sold,
            "winning_ticket": summary.winning_ticket,
            "rng_reference": summary.rng_reference,
            "settlement_net": summary.settlement_net,
        },
    )
    return summary
