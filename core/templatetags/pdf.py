"""Template helpers of the PDF layout (templates/pdf/base.html)."""

import json

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag
def page_counter_css() -> str:
    """The CSS `content` of the "Page 2 of 5" footer in the reader's language:
    the translated sentence, its placeholders turned into CSS page counters
    (the translator sees one whole sentence, not "Page" and "of" apart)."""
    sentence = gettext("Page %(page)s of %(pages)s")
    parts = []
    for chunk in sentence.replace("%(pages)s", "\0pages\0").replace("%(page)s", "\0page\0").split("\0"):
        if chunk in ("page", "pages"):
            parts.append(f"counter({chunk})")
        elif chunk:
            parts.append(json.dumps(chunk, ensure_ascii=False))  # a CSS string: quotes and backslashes escaped
    return mark_safe(" ".join(parts))
