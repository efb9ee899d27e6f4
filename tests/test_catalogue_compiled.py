"""#16 the French catalogue, whole: every entry of locale/fr/LC_MESSAGES/django.po
is translated (none empty, none fuzzy), and the committed django.mo says
what the .po says, entry by entry, so a machine without GNU gettext that
runs the committed .mo (`make run` falls back to it) reads the same French
as one that compiles it at install (`make compile-messages`)."""

import gettext
import shutil
import subprocess
from pathlib import Path

from django.conf import settings

from tests.catalogue import read_po_entries

LOCALE = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES"


def _committed_mo() -> gettext.GNUTranslations:
    with (LOCALE / "django.mo").open("rb") as handle:
        return gettext.GNUTranslations(handle)


def test_every_entry_of_the_french_catalogue_is_translated():  # R:R4
    entries = read_po_entries(LOCALE / "django.po")
    assert len(entries) > 2000
    untranslated = [e.msgid for e in entries if not e.translated]
    assert not untranslated, f"empty or fuzzy in locale/fr: {untranslated}"


def test_the_committed_mo_is_compiled_from_the_po():  # R:R4
    """Run `make compile-messages` (or `make messages`) and commit the .mo when this fails."""
    mo = _committed_mo()
    entries = read_po_entries(LOCALE / "django.po")
    stale = []
    for entry in entries:
        if entry.msgid_plural:
            got = [mo.ngettext(entry.msgid, entry.msgid_plural, n) for n in (1, 2)]
        else:
            got = [mo.gettext(entry.msgid)]
        if got != entry.msgstrs:
            stale.append(entry.msgid)
    assert not stale, f"django.mo differs from django.po for: {stale[:10]}"
    # Nothing the .po dropped lingers in the .mo (its catalogue keys: header, singulars, plural forms).
    keys = {k[0] if isinstance(k, tuple) else k for k in mo._catalog}
    assert keys - {""} == {e.msgid for e in entries}


def test_the_checks_catch_a_stale_mo(tmp_path):
    """A translation changed in the .po and not compiled is caught."""
    po = (LOCALE / "django.po").read_text(encoding="utf-8")
    changed = po.replace('msgstr "Tirage %(number)s"', 'msgstr "Tirage numéro %(number)s"', 1)
    assert changed != po
    (tmp_path / "django.po").write_text(changed, encoding="utf-8")
    entry = next(e for e in read_po_entries(tmp_path / "django.po") if e.msgid == "Draw %(number)s")
    assert _committed_mo().gettext(entry.msgid) != entry.msgstrs[0]


def test_make_runs_on_the_committed_mo_without_gettext(tmp_path):
    """`make compile-messages` (a step of install, run and test) says it uses
    the committed .mo, and succeeds, on a machine without msgfmt."""
    make = shutil.which("make")
    if make is None:
        import pytest

        pytest.skip("make is not installed")
    before = (LOCALE / "django.mo").read_bytes()
    done = subprocess.run(
        [make, "--no-print-directory", "compile-messages"],
        cwd=settings.BASE_DIR,
        env={"PATH": str(tmp_path)},  # no msgfmt on this PATH
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "msgfmt (GNU gettext) not found: using the committed" in done.stdout
    assert (LOCALE / "django.mo").read_bytes() == before
