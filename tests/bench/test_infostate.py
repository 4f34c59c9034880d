"""benchmarks/infostate.py: information states found along the game against the game played again."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("pyspiel", reason="needs the openspiel extra: pip install 'rulelang[openspiel]'")

from benchmarks import infostate  # noqa: E402


def test_infostate_checks_both_ways_agree_and_prints_a_ratio_last(capsys: pytest.CaptureFixture) -> None:
    assert infostate.main(["--games", "8", "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert re.fullmatch(r"leduc-poker\.rules: \d+ decisions in 8 random games, 2 rounds", lines[0])
    assert re.search(r"kept\s+\d+\.\d µs per decision", lines[1])
    assert re.search(r"played again\s+\d+\.\d µs per decision", lines[2])
    assert re.fullmatch(r"ratio: \d+\.\d\d", lines[-1])


def test_infostate_refuses_bad_counts_and_a_game_that_does_not_load(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        infostate.main(["--games", "0"])
    assert exc.value.code == 2
    bad = tmp_path / "bad.rules"
    bad.write_text("game\n")
    assert infostate.main([str(bad), "--games", "2", "--rounds", "1"]) == 1
    assert "error" in capsys.readouterr().err
