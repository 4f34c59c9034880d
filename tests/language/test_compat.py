"""Compatibility: every file in games/ still checks, and every recorded trace still replays as before.

The language for new games (issue 10) changed the checker and the engine; authors'
files and their traces are users' data. The verdicts below are pinned by a syrupy
snapshot taken when they were verified to equal those of the code before the change
(``rulelang replay --json`` on main and on this branch gave identical output for every
trace, and ``run -v`` and ``run --trace`` of every game identical output for seeds 1-3).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.replay import replay_file

ROOT = Path(__file__).resolve().parents[2]
GAMES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").glob("*.rules"))
TRACES = sorted(p.relative_to(ROOT).as_posix() for d in ("examples", "tests/traces")
                for p in (ROOT / d).rglob("*.jsonl"))

pytestmark = pytest.mark.usefixtures("at_root")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_still_checks(game: str) -> None:
    result = CliRunner().invoke(main, ["check", game])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"{game}: ok (")


def test_every_trace_replays_with_its_verdict_of_before(snapshot) -> None:
    verdicts = {}
    for name in TRACES:
        verdict = replay_file(name)
        verdicts[name] = (verdict.status, verdict.line, (verdict.result or {}).get("winners"))
    assert len(verdicts) > 60
    assert verdicts == snapshot


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_its_trace_replays(game: str, tmp_path: Path) -> None:
    trace = tmp_path / "t.jsonl"
    result = CliRunner().invoke(main, ["run", game, "-s", "5", "-q", "--trace", str(trace)])
    assert result.exit_code == 0, result.stderr
    assert replay_file(trace).status == "compliant"
