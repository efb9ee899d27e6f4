"""The French catalogue (locale/fr/LC_MESSAGES/django.po) as the tests read it."""

from dataclasses import dataclass, field


@dataclass
class Entry:
    msgid: str
    msgid_plural: str = ""
    msgstrs: list[str] = field(default_factory=list)  # one, or one per plural form
    fuzzy: bool = False

    @property
    def translated(self) -> bool:
        return bool(self.msgstrs) and all(self.msgstrs) and not self.fuzzy


def read_po_entries(path) -> list[Entry]:
    """Every entry of a .po file but its header, plural forms and fuzzy flags included (no contexts used here)."""
    import ast

    entries: list[Entry] = []
    current: Entry | None = None
    target: list[str] | None = None
    fuzzy = False

    def flush():
        if current is not None and current.msgid:  # the empty msgid is the catalogue's header
            current.msgstrs = ["".join(parts) for parts in current.msgstrs]
            entries.append(current)

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#,"):
            fuzzy = "fuzzy" in line
        elif line.startswith("msgid "):
            flush()
            current, target = Entry(msgid="", fuzzy=fuzzy), None
            fuzzy = False
            current.msgid = ast.literal_eval(line[6:])
            target = "msgid"
        elif line.startswith("msgid_plural "):
            current.msgid_plural, target = ast.literal_eval(line[13:]), "plural"
        elif line.startswith("msgstr"):
            literal = line.split(" ", 1)[1]
            current.msgstrs.append([ast.literal_eval(literal)])
            target = "msgstr"
        elif line.startswith('"') and current is not None and target:
            text = ast.literal_eval(line)
            if target == "msgid":
                current.msgid += text
            elif target == "plural":
                current.msgid_plural += text
            else:
                current.msgstrs[-1].append(text)
    flush()
    return entries


def read_po(path) -> dict[str, str]:
    """The msgid -> msgstr pairs of a .po file; a plural entry gives its first
    form, or "" when any form (or the entry, being fuzzy) is untranslated."""
    return {e.msgid: (e.msgstrs[0] if e.translated else "") for e in read_po_entries(path)}
