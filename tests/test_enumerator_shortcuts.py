"""Shortcuts the generated option enumerators and helpers take list what the careful path lists.

Each shortcut is checked against the compiler's closures (``Engine._options`` with no
generated function), eagerly and as a picker lists lazily, at every choice of random games
of a small game written to use them, and where it must step aside:

- a choice whose ranges cannot try more than the options limit keeps no count of tries
  (one that can still stops with the careful path's error);
- a ``kinds(...)`` range listed by several options is computed once per listing;
- a picker keeps the innermost values an option's test lets through in one list;
- ``any(k in Z)`` with ``k`` a kind in a local tests Z against the components of ``k``;
- piles on a loop's value are read with no check when every value owns them, and a pile
  read once is looked up where it is read (a component without one: the careful error);
- a condition the game's options make always true leaves the innermost ranges as lists;
- ``total(1 for ...) > 0`` stops at the first value that passes when nothing left could fail;
- a marker is looked for first where it was last seen (a guess that is checked);
- the standings at the end of a game take the rows of a tally made just before, if nothing the sheet
  reads changed since.
"""

from __future__ import annotations

import random
from pathlib import Path

import attrs
import pytest
from step_support import NUMBERS, take_step
from test_choice_enumerators import careful_options, generated_options, lazy_options, locals_after

import rulelang
from rulelang.agents.base import RandomAgent
from rulelang.compile import piles_runtime
from rulelang.compile.exprs import expression_function
from rulelang.compile.program import CHOOSE
from rulelang.compile.runtime import place_of
from rulelang.compile.source_text import cannot_fail, inline_single_piles, owned_piles
from rulelang.compile.source_text import one_group as _one_group
from rulelang.compile.source_text import unguarded as _unguarded
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.rng import Rng

pytestmark = pytest.mark.usefixtures("at_root")

SHORTCUTS = """\
game "Shortcuts"
players 2 to 2 default 2

option open = true "every card may be shown"
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

define gilt(c: component) = any(Gold in up of c)
define room(k: kind, c: component) = count(all in up of c) < 2 or k == Gold
define laid(k: kind) = total(1 for d in all in row if any(k in up of d)) > 0
define fresh(k: kind) = strict or not laid(k) or moves of current > 2

turn:
  choose:
    "lay {k} on {c}" for k in kinds(all in spare) for c in all in row if not gilt(c) and room(k, c) and fresh(k):
      move 1 k from spare to up of c
      moves of current += 1
    "match {k} on {c}" for k in kinds(all in spare) for c in all in row if any(k in up of c) or strict:
      moves of current += 1
    "show {k} by {c}" for k in kinds(all in spare) for c in all in row if open or moves of current > 3:
      moves of current += 1
    "take {c} back" for c in all in row if moves of current > 0 and any(all in up of c):
      move all from up of c to spare
    "flag {c}" for c in all in row if any(Flag in spare) and moves of current < 5:
      move Flag to up of c
    "pass":
      pass
  if moves of current + moves of next player >= 7:
    end game

rank p by highest moves of p
"""


def shortcuts_engine(tmp_path: Path, text: str = SHORTCUTS) -> Engine:
    path = tmp_path / "shortcuts.rules"
    path.write_text(text, encoding="utf-8")
    return rulelang.load_game(path)


def all_listings(engine: Engine, st: State) -> tuple:
    """The pending choice's options: careful, generated, lazy (or the error each stops with)."""
    out = []
    for how in (careful_options, generated_options, lazy_options):
        try:
            out.append(how(engine, st))
        except RulelangError as exc:
            out.append(("error", exc.message, exc.span))
    return tuple(out)


def test_every_choice_is_listed_as_the_careful_path_lists_it(tmp_path: Path) -> None:
    engine = shortcuts_engine(tmp_path)
    seen = lazily = 0
    for seed in range(1, 16):
        st = engine.new_state(2)
        agents = [RandomAgent(seed, s) for s in range(2)]
        chance = Rng(seed, stream=0)
        st.chance_rng = chance
        while not st.over:
            fr = st.stack[-1]
            if engine.code[fr[0]][fr[1]][0] == CHOOSE:
                careful, eager, lazy = all_listings(engine, st)
                assert eager == careful, (seed, st.step)
                assert lazy is not None  # the 'show' and 'flag' options are listed lazily
                assert lazy == careful, (seed, st.step)
                assert locals_after(engine, st, "pick") == locals_after(engine, st, "enum")
                seen += 1
                lazily += any(index == 0 for index, _values in careful)
            take_step(engine, st, agents, chance)
    assert seen > 100 and lazily > 20


