"""The layout of rulelang/engine/ and rulelang/trace/: modules by job, the engine below the traces, no private
part of the engine used outside it (circles, private imports, sizes and docstrings: test_layering.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from layout_support import imports, modules

import rulelang
from rulelang.engine.engine import Engine

PACKAGE = Path(rulelang.__file__).parent


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


def test_the_engine_knows_nothing_of_traces() -> None:
    edges = imports(modules())[0]
    assert {(m, d) for m, deps in edges.items() if m.startswith("rulelang.engine") for d in deps
            if d.startswith("rulelang.trace")} == set()


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
