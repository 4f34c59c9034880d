"""Two rewrites, against the code written without them (same games, same traces, same standings, same MCTS
choices, same narration, same stops at a step limit, frames' locals included):

- ``move k from ...`` in a game with no two components of one kind finds kind ``k``'s component as ``k`` itself
  where each component has its kind's number and every kind has one, else from a list by kind whose last entry
  (read for 'no kind', -1) is -1, instead of ``KC.get(k, -1)`` (``moves.KINDS_LISTED``);
- the count of a choice's options lists the kinds of a sorted zone of at most ``runtime.SHORT_ZONE`` components
  in ``kinds_in_order``'s own loop, written in the count, and calls it for a longer zone
  (``counted.SORTED_KINDS_INLINE``).

Each is also shown to matter: a broken variant plays other games here.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest
from lever_support import (
    EXAMPLES,
    GAMES,
    build,
    flagged_builds,
    mcts_choices,
    noticed,
    plain,
    player_counts,
    same_games,
    trace,
)
from step_support import same_stops

from rulelang.agents.base import RandomAgent
from rulelang.compile import counted, moves, runtime
from rulelang.engine.state import State
from rulelang.play import play

REPO = Path(__file__).resolve().parents[2]
FLAGS = [(moves, "KINDS_LISTED"), (counted, "SORTED_KINDS_INLINE")]
TAKEN = {"rooster-rush": "KINDS_LISTED", "chicken-eggspansion": "SORTED_KINDS_INLINE",
         "rule-the-roost": "SORTED_KINDS_INLINE"}


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str) -> None:
    new, old, changed = flagged_builds(f"games/{game}.rules", FLAGS)
    source, before = new.program.generated.source, old.program.generated.source
    if TAKEN.get(game) == "KINDS_LISTED":
        assert "KC.get(" in before and "KC.get(" not in source  # each component is its kind's number
    elif TAKEN.get(game) == "SORTED_KINDS_INLINE":
        assert source.count("kinds_in_order(") == before.count("kinds_in_order(")  # (the long zone's call)
        assert "if len(_z" in source and "if len(_z" not in before
    else:
        assert source == before
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(6))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str) -> None:
    new, old, changed = flagged_builds(REPO / example, FLAGS)
    if changed:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(6))


@pytest.mark.parametrize("game", sorted(TAKEN))
def test_mcts_chooses_as_without_the_rewrites(game: str) -> None:
    new, old, _changed = flagged_builds(f"games/{game}.rules", FLAGS)
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


@pytest.mark.parametrize("game", sorted(TAKEN))
def test_narration_and_step_limits_as_without_the_rewrites(game: str) -> None:
    """Narrated, the same story and whole state; stopped at each of the first 80 steps (or ended before), the
    same whole state (frames' locals included)."""
    new, old, _changed = flagged_builds(f"games/{game}.rules", FLAGS)
    players = new.model.default_players
    for seed in range(2):
        told: list[Any] = []
        for engine in (new, old):
            st = engine.new_state(players)
            story: list[Any] = []
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True,
                 on_event=lambda event, narration, story=story: story.append((event, list(narration))))
            assert st.over
            told.append((story, st.dumps()))
        assert told[0] == told[1], seed
        same_stops(new, old, players, seed, range(1, 81), view=State.dumps)


SHIFTS = """game "Shifts"
players 3 to 4 default 3

attribute points = 0

0 Purple token "purple": points 16
1 Red token "red": points 1
1 Green token "green": points 2
1 Blue token "blue": points 4

zone pool
zone side
zone stash

counter got = 0
counter held: kind

setup:
  move all Red from box to pool
  move all Blue from box to pool

rule shift(k: kind):
  move k from pool to side

rule hide(k: kind):
  move k from pool to stash

turn:
  hide(held)
  hide(Purple)
  for k in kinds(all in pool):
    shift(k)
  shift(held)
  shift(Purple)
  shift(Green)
  set got to total(points of c for c in all in side)
  end game

rank p by highest got
"""


