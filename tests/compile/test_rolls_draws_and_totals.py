"""The fast paths of rolls, draws, moves and totals give exactly what the careful paths give.

- ``Rng.roll_into`` draws a roll's faces with the generator's step written out, and
  ``Rng.pick`` one agent's pick: the same values, in the same order, and the same generator
  state after, as ``below`` (rejected draws included, one-faced dice drawing nothing).
- While playing with nothing recorded, the generated code rolls a whole roll in one call;
  with narration on, or with the trace recorded, it rolls die by die and logs each; with no
  chance stream at all, every roll and draw pauses and the engine samples it: all three
  must play the same games to the same end.
- A statement's totals over zones are added up in loops before it, and a repeat count the
  checker proves whole and small is not checked again (the generated code says so, and a
  repeat of a total runs that many times); ``move 1 K`` takes the top matching component.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from scripted import ROOT
from step_support import take_step

from rulelang import load_game
from rulelang.agents.base import RandomAgent
from rulelang.compile.codegen import listing
from rulelang.engine.engine import Engine
from rulelang.play import play
from rulelang.rng import Rng

pytestmark = pytest.mark.usefixtures("at_root")

DICE_GAMES = ["chicken", "chicken-eggspansion"]  # the games of games/ that roll dice (checked below)


@functools.cache
def engine_for(game: str) -> Engine:
    return load_game(ROOT / "games" / f"{game}.rules")


def careful_roll(rng: Rng, dice: list[int], faces_of: list[list[int]], out: list[int]) -> None:
    for d in dice:
        out[d] = faces_of[d][rng.below(len(faces_of[d]))]


@pytest.mark.parametrize("sides", [[2], [6], [1, 6, 1], [7, 3, 12], [3 * 2**30, 2**31 + 1, 6], [1]])
def test_roll_into_draws_what_below_draws(sides: list[int]) -> None:
    for seed in range(40):
        fast, slow = Rng(seed, 0), Rng(seed, 0)
        faces_of = [list(range(100, 100 + n)) if n < 100 else _Faces(n) for n in sides]
        dice = [i % len(sides) for i in range(seed % 9)] * 3
        got, want = [-1] * len(sides), [-1] * len(sides)
        for _ in range(5):
            fast.roll_into(dice, faces_of, got)
            careful_roll(slow, dice, faces_of, want)
            assert got == want, (seed, sides)
        assert fast.next32() == slow.next32()


class _Faces:
    """A die with very many sides (so that many draws are rejected), without a list that long."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> int:
        assert 0 <= i < self.n
        return i


def test_a_long_die_rejects_draws_as_below_does() -> None:
    """With 3 * 2**30 sides a quarter of the draws are rejected: the stream must skip them alike."""
    n = 3 * 2**30
    threshold = (2**32 - n) % n
    fast, slow, raw = Rng(3, 0), Rng(3, 0), Rng(3, 0)
    out = [0]
    rejected = 0
    for _ in range(200):
        fast.roll_into([0], [_Faces(n)], out)
        assert out[0] == slow.below(n)
        while raw.next32() < threshold:
            rejected += 1
    assert fast.next32() == slow.next32() == raw.next32()
    assert rejected > 20  # the test did go through the rejection loop


def test_a_die_with_no_faces_is_an_error_that_keeps_the_draws_made() -> None:
    rng, ref = Rng(9, 0), Rng(9, 0)
    out = [0, 0]
    with pytest.raises(ValueError):
        rng.roll_into([0, 1], [[1, 2, 3], []], out)
    ref.below(3)
    assert rng.next32() == ref.next32()


def _play(engine: Engine, players: int, seed: int, narrate: bool = False, record: bool = False) -> Any:
    st = engine.new_state(players)
    events: list[dict[str, Any]] = []
    play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed, narrate=narrate,
         on_event=(lambda e, _n: events.append(e)) if record else None)
    return st, events


@pytest.mark.parametrize("game", DICE_GAMES)
def test_rolling_at_once_plays_the_games_rolled_die_by_die(game: str) -> None:
    engine = engine_for(game)
    for players in sorted({engine.model.min_players, engine.model.default_players}):
        for seed in range(1, 21):
            fast, _ = _play(engine, players, seed)
            told, _ = _play(engine, players, seed, narrate=True)
            recorded, events = _play(engine, players, seed, record=True)
            assert fast.dumps() == told.dumps() == recorded.dumps(), (players, seed)
            assert fast.step == sum(e["type"] in ("chance", "action") for e in events), (players, seed)


