"""Generated totals that skip work the general emission does, with the same games:

- a count over one zone's components passing a mask tests the mask in its loop
  (``queries.masked_zone``) instead of building the list of those that pass first;
- a ``total`` of values that are not a number written there adds them up as they come
  (``queries.added_as_they_come``) instead of keeping a list to ``sum`` at the end.

The games (and the states at step limits) must be exactly those of the general emission.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from step_support import played

from rulelang import load_game
from rulelang.compile import queries
from rulelang.engine.engine import Engine

pytestmark = pytest.mark.usefixtures("at_root")

# Each player scores the red cards in her hand, worth a third of their value each; the count of
# red cards held by all, and their worth, decide when the game ends.
RULES = """game "Reds"
players 2 to 4 default 3

attribute colour = ""
attribute value = 0

3 Red1 card "red one": colour "red", value 1
2 Red2 card "red two": colour "red", value 2
4 Blue3 card "blue three": colour "blue", value 3

zone deck: ordered
zone hand: per player

counter turns = 0

setup:
  move all from box to deck
  shuffle deck

define reds(p: player) = total(1 for c in all in hand of p where colour == "red" if value of c > 1)
define worth = total(total(value of c / 3 for c in all in hand of p where colour == "red") for p in players)

turn:
  turns += 1
  choose:
    "draw" if any(all in deck):
      move (1) from deck to hand of current
    "pass":
      turns += 1
  if total(reds(p) for p in players) >= 2 or worth >= 2 or turns >= 30:
    end game

rank p by highest reds(p)
"""


def general(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with neither mechanism: lists filtered first, totals kept in lists."""
    with monkeypatch.context() as patch:
        patch.setattr(queries, "masked_zone", lambda source: None)
        patch.setattr(queries, "added_as_they_come", lambda e, count: False)
        return load_game(path)


@pytest.fixture(params=["reds", "rooster-rush"])
def engines(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    if request.param == "reds":
        path = tmp_path / "reds.rules"
        path.write_text(RULES, encoding="utf-8")
    else:
        path = Path("games/rooster-rush.rules")
    with monkeypatch.context() as patch:  # (a total of totals called as written: see queries.NESTED_TOTALS)
        patch.setattr(queries, "NESTED_TOTALS", False)
        fast = load_game(path)
    return fast, general(path, monkeypatch)


def test_each_mechanism_is_in_the_fast_source_only(engines: tuple[Engine, Engine]) -> None:
    fast, slow = engines
    got, want = fast.program.generated.source, slow.program.generated.source
    masked = r"for (_v\d+) in .+:\n +if (mk\d+)\[\1\]:\n"
    assert re.search(masked, got) and not re.search(masked, want)
    # (the filtered zone as a comprehension, or by filter: queries.TABLE_MAPS)
    filtered_count = r"for _v\d+ in (?:\[(_c\d+) for \1 in .+ if mk\d+\[\1\]\]|" \
        r"\[\*filter\(mk\d+\.__getitem__, .+\)\]):\n +if .+:\n +_n\d+ \+= 1\n"
    assert re.search(filtered_count, want) and not re.search(filtered_count, got)
    running = r"^ +(_n\d+) \+= g\d+\(st, loc\)\n(?: +.*\n)*? +return \1\n"
    assert re.search(running, got, re.M) and not re.search(running, want, re.M)
    assert "return sum(out) if out else 0" in want


@pytest.mark.parametrize("players", [3, 4])
def test_the_same_games(engines: tuple[Engine, Engine], players: int) -> None:
    fast, slow = engines
    for seed in range(1, 31):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error == "", seed
        assert got.over
        assert got.dumps() == want.dumps(), seed


def test_the_step_limit_stops_in_the_same_state(engines: tuple[Engine, Engine]) -> None:
    fast, slow = engines
    for seed in (3, 8):
        for limit in range(1, 80, 7):
            got, error = played(fast, 3, seed, max_steps=limit)
            want, want_error = played(slow, 3, seed, max_steps=limit)
            assert error == want_error, (seed, limit)
            assert got.dumps() == want.dumps(), (seed, limit)
