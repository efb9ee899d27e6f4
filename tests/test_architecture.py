"""The shape of the code (DEVELOPERS.md, STYLE.md): the project's imports
form no cycle, no module imports another's private names, and no module of
application code is over 400 lines. Read with `ast`, nothing is imported."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("raffle", "licensing", "core", "config")
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    """Every project module (migrations excluded) by dotted name."""
    found = {}
    for top in PACKAGES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _imports(name: str, path: Path) -> list[tuple[str, list[str], int]]:
    """(imported project module, names taken from it, line) for every import
    in the module, at its top or inside a function."""
    is_package = path.name == "__init__.py"
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, [], node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the module's own package
                package = name.split(".") if is_package else name.split(".")[:-1]
                package = package[: len(package) - node.level + 1]
                base = ".".join([*package, base] if base else package)
            for alias in node.names:
                submodule = f"{base}.{alias.name}"
                if submodule in MODULES:  # `from package import module`
                    found.append((submodule, [], node.lineno))
                else:
                    found.append((base, [alias.name], node.lineno))
    return [(target, names, line) for target, names, line in found if target in MODULES]


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _cycles() -> list[list[str]]:
    """Each cycle of the import graph once (depth-first search); an import of
    a package's own submodule from its `__init__` is the package's shape, not
    a cycle, and is left out."""
    edges = {
        name: sorted(
            {
                t
                for t, _, _ in imports
                if t != name and not (t.startswith(name + ".") and MODULES[name].name == "__init__.py")
            }
        )
        for name, imports in GRAPH.items()
    }
    cycles, state, stack = [], {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for target in edges[node]:
            if state.get(target) == "open":
                cycles.append(stack[stack.index(target) :] + [target])
            elif target not in state:
                visit(target)
        stack.pop()
        state[node] = "done"

    for node in sorted(edges):
        if node not in state:
            visit(node)
    return cycles


def test_the_project_imports_form_no_cycle():
    assert _cycles() == []


def test_no_module_imports_a_private_name_of_another():
    found = [
        f"{MODULES[name].relative_to(ROOT)}:{line} takes {private} from {target}"
        for name, imports in GRAPH.items()
        for target, names, line in imports
        for private in names
        if private.startswith("_") and target != name
    ]
    assert found == []


def test_no_module_of_application_code_is_over_400_lines():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in MODULES.values()
        if (lines := len(path.read_text().splitlines())) > MAX_LINES
    }
    assert long == {}


def test_the_checks_see_what_they_check():
    """The walk finds the project and its imports (a check that sees nothing
    would pass for nothing)."""
    assert "raffle.services.draw_machine" in MODULES and "raffle.models" in MODULES
    assert "raffle.services.draw_machine" in {t for t, _, _ in GRAPH["raffle.services.draws"]}
    assert not [name for name in MODULES if ".migrations" in name]
