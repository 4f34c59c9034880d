"""A seeded trace of Rooster Rush: pinned by a syrupy snapshot, and compliant on replay.

After a deliberate change to games/rooster-rush.rules or to the engine, review the new
trace and update it with `python -m pytest tests/games/rooster_rush/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.replay import replay_file

GAME = "games/rooster-rush.rules"
SEED = 7
pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def run_trace(out: Path, seed: int = SEED, *extra: str) -> str:
    result = CliRunner().invoke(main, ["run", GAME, "--seed", str(seed), "--trace", str(out), "--quiet", *extra])
    assert result.exit_code == 0, result.output + str(result.exception)
    return out.read_text(encoding="utf-8")


def test_seeded_trace_matches_snapshot_and_replays_compliant(tmp_path: Path, snapshot) -> None:
    path = tmp_path / "trace.jsonl"
    text = run_trace(path)
    lines = [json.loads(line) for line in text.splitlines()]
    header, events, result = lines[0], lines[1:-1], lines[-1]
    assert header["file"] == GAME and header["seed"] == SEED and header["players"] == 4
    assert result["type"] == "result" and result["winners"]
    assert [e["step"] for e in events if e["type"] != "digest"] == list(range(1, result["steps"] + 1))
    assert any("pick" in e for e in events) and any("roll" in e for e in events)
    verdict = replay_file(path)
    assert verdict.status == "compliant", verdict.message
    assert verdict.result is not None and verdict.result["winners"] == result["winners"]
    assert text == snapshot


def test_the_play_by_play_reads_like_the_table(tmp_path: Path, snapshot) -> None:
    """`rulelang run` shows the cards laid, the chips, who pressed what and when, who got it, the crossings."""
    result = CliRunner().invoke(main, ["run", GAME, "--seed", "3", "--players", "3"])
    assert result.exit_code == 0, result.output
    out = result.output
    for words in ("Round 1", "its back shows", "receives the", "Face up: card", "while the chips spin", "spins:",
                  "The chips stop.", "secures", "points."):
        assert words in out, words
    assert out == snapshot
