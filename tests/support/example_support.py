"""Helpers shared by the tests that replay the worked examples (examples/**) and play games.

A worked example is a hand-written trace (``NAME.jsonl``) that names its game as
``games/...``, relative to the repository root (the ``at_root`` fixture in conftest.py
changes to it). Tests replay it to the end, or only up to one of its ``//`` comment lines
to look at the table there (``ExampleTable``: zones and what is pending, by player name),
and quote the rulebook it follows (shared/rulebooks/). ``random_action`` is one step of
seeded random play.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, Generic, TypeVar

import pytest

import rulelang
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.rng import Rng
from rulelang.trace.replay import Replayer, Trace, Verdict, load_for_trace, read_trace

ROOT = Path(__file__).resolve().parents[2]
RULEBOOK_DIRS = [ROOT.parent / "shared" / "rulebooks", Path("/work/shared/rulebooks")]
T = TypeVar("T")


@cache
def game_engine(game: str, **options: str) -> Engine:
    """Load (once) the game ``game`` (a path relative to the repository root) with ``options``."""
    return rulelang.load_game(ROOT / game, options or None)


def marker_line(path: Path, marker: str) -> int:
    """Line number of the first ``//`` comment of the trace in ``path`` that contains ``marker``."""
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if raw.lstrip().startswith("//") and marker in raw:
            return number
    raise AssertionError(f"{path.name} has no comment containing {marker!r}")


def replay_example(path: Path, marker: str | None = None) -> tuple[Engine, State, Verdict]:
    """Replay the trace in ``path`` up to the comment containing ``marker`` (None: all of it)."""
    trace = read_trace(path)
    engine, _warnings = load_for_trace(trace, None)
    if marker is not None:
        stop = marker_line(path, marker)
        trace = Trace(trace.path, trace.header, [(n, e) for n, e in trace.events if n < stop])
    replayer = Replayer(engine, trace)
    verdict = replayer.run()
    assert replayer.state is not None, verdict.message
    return engine, replayer.state, verdict


def seat(player: str) -> int:
    """``"P2"`` -> 1: players are P1, P2, ... and seats 0, 1, ... in the engine."""
    return int(player[1:]) - 1


class ExampleTable:
    """A game state (``engine``, ``st``): its zones and what is pending, named by player (P1, P2, ...)."""

    def __init__(self, engine: Engine, state: State) -> None:
        self.engine = engine
        self.st = state

    def ids(self, name: str) -> list[int]:
        """Component ids in ``deck``, ``hand of P2``, ``under of Barn#1`` (a zone for each ``Barn``), ..."""
        zone_name, _, owner = name.partition(" of ")
        zone = next(z for z in self.engine.model.zones if z.name == zone_name)
        content = self.st.zones[zone.index]
        if zone.per_player:
            return list(content[seat(owner)])
        if zone.per_kind is not None:
            labels = self.engine.program.component_labels
            first = self.engine.program.kind_of.index(zone.per_kind)
            return list(content[labels.index(owner) - first])
        return list(content)

    def labels(self, name: str) -> list[str]:
        """Labels of the components in a zone: ``["White#1", "Yellow#4"]``."""
        labels = self.engine.program.component_labels
        return [labels[c] for c in self.ids(name)]

    def pending(self) -> tuple[str | None, list[str]]:
        """("P2", labels) for a choice (the first asked player for an ask), ("chance", outcomes) for
        chance, (None, []) once over."""
        d = self.engine.pending(self.st)
        if d is None:
            return None, []
        if d.kind == "choice":
            return f"P{(d.player or 0) + 1}", list(d.labels or [])
        return "chance", list(d.labels or [])

    def asked(self) -> list[str]:
        """The players an ``ask`` still waits for ([] when no ask is pending)."""
        d = self.engine.pending(self.st)
        return [f"P{p + 1}" for p in (d.players or [])] if d is not None and d.kind == "choice" else []


class Examples(Generic[T]):
    """The worked examples in ``folder``, each replayed into ``table(engine, state)``."""

    def __init__(self, folder: Path, table: Callable[[Engine, State], T]) -> None:
        self.folder = folder
        self.table = table

    def replay(self, name: str, marker: str | None = None) -> tuple[T, Verdict]:
        """Replay FOLDER/NAME (up to the comment containing ``marker``)."""
        engine, state, verdict = replay_example(self.folder / name, marker)
        return self.table(engine, state), verdict

    def finished(self, name: str) -> T:
        """The end of a compliant example trace (its recorded result matches the rules')."""
        engine, state, verdict = replay_example(self.folder / name)
        assert verdict.status == "compliant", f"{verdict.message}: {verdict.reason}"
        assert state.over
        return self.table(engine, state)

    def checkpoint(self, name: str, marker: str) -> T:
        """The table at a checkpoint: the trace is complete up to the comment containing ``marker``."""
        table, verdict = self.replay(name, marker)
        assert verdict.status == "incomplete", verdict.message
        return table


def rulebook_text(name: str) -> str:
    """The text of shared/rulebooks/NAME; the test is skipped where the rulebook is not available."""
    for place in RULEBOOK_DIRS:
        if (place / name).exists():
            return (place / name).read_text(encoding="utf-8")
    pytest.skip(f"the rulebook (shared/rulebooks/{name}) is not available here")


def random_action(engine: Engine, state: State, rng: Rng) -> tuple[Any, int | None]:
    """One step of seeded random play, for ``engine.apply(state, *random_action(...))``.

    A chance outcome; while an ``ask`` waits, a random one of the asked players and a random
    answer of hers (so everyone asked answers, in a random order); else a random choice.
    Returns the action and the player who takes it (None: the pending one).
    """
    d = engine.pending(state)
    assert d is not None
    if d.kind == "chance":
        return d.sample(rng), None
    if d.players is not None:
        who = d.players[rng.below(len(d.players))]
        answers = engine.legal_actions(state, who)
        return answers[rng.below(len(answers))], who
    labels = d.labels or []
    return labels[rng.below(len(labels))], None


def without_sha(text: str) -> str:
    """The trace with the header's sha256 fields left out."""
    lines = text.splitlines()
    header = json.loads(lines[0])
    header.pop("sha256", None)
    for source in header.get("sources", []):
        source.pop("sha256", None)
    return "\n".join([json.dumps(header, ensure_ascii=False), *lines[1:]]) + "\n"
