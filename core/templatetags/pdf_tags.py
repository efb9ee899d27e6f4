"""Template filters for the PDF templates (see core.pdf)."""

from django import template
from django.utils.safestring import mark_safe

register = template.Library()

_PLAIN = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 .,:;·-_/()#$%!?")


@register.filter
def css_string(value) -> str:
    """Text for inside a double-quoted CSS string (e.g. `content: "…"` in a
    page footer). Every character that is not plainly safe is written as a CSS
    escape (`\\3c `), so quotes, backslashes and `</style>` cannot break out.
    (`escapejs` writes JavaScript escapes such as `\\u002D`, which CSS prints
    literally.)"""
    text = "" if value is None else str(value)
    return mark_safe("".join(ch if ch in _PLAIN else f"\\{ord(ch):x} " for ch in text))
