"""The draw ledger: export (one row per finished draw) and the plan of the
import of a running raffle's history from another system's records (the
import itself is the service `raffle.services.history.history_import`).

Export columns, exactly and in this order:
draw_number,draw_date,ticket_sales,draw_prize,jackpot_contribution,
licensee_share,jackpot_before,jackpot_after,envelope,card,outcome

The import reads draw_number,draw_date,ticket_sales,envelope,card and, when
present, the published draw_prize, jackpot_before and jackpot_after to check
against the figures it computes with the event's rounding rule (P1). Other
columns (such as the rest of an exported ledger) are ignored. It imports all
rows or none.
"""

import csv
import datetime
import io
from dataclasses import dataclass, field
from decimal import Decimal

from django.utils import timezone

from core.csvsafe import csv_text
from core.csvsafe import read_rows as read_csv_rows
from core.errors import DomainError
from core.money import (
    MoneyError,
    format_money,
    parse_amount,
)
from raffle.cards import ACE_OF_SPADES, card_name, parse_card
from raffle.errors import RaffleError
from raffle.models import (
    DRAW_IN_PROGRESS,
    ENVELOPE_COUNT,
    Draw,
    DrawState,
    Envelope,
    Event,
    EventStatus,
)
from raffle.services.draw_sales import close_sales_figures
from raffle.services.prize_board import prizes_committed

# The column names are a machine-readable format, the same in every language:
# `plan_import` reads an exported ledger back by these names (docs/treasurer-guide.md).
# The import's refusals below stay English too: only the `import_history`
# management command reaches them, on an operator's console (#16).
LEDGER_COLUMNS = [
    "draw_number",
    "draw_date",
    "ticket_sales",
    "draw_prize",
    "jackpot_contribution",
    "licensee_share",
    "jackpot_before",
    "jackpot_after",
    "envelope",
    "card",
    "outcome",
]
IMPORT_REQUIRED = ["draw_number", "draw_date", "ticket_sales", "envelope", "card"]
IMPORT_PUBLISHED = ["draw_prize", "jackpot_before", "jackpot_after"]


def ledger_rows(event: Event):
    draws = Draw.objects.filter(event=event, state=DrawState.CLOSED).select_related("envelope").order_by("number")
    for d in draws:
        yield [
            d.number,
            timezone.localdate(d.scheduled_at).isoformat(),
            d.ticket_sales,
            d.draw_prize,
            d.jackpot_contribution,
            d.licensee_share,
            d.jackpot_before,
            d.jackpot_after,
            d.envelope.number if d.envelope_id else "",
            d.envelope.card if d.envelope_id else "",
            d.outcome,
        ]


def ledger_csv(event: Event) -> str:
    return csv_text(LEDGER_COLUMNS, ledger_rows(event))


