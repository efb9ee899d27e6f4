"""The supplier files' generic format and the mappings that read a supplier's
own export into it (docs/suppliers.md).

A file is read into rows of the generic columns below, each with its line
number in the file; the import service checks them. A mapping is data (a JSON
file): which of the supplier's columns holds each generic column, how its
values translate (e.g. its status `PAID` is our `sold`) and how it writes
dates. Adding a supplier means adding a mapping file, never editing the core.
"""

import csv
import datetime
import io
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import itemgetter
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext

from core.csvsafe import read_rows as read_csv_rows
from raffle.errors import RaffleError

SALES_COLUMNS = (
    "order_id",
    "ticket_number",
    "sold_at",
    "price_tier",
    "amount",
    "purchaser_name",
    "purchaser_address",
    "purchaser_phone",
    "purchaser_email",
    "envelope_pick",
    "status",
)
RESULT_COLUMNS = ("draw_number", "winning_ticket_number", "drawn_at", "rng_reference")
SETTLEMENT_COLUMNS = (
    "settlement_date",
    "gross",
    "processing_fees",
    "supplier_fees",
    "net_deposited",
    "deposit_reference",
)
COLUMNS = {"sales": SALES_COLUMNS, "result": RESULT_COLUMNS, "settlement": SETTLEMENT_COLUMNS}


class ImportRefused(RaffleError):
    """A supplier file refused whole: the message names the file, the line and
    the column, so the treasurer can find the cell."""

    def __init__(self, *, file: str, line: int, column: str, problem: str, rule: str | None = None):
        if column:
            where = gettext("%(file)s, line %(line)s, column %(column)s") % {
                "file": file,
                "line": line,
                "column": column,
            }
        else:
            where = gettext("%(file)s, line %(line)s") % {"file": file, "line": line}
        super().__init__(
            gettext("%(where)s: %(problem)s Nothing was imported.") % {"where": where, "problem": problem}, rule=rule
        )
        self.file, self.line, self.column, self.problem = file, line, column, problem


@dataclass(frozen=True)
class SupplierMapping:
    """How one supplier's export reads as the generic format."""

    name: str
    # generic column -> the supplier's column, per file kind; a generic column
    # not listed keeps its own name.
    columns: dict[str, dict[str, str]] = field(default_factory=dict)
    # generic column -> {the supplier's value: ours}
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    # strptime formats of the supplier's dates and times; ISO 8601 when empty
    datetime_format: str = ""
    date_format: str = ""
    delimiter: str = ","

    @classmethod
    def from_json(cls, text: str) -> "SupplierMapping":
        data = json.loads(text)
        return cls(
            name=data["name"],
            columns=data.get("columns", {}),
            values=data.get("values", {}),
            datetime_format=data.get("datetime_format", ""),
            date_format=data.get("date_format", ""),
            delimiter=data.get("delimiter", ","),
        )


GENERIC = SupplierMapping(name="generic")


@contextmanager
def their_columns(mapping: SupplierMapping, kind: str):
    """A refusal inside names the supplier's own column, as its file spells it."""
    try:
        yield
    except ImportRefused as error:
        theirs = mapping.columns.get(kind, {}).get(error.column)
        if not theirs or theirs == error.column:
            raise
        raise ImportRefused(
            file=error.file, line=error.line, column=theirs, problem=error.problem, rule=error.rule
        ) from None


def available_mappings() -> dict[str, SupplierMapping]:
    """The generic format and every `*.json` mapping in SUPPLIER_MAPPINGS_DIR."""
    mappings = {GENERIC.name: GENERIC}
    folder = Path(settings.SUPPLIER_MAPPINGS_DIR)
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else []:
        mapping = SupplierMapping.from_json(path.read_text(encoding="utf-8"))
        mappings[mapping.name] = mapping
    return mappings


def mapping_named(name: str | None) -> SupplierMapping:
    mappings = available_mappings()
    if (name or GENERIC.name) not in mappings:
        raise RaffleError(
            gettext("No supplier mapping is called %(name)s; known: %(sorted)s.")
            % {"name": repr(name), "sorted": ", ".join(sorted(mappings))}
        )
    return mappings[name or GENERIC.name]


@dataclass
class SupplierFile:
    """One uploaded file: its name (for messages) and its bytes."""

    name: str
    content: bytes


def read_rows(file: SupplierFile, kind: str, mapping: SupplierMapping = GENERIC, *, strip: bool = True):
    """Yield (line number, tuple of the generic columns' text) for each data
    row, stripped unless `strip` is false (the caller strips what it keeps).
    Refuses a missing column, naming it, before any row is read."""
    try:
        text = file.content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = file.content[: error.start].count(b"\n") + 1
        raise ImportRefused(
            file=file.name, line=line, column="", problem=gettext("the file is not UTF-8 text.")
        ) from None
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=mapping.delimiter)
    rows = read_csv_rows(
        reader, lambda line, problem: ImportRefused(file=file.name, line=line, column="", problem=problem + ".")
    )
    header = next(rows, None)
    if header is None:
        raise ImportRefused(
            file=file.name, line=1, column="", problem=gettext("the file is empty; it needs a header line.")
        )
    header = [h.strip() for h in header]
    renames = mapping.columns.get(kind, {})
    positions = []
    for column in COLUMNS[kind]:
        theirs = renames.get(column, column)
        if theirs not in header:
            raise ImportRefused(
                file=file.name,
                line=1,
                column=theirs,
                problem=(
                    gettext("the column “%(theirs)s” is missing (our %(column)s)")
                    if theirs != column
                    else gettext("the column “%(theirs)s” is missing")
                )
                % {"theirs": theirs, "column": column}
                + gettext("; the header must name %(columns)s.")
                % {"columns": ", ".join(renames.get(c, c) for c in COLUMNS[kind])},
            )
        positions.append(header.index(theirs))
    translate = [mapping.values.get(column) for column in COLUMNS[kind]]
    pick = itemgetter(*positions)
    plain = not strip and not any(translate)
    width = len(header)
    for number, row in enumerate(rows, start=2):
        if len(row) != width:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            raise ImportRefused(
                file=file.name,
                line=number,
                column="",
                problem=gettext(
                    "the line has %(count)s fields; the header has %(width)s (a comma inside a value needs the "
                    "value in double quotes)."
                )
                % {"count": len(row), "width": width},
            )
        if plain:  # the bulk path: the sales file in the generic format
            yield number, pick(row)
            continue
        values = [v.strip() for v in pick(row)] if strip else list(pick(row))
        yield (
            number,
            tuple(
                (table.get(v, table.get(v.strip(), v)) if table else v)
                for v, table in zip(values, translate, strict=True)
            ),
        )


def parse_datetime(value: str, mapping: SupplierMapping) -> datetime.datetime:
    """A timestamp in the mapping's format (ISO 8601 by default); without a
    zone it is the hall's local time."""
    if mapping.datetime_format:
        moment = datetime.datetime.strptime(value, mapping.datetime_format)
    else:
        moment = datetime.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = timezone.make_aware(moment)
    return moment


def parse_date(value: str, mapping: SupplierMapping) -> datetime.date:
    if mapping.date_format:
        return datetime.datetime.strptime(value, mapping.date_format).date()
    return datetime.date.fromisoformat(value)
