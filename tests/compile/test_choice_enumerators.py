"""The generated option enumerators and fast pickers list what the careful path lists.

A ``choose``'s legal options are listed by a generated function (``ChooseSpec.enum``);
the compiler's closures (the spec's ``for`` ranges and conditions, walked by
``Engine._options`` when there is no generated enumerator) are the careful path that
says what the language means. Both must give the same options, in the same order, at
every choice of every game, and for options of every shape (conditions that read the
outer, the inner or none of the ``for`` variables, ranges that depend on earlier ones).

A picker (``play()`` with random agents) lists the options lazily (``ChooseSpec.pick``):
how many, and the innermost ranges nothing reads as lists; ``pick_option`` finds option
``i`` in them. It must be option ``i`` of the full listing, for every ``i``, and leave
the locals as the full listing does.
"""

from __future__ import annotations

import functools
from pathlib import Path

import attrs
import pytest
from scripted import ROOT
from step_support import played, take_step

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile.program import CHOOSE
from rulelang.engine.engine import Engine, pick_option
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.play import play
from rulelang.rng import Rng

GAMES = sorted(p.name[: -len(".rules")] for p in (ROOT / "games").glob("*.rules"))

pytestmark = pytest.mark.usefixtures("at_root")


@functools.cache
def engine_for(game: str) -> Engine:
    """games/GAME.rules, loaded once."""
    return load_game(ROOT / "games" / f"{game}.rules")


def careful_options(engine: Engine, st: State) -> list[tuple[int, tuple]]:
    """The pending choice's options as the compiler's closures list them (no generated code)."""
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    return engine._options(st, attrs.evolve(spec, enum=None), list(fr[2]))


def generated_options(engine: Engine, st: State) -> list[tuple[int, tuple]]:
    """The pending choice's options as its generated enumerator lists them."""
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    return spec.enum(st, list(fr[2]))


def lazy_options(engine: Engine, st: State) -> list[tuple[int, tuple]] | None:
    """Every option of the pending choice as a picker finds it by position (None: no lazy listing)."""
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    if spec.pick is None:
        return None
    total, ends, parts = spec.pick(st, list(fr[2]))
    assert len(ends) == len(parts) and ends == sorted(ends) and (not ends or ends[-1] == total)
    return [pick_option(ends, parts, i) for i in range(total)]


def locals_after(engine: Engine, st: State, fn_name: str) -> list:
    """The frame's locals after the generated enumerator ``fn_name`` (``enum`` or ``pick``) ran on a copy."""
    fr = st.stack[-1]
    loc = list(fr[2])
    getattr(engine.code[fr[0]][fr[1]][1], fn_name)(st, loc)
    return loc


def play_checking(engine: Engine, players: int, seed: int, lazily: list[int]) -> int:
    """Play a random game decision by decision, comparing the listings at every choice; the choices seen.

    ``lazily[0]`` counts the choices that also had a lazy listing."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    chance = Rng(seed, stream=0)
    st.chance_rng = chance
    seen = 0
    while not st.over:
        fr = st.stack[-1]
        size = engine.choice_size(st)
        if size is not None:
            assert engine.code[fr[0]][fr[1]][0] == CHOOSE
            want = careful_options(engine, st)
            assert generated_options(engine, st) == want, (seed, st.step)
            assert size[1] == len(want)
            lazy = lazy_options(engine, st)
            if lazy is not None:
                assert lazy == want, (seed, st.step)
                assert locals_after(engine, st, "pick") == locals_after(engine, st, "enum")
                lazily[0] += 1
            seen += 1
            engine.apply_index(st, agents[size[0]].choose_index(size[1]))
            continue
        asked = engine.ask_answers(st)
        if asked is not None:
            engine.answer(st, asked, agents[asked[0]].choose_index(len(asked[1])))
        else:
            engine.apply_random(st, chance, events=False)
    return seen


@pytest.mark.parametrize("game", GAMES)
def test_every_choice_of_every_game_lists_the_careful_options(game: str) -> None:
    engine = engine_for(game)
    lazily = [0]
    seen = sum(play_checking(engine, engine.model.default_players, seed, lazily) for seed in range(1, 6))
    assert seen > 0
    if game.startswith("barnyard"):  # the bluff and the Robber tokens are listed lazily
        assert lazily[0] > seen / 2


SHAPES = {
    # a condition that reads an outer variable only (it was once dropped by the generator)
    "outer": '"take {n} then {m}" for n in 1 to 3 for m in 1 to 2 if n > 1',
    "inner": '"take {n} then {m}" for n in 1 to 3 for m in 1 to 2 if m > 1',
    "both": '"take {n} then {m}" for n in 1 to 3 for m in 1 to 3 if m != n',
    "none": '"take {n} then {m}" for n in 1 to 3 for m in 1 to 2 if total == 0',
    "dependent": '"take {n} then {m}" for n in 0 to 3 for m in 1 to n',
    "dependent_cond": '"take {n} then {m}" for n in 0 to 3 for m in 1 to n if n + m != 4',
    "three": '"take {n} then {m} to {q}" for n in 1 to 2 for q in other players for m in 1 to n',
    "three_outer_cond": '"take {n} then {m} to {q}" for n in 1 to 3 for q in players for m in 1 to 2 if seat(q) != n',
    "kinds": '"take {n} {k}" for k in kinds(all in pot of current) for n in 1 to count(k in pot of current)',
    "lazy_two": '"take {n} then {m} to {q}" for n in 1 to 3 for q in other players for m in 1 to 2',
    "lazy_after_read": '"take {n} then {m} to {q}" for n in 0 to 3 for m in 1 to n for q in other players',
    "lazy_empty_middle": '"take {n} {k} to {q}" for n in 1 to 2 for k in kinds(all in pot of P2) for q in players',
    "lazy_hoisted": '"take {n} then {m} to {q}" for n in 1 to 3 for q in players for m in 1 to 2 if total == 0',
    "kinds_where": '"take {n} {k} to {q}" for k in kinds(all in pot of current where big)'
                   ' for n in 1 to count(k in pot of current where big) for q in other players',
    "kinds_other_where": '"take {n} {k}" for k in kinds(all in pot of current)'
                         ' for n in 1 to count(k in pot of current where big)',
    "kinds_cond": '"take {n} {k} to {q}" for k in kinds(all in pot of current) for n in 1 to count(k in pot of current)'
                  ' for q in other players if n < 3',
}


def small_game(tmp_path: Path, option: str) -> Engine:
    """A one-choice game whose choice has ``option`` beside a plain option."""
    path = tmp_path / "t.rules"
    path.write_text(f"""game "T"
