"""`{{ amount|money }}`: $1,234.50, the same on every page and in every
locale (Django's en-ca format would group with spaces), via core.money."""

from django import template

from core.money import format_money

register = template.Library()


@register.filter
def money(amount):
    """$1,234.50; an em dash when there is no figure."""
    return format_money(amount)


@register.filter
def fit(text) -> str:
    """`{{ amount|money|fit }}`: the class that sizes a big figure to the width
    of its box by its length in characters (static/css/app.css, `.fit-N`),
    so $1,234,567.89 shrinks to fit a phone's card instead of spilling over
    its neighbour. Styles only, so the page's CSP needs no inline style."""
    return f"fit fit-{min(max(len(str(text)), 8), 17)}"