class ImportRefused(RaffleError):
    """The file was refused whole; `problems` names each row and reason."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("The history was not imported; nothing was changed:\n" + "\n".join(problems))


@dataclass
class PlannedDraw:
    line: int
    number: int
    date: datetime.date
    sales: Decimal
    draw_prize: Decimal
    jackpot_contribution: Decimal
    licensee_share: Decimal
    jackpot_before: Decimal
    jackpot_after: Decimal
    envelope: int
    card: str


@dataclass
class ImportPlan:
    event: Event
    rows: list[PlannedDraw]
    opening_jackpot: Decimal
    mismatches: list[str] = field(default_factory=list)
    imported: bool = False

    @property
    def concludes(self) -> bool:
        return bool(self.rows) and self.rows[-1].card == ACE_OF_SPADES


def _read(text: str) -> tuple[list[str], list[tuple[int, dict]]]:
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    header = [(h or "").strip().lower() for h in (reader.fieldnames or [])]
    reader.fieldnames = header
    rows = [
        (reader.line_num, {k: (v or "").strip() for k, v in row.items() if k})
        for row in read_csv_rows(reader, lambda line, problem: ImportRefused([f"row {line}: {problem}"]))
    ]
    return header, rows


def _published(value: str) -> Decimal | None:
    value = value.lstrip("'")  # a cell neutralised against formulas on export
    return parse_amount(value) if value else None


def plan_import(event: Event, text: str, *, opening_jackpot=None) -> ImportPlan:
    """Check every row and compute every split; refuse with every problem named."""
    header, raw = _read(text)
    missing = [c for c in IMPORT_REQUIRED if c not in header]
    if missing:
        raise ImportRefused(
            [f"header: missing column(s) {', '.join(missing)}; the file needs {','.join(IMPORT_REQUIRED)}"]
        )
    if not raw:
        raise ImportRefused(["the file has no draw rows"])
    problems: list[str] = []
    if event.status != EventStatus.RUNNING:
        raise ImportRefused([f"{event} is concluded; nothing more can be added to it"])
    if Draw.objects.filter(event=event, state__in=DRAW_IN_PROGRESS).exists():
        raise ImportRefused(["a draw of this event is under way; finish it before importing history"])
    closed = set(Draw.objects.filter(event=event, state=DrawState.CLOSED).values_list("number", flat=True))
    opened_envelopes = set(
        Envelope.objects.filter(event=event, opened_at__isnull=False).values_list("number", flat=True)
    )
    seen_cards = {c: n for n, c in Envelope.objects.filter(event=event).exclude(card="").values_list("number", "card")}
    parsed = []
    numbers: dict[int, int] = {}
    envelopes: dict[int, int] = {}
    cards: dict[str, int] = {}
    for line, row in raw:
        where = f"row {line}"
        try:
            number = int(row["draw_number"])
            if number < 1:
                raise ValueError
        except ValueError:
            problems.append(f"{where}: draw_number {row['draw_number']!r} is not a draw number (1, 2, 3...)")
            continue
        where = f"row {line} (draw {number})"
        if number in numbers:
            problems.append(f"{where}: draw number {number} appears twice (also row {numbers[number]})")
        numbers.setdefault(number, line)
        if number in closed:
            problems.append(f"{where}: draw {number} is already recorded in this event")
        try:
            date = datetime.date.fromisoformat(row["draw_date"])
        except ValueError:
            problems.append(f"{where}: draw_date {row['draw_date']!r} is not a date like 2026-03-05")
            date = None
        try:
            sales = parse_amount(row["ticket_sales"].lstrip("'"), what="ticket_sales")
        except MoneyError as error:
            problems.append(f"{where}: {error}")
            sales = None
        try:
            envelope = int(row["envelope"])
            if not 1 <= envelope <= ENVELOPE_COUNT:
                raise ValueError
        except ValueError:
            problems.append(f"{where}: envelope {row['envelope']!r} is not a number from 1 to 52")
            envelope = None
        if envelope is not None:
            if envelope in envelopes:
                problems.append(f"{where}: envelope {envelope} was already opened in row {envelopes[envelope]}")
            elif envelope in opened_envelopes:
                problems.append(f"{where}: envelope {envelope} is already open in this event")
            envelopes.setdefault(envelope, line)
        try:
            card = parse_card(row["card"].lstrip("'"))
        except DomainError as error:
            problems.append(f"{where}: {error}")
            card = None
        if card is not None:
            if card in cards:  # R:E1
                problems.append(f"{where}: the {card_name(card)} ({card}) appears twice (also row {cards[card]})")
            elif card in seen_cards:
                problems.append(f"{where}: the {card_name(card)} is already in envelope {seen_cards[card]}")
            cards.setdefault(card, line)
        published = {}
        for name in IMPORT_PUBLISHED:
            try:
                published[name] = _published(row.get(name, ""))
            except MoneyError as error:
                problems.append(f"{where}: {name}: {error}")
        parsed.append((line, number, date, sales, envelope, card, published))
    parsed.sort(key=lambda p: p[1])
    first_expected = max(closed, default=0) + 1
    for index, (line, number, *_rest) in enumerate(parsed):
        if number != first_expected + index and number not in closed:
            problems.append(
                f"row {line} (draw {number}): draws must follow on without a gap from draw "
                f"{first_expected}; expected draw {first_expected + index}"
            )
            break
    dates = [(p[0], p[1], p[2]) for p in parsed if p[2]]
    problems += _date_problems(event, dates)
    aces = [p for p in parsed if p[5] == ACE_OF_SPADES]
    if aces and aces[0] is not parsed[-1]:  # R:P4
        problems.append(
            f"row {aces[0][0]} (draw {aces[0][1]}): the Ace of Spades ends the event; no draw can follow it"
        )
    if problems:
        raise ImportRefused(problems)

    opening = _opening_jackpot(event, opening_jackpot, first_number=parsed[0][1])
    plan = ImportPlan(event=event, rows=[], opening_jackpot=opening)
    jackpot = opening
    committed = prizes_committed(event)  # R:L3 R:P6 the seed and the draws already closed
    for line, number, date, sales, envelope, card, published in parsed:
        # R:P1 R:L3 the figures and refusals of the close-sales step a live draw runs
        # (`close_sales_figures`), with the prizes of the rows before and the board in force that day.
        try:
            figures = close_sales_figures(
                Draw(event=event, number=number, is_imported=True),
                ticket_sales=sales,
                jackpot_before=jackpot,
                committed=committed,
                on=date,
            )
        except DomainError as error:
            raise ImportRefused([f"row {line} (draw {number}): {error}"]) from None
        committed += figures.split.draw_prize + figures.split.jackpot_contribution
        planned = PlannedDraw(
            line=line,
            number=number,
            date=date,
            sales=figures.sales,
            draw_prize=figures.split.draw_prize,
            jackpot_contribution=figures.split.jackpot_contribution,
            licensee_share=figures.split.licensee_share,
            jackpot_before=figures.jackpot_before,
            jackpot_after=figures.jackpot_after,
            envelope=envelope,
            card=card,
        )
        for name, value in published.items():
            computed = getattr(planned, name)
            if value is not None and value != computed:
                plan.mismatches.append(
                    f"row {line} (draw {number}): published {name} {value} but the computed figure is {computed}"
                )
        jackpot = planned.jackpot_after
        plan.rows.append(planned)
    return plan


def _date_problems(event: Event, dates: list[tuple[int, int, datetime.date]]) -> list[str]:
    """R:L3 R:D9 the imported draws were held under this licence, in order,
    after the draws already recorded, and not later than today."""
    licence, today = event.licence, timezone.localdate()
    problems = []
    last = Draw.objects.filter(event=event, state=DrawState.CLOSED).order_by("-number").first()
    previous = [(None, last.number, timezone.localdate(last.scheduled_at))] if last else []
    in_order = previous + dates
    for (_, n1, d1), (line, n2, d2) in zip(in_order, in_order[1:], strict=False):
        if d2 <= d1:
            problems.append(f"row {line} (draw {n2}): its date {d2} is not after draw {n1}'s ({d1})")
    for line, number, day in dates:
        if day < licence.issued_on:
            problems.append(
                f"row {line} (draw {number}): its date {day} is before licence {licence.number} was issued "
                f"({licence.issued_on}); only draws held under this licence can be imported"
            )
        elif day > today:
            problems.append(
                f"row {line} (draw {number}): its date {day} is still to come; only draws already held can be imported"
            )
    return problems


def _opening_jackpot(event: Event, given, *, first_number: int):
    """R:P6 R:L3 the jackpot the first imported draw starts from is the
    event's: its seed before draw 1, else the jackpot carried by the draws
    recorded. A different opening jackpot would put prizes outside the prize
    board; the seed is set when the event is set up."""
    opening = event.jackpot
    if given is None or str(given).strip() == "":
        return opening
    try:
        given = parse_amount(given, what="The opening jackpot")
    except MoneyError as error:
        raise ImportRefused([str(error)]) from None
    if given != opening:
        where = "its seed jackpot" if first_number == 1 else f"the jackpot carried into draw {first_number}"
        raise ImportRefused(
            [
                f"the opening jackpot {format_money(given)} is not {where}, {format_money(opening)}: a seed "
                "counts in the prize board, so it is set when the event is set up (setup_event --seed-jackpot)"
            ]
        )
    return opening
