"""CSV export that a spreadsheet cannot be tricked by (CSV injection).

A cell starting with = + - @ (or a tab or carriage return) is read as a
formula by Excel and LibreOffice; such text cells get a leading apostrophe.
Numbers (Decimal, int) are written as they are, so amounts stay numbers.
"""

import csv
from decimal import Decimal

from django.http import HttpResponse, StreamingHttpResponse

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


class _Echo:
    """A file whose write() hands back what it is given: csv.writer's
    writerow() then returns the line it wrote."""

    def write(self, value):
        return value


def csv_lines(header: list[str], rows):
    """The CSV of `header` and `rows`, formula-safe, one line at a time."""
    writer = csv.writer(_Echo(), lineterminator="\n")
    yield writer.writerow(header)
    for row in rows:
        yield writer.writerow([safe_cell(v) for v in row])


def csv_text(header: list[str], rows) -> str:
    return "".join(csv_lines(header, rows))


def csv_attachment(content, filename: str) -> HttpResponse:
    """A CSV file to download: `content` is its text, or an iterable of its
    lines, sent as they are made (a StreamingHttpResponse)."""
    kind = HttpResponse if isinstance(content, str) else StreamingHttpResponse
    response = kind(content, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def csv_download(header: list[str], rows, filename: str) -> StreamingHttpResponse:
    """A CSV file sent as it is written (#18): `rows` is read while the
    response goes out, so an export of a season's million rows never sits
    in memory whole."""
    return csv_attachment(csv_lines(header, rows), filename)


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
