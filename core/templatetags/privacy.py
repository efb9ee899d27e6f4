from django import template

from core.privacy import contact_for as _contact_for

register = template.Library()


@register.filter
def contact_for(value, user):
    """`{{ ticket.purchaser_phone|contact_for:request.user }}`: full or masked."""
    return _contact_for(user, value)
