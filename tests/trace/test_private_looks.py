"""Private looks in traces: recorded for the one who looked, checked by replay, hidden from others.

Rule the Roost: "With the farmer card, a player is allowed to look through the cards placed
under one of the three barns [...] Her opponents are not allowed to see the cards she chooses
to look through."
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.trace.replay import replay_file

GAME = "games/rule-the-roost.rules"


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def _trace(tmp_path: Path, seed: int = 3) -> tuple[Path, list[dict]]:
    path = tmp_path / "t.jsonl"
    result = CliRunner().invoke(main, ["run", GAME, "--seed", str(seed), "--trace", str(path), "-q"])
    assert result.exit_code == 0, result.output
    return path, [json.loads(line) for line in path.read_text().splitlines()]


def _replay(path: Path):
    return replay_file(path)


def _write(path: Path, events: list[dict]) -> None:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))


def test_a_farmer_look_is_recorded_as_a_private_event_and_replays(tmp_path: Path) -> None:
    path, events = _trace(tmp_path)
    looks = [e for e in events if e["type"] == "private"]
    assert looks, "seed 3 has a farmer look"
    assert all(set(e) == {"type", "to", "where", "seen"} for e in looks)
    assert any(e["seen"] for e in looks)
    assert all("#" not in name for e in looks for name in e["seen"])  # kinds, not copy numbers
    assert _replay(path).status == "compliant"


def test_a_private_event_that_differs_from_the_look_is_malformed(tmp_path: Path) -> None:
    path, events = _trace(tmp_path)
    i = next(i for i, e in enumerate(events) if e["type"] == "private" and e["seen"])
    events[i] = {**events[i], "seen": events[i]["seen"][:-1]}
    _write(path, events)
    verdict = _replay(path)
    assert verdict.status == "malformed"
    assert verdict.line == i + 1
    assert "is not what the rules showed" in verdict.message


def test_a_private_event_the_rules_did_not_give_is_malformed(tmp_path: Path) -> None:
    path, events = _trace(tmp_path)
    first = next(e for e in events if e["type"] == "private")
    events.insert(2, dict(first))  # before any farmer was played
    _write(path, events)
    verdict = _replay(path)
    assert verdict.status == "malformed"
    assert verdict.line == 3
    assert "that the rules did not give" in verdict.message


def test_private_events_may_be_left_out(tmp_path: Path) -> None:
    path, events = _trace(tmp_path)
    _write(path, [e for e in events if e["type"] != "private"])
    assert _replay(path).status == "compliant"


def test_a_redacted_trace_keeps_only_the_lookers_own_looks(tmp_path: Path) -> None:
    path, events = _trace(tmp_path)
    looks = [e for e in events if e["type"] == "private" and e["seen"]]
    looker = looks[0]["to"]
    other = "P1" if looker != "P1" else "P2"
    for viewer, keeps in ((looker, True), (other, False)):
        out = tmp_path / f"{viewer}.jsonl"
        result = CliRunner().invoke(main, ["replay", str(path), "--view", viewer, "--redacted", str(out)])
        assert result.exit_code == 0, result.output
        redacted = [json.loads(line) for line in out.read_text().splitlines()]
        private = [e for e in redacted if e["type"] == "private" and e["to"] == looker]
        assert len(private) == len([e for e in events if e["type"] == "private" and e["to"] == looker])
        assert all(("seen" in e) == keeps for e in private)
