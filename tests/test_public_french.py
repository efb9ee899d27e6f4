"""#16 French on every page, public and staff: each template's words go
through the catalogue (locale/fr), every one of them is translated, and no
English sentence is left outside a translation tag. A new English string in
any template fails here until `make messages` gathers it and it is
translated."""

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation.template import templatize

from core.pdf import pdf_text
from core.roles import SELLER
from tests.catalogue import read_po
from tests.factories import user_with_role

TEMPLATES = Path(settings.BASE_DIR) / "templates"

# What anyone may open without signing in, and what a purchaser holds.
PUBLIC_TEMPLATES = [
    "base.html",
    "_error_page.html",
    "400.html",
    "403.html",
    "403_csrf.html",
    "404.html",
    "500.html",
    "raffle/home.html",
    "raffle/board.html",
    "raffle/board_body.html",
    "raffle/results/public.html",
    "raffle/results/announcement.html",
    "raffle/rules_of_play.html",
    "raffle/_rules_body.html",
    "registration/login.html",
    "registration/locked_out.html",
    "registration/two_factor_setup.html",
    "registration/two_factor_verify.html",
    "pdf/base.html",
    "pdf/ticket.html",
    "pdf/rules_of_play.html",
]

# Every template: the public ones above, every staff page, report PDF and e-mail.
ALL_TEMPLATES = sorted(str(p.relative_to(TEMPLATES)) for p in TEMPLATES.rglob("*") if p.suffix in (".html", ".txt"))

# Names that are the same in both languages.
PROPER_NAMES = {"ConnexOntario"}

_LITERAL = r"(u?'(?:[^'\\]|\\.)*'|u?\"(?:[^\"\\]|\\.)*\")"
_GETTEXT = re.compile(rf"(?:\bgettext|(?<![\w.])_)\({_LITERAL}\)")  # {% translate %}, and _("...") inside a tag
_NGETTEXT = re.compile(rf"\bngettext\({_LITERAL}, {_LITERAL}, count\)")
_BLOCKS = re.compile(r"{%\s*(blocktranslate|blocktrans|comment)\b.*?{%\s*end\1\s*%}", re.S)
_TAGS = re.compile(r"{%.*?%}|{{.*?}}|{#.*?#}", re.S)
_WORD = re.compile(r"[A-Za-zÀ-ÿ]{2,}")


def _msgids(source: str) -> list[str]:
    import ast

    python = templatize(source)
    plurals = [singular for singular, _plural in _NGETTEXT.findall(python)]  # the catalogue's key
    return [ast.literal_eval(literal.lstrip("u")) for literal in _GETTEXT.findall(python) + plurals]


_NOT_WORDS = ("script", "style", "code", "kbd", "samp")


class _VisibleText(HTMLParser):
    """The words a reader sees (text, alt, title, aria-label, placeholder)
    once every template tag and translation block is taken out. Code (a
    command to type, a hash) is the same in both languages."""

    def __init__(self):
        super().__init__()
        self.words: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        self._hidden += tag in _NOT_WORDS
        self.words += [v for k, v in attrs if k in ("alt", "title", "aria-label", "placeholder") and v]

    def handle_endtag(self, tag):
        self._hidden -= tag in _NOT_WORDS

    def handle_data(self, data):
        if not self._hidden:
            self.words.append(data)


def _untranslated_words(source: str) -> list[str]:
    source = re.sub(r"{%\s*block style\s*%}.*?{%\s*endblock\s*%}", " ", source, flags=re.S)  # CSS
    parser = _VisibleText()
    parser.feed(_TAGS.sub(" ", _BLOCKS.sub(" ", source)))
    return [w for text in parser.words for w in _WORD.findall(text) if w not in PROPER_NAMES]


