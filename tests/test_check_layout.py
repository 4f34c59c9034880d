"""The layout of rulelang/check/: modules by job, no import circle, no private name imported across modules."""

from __future__ import annotations

import ast
from pathlib import Path

import rulelang
from rulelang.check.checker import Checker

PACKAGE = Path(rulelang.__file__).parent
CHECK = PACKAGE / "check"


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, str]]:
    """(module, name) of every ``from rulelang... import name`` in a file, at any depth (functions too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("rulelang"):
            found.extend((node.module, alias.name) for alias in node.names)
    return found


def _check_deps(path: Path) -> set[str]:
    """The modules of rulelang.check that one file imports."""
    deps = set()
    for module, name in _imports(path):
        target = f"{module}.{name}"
        if (PACKAGE.parent / (target.replace(".", "/") + ".py")).exists():
            module = target
        if module.startswith("rulelang.check.") and module != _module_name(path):
            deps.add(module)
    return deps


def test_no_private_name_is_imported_from_or_into_check() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for module, name in _imports(path):
            inside = path.is_relative_to(CHECK)
            if name.startswith("_") and (inside or module.startswith("rulelang.check")):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}: from {module} import {name}")
    assert offenders == []


def test_the_modules_of_check_import_each_other_in_no_circle() -> None:
    graph = {_module_name(p): _check_deps(p) for p in sorted(CHECK.glob("*.py"))}
    circles = []

    def visit(node: str, path: list[str]) -> None:
        for dep in sorted(graph.get(node, ())):
            if dep == path[0]:
                circles.append(" -> ".join(path + [dep]))
            elif dep not in path:
                visit(dep, path + [dep])

    for start in graph:
        visit(start, [start])
    assert circles == []
    assert graph["rulelang.check.common"] <= {"rulelang.check.model"}  # the bottom of the layering


def test_no_module_of_check_is_over_800_lines() -> None:
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in CHECK.glob("*.py")}
    assert {name: n for name, n in sizes.items() if n > 800} == {}


def test_every_module_of_check_says_what_it_checks() -> None:
    missing = [p.name for p in CHECK.glob("*.py") if p.name != "__init__.py"
               and not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_the_checker_is_made_of_one_part_per_job() -> None:
    homes = {name: getattr(Checker, name).__module__ for name in
             ("collect", "expr", "query", "iterable", "block", "check_triggers", "check_ranking", "drop_out", "check")}
    assert homes == {
        "collect": "rulelang.check.declarations",
        "expr": "rulelang.check.expressions",
        "query": "rulelang.check.queries",
        "iterable": "rulelang.check.queries",
        "block": "rulelang.check.statements",
        "check_triggers": "rulelang.check.triggers",
        "check_ranking": "rulelang.check.scoring",
        "drop_out": "rulelang.check.rounds",
        "check": "rulelang.check.checker",
    }
