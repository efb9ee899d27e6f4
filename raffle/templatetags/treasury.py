"""Money on reports and treasury pages, always through `core.money`."""

from django import template

from core.money import format_money

register = template.Library()


@register.filter
def money(amount):
    """$1,234.50; an em dash when there is no figure."""
    return format_money(amount)
