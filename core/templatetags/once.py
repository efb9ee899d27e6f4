from django import template
from django.utils.html import format_html

from core.once import FIELD, new_token

register = template.Library()


@register.simple_tag
def once_token():
    """`{% once_token %}` inside a form that creates money or tickets: its
    one-time token (core.once), so the form is performed once however often
    it is sent."""
    return format_html('<input type="hidden" name="{}" value="{}">', FIELD, new_token())
