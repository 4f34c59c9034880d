"""Per-player triggers checked only for the players whose zones or counters a statement changed.

After a move between zones of known players, or a change of one player's counter, the
generated code checks a trigger watched per player (``when any player p has ...``) only
for those players, when its condition reads nothing of the state but that player's own
zones and counters and shared ones (``triggers.owner_local``): the other players'
conditions read nothing that changed. The games must be exactly those played with every
player checked after every such statement.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from scripted import ROOT

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import triggers
from rulelang.engine.engine import Engine
from rulelang.play import play

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))

pytestmark = pytest.mark.usefixtures("at_root")


def every_player_checked(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled with every per-player trigger checked for every player."""
    with monkeypatch.context() as patch:
        patch.setattr(triggers, "owner_local", lambda trig: False)
        engine = load_game(path)
    assert "set(_seats0)" not in engine.program.generated.source
    return engine


def same_games(fast: Engine, careful: Engine, players: int, seeds: range) -> None:
    for seed in seeds:
        got, want = fast.new_state(players, narrate=True), careful.new_state(players, narrate=True)
        for engine, st in ((fast, got), (careful, want)):
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=True)
        assert got.dumps() == want.dumps(), seed
        assert got.result == want.result, seed


@pytest.mark.parametrize("game", GAMES)
def test_checking_only_the_changed_players_plays_the_same_games(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / f"{game}.rules"
    fast = load_game(path)
    careful = every_player_checked(path, monkeypatch)
    if game.startswith("barnyard"):  # its Crow and Scarecrow triggers are checked for the changed players
        assert "set(_seats0)" in fast.program.generated.source
    for players in sorted({fast.model.min_players, fast.model.default_players}):
        same_games(fast, careful, players, range(1, 16))


RULES = """game "T"
players 2 to 4 default 4

12 Bean tokens

zone pot: per player
zone pile

counter got per player = 0
counter bonus per player = 0
counter shared = 0

setup:
  move all from box to pile

turn:
  choose:
    "take {n} to {q}" for n in 1 to 3 for q in players:
      move (n) from pile to pot of q
    "pass {q}'s beans to {r}" for q in players for r in players if q != r and any(all in pot of q):
      move all from pot of q to pot of r
    "reward {q}" for q in players:
      bonus of q += 1
    "raise the bar":
      shared += 1
  if not any(all in pile) and current == P1:
    end game

when any player p has count(all in pot of p) + bonus of p >= 3 + shared "a full pot":
  got of p += 1
  say "{p}'s pot is full."
  move 1 from pot of p to pile

rank p by highest got of p
"""


def test_a_small_game_with_zone_and_counter_triggers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "t.rules"
    path.write_text(RULES, encoding="utf-8")
    fast = load_game(path)
    source = fast.program.generated.source
    assert source.count("(st, (") >= 3  # the moves and the bonus are checked for their players only
    careful = every_player_checked(path, monkeypatch)
    for players in (2, 3, 4):
        same_games(fast, careful, players, range(1, 41))
    st = fast.new_state(4)
    play(fast, st, [RandomAgent(5, s) for s in range(4)], 5)
    assert sum(st.counters[0]) > 0  # the trigger fired