players 2 to 3 default 3

attribute big = false

3 Bean tokens
2 Pea tokens: big true
1 Nut token: big true

zone pot: per player

counter total = 0

setup:
  move all from box to pot of P1

turn:
  choose:
    {option}:
      set total to total + 1
    "pass":
      set total to total + 2
  end game

rank p by highest total
""", encoding="utf-8")
    return load_game(path)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_options_of_every_shape_are_the_careful_ones(shape: str, tmp_path: Path) -> None:
    engine = small_game(tmp_path, SHAPES[shape])
    st = engine.new_state(3)
    want = careful_options(engine, st)
    assert len(want) > 1 or shape == "lazy_empty_middle"  # P2's pot is empty: only "pass"
    assert generated_options(engine, st) == want
    assert engine.choice_size(st) == (st.current, len(want))
    lazy = lazy_options(engine, st)
    if shape.startswith("lazy"):
        assert lazy == want
        assert locals_after(engine, st, "pick") == locals_after(engine, st, "enum")
    else:
        assert lazy is None or lazy == want


def test_too_many_options_is_the_same_error_when_listed_lazily(tmp_path: Path) -> None:
    engine = small_game(tmp_path, '"take {n} then {m} to {q}" for n in 1 to total + 2 for m in 1 to total + 2'
                                  ' for q in players')
    st = engine.new_state(3)
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    assert spec.pick is not None
    assert spec.pick(st, list(fr[2]))[0] == len(spec.enum(st, list(fr[2]))) == 4 * 3 + 1
    st.counters[0] = 400  # 400 * 400 * 3 options
    with pytest.raises(RulelangError) as eager:
        spec.enum(st, list(fr[2]))
    with pytest.raises(RulelangError) as lazy:
        spec.pick(st, list(fr[2]))
    assert str(lazy.value) == str(eager.value)
    assert "more than 100000 options" in str(lazy.value)


def careful_game(engine: Engine, players: int, seed: int) -> State:
    """A random game played through Decisions: every chance outcome sampled from the pending Decision."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    chance = Rng(seed, stream=0)
    st.chance_rng = chance
    while not st.over:
        taken = take_step(engine, st, agents, chance, events=True)
        assert taken is None or taken  # chance: a Decision sampled and applied (its events)
    st.chance_rng = None
    return st


@pytest.mark.parametrize("game", GAMES)
def test_chance_taken_without_a_decision_is_the_decisions_outcome(game: str) -> None:
    """Shuffles, draws, first players and picks drawn in the driver loop (``Engine._chance``) while
    playing: the same games as sampling each pending chance Decision and applying its outcome."""
    engine = engine_for(game)
    players = engine.model.default_players
    for seed in range(1, 9):
        want = careful_game(engine, players, seed)
        st = engine.new_state(players)
        play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed)
        assert st.dumps() == want.dumps(), seed


def test_a_condition_that_reads_its_value_only_in_a_query_is_tested_per_value(tmp_path: Path) -> None:
    # ``count(k in pot ...)`` reads ``k``: the condition is tested for each kind, not once before the range
    # (where ``k`` holds nothing yet: a crash, or, holding an earlier kind, a silent wrong listing)
    engine = small_game(tmp_path, '"take the {k}s" for k in kinds(all in pot of current)'
                                  ' if count(k in pot of current) >= 2')
    st = engine.new_state(3)
    assert list(engine.pending(st).labels) == ["take the Beans", "take the Peas", "pass"]
    assert generated_options(engine, st) == careful_options(engine, st)
    st, _error = played(engine, 3, 1)
    assert st.over
