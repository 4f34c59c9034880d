"""The layout of rulelang/engine/ and rulelang/trace/: modules by job, no import circle, no private name
imported across modules, no private part of the engine used outside it."""

from __future__ import annotations

import ast
from pathlib import Path

import rulelang
from rulelang.engine.engine import Engine

PACKAGE = Path(rulelang.__file__).parent
FOLDERS = (PACKAGE / "engine", PACKAGE / "trace")


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


def _modules() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in folder.glob("*.py"))


def _deps(path: Path) -> set[str]:
    """The modules of rulelang.engine and rulelang.trace that one file imports."""
    deps = set()
    for module, name in _imports(path):
        target = f"{module}.{name}"
        if (PACKAGE.parent / (target.replace(".", "/") + ".py")).exists():
            module = target
        if module.startswith(("rulelang.engine.", "rulelang.trace.")) and module != _module_name(path):
            deps.add(module)
    return deps


def test_no_private_name_is_imported_from_or_into_engine_or_trace() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        inside = any(path.is_relative_to(folder) for folder in FOLDERS)
        for module, name in _imports(path):
            if name.startswith("_") and (inside or module.startswith(("rulelang.engine", "rulelang.trace"))):
                offenders.append(f"{path.relative_to(PACKAGE.parent)}: from {module} import {name}")
    assert offenders == []


def test_no_private_part_of_the_engine_is_used_outside_it() -> None:
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.is_relative_to(PACKAGE / "engine"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                owner = node.value
                name = owner.id if isinstance(owner, ast.Name) else owner.attr if isinstance(owner, ast.Attribute) \
                    else None
                if name == "engine":
                    offenders.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}: engine.{node.attr}")
    assert offenders == []


def test_the_modules_of_engine_and_trace_import_each_other_in_no_circle() -> None:
    graph = {_module_name(p): _deps(p) for p in _modules()}
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
    assert not any(dep.startswith("rulelang.trace") for m, deps in graph.items() if m.startswith("rulelang.engine")
                   for dep in deps)  # the engine knows nothing of traces


def test_no_module_of_engine_or_trace_is_over_800_lines() -> None:
    sizes = {_module_name(p): len(p.read_text(encoding="utf-8").splitlines()) for p in _modules()}
    assert {name: n for name, n in sizes.items() if n > 800} == {}


def test_every_module_of_engine_and_trace_says_what_it_does() -> None:
    missing = [_module_name(p) for p in _modules() if p.name != "__init__.py"
               and not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert missing == []


def test_the_engine_is_made_of_one_part_per_job() -> None:
    homes = {name: getattr(Engine, name).__module__ for name in
             ("new_state", "pending", "legal_actions", "explain", "apply", "apply_index", "roll_recorded", "resume",
              "standings", "payoffs", "observe", "sees")}
    assert homes == {
        "new_state": "rulelang.engine.engine",
        "pending": "rulelang.engine.choices",
        "legal_actions": "rulelang.engine.choices",
        "explain": "rulelang.engine.choices",
        "apply": "rulelang.engine.acting",
        "apply_index": "rulelang.engine.acting",
        "roll_recorded": "rulelang.engine.acting",
        "resume": "rulelang.engine.loop",
        "standings": "rulelang.engine.results",
        "payoffs": "rulelang.engine.results",
        "observe": "rulelang.engine.seeing",
        "sees": "rulelang.engine.seeing",
    }


def test_the_public_names_stay_where_their_users_import_them() -> None:
    from rulelang.engine import choices, engine
    from rulelang.trace import feed, header, reading, replay, verdict

    assert (engine.IllegalAction, engine.pick_option, engine.read_label) == (
        choices.IllegalAction, choices.pick_option, choices.read_label)
    assert (replay.Trace, replay.TraceError, replay.read_trace, replay.CHANCE_KEYS) == (
        reading.Trace, reading.TraceError, reading.read_trace, reading.CHANCE_KEYS)
    assert (replay.load_for_trace, replay.redacted_header) == (header.load_for_trace, header.redacted_header)
    assert replay.Feed is feed.Feed and replay.Verdict is verdict.Verdict
    assert {"Replayer", "Verdict", "replay_file"} <= set(replay.__all__)
