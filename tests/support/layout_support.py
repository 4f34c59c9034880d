"""Reading the layering of a package from its source (ast): its modules, their import graph, its import circles.

Shared by the layout tests (tests/layout/): every import counts, also one inside a function (a lazy import
hides a circle, it does not remove it), but for those under ``if TYPE_CHECKING:`` (read by type checkers
only, never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "rulelang"


def modules(root: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package under ``root``, by dotted name (a package by its ``__init__.py``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def run_time_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of a module but those under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``)."""
    out: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return out


def imports(mods: dict[str, Path]) -> tuple[dict[str, set[str]], set[tuple[str, str, str]]]:
    """The import graph among ``mods`` (module -> modules it imports, anywhere in its text), and the private
    names imported from another module (importer, module, name)."""
    edges: dict[str, set[str]] = {name: set() for name in mods}
    private: set[tuple[str, str, str]] = set()
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                edges[name].update(a.name for a in node.names if a.name in mods)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:  # relative: from the package (and its parents) of this module
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                for a in node.names:
                    if f"{base}.{a.name}" in mods:
                        edges[name].add(f"{base}.{a.name}")
                    elif base in mods:
                        edges[name].add(base)
                        if a.name.startswith("_") and not a.name.endswith("__"):
                            private.add((name, base, a.name))
        edges[name].discard(name)
    return edges, private


def circles(edges: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected sets of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.add(frozenset(comp))
    return found


def module_lines(mods: dict[str, Path]) -> dict[str, int]:
    """The number of lines of each module."""
    return {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in mods.items()}


def undocumented(mods: dict[str, Path]) -> list[str]:
    """The modules (but packages' ``__init__``) whose text has no docstring saying what they do."""
    return sorted(name for name, path in mods.items() if path.name != "__init__.py"
                  and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))))