def test_a_kind_with_no_component_and_no_kind_move_nothing(tmp_path: Path) -> None:
    """Kinds with no component (Purple, declared 0 times) or none at all ('no kind'), and a kind whose component
    is in the box (Green): nothing moves for them (nothing is hidden); Red and Blue move (1 + 4 points)."""
    path = tmp_path / "shifts.rules"
    path.write_text(SHIFTS, encoding="utf-8")
    new, old, _changed = flagged_builds(path, FLAGS)
    assert "KCL[" in new.program.generated.source and "KC.get(" in old.program.generated.source
    for engine in (new, old):
        st = engine.new_state(3)
        side = next(z.index for z in engine.model.zones if z.name == "side")
        assert st.over and st.counters[0] == 5 and st.zones[side] == [0, 2]  # (Red and Blue: components 0 and 2)
    assert plain(new, 3, 0) == plain(old, 3, 0) and trace(new, 3, 0) == trace(old, 3, 0)


HATCH = """game "Hatch"
players 2 to 3 default 2

{counts}

zone coop
zone nest: per player

counter taken per player = 0

setup:
  move all from box to coop

turn:
  choose:
    "take {{k}}" for k in kinds(all in coop):
      move 1 k from coop to nest of current
      taken of current += 1
    "pass" if count(all in coop) < 3:
      end game
  if not any(all in coop):
    end game

rank p by highest taken of p
"""


@pytest.mark.parametrize(("counts", "first"), [
    ("3 Red tokens\n2 Green tokens\n4 Blue tokens", ["take Red", "take Green", "take Blue"]),  # 9: the loop
    ("8 Red tokens\n6 Green tokens\n9 Blue tokens", ["take Red", "take Green", "take Blue"]),  # 23: the call
])
def test_kinds_of_a_short_and_a_long_sorted_zone(tmp_path: Path, counts: str, first: list[str]) -> None:
    """A choice among the kinds of a sorted zone, shorter and longer than ``runtime.SHORT_ZONE``: the kinds listed
    once each, in kind order, as the kinds run out; the same games as without the rewrite."""
    path = tmp_path / "hatch.rules"
    path.write_text(HATCH.format(counts=counts), encoding="utf-8")
    new, old, _changed = flagged_builds(path, FLAGS)
    size = sum(int(line.split()[0]) for line in counts.splitlines())
    assert (size <= runtime.SHORT_ZONE) == (size < 16)
    assert "if len(_z" in new.program.generated.source
    for engine in (new, old):
        st = engine.new_state(2)
        assert engine.legal_actions(st, 0) == first
    for n, seed in itertools.product((2, 3), range(6)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)
        assert trace(new, n, seed) == trace(old, n, seed), (n, seed)


