"""The French catalogue (locale/fr/LC_MESSAGES/django.po) as the tests read it."""


def read_po(path) -> dict[str, str]:
    """The msgid -> msgstr pairs of a .po file (no plurals or contexts used here)."""
    import ast

    entries, key, current = {}, None, None
    parts: dict[str, list[str]] = {"msgid": [], "msgstr": []}

    def flush():
        msgid = "".join(parts["msgid"])
        if msgid:  # the empty msgid is the catalogue's header
            entries[msgid] = "".join(parts["msgstr"])
        parts["msgid"], parts["msgstr"] = [], []

    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("msgid "):
            flush()
            key, current = "msgid", line[6:]
        elif line.startswith("msgstr "):
            key, current = "msgstr", line[7:]
        elif line.startswith('"') and key:
            current = line
        else:
            continue
        parts[key].append(ast.literal_eval(current))
    flush()
    return entries
