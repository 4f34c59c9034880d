"""Seeded traces of `rulelang run` are reproducible: snapshots, and same seed -> same bytes.

The CLI runs from the repository root with the game's path relative to it, so the
trace header (which names the file) does not depend on where the checkout lives.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang import load_game
from rulelang.cli import main
from rulelang.trace.format import TRACE_FORMATS

GAME_FILES = ["games/chicken.rules", "games/chicken-eggspansion.rules"]


def run_trace(out: Path, game: str, seed: int, players: int = 3) -> str:
    result = CliRunner().invoke(
        main, ["run", game, "--seed", str(seed), "--players", str(players), "--trace", str(out), "--quiet"]
    )
    assert result.exit_code == 0, result.output + str(result.exception)
    return out.read_text(encoding="utf-8")


def check_trace_shape(text: str, game: str, seed: int, players: int) -> None:
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    assert header["type"] == "header" and header["file"] == game
    assert header["seed"] == seed and header["players"] == players
    assert header["agents"] == ["random"] * players
    assert header["chance"] == "seed"  # every outcome was drawn from the seed
    assert list(header).index("chance") == list(header).index("seed") + 1
    assert result["type"] == "result" and len(result["winners"]) == 1
    steps = [e for e in events if e["type"] != "digest"]
    assert [e["step"] for e in steps] == list(range(1, result["steps"] + 1))
    assert {e["type"] for e in events} == {"chance", "action", "digest"}
    # one digest as each turn begins, but the first turn's beginning before any step and the game's end
    turns = [e["turn"] for e in events if e["type"] == "digest"]
    assert turns == list(range(1, result["turns"] + 1)) and events[-1]["type"] != "digest"
    winner = next(row for row in result["standings"] if row["player"] == result["winners"][0])
    assert winner["rank"] == 1 and winner["keys"][0] >= 25


def replay(text: str) -> None:
    """Feed a trace's outcomes and actions back into the engine: each is the pending
    decision's, and the game ends with the trace's result and digest."""
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    options = {name: json.dumps(value) if isinstance(value, bool) else str(value)
               for name, value in header["options"].items()}
    engine = load_game(header["file"], options=options)
    st = engine.new_state(header["players"])
    for e in events:
        if e["type"] == "digest":  # the table as the turn began: nothing of where the rules are paused
            assert (st.turn, e["digest"]) == (e["turn"], st.table_digest(TRACE_FORMATS[header["format"]]))
            continue
        d = engine.pending(st)
        assert d is not None, f"the game ended before step {e['step']}"
        if e["type"] == "chance":
            assert d.kind == "chance"
            assert {k: v for k, v in e.items() if k not in ("type", "step", "outcome")} == d.event
            assert e["outcome"] in (d.labels or [])
            engine.apply(st, e["outcome"])
        else:
            assert d.kind == "choice" and f"P{(d.player or 0) + 1}" == e["player"]
            engine.apply(st, e["action"])
        assert st.step == e["step"]
    assert st.over and st.result is not None
    assert st.result["winners"] == result["winners"] and st.result["standings"] == result["standings"]
    assert (st.step, st.turn, st.digest()) == (result["steps"], result["turns"], result["digest"])


@pytest.mark.parametrize("game", GAME_FILES)
def test_seeded_trace_matches_snapshot(game: str, at_root: Path, tmp_path: Path, snapshot) -> None:
    text = run_trace(tmp_path / "t.jsonl", game, seed=7)
    check_trace_shape(text, game, seed=7, players=3)
    replay(text)
    assert text == snapshot


@pytest.mark.parametrize("game", GAME_FILES)
def test_same_seed_same_bytes_other_seed_other_trace(game: str, at_root: Path, tmp_path: Path) -> None:
    first, second, other = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "c.jsonl"
    run_trace(first, game, seed=11)
    run_trace(second, game, seed=11)
    run_trace(other, game, seed=12)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() != other.read_bytes()
    a = first.read_text(encoding="utf-8").splitlines()
    c = other.read_text(encoding="utf-8").splitlines()
    assert json.loads(a[0])["seed"] == 11 and json.loads(c[0])["seed"] == 12
    # Not only the header's seed differs: the games themselves do.
    assert a[1:] != c[1:]
    replay(first.read_text(encoding="utf-8"))
    replay(other.read_text(encoding="utf-8"))