def test_dice_games_are_the_games_that_roll() -> None:
    rolling = [p.name[: -len(".rules")] for p in sorted((ROOT / "games").glob("*.rules"))
               if any(k.cls == "die" for k in engine_for(p.name[: -len(".rules")]).model.kinds)]
    assert sorted(rolling) == sorted(DICE_GAMES)


def test_totals_in_statements_are_loops_and_a_proven_repeat_count_is_not_checked() -> None:
    source = listing(engine_for("chicken").program)
    blocks = source.split("# ---- entry points")[0]
    turn = blocks[blocks.index("def r2_"):]
    assert "sum([" not in "\n".join(line for line in turn.splitlines() if "st.log" not in line
                                     and "format_number" not in line)
    assert "whole(" not in turn  # 'repeat sum(eggs of all in middle) times' is a whole number by its attributes


RULES = """game "T"
players 2 to 2
attribute n = 0
face One: n 1
face Two: n 2
2 Die dice "die": One, Two
zone pool "pool"
counter total = 0 "total"
counter loops = 0 "loops"
setup:
  move all Die from box to pool
turn:
  roll all in pool
  total += sum(n of all in pool)
  repeat sum(n of all in pool) - 1 times:
    loops += 1
  if total >= 6:
    end game
rank p by highest total
"""


def test_a_repeat_count_of_a_total_runs_that_many_times(tmp_path) -> None:
    path = tmp_path / "t.rules"
    path.write_text(RULES, encoding="utf-8")
    engine = load_game(path)
    for seed in range(1, 11):
        st, events = _play(engine, 2, seed, record=True)
        faces = [e["outcome"] for e in events if e["type"] == "chance"]
        rolled = [sum({"One": 1, "Two": 2}[f] for f in faces[i:i + 2]) for i in range(0, len(faces), 2)]
        assert st.counters[0] == sum(rolled)
        assert st.counters[1] == sum(r - 1 for r in rolled)


def _careful(engine: Engine, players: int, seed: int) -> Any:
    """A random game with no chance stream attached: every roll and draw pauses and is sampled through
    ``apply_random`` (die by die with ``below``, a draw by ``weighted`` over its outcomes)."""
    st = engine.new_state(players)
    agents = [RandomAgent(seed, s) for s in range(players)]
    chance = Rng(seed, stream=0)
    paused_at_chance = 0
    while not st.over:
        if take_step(engine, st, agents, chance) is not None:
            paused_at_chance += 1
    return st, paused_at_chance


@pytest.mark.parametrize("game", DICE_GAMES)
def test_rolls_and_draws_in_the_generated_code_are_those_the_engine_samples(game: str) -> None:
    """Rolls (``roll_into``) and random draws (the r-th of the drawable kinds, sorted) made inside the
    generated code: the same games as pausing at each and sampling it through the engine."""
    engine = engine_for(game)
    for seed in range(1, 16):
        fast, _ = _play(engine, 4, seed)
        careful, paused = _careful(engine, 4, seed)
        assert paused > 0
        assert fast.dumps() == careful.dumps(), seed


MOVES = """game "M"
players 2 to 2
3 A tokens "a"
2 B tokens "b"
1 C tokens "c"
zone pool "pool"
zone out "out"
counter seen = 0 "seen"
setup:
  move all from box to pool
turn:
  if any(B in pool):
    move 1 A, C from pool to out
    move 1 B from pool to out
    seen += 1
  elif any(C in out):
    move all from out to pool
  choose:
    "go on":
      pass
    "stop":
      end game
rank p by highest seen
"""


def test_moving_the_top_one_and_any_of_kinds(tmp_path) -> None:
    """'move 1 A, C' takes the top matching component (the last of the zone), 'any(B in pool)' sees Bs."""
    path = tmp_path / "m.rules"
    path.write_text(MOVES, encoding="utf-8")
    engine = load_game(path)
    labels = engine.program.component_labels
    st = engine.new_state(2)

    def where() -> tuple[list[str], list[str]]:
        pool, out = (next(z.index for z in engine.model.zones if z.name == name) for name in ("pool", "out"))
        return [labels[c] for c in st.zones[pool]], [labels[c] for c in st.zones[out]]

    # the first turn ran up to its choice: the top of A and C is C, the top B is B#2
    assert where() == (["A#1", "A#2", "A#3", "B#1"], ["B#2", "C"])
    engine.apply_index(st, 0)  # go on
    assert where() == (["A#1", "A#2"], ["A#3", "B#1", "B#2", "C"])
    engine.apply_index(st, 0)  # no B left in the pool: everything comes back
    assert where() == (["A#1", "A#2", "A#3", "B#1", "B#2", "C"], [])
    assert st.counters[0] == 2


