"""Two fast paths, each against the code written without it (same games, same traces, same standings,
same errors):

- within a standings computation, counts of kinds and totals of a per-kind attribute over a zone are read
  from the zone's counts per kind, worked out once per zone (``QueryWriter.counted_by_kind``);
- ``X > N`` with N never below 0 (a count, or one divided by a whole number above 0) tests ``X > 0``
  first and leaves N uncounted where X is 0 or less (``ExprWriter.above_a_count``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lever_support import EXAMPLES, played, trace

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import exprs, queries
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))


def careful(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled without the two fast paths."""
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(queries.QueryWriter, "counted_by_kind", lambda self, e: None)
        patch.setattr(exprs.ExprWriter, "above_a_count", lambda self, e, a, b: None)
        return load_game(path)


def fast(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        return load_game(path)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_records_and_ranks_as_without_the_levers(game: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    if game.startswith("barnyard"):  # (both levers apply to the Barnyard games)
        assert "kind_counts(" in new.program.generated.source and "kind_counts(" not in old.program.generated.source
        assert new.program.generated.source.count("> 0 and C[") > old.program.generated.source.count("> 0 and C[")
    for players in sorted({new.model.min_players, new.model.default_players, new.model.max_players}):
        states = []
        for seed in range(3):
            st_new, got = played(new, players, seed)
            st_old, want = played(old, players, seed)
            assert got == want, (players, seed)
            assert trace(new, players, seed) == trace(old, players, seed), (players, seed)
            states.append((st_new, st_old))
        # Standings of other tables in between: the counts kept for one are never read for another.
        for st_new, st_old in states + states[::-1]:
            assert new.standings(st_new) == old.standings(st_old)


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_and_ranks_as_without_the_levers(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    for seed in range(4):
        players = new.model.default_players
        assert played(new, players, seed)[1] == played(old, players, seed)[1], seed


COUNTED = """game "Counted"
players 3

attribute points = 0
attribute warm = false

3 Red token: points 2, warm true
2 Green token: points -1
4 Blue token: points 5, warm true
1 Gold token: points 7

zone pool
zone side: per player, ordered

counter lead = nobody
counter bar per player = 0
counter half = 0

setup:
  move all from box to pool
  set half to fraction(1, 2)

turn:
  choose:
    "take {k}" for k in kinds(all in pool):
      move 1 k from pool to side of current
    "lower":
      set bar of current to bar of current - 1
    "raise":
      set bar of current to bar of current + 1
  for p in players:
    if bar of p > count(all in side of p) / 2:
      say "{p} is above half."
    if count(Red in side of p) < bar of p:
      say "{p} has fewer Red."
    if half > count(Gold in side of p):
      say "half"
  if not any(all in pool):
    end game

define most(k: kind, p: player) = count(k in side of p) > max(count(k in side of q) for q in players if q != p)

sheet score for p:
  "points": sum(points of all in side of p)
  "Red": sum(points of Red in side of p)
  "warm": count(all in side of p where warm)
  "warm points": sum(points of all in side of p where warm)
  "most": total(3 for k in kinds where true if most(k, p))
  "fewest": min(count(k in side of p) for k in kinds where true)

rank p by highest score of p, then lowest count(Blue in side of p)
"""


def test_the_counts_by_kind_and_the_bounds_give_the_same_games(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "counted.rules"
    path.write_text(COUNTED, encoding="utf-8")
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    source = new.program.generated.source
    # counts by kind, a total of one kind (read from the seat's counts, kept in a local: standings.SEAT_LOCALS)
    assert "kind_counts(" in source and (" * kind_counts(" in source or re.search(r" \* _kc\d+\[", source))
    assert source.count(" > 0 and ") > old.program.generated.source.count(" > 0 and ")  # bar of p > count / 2
    seen = set()
    for seed in range(40):
        st, got = played(new, 3, seed)
        assert got == played(old, 3, seed)[1], seed
        assert trace(new, 3, seed) == trace(old, 3, seed), seed
        seen.add(tuple(st.counters[1]))
        sheet = got["standings"]["standings"][0]["sheets"]["score"]
        assert set(sheet) == {"points", "Red", "warm", "warm points", "most", "fewest"}
    assert any(min(bars) < 0 for bars in seen) and any(max(bars) > 0 for bars in seen)  # both sides of 0


def test_a_count_of_nobodys_zone_in_the_standings_is_the_same_error(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "nobody.rules"
    path.write_text(COUNTED.replace('rank p by highest score of p, then lowest count(Blue in side of p)',
                                    'rank p by highest score of p, then lowest count(Blue in side of lead)'),
                    encoding="utf-8")
    new, old = fast(path, monkeypatch), careful(path, monkeypatch)
    assert "kind_counts(" in new.program.generated.source
    errors = []
    for engine in (new, old):
        st = engine.new_state(3)
        with pytest.raises(RulelangError) as caught:
            play(engine, st, [RandomAgent(5, s) for s in range(3)], 5)
            engine.standings(st)
        errors.append((str(caught.value), caught.value.span, st.step, st.zones))
    assert errors[0] == errors[1]
    assert "nobody" in errors[0][0]
