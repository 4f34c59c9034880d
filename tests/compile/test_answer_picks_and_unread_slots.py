"""Generated code that skips work the general emission does, with the same games:

- a pick ``if answer of q == T`` counts who gave T first (``chance.answered_text``): nobody, one
  (the one, unless out for a pick among players still in) or several (the players gone through);
- values not stored in ``loc`` where the block's lines never read them there (``emit.slot_unread``):
  loop values, an asked player in the ask's tests, a pick's player, an inlined rule's arguments;
- a loop that may pause goes through its list and position from Python variables (a for over range);
- a body that drops a player out is a plain for loop (a drop out never leaves the block);
- where each component is its own kind (``kinds_are_ids``), a component's kind is itself;
- ``set`` to a shared counter stores it as it is.

The games must be exactly those of the general emission (every store, the players gone through,
KO looked up, drop outs treated as pauses), which the careful engine below is compiled with.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from scripted import ROOT
from source_support import zones_read_plainly
from step_support import one_at_a_time, played, recorded, same_stops, take_step

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.check import model as m
from rulelang.compile import chance, codegen, emit, statements
from rulelang.engine.engine import Engine
from rulelang.rng import Rng
from rulelang.trace.format import dumps_line

pytestmark = pytest.mark.usefixtures("at_root")

# Simultaneous claims: players still in grab a card or pass; a player holding 3 cards drops out
# after answering (her answer still reads "grab ..."), then each card goes to one who grabbed it.
RULES = """game "Claims"
players 3 to 4 default 4

1 Red card
1 Blue card
1 Green card
1 Gold card
1 Plum card

zone table
zone hand: per player
zone pile

counter turns = 0
counter last = 0
counter mark per player = 0

setup:
  move all from box to table

rule hand_over(w: player, k: kind) "the first to grab takes the card":
  if w != nobody and any(k in table):
    move k from table to hand of w
    set mark of w to last

turn:
  turns += 1
  set last to turns
  ask e in players still in:
    "grab {kind of c}" for c in all in table
    "pass"
  for p in players still in:
    if count(all in hand of p) >= 3:
      drop out p
  if total(1 for p in players still in) <= 1 or turns >= 14:
    end game
  for c in all in table:
    let k = kind of c
    pick w at random from q in players still in if answer of q == "grab {k}"
    hand_over(w, k)
  pick v at random from q in players if answer of q == "pass"
  if v != nobody and any(all in hand of v):
    move all from hand of v to pile
  if not any(all in table):
    move all from pile to table

rank p by highest count(all in hand of p), then highest mark of p
"""


def careful(path: Path, monkeypatch: pytest.MonkeyPatch) -> Engine:
    """The game compiled the general way: every value stored in loc, every pick going through the
    players, loop values read from loc, kinds looked up, a drop out treated as a pause."""
    can_pause = codegen.CodeGen.can_pause
    init = codegen.CodeGen.__init__

    def paused(self: Any, body: Any) -> bool:
        return any(type(s) is m.DropS for s in body) or can_pause(self, body)

    def general(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.kinds_are_ids = False

    with monkeypatch.context() as patch:
        patch.setattr(emit, "slot_unread", lambda lines, slot: False)
        patch.setattr(chance, "answered_text", lambda gen, s: None)
        patch.setattr(statements, "_binds_slot", lambda node, slot: True)
        patch.setattr(codegen.CodeGen, "can_pause", paused)
        patch.setattr(codegen.CodeGen, "__init__", general)
        return load_game(path)


@pytest.fixture
def claims(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Engine, Engine]:
    path = tmp_path / "claims.rules"
    path.write_text(RULES, encoding="utf-8")
    return load_game(path), careful(path, monkeypatch)


def turn_source(engine: Engine) -> str:
    """The generated source of the turn's blocks (the rule ``turn``)."""
    source = zones_read_plainly(engine.program.generated.source)
    return "\n".join(re.findall(r"^def r\d+_\d+\(st, loc, fr, left\):\n(?:    .*\n|\n)*", source, re.M))