@pytest.mark.parametrize("n", [1, 2, 3, 6, 41, 2**31 + 1, 3 * 2**30, 2**32])
def test_pick_draws_what_below_draws(n: int) -> None:
    for seed in range(30):
        fast, slow = Rng(seed, 4), Rng(seed, 4)
        assert [fast.pick(n) for _ in range(40)] == [slow.below(n) for _ in range(40)], seed
        assert fast.next32() == slow.next32()


def test_pick_refuses_what_below_refuses() -> None:
    for n in (0, -3):
        with pytest.raises(ValueError):
            Rng(1, 0).pick(n)


def test_a_random_agent_picks_by_index_as_it_chooses() -> None:
    by_index, by_label = RandomAgent(11, 2), RandomAgent(11, 2)
    sizes = [2, 5, 1, 7, 3] * 20
    assert [by_index.choose_index(n) for n in sizes] == \
        [int(by_label.choose({}, [str(i) for i in range(n)])) for n in sizes]


# ---------------------------------------------------------------- moves sorted in one pass, the top
# one of a run of ids by bisection, and a lone trigger's check: each against the general way

SORTING = """game "F"
players 2 to 3 default 2
attribute side = "none"
face Up: side "up"
face Down: side "down"
face Star: side "up"
face Blank
3 Red dice "red die": Up, Down, Star, Blank
2 Blue dice "blue die": Up, Down, Blank, Blank
1 Green die "green die": Star, Down
zone pool "pool"
zone ups "ups": ordered
zone downs "downs": unrolled
zone held "held": per player
counter score per player = 0 "points"
counter rounds = 0 "rounds"
setup:
  move all from box to pool
turn:
  roll all in pool
  move all in pool where side == "up" to ups
  move all Red, Green in pool where side != "none" to downs
  score of current += count(all in ups)
  move 1 Red, Blue from downs to held of current
  move 1 Green from pool to held of current
  move 1 Blue from pool to held of current
  choose:
    "keep":
      pass
    "give back one":
      for k in kinds(all in held of current):
        move 1 k from held of current to pool
  move all from ups, downs to pool
  if rounds % 3 == 2:
    move all Blue, Red from held of current, held of next player to pool
  rounds += 1
when rounds >= 9 "nine rounds":
  end game
when any(Green in held of current) "green":
  score of current += 2
rank p by highest score of p
"""


def _general(path: Any, monkeypatch: pytest.MonkeyPatch, **off: Any) -> Engine:
    """The game compiled with the named mechanisms of the code generator turned off."""
    from rulelang.compile import codegen

    with monkeypatch.context() as patch:
        for name, value in off.items():
            patch.setattr(codegen.CodeGen, name, value)
        return load_game(path)


def _same_narrated_games(fast: Engine, general: Engine, players: int, seeds: range) -> None:
    for seed in seeds:
        got, _ = _play(fast, players, seed, narrate=True)
        want, _ = _play(general, players, seed, narrate=True)
        assert got.dumps() == want.dumps(), seed
        assert got.result == want.result, seed
        got_log, want_log = [], []
        for engine, log in ((fast, got_log), (general, want_log)):
            st = engine.new_state(players)
            play(engine, st, [RandomAgent(seed, s) for s in range(players)], seed,
                 on_event=lambda e, narration, log=log: log.append((e, list(narration))))
        assert got_log == want_log, seed


@pytest.mark.parametrize("mechanism", ["fusible_moves", "id_span", "check_one"])
def test_each_shortcut_plays_the_games_of_the_general_code(tmp_path, monkeypatch, mechanism: str) -> None:
    """Two moves out of one zone in one pass (a die both tests pass goes where the first move takes it;
    an unrolled destination loses its faces; an ordered one keeps the order), ``move 1`` of a run of
    ids (fixed kinds or a kind in a local) by bisection and ``move all`` of them as a slice of each
    zone, a lone trigger's check: each plays the same
    games, states, results, events and narration as the general code."""
    path = tmp_path / "f.rules"
    path.write_text(SORTING, encoding="utf-8")
    fast = load_game(path)
    off = {"fusible_moves": lambda self, a, b: False, "id_span": lambda self, q: None,
           "check_one": lambda self, lines, t: False}[mechanism]
    general = _general(path, monkeypatch, **{mechanism: off})
    mark = {"fusible_moves": "            elif m", "id_span": "bisect_right(",
            "check_one": "return fire(st, [("}[mechanism]
    assert mark in fast.program.generated.source
    assert mark not in general.program.generated.source
    if mechanism == "id_span":  # 'move all Blue, Red from ...' (ids from 0): a slice of each zone from its start
        assert re.search(r"(_t\d+) = (_s\d+)\[:(_j\d+)\]\n\s+del \2\[:\3\]", fast.program.generated.source)
    for players in (2, 3):
        _same_narrated_games(fast, general, players, range(1, 41))


