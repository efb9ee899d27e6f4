"""Text that reaches PDFs and CSV exports: control characters (a newline in a
licence number, a bell, a NUL) are refused where text is typed, and digits are
ASCII digits (Python's `"²".isdigit()` is true, `int("²")` fails).

Every form's text field gets the check (`core.apps` adds
`refuse_control_characters` to `forms.CharField`): single-line fields refuse
every control character, multi-line ones (a textarea) allow line breaks and
tabs only."""

import re

from django.core.exceptions import ValidationError

# C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROL_MULTILINE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029]")
MESSAGE = "Type this on one line, without control characters (line breaks, tabs and the like)."
MESSAGE_MULTILINE = "This contains control characters that cannot be printed; retype it."


def has_control_characters(value: str, *, multiline: bool = False) -> bool:
    return bool((_CONTROL_MULTILINE if multiline else _CONTROL).search(value))


def refuse_control_characters(value) -> None:
    if isinstance(value, str) and has_control_characters(value):
        raise ValidationError(MESSAGE, code="control_characters")


def refuse_control_characters_multiline(value) -> None:
    if isinstance(value, str) and has_control_characters(value, multiline=True):
        raise ValidationError(MESSAGE_MULTILINE, code="control_characters")


def ascii_digits(text: str) -> bool:
    """True for "0042", false for "²", "٣" or ""."""
    return text.isascii() and text.isdigit()


def guard_every_text_field() -> None:
    """Make every form's text field (`forms.CharField` and its kinds) refuse
    control characters, reading the widget when the form is checked: a
    textarea keeps its line breaks and tabs. Called once by `core.apps`."""
    from django import forms

    original = forms.CharField.run_validators
    if getattr(original, "refuses_control_characters", False):
        return

    def run_validators(self, value):
        original(self, value)
        if isinstance(self.widget, forms.Textarea):
            refuse_control_characters_multiline(value)
        else:
            refuse_control_characters(value)

    run_validators.refuses_control_characters = True
    forms.CharField.run_validators = run_validators
