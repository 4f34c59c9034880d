"""benchmarks/record.py: a recording playout against a plain one, same games (issue 24 item 2's figure)."""

from __future__ import annotations

import re

import pytest

from benchmarks import record


def test_record_prints_a_ratio_last_and_plays_the_same_steps_on_both_sides(capsys: pytest.CaptureFixture) -> None:
    assert record.main(["chicken", "--games", "6", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("Chicken!: 6 random games, 4 players, seeds 0..5, 2 rounds")
    plain = int(re.search(r"plain\s+(\d+) steps/s", lines[1]).group(1))
    recording = re.search(r"recording\s+(\d+) steps/s .*, (\d+) events kept", lines[2])
    assert plain > 0 and int(recording.group(1)) > 0
    assert int(recording.group(2)) > 6  # each game kept its events
    assert re.search(r"events\s+\d+ steps/s .*no turn digests", lines[3])
    assert re.fullmatch(r"events only: \d+\.\d{3}", lines[-2])
    assert re.fullmatch(r"ratio: \d+\.\d{3}", lines[-1])


def test_record_refuses_an_unknown_game_and_bad_counts() -> None:
    with pytest.raises(SystemExit) as exc:
        record.main(["no-such-game"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        record.main(["chicken", "--games", "0"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        record.main(["chicken", "--players", "99", "--games", "2", "--rounds", "1"])
    assert exc.value.code == 2