@pytest.mark.parametrize("game", DICE_GAMES)
def test_the_dice_games_play_as_with_the_general_code(game: str, monkeypatch) -> None:
    from rulelang.compile import runtime

    fast = engine_for(game)
    with monkeypatch.context() as patch:  # the kinds of a zone the careful way: a set, sorted
        patch.setattr(runtime, "kinds_in_order", lambda z, kind_of, last: sorted({kind_of[c] for c in z}))
        general = _general(ROOT / "games" / f"{game}.rules", monkeypatch, fusible_moves=lambda self, a, b: False,
                           id_span=lambda self, q: None, check_one=lambda self, lines, t: False)
    source = fast.program.generated.source
    assert "            elif mf" in source and "bisect_right(" in source and "return fire(st, [(" in source
    if game == "chicken-eggspansion":
        assert "kinds_in_order(" in source
    _same_narrated_games(fast, general, 4, range(1, 11))


def test_two_moves_out_of_one_zone_by_hand(tmp_path) -> None:
    """Worked from the rolled faces (the trace's events): a Red or Green die showing Up or Star goes to
    'ups' (the first move), though the second move's test passes it too; the other Red and Green dice
    showing Up, Down or Star go to 'downs' and show no face there (unrolled); a Blue die showing Down
    and every die showing Blank stay in the pool; 'ups' keeps the pool's order."""
    path = tmp_path / "f.rules"
    path.write_text(SORTING.replace("  score of current += count(all in ups)", "  choose:\n    \"look\":\n      pass"),
                    encoding="utf-8")
    engine = load_game(path)
    zones = {z.name: z.index for z in engine.model.zones}
    labels = engine.program.component_labels
    checked = 0
    for seed in range(1, 31):
        st = engine.new_state(2)
        events: list[dict[str, Any]] = []
        st.chance_rng = Rng(seed, 0)
        st.chance_events = events
        engine._run(st)  # setup and the first roll, up to the first choice ("look")
        st.chance_rng = st.chance_events = None
        shown = {e["roll"]: e["outcome"] for e in events if e.get("type") == "chance"}
        assert sorted(shown) == sorted(labels)
        ups = [c for c in labels if shown[c] in ("Up", "Star")]
        downs = [c for c in labels if c[:4] in ("Red#", "Gree") and c not in ups and shown[c] != "Blank"]
        pool = [c for c in labels if c not in ups and c not in downs]
        assert [labels[c] for c in st.zones[zones["ups"]]] == ups, seed
        assert [labels[c] for c in st.zones[zones["downs"]]] == downs, seed
        assert [labels[c] for c in st.zones[zones["pool"]]] == pool, seed
        assert all(st.faces[c] == -1 for c in st.zones[zones["downs"]])
        checked += bool(ups) and bool(downs) and any(shown[c] == "Star" and c.startswith("Red") for c in ups)
    assert checked >= 3  # dice both tests pass did occur


def test_the_kinds_of_a_sorted_zone_in_order() -> None:
    """``kinds_in_order`` (the kinds of a zone kept sorted, each once) is the sorted set of its kinds, for
    kinds of one component, of many, and of none (whose last id is one below their first)."""
    import random

    from rulelang.compile.runtime import kinds_in_order

    rng = random.Random(5)
    for _ in range(300):
        counts = [rng.choice([0, 1, 1, 2, 4]) for _ in range(rng.randint(1, 7))]
        kind_of = [k for k, n in enumerate(counts) for _ in range(n)]
        first = [sum(counts[:k]) for k in range(len(counts))]
        last = [f + n - 1 for f, n in zip(first, counts)]
        z = sorted(rng.sample(range(len(kind_of)), rng.randint(0, len(kind_of))))
        assert kinds_in_order(z, kind_of, last) == sorted({kind_of[c] for c in z}), (counts, z)


def test_json_number_keeps_whole_numbers_and_writes_fractions_as_text() -> None:
    from fractions import Fraction

    from rulelang.numbers import json_number

    assert json_number(7) == 7 and type(json_number(7)) is int
    assert json_number(-(10**18)) == -(10**18)
    assert json_number(Fraction(7, 3)) == "7/3" and json_number(Fraction(-1, 2)) == "-1/2"
    assert json_number(True) is True and json_number("x") == "x"
