from django import template

from core.audit import anchor_text

register = template.Library()


@register.simple_tag
def audit_anchor(organisation=None) -> str:
    """`{% audit_anchor licence.organisation %}`: the organisation's audit chain
    head as of now, printed on an issued report so an auditor can check later
    that the trail still holds it (`verify_audit`)."""
    return anchor_text(organisation)