def test_the_shortcuts_are_taken(tmp_path: Path) -> None:
    """The game's generated code takes each shortcut (else the test above would not test them)."""
    source = shortcuts_engine(tmp_path).program.generated.source
    assert "tries" not in source  # no choice here can try 100000 combinations
    assert " is None: _s" in source  # kinds(all in spare), listed by three options, computed once
    assert "KI[" in source  # any(k in up of c), k a local
    assert ".issuperset(" in source  # the row's cards own their piles: read with no check
    assert "(Z[" in source and " else zone_of_class(" in source  # a pile read once, looked up where read


def stone_in_row(engine: Engine, st: State) -> None:
    """Put the stone (a token: it owns no 'up' pile) at the end of the row, as a position could."""
    stone = engine.program.component_labels.index("Stone")
    z, owner = place_of(st, stone)
    (st.zones[z] if owner < 0 else st.zones[z][owner]).remove(stone)
    row = next(i for i, zone in enumerate(engine.model.zones) if zone.name == "row")
    st.zones[row].append(stone)


@pytest.mark.parametrize("moves", [0, 3])
def test_a_component_without_a_pile_gets_the_careful_error(moves: int, tmp_path: Path) -> None:
    """The stone has no 'up' pile: the checked loops run, and stop where the careful path stops."""
    engine = shortcuts_engine(tmp_path)
    st = engine.new_state(2)
    stone_in_row(engine, st)
    st.counters[0][st.current] = moves
    careful, eager, lazy = all_listings(engine, st)
    assert careful[0] == "error" and "Stone has no 'up' pile" in careful[1]
    assert eager == careful and lazy == careful


@pytest.mark.parametrize("gold_laid", [False, True])
def test_a_total_over_a_component_without_a_pile_gets_the_careful_error(gold_laid: bool, tmp_path: Path) -> None:
    """``laid(k)`` goes through the row, stone included, in a helper: its checked loop raises as the careful one,
    even when a card before the stone already has the kind on it (``laid(k)`` is then known to be true)."""
    engine = shortcuts_engine(tmp_path, SHORTCUTS.replace(
        "define fresh(k: kind) = strict or not laid(k) or moves of current > 2", "define fresh(k: kind) = not laid(k)"))
    assert "return True" in engine.program.generated.source  # laid(k): any card with k on it will do
    st = engine.new_state(2)
    if gold_laid:
        gold = next(i for i, label in enumerate(engine.program.component_labels) if label.startswith("Gold"))
        z, owner = place_of(st, gold)
        (st.zones[z] if owner < 0 else st.zones[z][owner]).remove(gold)
        up = next(i for i, zone in enumerate(engine.model.zones) if zone.name == "up")
        row = next(i for i, zone in enumerate(engine.model.zones) if zone.name == "row")
        st.zones[up][st.zones[row][0]].append(gold)
    stone_in_row(engine, st)
    careful, eager, lazy = all_listings(engine, st)
    assert careful[0] == "error" and "Stone has no 'up' pile" in careful[1]
    assert eager == careful and lazy == careful




@pytest.mark.parametrize(("option", "counted"), [
    ('"take {a} {b}" for a in 1 to 99 for b in 1 to 1000 if b == a', False),  # 99 + 99 000 tries at most
    ('"take {a} {b}" for a in 1 to 100 for b in 1 to 1000 if b == a', True),  # 100 + 100 000: may pass the limit
])
def test_tries_are_counted_only_where_the_limit_can_be_reached(option: str, counted: bool, tmp_path: Path) -> None:
    engine = shortcuts_engine(tmp_path, NUMBERS.replace("OPTION", option))
    assert ("tries" in engine.program.generated.source) is counted
    if not counted:
        st = engine.new_state(2)
        careful, eager, _lazy = all_listings(engine, st)
        assert eager == careful and len(careful) == 99 + 1
        return
    with pytest.raises(RulelangError) as generated:
        engine.new_state(2)  # the first choice lists its options at once
    # a state waiting at the same choice, from the same game with small ranges: the careful path lists it
    st = shortcuts_engine(tmp_path, NUMBERS.replace("OPTION", '"take {a} {b}" for a in 1 to 2 for b in 1 to 2')
                          ).new_state(2)
    fr = st.stack[-1]
    spec = engine.code[fr[0]][fr[1]][1]
    with pytest.raises(RulelangError) as careful:
        engine._options(st, attrs.evolve(spec, enum=None), list(fr[2]))
    with pytest.raises(RulelangError) as listed:
        spec.enum(st, list(fr[2]))
    assert str(generated.value) == str(careful.value) == str(listed.value)
    assert "more than 100000 options" in str(careful.value)


def test_a_kinds_range_shared_by_options_is_computed_where_first_needed(tmp_path: Path) -> None:
    """The first option to list kinds(all in spare) is skipped (its test fails): the next one computes it."""
    engine = shortcuts_engine(tmp_path, SHORTCUTS.replace(
        '"lay {k} on {c}" for k in kinds(all in spare) for c in all in row if not gilt(c)',
        '"lay {k} on {c}" for k in kinds(all in spare) for c in all in row if strict and not gilt(c)'))
    st = engine.new_state(2)
    careful, eager, lazy = all_listings(engine, st)
    assert not any(index == 0 for index, _values in careful) and any(index == 1 for index, _ in careful) is False
    assert any(index == 2 for index, _values in careful)  # 'show', over the same kinds
    assert eager == careful and lazy == careful