@pytest.fixture(scope="module")
def catalogue() -> dict[str, str]:
    return read_po(Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po")


@pytest.mark.parametrize("name", ALL_TEMPLATES)
def test_every_string_of_a_template_is_in_the_french_catalogue(name, catalogue):  # R:R4
    source = (TEMPLATES / name).read_text(encoding="utf-8")
    missing = [msgid for msgid in _msgids(source) if not catalogue.get(msgid)]
    assert not missing, f"{name}: not translated in locale/fr: {missing}"


@pytest.mark.parametrize("name", ALL_TEMPLATES)
def test_no_english_is_left_outside_the_translation_tags_of_a_template(name):  # R:R4
    assert not _untranslated_words((TEMPLATES / name).read_text(encoding="utf-8")), name


# Words handed to an included template or a filter inside a tag: `legend="..."`
# must be `legend=_("...")`, and so must a default of more than one word.
_TAG_WORDS = re.compile(r"{%[^%]*?\b(?:legend|button)=\"[^\"]*\"[^%]*%}|\bdefault:\"[^\"]* [^\"]*\"")


@pytest.mark.parametrize("name", ALL_TEMPLATES)
def test_no_english_is_handed_to_a_tag_outside_the_catalogue(name):  # R:R4
    assert not _TAG_WORDS.findall((TEMPLATES / name).read_text(encoding="utf-8")), name


def test_the_checks_catch_a_forgotten_string(catalogue):
    """The two checks above fail on the mistakes they exist for."""
    assert _untranslated_words("<p>Buy tickets</p><p>{% translate 'Sold out' %}</p>") == ["Buy", "tickets"]
    assert _msgids("{% load i18n %}{% translate 'A sentence nobody translated' %}") == ["A sentence nobody translated"]
    assert not catalogue.get("A sentence nobody translated")
    plural = "{% load i18n %}{% blocktranslate count n=k %}One draw{% plural %}{{ n }} draws{% endblocktranslate %}"
    assert _msgids(plural) == ["One draw"]
    assert _untranslated_words("<p>Run <code>manage.py verify_audit</code> now</p>") == ["Run", "now"]
    assert _TAG_WORDS.findall('{% include "f.html" with legend="Record a deposit" %}')
    assert _TAG_WORDS.findall('{{ roll.returned_at|default:"still out" }}')
    assert not _TAG_WORDS.findall('{% include "f.html" with legend=_("Record a deposit") %}{{ x|default:"letter" }}')
    assert _msgids('{% load i18n %}{% include "f.html" with legend=_("Record a deposit") %}') == ["Record a deposit"]


def test_the_public_pages_are_among_the_templates_checked():
    assert set(PUBLIC_TEMPLATES) <= set(ALL_TEMPLATES) and len(ALL_TEMPLATES) > 70


# --- What a French reader gets ------------------------------------------------------------------


@pytest.mark.django_db
def test_a_french_browser_gets_the_sign_in_page_in_french(client):  # R:R4
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9").content.decode()
    assert '<html lang="fr">' in page and "Attrapez l’as" in page
    assert "Sign in" not in page


@pytest.mark.django_db
def test_a_ticket_printed_in_french_reads_french_with_french_money_and_dates(client):  # R:R4 R:T10
    """A seller whose browser speaks French prints a ticket in French: the
    draw's date as "jeudi 10 décembre 2026, 19 h 30" and the price as
    "20,00 $", every label in French, the helpline included."""
    from tests.test_ticket_layouts import ten_ticket_sale

    seller = user_with_role(SELLER)
    client.force_login(seller)
    sale = ten_ticket_sale(seller, seller=seller)
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    response = client.post(reverse("sale_ticket_pdf", args=[sale.pk]), {"paper": "receipt"})
    text = " ".join(pdf_text(response.content).split())
    scheduled = timezone.localtime(sale.draw.scheduled_at)
    with translation.override("fr"):
        french_date = formats.date_format(scheduled, r"l j F Y, G \h i")
    assert f"Tirage 1, {french_date}" in text
    assert "20,00 $" in text and "Billet 1 sur 10" in text and "Aide pour le jeu problématique" in text
    assert "Valable pour le tirage 1 seulement" in text, text
    for english in ("Ticket ", "Draw 1", "Purchaser:", "$20.00"):
        assert english not in text, english
    sheets = client.post(reverse("sale_ticket_pdf", args=[sale.pk]), {"paper": "letter"})
    assert "Page 1 de 2" in pdf_text(sheets.content)  # the footer's counter, translated as one sentence
