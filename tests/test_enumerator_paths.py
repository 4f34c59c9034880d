"""Generated option lists and standings give exactly what the careful paths give.

The code generator writes each ``choose`` as one function listing its legal options. Inside
it, a pile on a range's value (``up of c``) is looked up once per value, range values are read
from their own variables, and each conjunct of an option's condition is tested at the
outermost range it allows (``1 <= left and not any(D in up of c)``: the first part once,
before the ranges). The careful path is the engine's own loop over the compiler's closures
(``Engine._options`` without the generated function): both must list the same options, in
the same order, and stop with the same error at the same place.

Standings share one memo table between copies of one definition inlined on other local
slots; the sheets must still be what the compiler's closures compute.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Any

import pytest
from step_support import NUMBERS, take_step

import rulelang
from rulelang.agents.base import RandomAgent
from rulelang.check import model as m
from rulelang.compile import piles_runtime
from rulelang.compile.analysis import fold
from rulelang.compile.exprs import expression_function
from rulelang.compile.program import CHOOSE
from rulelang.compile.runtime import place_of
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.rng import Rng

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def engine_for(game: str) -> Engine:
    return rulelang.load_game(ROOT / "games" / f"{game}.rules")


def careful_options(engine: Engine, st: State, spec: Any, loc: list) -> Any:
    """The options as the engine lists them from the compiler's closures (or the error it stops with)."""
    saved, spec.enum = spec.enum, None
    try:
        return engine._options(st, spec, list(loc))
    except RulelangError as exc:
        return ("error", exc.message, exc.span)
    finally:
        spec.enum = saved


def generated_options(spec: Any, st: State, loc: list) -> Any:
    try:
        return spec.enum(st, list(loc))
    except RulelangError as exc:
        return ("error", exc.message, exc.span)


def compare_every_choice(engine: Engine, players: int, seed: int) -> int:
    """Play a random game one decision at a time; at each choice compare both option lists. Returns
    how many choices were compared."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    st.chance_rng = Rng(seed, stream=0)
    compared = 0
    while not st.over:
        fr = st.stack[-1]
        ins = engine.code[fr[0]][fr[1]]
        if ins[0] == CHOOSE:
            want = careful_options(engine, st, ins[1], fr[2])
            assert generated_options(ins[1], st, fr[2]) == want, (seed, st.step)
            compared += 1
        take_step(engine, st, agents, st.chance_rng)
    return compared


@pytest.mark.parametrize(("game", "seeds"), [("hippe-kippen", 3), ("rule-the-roost", 6), ("barnyard-2p", 2)])
def test_generated_options_are_the_careful_options(game: str, seeds: int) -> None:
    engine = engine_for(game)
    compared = sum(compare_every_choice(engine, engine.model.default_players, seed) for seed in range(1, seeds + 1))
    assert compared > 50 * seeds


PILES = """\
game "Piles"
players 2 to 2 default 2

option strict = false "a stricter test"

3 Plain cards "plain"
2 Gold cards "gold"
1 Stone token "stone"
1 Flag marker "the flag"

zone row "the row": ordered
zone up "the cards on": per card, ordered
zone spare "the spare cards"

counter moves per player = 0 "moves"

setup:
  move all Plain from box to row
  move all Gold from box to spare
  move Flag to spare

define early = strict or moves of current < 9
define room(k: kind, c: component) = count(all in up of c) < 2 or k == Gold
define late = moves of current < 9 or strict
define gilt(c: component) = any(Gold in up of c)

turn:
  choose:
    "lay {k} on {c}" for k in kinds(all in spare) for c in all in row if early and not gilt(c) and room(k, c) and late:
      move 1 k from spare to up of c
      moves of current += 1
    "take {c} back" for c in all in row if moves of current > 0 and moves of current < 5 and any(all in up of c):
      move all from up of c to spare
    "flag {c}" for c in all in row if any(Flag in spare) and moves of current < 5 and count(Flag in up of c) == 0:
      move Flag to up of c
    "pass":
      pass
  if moves of current + moves of next player >= 6:
    end game

rank p by highest moves of p
"""


def piles_engine(tmp_path: Path) -> Engine:
    path = tmp_path / "piles.rules"
    path.write_text(PILES, encoding="utf-8")
    return rulelang.load_game(path)


def stone_in_row(engine: Engine, st: State) -> None:
    """Put the stone (a token: it owns no 'up' pile) at the end of the row, as a position could."""
    stone = engine.program.component_labels.index("Stone")
    z, owner = place_of(st, stone)
    (st.zones[z] if owner < 0 else st.zones[z][owner]).remove(stone)
    row = next(i for i, zone in enumerate(engine.model.zones) if zone.name == "row")
    st.zones[row].append(stone)


def test_piles_game_lists_the_careful_options(tmp_path: Path) -> None:
    engine = piles_engine(tmp_path)
    for seed in range(1, 21):
        assert compare_every_choice(engine, 2, seed) > 0


def test_a_count_inside_a_total_in_a_condition_is_counted_per_value(tmp_path: Path) -> None:
    """``any(k in up of d)`` inside a total over d reads the outer k and the total's own d: it is
    counted for each d (it once was kept per k, in a name its helper function did not have)."""
    path = tmp_path / "piles.rules"
    path.write_text(PILES.replace("if early and not gilt(c) and room(k, c) and late:",
                                  "if total(1 for d in all in row if any(k in up of d) and d != c) < 2:"),
                    encoding="utf-8")
    engine = rulelang.load_game(path)
    for seed in range(1, 11):
        assert compare_every_choice(engine, 2, seed) > 0


def test_a_pile_on_a_component_without_one_is_the_careful_error(tmp_path: Path) -> None:
    """The stone has no 'up' pile: both paths stop with the same error at the same place."""
    engine = piles_engine(tmp_path)
    st = engine.new_state(2)
    stone_in_row(engine, st)
    fr = st.stack[-1]
    ins = engine.code[fr[0]][fr[1]]
    assert ins[0] == CHOOSE
    want = careful_options(engine, st, ins[1], fr[2])
    assert want[0] == "error" and "Stone has no 'up' pile" in want[1]
    assert generated_options(ins[1], st, fr[2]) == want


def test_a_false_first_conjunct_keeps_the_pile_from_being_read(tmp_path: Path) -> None:
    """With the first test false for every value, the stone's missing pile is never read, in both paths."""
    engine = piles_engine(tmp_path)
    st = engine.new_state(2)
    stone_in_row(engine, st)
    st.counters[0][st.current] = 9  # moves of current: 'moves < 9' is false before any pile is read
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    want = careful_options(engine, st, spec, fr[2])
    assert want and want[0] != "error"
    assert generated_options(spec, st, fr[2]) == want
    assert not any(index == 0 for index, _values in want)  # no 'lay' option at all




