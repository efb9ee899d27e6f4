"""`{{ amount|money }}`: $1,234.50, the same on every page and in every
locale (Django's en-ca format would group with spaces), via core.money."""

from django import template

from core.money import format_money

register = template.Library()


@register.filter
def money(amount):
    """$1,234.50; an em dash when there is no figure."""
    return format_money(amount)
