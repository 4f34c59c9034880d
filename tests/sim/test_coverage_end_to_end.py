"""`simulate --coverage` end to end: the generated back end counts, the simulation reports.

The counts come from the engine (``Engine(..., coverage=True)``), are added up across
worker processes, and name each construct by its place in the rules file.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rulelang.cli import main
from rulelang.sim import pool

pytestmark = pytest.mark.usefixtures("at_root")


def _coverage(*args: str) -> dict[str, dict]:
    result = CliRunner().invoke(main, ["simulate", "games/chicken.rules", "-n", "12", "-q", "--coverage", "--json",
                                       *args])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)["coverage"]
    return {f"{row['where']} {row['kind']} {row['name']}": row for row in rows}


def test_an_option_that_is_off_leaves_its_branch_unfired() -> None:
    rows = _coverage("-j", "1")
    # orange_egg is off by default: its branch never runs, the else branch runs once a game.
    assert rows["games/chicken.rules:65 branch if"]["count"] == 0
    assert rows["games/chicken.rules:67 branch else"]["count"] == 12
    # The game-ending trigger fires exactly once a game.
    trigger = [row for key, row in rows.items() if row["kind"] == "trigger"]
    assert [row["count"] for row in trigger] == [12]


def test_the_option_turned_on_fires_its_branch() -> None:
    rows = _coverage("-j", "1", "-o", "orange_egg=true")
    assert rows["games/chicken.rules:65 branch if"]["count"] == 12
    assert rows["games/chicken.rules:67 branch else"]["count"] == 0


def test_counts_are_the_same_on_two_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pool, "SOLO_SECONDS", 0.0)  # a worker even for this short run
    one, two = _coverage("-j", "1"), _coverage("-j", "2")
    assert {k: r["count"] for k, r in one.items()} == {k: r["count"] for k, r in two.items()}
    # Both choose options of a turn were taken at least once in twelve games.
    assert one["games/chicken.rules:73 option Go For It!"]["count"] > 0
    assert one["games/chicken.rules:75 option Chicken Out!"]["count"] > 0
