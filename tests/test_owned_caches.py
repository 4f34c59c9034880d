"""What generated helpers remember between calls belongs to the loaded program (one per engine), not the process.

The seats still in (``SEATS_IN``, rooster-rush), where a marker was last seen and the last tally's rows
(hippe-kippen): two engines of one game, or two games, never share them.
"""

from __future__ import annotations

from pathlib import Path

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile import piles_runtime, runtime
from rulelang.engine.engine import Engine
from rulelang.play import play

ROOT = Path(__file__).resolve().parent.parent


def two_engines(game: str) -> tuple[Engine, Engine]:
    """Two engines of one compiled game (``load_game`` would give the one it keeps)."""
    engine = load_game(ROOT / "games" / f"{game}.rules")
    return engine, Engine(engine.program)


def namespace(engine: Engine) -> dict:
    """The namespace the engine's generated module runs in (the globals of its first block)."""
    block = next(ins[1] for rule in engine.run.code for ins in rule if callable(ins[1]))
    return block.__globals__


def test_no_cache_of_generated_code_is_a_module_global() -> None:
    assert not hasattr(runtime, "SEATS_IN")
    assert not hasattr(piles_runtime, "LAST_SEEN") and not hasattr(piles_runtime, "LAST_TALLY")


def test_two_engines_of_one_game_keep_their_own_seats_in() -> None:
    first, second = two_engines("rooster-rush")
    ours, theirs = namespace(first), namespace(second)
    assert ours["SEATS_IN"] is not theirs["SEATS_IN"] and ours["players_in"] is not theirs["players_in"]
    players = first.model.default_players
    st = first.new_state(players)
    play(first, st, [RandomAgent(1, s) for s in range(players)], 1)
    assert st.over and ours["SEATS_IN"]  # the game read the seats still in, and kept them
    assert theirs["SEATS_IN"] == {}  # the other engine's cache saw none of it
    assert all(seats == tuple(p for p, out in enumerate(key) if not out) for key, seats in ours["SEATS_IN"].items())


def test_two_engines_keep_their_own_markers_and_tallies() -> None:
    first, second = two_engines("hippe-kippen")
    ours, theirs = namespace(first), namespace(second)
    assert ours["move_marker"] is not theirs["move_marker"] and ours["tally_rows"] is not theirs["tally_rows"]
    assert first.run.tallied_rows is not second.run.tallied_rows
    players = first.model.default_players
    a, b = first.new_state(players), second.new_state(players)
    play(first, a, [RandomAgent(2, s) for s in range(players)], 2)
    play(second, b, [RandomAgent(2, s) for s in range(players)], 2)
    assert a.over and b.over and a.dumps() == b.dumps()  # the same game played apart
