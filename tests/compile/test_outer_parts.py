"""Two rewrites, against the code written without them (same games, same traces, same standings, same MCTS
choices):

- an option's row test reads its parts that need no innermost value from a table by kind (a part decided by an
  outer range's kind alone) or from a variable set once per outer value, tested first in its chain where the
  parts it may skip cannot fail (``outer_parts.OUTER_PARTS``);
- a generator's helper looks the components of a kind it does not bind up once, before its loop
  (``queries.KIND_SETS_ONCE``).

The rewrite of a row test is also checked on its own (which parts move, which stay), and shown to matter: a
broken variant plays other games here.
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from lever_support import EXAMPLES, mcts_choices, noticed, player_counts, same_games

from rulelang import load_game
from rulelang.check import model as m
from rulelang.compile import outer_parts, queries
from rulelang.engine.engine import Engine

REPO = Path(__file__).resolve().parents[2]
GAMES = sorted(p.name[: -len(".rules")] for p in (REPO / "games").glob("*.rules"))
FLAGS = [(outer_parts, "OUTER_PARTS"), (queries, "KIND_SETS_ONCE")]
# the flags that change a game's source
CHANGED = {"hippe-kippen": {"OUTER_PARTS", "KIND_SETS_ONCE"}, "rule-the-roost": {"OUTER_PARTS"},
           "barnyard": {"KIND_SETS_ONCE"}, "barnyard-2p": {"KIND_SETS_ONCE"}}


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool | dict[str, bool]) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        for module, name in FLAGS:
            patch.setattr(module, name, on if isinstance(on, bool) else on.get(name, True))
        return load_game(path)


@pytest.mark.parametrize("game", GAMES)
def test_every_game_plays_and_records_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    source = new.program.generated.source
    changed = {name for _module, name in FLAGS
               if source != _load(path, monkeypatch, {name: False}).program.generated.source}
    assert changed == CHANGED.get(game, set())
    if changed:  # (the same module plays the same games)
        same_games(new, old, player_counts(new), range(4))


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_plays_as_without_the_rewrites(example: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / example
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    if new.program.generated.source != old.program.generated.source:  # (the same module plays the same games)
        same_games(new, old, [new.model.default_players], range(3))


@pytest.mark.parametrize("game", ["hippe-kippen", "rule-the-roost"])
def test_mcts_chooses_as_without_the_rewrites(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    path = REPO / "games" / f"{game}.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    got = mcts_choices(new, new.model.default_players)
    assert got and got == mcts_choices(old, old.model.default_players)


def test_hippe_kippen_reads_the_joker_test_from_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """'k == Joker or k == Doubler' in the lay option's row test: one look in a table by kind, no comparison."""
    path = REPO / "games" / "hippe-kippen.rules"
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    source, before = new.program.generated.source, old.program.generated.source
    assert " == 10)) or (_v" in before and " == 10)) or (_v" not in source
    assert "_p" in source and "or kt" in source and "or kt" not in before
    assert " = KI[loc[6]]\n" in source and " = KI[loc[6]]\n" not in before  # (looked up once, before a loop)


def test_a_table_of_the_wrong_values_plays_other_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The games above would notice a table by kind that says the opposite of the part it stands for."""
    path = REPO / "games" / "hippe-kippen.rules"
    right = _load(path, monkeypatch, True)
    real = outer_parts._Walk.value
    with monkeypatch.context() as patch:
        patch.setattr(outer_parts._Walk, "value", lambda self, e, slot, kind: not real(self, e, slot, kind))
        wrong = _load(path, monkeypatch, True)
    assert noticed(wrong, right, 3)  # (the same source: the tables are constants)


# ---------------------------------------------------------------- the rewrite of a row test, on its own

K, C, N = 6, 7, 0  # an outer range's kind, the innermost range's component, a counter
_MODEL = SimpleNamespace(
    zones=[SimpleNamespace(per_player=False, per_kind=None, per_class=frozenset({1}))],  # zone 0: a pile per card
    kinds=[SimpleNamespace()] * 3)


def _any(slot_kind: int | None, owner: int) -> m.Agg:
    q = m.QueryIR("all", None, None, () if slot_kind is None else (slot_kind,), False,
                  (m.ZoneSel(0, m.Local(owner, m.COMPONENT)),), None, None)
    return m.Agg("any", None, q, m.BOOL)


def _op(op: str, a: Any, b: Any) -> m.BinOp:
    return m.BinOp(op, a, b, m.BOOL, None)


def _hoist(parts: list[Any], variables: bool = True) -> outer_parts.Hoist:
    return outer_parts.hoist(_MODEL, parts, {C}, {K}, False, {"colour": [True, False, True]},  # type: ignore[arg-type]
                             variables)


def test_a_part_decided_by_the_kind_becomes_a_table_in_its_place() -> None:
    joker = _op("or", _op("==", m.Local(K, m.KIND), m.Const(1, m.KIND)), _op("==", m.Local(K, m.KIND),
                                                                             m.Const(2, m.KIND)))
    found = _hoist([_any(None, C), _op("or", _any(K, C), joker)])
    assert not found.moved and [(values, kind) for _slot, values, kind in found.tabled] == [([False, True, True], K)]
    slot = found.tabled[0][0]
    assert found.parts == [_any(None, C), _op("or", _any(K, C), m.Local(slot, m.BOOL))]  # (not moved ahead)


def test_a_variable_goes_first_only_where_the_parts_it_skips_cannot_fail() -> None:
    counted = _op("==", m.CounterGet(N, None), m.Const(3, m.INT))  # reads no range: a variable per outer value
    pile = _any(K, C)
    # the pile was read by the first test: reading it again cannot fail, the variable is tested first
    found = _hoist([_any(None, C), _op("or", pile, counted)])
    (slot, part), = found.moved
    assert part == counted and found.parts[1] == _op("or", m.Local(slot, m.BOOL), pile)
    # nothing read the pile before: it might fail, and it is still read first
    found = _hoist([_op("or", pile, counted)])
    (slot, part), = found.moved
    assert found.parts == [_op("or", pile, m.Local(slot, m.BOOL))]
    # no outer range (a variable would be set once per listing): it stays as it is
    parts = [_any(None, C), _op("or", pile, counted)]
    found = _hoist(parts, variables=False)
    assert found.parts == parts and not found.moved and not found.tabled


def test_a_part_that_reads_the_innermost_value_or_calls_stays() -> None:
    reads_c = _op("==", m.Local(C, m.COMPONENT), m.Const(0, m.COMPONENT))
    kept = m.Gen("exists", m.Const(1, m.INT), 9, None, _any(K, 9), m.INT)  # a count of its own: stays lazy
    parts = [_any(None, C), _op("or", reads_c, kept)]
    found = _hoist(parts)
    assert found.parts == parts and not found.moved and not found.tabled


def test_with_the_flag_off_nothing_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(outer_parts, "OUTER_PARTS", False)
    parts = [_any(None, C), _op("or", _any(K, C), _op("==", m.Local(K, m.KIND), m.Const(1, m.KIND)))]
    assert _hoist(parts).parts == parts and not _hoist(parts).tabled
