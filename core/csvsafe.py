"""CSV export that a spreadsheet cannot be tricked by (CSV injection).

A cell starting with = + - @ (or a tab or carriage return) is read as a
formula by Excel and LibreOffice; such text cells get a leading apostrophe.
Numbers (Decimal, int) are written as they are, so amounts stay numbers.
"""

import csv
import io
from decimal import Decimal

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (Decimal, int)) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    if text.startswith(FORMULA_STARTS):
        return "'" + text
    return text


def csv_text(header: list[str], rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow([safe_cell(v) for v in row])
    return buffer.getvalue()


def read_rows(reader, refuse):
    """The rows of a `csv.reader`/`DictReader`, with a malformed file (a field
    over the module's 128 KB limit, a NUL byte) turned into `refuse(line,
    problem)`, the caller's domain error, instead of a crash."""
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            text = str(error)
            if "field larger than field limit" in text:
                text = f"a field is longer than {csv.field_size_limit():,} characters; no field can be that long"
            raise refuse(reader.line_num, text) from None
        yield row
