"""Shuffles drawn inside generated blocks (``CodeGen.emit_shuffle``, ``runtime.shuffle_zone``).

While the engine's pickers play with a chance stream and nothing records or narrates, a
block shuffles a zone itself instead of pausing for ``Engine._chance``: the same draws, the
same order (components of one kind in their kind's places by increasing id), the same step
count and step budget. The games must be exactly those played with every shuffle left to
the engine's loop, and those played one decision at a time.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import ROOT
from step_support import one_at_a_time, played

from rulelang import load_game
from rulelang.compile import codegen, runtime
from rulelang.engine.engine import Engine

pytestmark = pytest.mark.usefixtures("at_root")

# Several components of one kind in the deck, a shuffle each turn, a per-player zone shuffled.
RULES = """game "S"
players 2 to 4 default 3

3 Red cards
2 Blue cards
1 Green card

zone deck: ordered
zone hand: per player, ordered

counter turns = 0

setup:
  move all Red, Blue, Green from box to deck
  shuffle deck

turn:
  shuffle deck
  choose:
    "take" if any(all in deck):
      move 1 from deck to hand of current
    "give back" if any(all in hand of current):
      move all from hand of current to deck
  shuffle hand of current
  if count(all in hand of current) >= 2:
    move 1 from hand of current to deck
  turns += 1
  if turns >= 12:
    end game

rank p by highest count(all in hand of p)
"""

SHUFFLING = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules")
                   if "shuffle " in p.read_text(encoding="utf-8"))


def paused(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every shuffle left to the engine's loop."""
    with monkeypatch.context() as patch:
        patch.setattr(codegen.CodeGen, "emit_shuffle", lambda self, L, s, pc, ind: self.pause(L, pc, ind))
        engine = load_game(path)
    assert "shuffle_zone(" not in engine.program.generated.source
    return engine




@pytest.fixture
def small(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = tmp_path / "s.rules"
    path.write_text(RULES, encoding="utf-8")
    return load_game(path), paused(path, monkeypatch)


def test_the_small_game_shuffles_in_its_blocks(small: tuple[Engine, Engine]) -> None:
    inline, _careful = small
    assert inline.program.generated.source.count("shuffle_zone(") >= 3  # each written at least once


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_small_game_plays_the_same_games(small: tuple[Engine, Engine], players: int) -> None:
    inline, careful = small
    for seed in range(1, 31):
        got, error = played(inline, players, seed)
        want, want_error = played(careful, players, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps(), seed
        assert got.dumps() == one_at_a_time(careful, players, seed).dumps(), seed


def test_the_step_limit_stops_at_the_same_place(small: tuple[Engine, Engine]) -> None:
    inline, careful = small
    for limit in range(1, 12):
        got, error = played(inline, 3, 7, max_steps=limit)
        want, want_error = played(careful, 3, 7, max_steps=limit)
        assert error == want_error, limit
        assert got.dumps() == want.dumps(), limit
        assert got.step == want.step <= limit, limit


@pytest.mark.parametrize("game", SHUFFLING)
def test_every_shuffling_game_plays_the_same_games(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{game}.rules"
    inline, careful = load_game(path), paused(path, monkeypatch)
    players = inline.model.default_players
    for seed in range(1, 6 if game == "hippe-kippen" else 13):
        got, error = played(inline, players, seed)
        want, want_error = played(careful, players, seed)
        assert error == want_error, seed
        assert got.dumps() == want.dumps(), seed


class _Draws:
    """A stand-in generator whose shuffle applies a fixed permutation (position i takes i's image)."""

    def __init__(self, perm: list[int]) -> None:
        self.perm = perm

    def shuffle(self, items: list) -> None:
        items[:] = [items[j] for j in self.perm]


def test_components_of_one_kind_keep_their_order_by_id() -> None:
    kind_of = [0, 0, 0, 1, 1, 2]
    src = [5, 4, 3, 2, 1, 0]  # kinds 2 1 1 0 0 0
    runtime.shuffle_zone(_Draws([3, 0, 4, 1, 5, 2]), src, kind_of)
    # the kinds drawn: 0 2 0 1 0 1; each kind's places get its ids in increasing order
    assert src == [0, 5, 1, 3, 2, 4]


def test_one_component_of_each_kind_stays_where_drawn() -> None:
    src = [2, 0, 1]
    runtime.shuffle_zone(_Draws([2, 0, 1]), src, [0, 1, 2])
    assert src == [1, 2, 0]


def test_one_component_a_kind_shuffles_the_zone_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "one.rules"
    path.write_text(RULES.replace("3 Red cards\n2 Blue cards\n", "1 Red card\n1 Blue card\n1 Pink card\n"),
                    encoding="utf-8")
    inline, careful = load_game(path), paused(path, monkeypatch)
    source = inline.program.generated.source
    assert "shuffle_zone(" not in source and ".shuffle(_src" in source
    for seed in range(1, 21):
        got, error = played(inline, 3, seed)
        want, want_error = played(careful, 3, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps() == one_at_a_time(careful, 3, seed).dumps(), seed