def test_broken_variants_are_noticed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A list by kind without its last entry (-1 read for 'no kind' gives the last kind's component), and kinds
    listed without skipping a kind already listed, each play other games (or fail)."""
    path = tmp_path / "shifts.rules"
    path.write_text(SHIFTS, encoding="utf-8")
    right = build(path, FLAGS)
    with monkeypatch.context() as patch:
        real = moves.MoveEmitter.kind_component

        def unsentineled(self: Any, k: str) -> str:
            got = real(self, k)
            if "KCL" in self.consts and self.consts["KCL"][-1] == -1:
                self.consts["KCL"] = self.consts["KCL"][:-1]
            return got

        patch.setattr(moves.MoveEmitter, "kind_component", unsentineled)
        wrong = build(path, FLAGS)
    assert noticed(wrong, right, compare=lambda engine, _n, _seed: engine.new_state(3).counters)

    egg = REPO / "games" / "chicken-eggspansion.rules"
    right = build(egg, FLAGS)
    with monkeypatch.context() as patch:
        real_inline = counted.CountedEmitter.sorted_kinds_inline

        def repeated(self: Any, L: list, zone: str, lst: str, at: int, sp: Any) -> None:
            mark = len(L)
            real_inline(self, L, zone, lst, at, sp)
            L[mark:] = [(i, text.replace(" != _sk", " != -2 != _sk"), s) for i, text, s in L[mark:]]  # every die's

        patch.setattr(counted.CountedEmitter, "sorted_kinds_inline", repeated)
        wrong = build(egg, FLAGS)
    assert noticed(wrong, right)


NESTS = """game "Nests"
players 2 to 3 default 2

3 Red tokens
2 Green tokens
4 Blue tokens

zone coop{ordered}
zone nest: per player

counter taken per player = 0

setup:
  move all from box to coop
  for p in players:
    move 2 from coop to nest of p

rule offer(w: player):
  choose:
    "give {{k}}" for k in kinds(all in {zone}):
      move 1 k from {zone} to coop
      taken of w += 1
    "pass":
      end game

turn:
  offer(current)
  if not any(all in nest of current):
    end game

rank p by highest taken of p
"""


@pytest.mark.parametrize(("ordered", "zone", "inlined"), [
    ("", "nest of current", True),  # the current player's zone: read with no test
    ("", "nest of w", True),  # (the rule's seat held in the count's own variable)
    (": ordered", "coop", False),  # a near miss: a zone not kept sorted has no kinds_in_order at all
    ("", "coop", True),
])
def test_sorted_kinds_inline_is_decided_from_the_range(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        ordered: str, zone: str, inlined: bool) -> None:
    """Which count's ranges are written in kinds_in_order's own loop is decided from the range (the kinds of a
    zone kept sorted, its owner none, the current player or a variable of the count), nothing emitted read;
    the near misses are written as without the rewrite, and all play the same games."""
    path = tmp_path / "nests.rules"
    path.write_text(NESTS.format(ordered=ordered, zone=zone), encoding="utf-8")
    new, old, _changed = flagged_builds(path, FLAGS)
    source, before = new.program.generated.source, old.program.generated.source
    assert ("if len(_z" in source) == inlined and "if len(_z" not in before
    assert (source == before) == (not inlined)
    assert ("kinds_in_order(" in before) == (not ordered)
    for n, seed in itertools.product((2, 3), range(4)):
        assert plain(new, n, seed) == plain(old, n, seed), (n, seed)


def test_direct_zone_near_misses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``direct_zone`` (whether the count reads a zone's list with no test) from the selection and what the
    generator holds: a seat read from ``loc``, or held in a variable not sure to be a seat, are near misses."""
    from rulelang.check import model as m
    from rulelang.compile.analysis import Analysis
    from rulelang.compile.queries import QueryWriter

    path = tmp_path / "nests.rules"
    path.write_text(NESTS.format(ordered="", zone="coop"), encoding="utf-8")
    model = build(path, FLAGS).model
    nest, coop = (next(z.index for z in model.zones if z.name == name) for name in ("nest", "coop"))

    class Gen(QueryWriter):
        def __init__(self, held: dict[int, str], sure: set[str]) -> None:
            self.model, self.comp, self.off, self.owners_proven = model, Analysis(model), 0, True
            self.cse_vars, self.loop_vars, self.cse_ids = None, held, sure

        def local(self, slot: int) -> str:
            return self.loop_vars.get(slot, f"loc[{slot}]")

    w = m.Local(0, m.PLAYER)
    assert Gen({}, set()).direct_zone(m.ZoneSel(coop, None))
    assert Gen({}, set()).direct_zone(m.ZoneSel(nest, m.CurrentPlayer()))
    assert Gen({0: "_v1"}, {"_v1"}).direct_zone(m.ZoneSel(nest, w))
    assert not Gen({}, set()).direct_zone(m.ZoneSel(nest, w))  # in loc
    assert not Gen({0: "_v1"}, set()).direct_zone(m.ZoneSel(nest, w))  # held, not sure to be a seat
