"""Seeded traces of Barnyard Roundup: pinned by syrupy snapshots, and compliant on replay.

`rulelang run GAME --seed 7 --trace FILE` runs from the repository root with the game's path
relative to it, so the trace header (which names the file) does not depend on where the
checkout lives. The snapshots live in tests/games/barnyard/__snapshots__/test_snapshots.ambr;
after a deliberate change to games/barnyard*.rules or to the engine, review the new traces
and update them with `python -m pytest tests/games/barnyard/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.replay import replay_file

GAMES = {"games/barnyard.rules": 4, "games/barnyard-2p.rules": 2}
SEED = 7
pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def run_trace(out: Path, game: str, seed: int = SEED) -> str:
    result = CliRunner().invoke(main, ["run", game, "--seed", str(seed), "--trace", str(out), "--quiet"])
    assert result.exit_code == 0, result.output + str(result.exception)
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeded_trace_matches_snapshot_and_replays_compliant(game: str, tmp_path: Path, snapshot) -> None:
    path = tmp_path / "trace.jsonl"
    text = run_trace(path, game)
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    assert header["file"] == game and header["seed"] == SEED and header["players"] == GAMES[game]
    assert result["type"] == "result" and result["winners"]
    assert [e["step"] for e in events if e["type"] != "digest"] == list(range(1, result["steps"] + 1))
    verdict = replay_file(path)
    assert verdict.status == "compliant", verdict.message
    assert verdict.result is not None and verdict.result["winners"] == result["winners"]
    cli = CliRunner().invoke(main, ["replay", str(path)])
    assert cli.exit_code == 0 and cli.output.startswith("compliant"), cli.output
    assert text == snapshot


@pytest.mark.parametrize("game", sorted(GAMES))
def test_same_seed_same_trace(game: str, tmp_path: Path) -> None:
    first = run_trace(tmp_path / "a.jsonl", game)
    second = run_trace(tmp_path / "b.jsonl", game)
    other = run_trace(tmp_path / "c.jsonl", game, seed=SEED + 1)
    assert first == second
    assert first.splitlines()[1:] != other.splitlines()[1:]