@pytest.mark.parametrize("option", [
    '"take {a} {b}" for a in 1 to 3 for b in 1 to 3 if a > 2',  # the test reads only the outer value
    '"take {a} {b}" for a in 1 to 3 for b in 1 to a if a > 2',  # ... and the inner range depends on it
    '"take {a} {b}" for a in 1 to 3 for b in 1 to 3 if score of current < 9 and a + b > 3',
    '"take {a} {b}" for a in 1 to 3 for b in 1 to a if a > 1 and b < a',
])
def test_a_test_of_the_outer_values_only_is_applied(option: str, tmp_path: Path) -> None:
    """A condition that reads no inner value was once dropped (every combination listed)."""
    path = tmp_path / "numbers.rules"
    path.write_text(NUMBERS.replace("OPTION", option), encoding="utf-8")
    engine = rulelang.load_game(path)
    st = engine.new_state(2)
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    want = careful_options(engine, st, spec, fr[2])
    assert want[0] != "error" and len(want) < 1 + 9
    assert generated_options(spec, st, fr[2]) == want
    for seed in range(1, 6):
        assert compare_every_choice(engine, 2, seed) > 0


def test_constant_tests_are_decided_when_the_code_is_written() -> None:
    x = m.BinOp("<", m.Local(3, m.INT), m.Const(2, m.INT), m.BOOL, None)
    true, false = m.Const(True, m.BOOL), m.Const(False, m.BOOL)
    assert fold(m.BinOp("or", true, x, m.BOOL, None)) is true  # X never runs
    assert fold(m.BinOp("or", false, x, m.BOOL, None)) is x
    assert fold(m.BinOp("and", true, x, m.BOOL, None)) is x
    assert fold(m.BinOp("and", false, x, m.BOOL, None)) is false
    assert fold(m.BinOp("or", x, true, m.BOOL, None)).left is x  # X runs first: kept
    assert fold(m.UnOp("not", true, m.BOOL)) == false
    assert fold(m.IfElseIR(false, x, true, m.BOOL)) is true
    same = m.BinOp("==", m.Const("a", m.STR), m.Const("a", m.STR), m.BOOL, None)
    other = m.BinOp("!=", m.Const("a", m.STR), m.Const("b", m.STR), m.BOOL, None)
    assert fold(same) == true and fold(other) == true
    assert fold(m.IfElseIR(m.BinOp("==", m.Const(1, m.INT), m.Const(2, m.INT), m.BOOL, None), x, false,
                           m.BOOL)) is false


def test_a_marker_is_found_where_it_is() -> None:
    """``find`` (which skips empty piles) agrees with the plain search of every zone."""
    rng = random.Random(5)
    for _ in range(200):
        piles: list[list[int]] = [[] for _ in range(12)]
        shared: list[int] = []
        for c in rng.sample(range(40), 25):
            where = rng.randrange(13)
            (shared if where == 12 else piles[where]).append(c)
        st = State.__new__(State)
        st.zones = [shared, piles, []]
        find = piles_runtime.owned().find
        for c in shared + [c for p in piles for c in p]:
            assert find(st, c, (1, 0)) == place_of(st, c)
            assert find(st, c, ()) == place_of(st, c)


def plain_sheets(engine: Engine, st: State) -> list[dict[str, dict[str, Any]]]:
    out = []
    for p in range(st.players):
        mine = {}
        for sheet in engine.model.sheets:
            loc = [None] * max(1, sheet.nlocals)
            loc[0] = p
            mine[sheet.name] = {label: expression_function(engine.model, e)(st, loc) for label, e in sheet.lines}
        out.append(mine)
    return out


@pytest.mark.parametrize("game", ["hippe-kippen", "rule-the-roost"])
def test_shared_memos_give_the_plain_sheets(game: str) -> None:
    engine = engine_for(game)
    players = engine.model.default_players
    for seed in range(1, 6 if game == "hippe-kippen" else 16):
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        result = engine.standings(st)
        by_player = {row["player"]: row["sheets"] for row in result["standings"]}
        want = plain_sheets(engine, st)
        for p in range(players):
            assert by_player[f"P{p + 1}"] == want[p], (seed, p)


def test_copies_of_one_definition_share_a_memo() -> None:
    """Rule the Roost's roosters(q, b) is inlined under several names of q: one table for all of them."""
    source = engine_for("rule-the-roost").program.generated.source
    functions = source.count("    memo = m")
    tables = len({line.strip() for line in source.splitlines() if line.startswith("    memo = m")})
    assert tables < functions