def test_text_helpers() -> None:
    assert cannot_fail("(not KI[loc[6]].isdisjoint(Z[5][_v1])) and len(x) > sum(map(mk.__getitem__, y))")
    assert not cannot_fail("g12(st, loc) > 0") and not cannot_fail("div(a, b, k1)")
    assert not cannot_fail("(Z[5][v] if ow[v] else zone_of_class(Z[5], v, ow, LB, k1, k2, k3))")
    assert _one_group("(a and (b or c))") and not _one_group("(a) and (b)") and not _one_group("a")
    assert _unguarded("f((_p1 if _p1 is not None else g(x, (y))), (_p1 if _p1 is not None else h()))",
                      "_p1") == "f(_p1, _p1)"
    texts, kept = inline_single_piles(["((_p1 if _p1 is not None else slow(1))) and _p2x"],
                                      [("_p1", "Z[5][v] if ow[v] else None")])
    assert texts == ["((Z[5][v] if ow[v] else slow(1))) and _p2x"] and kept == []
    texts, kept = inline_single_piles(["(_p1 if _p1 is not None else a()) or (_p1 if _p1 is not None else b())"],
                                      [("_p1", "Z[5][v] if ow[v] else None")])
    assert kept == [("_p1", "Z[5][v] if ow[v] else None")]  # read twice: looked up once, before
    consts = {"ow": [True, False, True]}
    plain = owned_piles(["(_p1 if _p1 is not None else a()) or (_p1 if _p1 is not None else b())"],
                        [("_p1", "Z[5][v] if ow[v] else None")], "v", consts)
    assert plain == (["_p1 or _p1"], [("_p1", "Z[5][v]")], ["ows"]) and consts["ows"] == frozenset({0, 2})
    # a pile whose owner may be nobody or nothing is not read without its check
    assert owned_piles(["_p1"], [("_p1", "Z[5][v] if v is not None and v >= 0 and ow[v] else None")], "v",
                       consts) is None


def test_a_marker_is_found_where_it_is_whatever_was_last_seen() -> None:
    """``find`` first checks where the marker was last seen: a wrong or stale guess is never believed."""
    rng = random.Random(7)
    for _ in range(300):
        piles: list[list[int]] = [[] for _ in range(12)]
        shared: list[int] = []
        for c in rng.sample(range(40), 25):
            where = rng.randrange(13)
            (shared if where == 12 else piles[where]).append(c)
        st = State.__new__(State)
        st.zones = [shared, piles, []]
        owned = piles_runtime.owned()
        for c in shared + [c for p in piles for c in p]:
            owned.last_seen[c] = rng.choice([(0, -1), (1, rng.randrange(14)), (2, -1), (1, -1), (0, 3),
                                             (9, 0), (2, 5)])
            assert owned.find(st, c, (1, 0)) == place_of(st, c)
            assert owned.find(st, c, ()) == place_of(st, c)  # the guess now right: found at once


TALLIES = """\
game "Tallies"
players 2 to 2 default 2

3 Coin tokens "coin"

zone purse: per player

counter score per player = 0 "points"
counter bonus per player = 0 "bonus points"

sheet worth for p:
  "Coins": count(all in purse of p)
  "Bonus": bonus of p

setup:
  move 1 Coin from box to purse of P1

turn:
  tally worth into score
  AFTER
  end game

rank p by highest score of p
"""


@pytest.mark.parametrize(("after", "kept"), [
    ("pass", True),
    ("score of P2 += 5", True),  # a counter the sheet does not read
    ("bonus of P1 += 1", False),  # one it reads
    ("move 1 Coin from box to purse of P2", False),  # a zone it reads
])
def test_the_standings_take_the_last_tally_only_if_nothing_it_read_changed(after: str, kept: bool,
                                                                           tmp_path: Path) -> None:
    engine = shortcuts_engine(tmp_path, TALLIES.replace("AFTER", after))
    reused = []
    real = engine.run.tallied_rows  # the engine's own (its loaded program's)

    def spy(st: State, lines: list) -> list | None:
        rows = real(st, lines)
        reused.append(rows is not None)
        return rows

    engine.run.tallied_rows = spy
    st = engine.new_state(2)
    assert st.over and reused == [kept]
    plains = [(label, expression_function(engine.model, e)) for label, e in engine.model.sheets[0].lines]
    for row in st.result["standings"]:
        p = int(row["player"][1:]) - 1
        loc = [None] * max(1, engine.model.sheets[0].nlocals)
        loc[0] = p
        assert row["sheets"]["worth"] == {label: plain(st, loc) for label, plain in plains}