def test_each_mechanism_is_in_the_fast_source_only(claims: tuple[Engine, Engine]) -> None:
    fast, slow = claims
    got, general = turn_source(fast), turn_source(slow)
    # who answered T counted; one among players still in: not if out
    assert ".count(" in got and re.search(r"= -1 if st\.out\[_w\d+\] else _w\d+", got)
    assert ".count(" not in general
    # the pausing loop over the table as a for over its values (stored only where the block may leave:
    # spills.LAZY_LOOPS; or through enumerate from the start: statements.ENUMERATED_LOOPS); no loop of the
    # general emission is
    assert re.search(r"for _i\d+, _v\d+ in enumerate\(_s\d+, 1\):", got)
    assert "in range(0, len(" not in general and not re.search(r"in enumerate\(_s\d+, 1\)", general)
    # the inlined rule's arguments: Python variables only
    assert re.search(r"_v\d+, _v\d+, = loc\[\d+\], loc\[\d+\],\n", got)
    assert re.search(r"^ *loc\[\d+\], loc\[\d+\], = ", general, re.M)
    # the drop-out loop: a plain for over the players still in, its value not stored
    # (written twice: counting each pass where the budget left is short, else counting the passes once, after)
    # (the players still in looked up once in the block, and again after each drop out)
    assert re.search(r"^( *)for (_v\d+) in _seats_in:\n"
                     r"(?:\1    .*\n){3,4}\1    if \(len\(Z\[\d+\]\[\2\]\) >= 3\):", got, re.M)  # (4: a rules line)
    assert re.search(r"^( *)for (_v\d+) in \((_q\d+) := _seats_in\):\n(?:\1    #.*\n)?"
                     r"\1    if \(len\(Z\[\d+\]\[\2\]\) >= 3\):\n(?:\1 .*\n)*(?:\1#.*\n)?\1left -= len\(\3\)\n",
                     got, re.M)
    assert re.search(r"^( *)drop_out\(st, (_v\d+), k\d+\)\n\1_seats_in = \(SEATS_IN.get\(tuple\(st.out\)\) or "
                     r"players_in\(st.out\)\)\n", got, re.M)
    assert "KO[" not in got and "KO[" in general
    # set to a shared counter: stored as it is (no old value read, not bounded again)
    assert re.search(r"^ *C\[\d+\]\[_w\d+\] = C\[\d+\]\n", got, re.M) and re.search(r"^ *C\[1\] = C\[0\]\n", got, re.M)


@pytest.mark.parametrize("players", [3, 4])
def test_the_claims_game_plays_the_same_games(claims: tuple[Engine, Engine], players: int) -> None:
    fast, slow = claims
    dropped = 0
    for seed in range(1, 41):
        got, error = played(fast, players, seed)
        want, want_error = played(slow, players, seed)
        assert error == want_error == "", seed
        assert got.dumps() == want.dumps(), seed
        dropped += any(got.out)
    assert dropped >= 5  # players drop out between the ask and the picks in many games


def without_locals(st: Any) -> dict[str, Any]:
    """A state's JSON with its frames' rule and place but not their locals: those the fast code does not
    store (values nothing reads again) are not kept there."""
    data = st.to_json()
    data["stack"] = [frame[:2] for frame in data["stack"]]
    return data


def test_the_step_limit_stops_at_the_same_place(claims: tuple[Engine, Engine]) -> None:
    fast, slow = claims
    for seed in (2, 5):
        same_stops(fast, slow, 4, seed, range(1, 60, 3), view=without_locals)


def test_one_decision_at_a_time_the_same(claims: tuple[Engine, Engine]) -> None:
    """Asks answered through the engine: the blocks resume in the middle of the loop over the table."""
    fast, slow = claims
    for seed in range(1, 16):
        assert one_at_a_time(fast, 4, seed).dumps() == one_at_a_time(slow, 4, seed).dumps(), seed


def each_chance_apart(engine: Engine, players: int, seed: int) -> Any:
    """The game taken one decision at a time with no chance stream attached: each pick among several
    pauses the block (in the middle of the loop over the table), and play resumes after it."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    chance = Rng(seed, stream=0)
    picks = 0
    while not st.over:
        assert st.step < 5000, "the game does not end"
        picks += engine.is_chance(st)
        take_step(engine, st, agents, chance)
    return st, picks


def test_chance_taken_apart_the_same(claims: tuple[Engine, Engine]) -> None:
    fast, slow = claims
    picks = 0
    for seed in range(1, 16):
        got, n = each_chance_apart(fast, 4, seed)
        want, _n = each_chance_apart(slow, 4, seed)
        assert got.dumps() == want.dumps(), seed
        picks += n
    assert picks > 15  # the loop over the table was left and resumed, many times


def test_recorded_events_the_same(claims: tuple[Engine, Engine]) -> None:
    fast, slow = claims
    picks = 0
    for seed in range(1, 16):
        got, got_result = recorded(fast, "claims", 4, seed)
        want, want_result = recorded(slow, "claims", 4, seed)
        assert got_result == want_result, seed
        assert [dumps_line(e) for _n, e in got.events] == [dumps_line(e) for _n, e in want.events], seed
        picks += sum(1 for _n, e in got.events if "pick" in e)
    assert picks > 0  # contested claims drawn by chance, recorded


def test_rooster_rush_plays_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    path = ROOT / "games" / "rooster-rush.rules"
    fast, slow = load_game(path), careful(path, monkeypatch)
    assert ".count(" in fast.program.generated.source
    for seed in range(1, 16):
        for players in (3, 5):
            got, error = played(fast, players, seed)
            want, want_error = played(slow, players, seed)
            assert error == want_error == "", seed
            assert got.dumps() == want.dumps(), seed
