"""Copies of the deposit slips in the final report (R2): each slip with its
scan inline when it is an image, so the report carries them."""

import base64
import pathlib
from dataclasses import dataclass

IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
}


@dataclass
class SlipCopy:
    """A deposit slip for the final report: its scan inline when it is an image (R2)."""

    deposit: object
    image_uri: str = ""

    @property
    def has_scan(self) -> bool:
        return bool(self.deposit.slip_scan)

    @property
    def draws_covered(self) -> str:
        """The draw numbers whose sales this slip holds (L12): read with the
        deposit (`covered_draw_numbers`), else from its prefetched coverage."""
        numbers = getattr(self.deposit, "covered_draw_numbers", None)
        if numbers is None:
            numbers = [cover.draw.number for cover in self.deposit.coverage.all()]
        return ", ".join(str(number) for number in numbers)


def image_uri(file_field) -> str:
    """A scan as a data: URI for the PDF (no network or disk fetch from a
    report); empty when there is none, it is not an image, or it is missing."""
    if not file_field:
        return ""
    kind = IMAGE_TYPES.get(pathlib.PurePath(file_field.name).suffix.lower())
    if not kind:
        return ""
    try:
        with file_field.open("rb") as handle:
            return f"data:{kind};base64,{base64.b64encode(handle.read()).decode()}"
    except OSError:
        return ""  # the file is missing from storage: the report says so


def slip_copies(deposits) -> list[SlipCopy]:
    """Each deposit slip with its scan inline when the scan is an image."""
    return [SlipCopy(deposit=d, image_uri=image_uri(d.slip_scan)) for d in deposits]
