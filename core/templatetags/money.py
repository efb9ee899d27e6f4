"""`{{ amount|money }}` and `{{ moment|when }}`: figures and times written the
way the reader's language writes them, the same on every page and PDF:
$1,234.50 and "Thursday 10 December 2026, 7:30 p.m." in English,
1 234,50 $ and "jeudi 10 décembre 2026, 19 h 30" in Canadian French
(Django's own en-ca format would group money with spaces)."""

from django import template
from django.utils import timezone
from django.utils.dateformat import format as format_date
from django.utils.translation import get_language

from core.money import format_money_in

register = template.Library()

# The formats of `when`, by length and language (PHP-style, as Django's `date`).
WHEN_FORMATS = {
    "en": {"long": "l j F Y, g:i a", "short": "D j M Y, g:i a"},
    "fr": {"long": r"l j F Y, G \h i", "short": r"D j N Y, G \h i"},
}


def _language() -> str:
    return "fr" if (get_language() or "en").startswith("fr") else "en"


@register.filter
def money(amount):
    """$1,234.50 (1 234,50 $ in French); an em dash when there is no figure."""
    return format_money_in(amount, _language())


@register.filter
def when(moment, length: str = "long"):
    """A date and time in the local time zone, as the reader's language writes
    it: `{{ draw.scheduled_at|when }}`, or `|when:"short"` for a weekday and
    month in three letters. Empty when there is no time."""
    if not moment:
        return ""
    return format_date(timezone.localtime(moment), WHEN_FORMATS[_language()][length])


@register.filter
def fit(text) -> str:
    """`{{ amount|money|fit }}`: the class that sizes a big figure to the width
    of its box by its length in characters (static/css/app.css, `.fit-N`),
    so $1,234,567.89 shrinks to fit a phone's card instead of spilling over
    its neighbour. Styles only, so the page's CSP needs no inline style."""
    return f"fit fit-{min(max(len(str(text)), 8), 17)}"
