"""``analysis.quiet``, the one test that an expression changes nothing and cannot fail, read by ``outer_parts``
(the parts of a row test moved out of the innermost loop) and ``unasked`` (the tests that are surely false where
nobody has answered). Where the two tests it replaces differed, it takes the stricter reading: a seat written
(``P3``) only below the game's fewest players, and an answer only of a player surely seated (the current
player, such a seat, a loop's variable over seats): never of a local that may hold nobody, whose answer is an
error (which ``unasked`` used to leave out with the ``if`` reading it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lever_support import plain

from rulelang import load_game
from rulelang.check import model as m
from rulelang.compile import unasked
from rulelang.compile.analysis import quiet
from rulelang.engine.engine import Engine
from rulelang.errors import RulelangError

REPO = Path(__file__).resolve().parents[2]
MODEL = m.Model("q", [], 2, 4, 2, {}, {}, [], [], [], [], [], [], m.Ranking([], 0, None), [], 0, 0, [])
SPAN = None
ONE = m.Const(1, m.INT)
P = m.Local(3, m.PLAYER)
K = m.Local(4, m.KIND)


def _bin(op: str, left: object, right: object, t: str = m.BOOL) -> m.BinOp:
    return m.BinOp(op, left, right, t, SPAN)  # type: ignore[arg-type]


QUIET = [
    ONE, P, m.CurrentPlayer(), m.SeatLit(0, SPAN), m.SeatLit(1, SPAN), m.CounterGet(0, None),
    m.CounterGet(0, m.CurrentPlayer()), m.KindAttr("points", K, m.INT), m.KindAttr("points", m.Const(2, m.KIND), m.INT),
    m.AnswerGet(m.CurrentPlayer()), m.AnswerGet(m.SeatLit(1, SPAN)), m.UnOp("not", P, m.BOOL),
    _bin("and", _bin("==", P, m.CurrentPlayer()), _bin("!=", K, m.Const(1, m.KIND))),
    _bin("<", _bin("+", ONE, m.CounterGet(0, None), m.INT), _bin("*", ONE, ONE, m.INT)),
]
NOT_QUIET = {
    "a seat fewer games have": m.SeatLit(2, SPAN),
    "the answer of a local that may hold nobody": m.AnswerGet(P),
    "the answer of a seat fewer games have": m.AnswerGet(m.SeatLit(3, SPAN)),
    "the answer of the player after someone": m.AnswerGet(m.After(P)),
    "another player's counter": m.CounterGet(0, P),
    "an attribute of a computed kind": m.KindAttr("points", m.CompKind(m.Local(5, m.COMPONENT)), m.INT),
    "an order of texts": _bin("<", m.Const("a", m.STR), m.Const("b", m.STR)),
    "a sum of a number and a text": _bin("+", ONE, m.Const("b", m.STR), m.INT),
    "a division": _bin("/", ONE, ONE, m.INT),
    "a negation": m.UnOp("-", ONE, m.INT),
    "a count": m.Agg("count", None, m.QueryIR("all", None, None, (), False, (m.ZoneSel(0, None),), None, SPAN),
                     m.INT),
    "a quiet part beside one that is not": _bin("or", P, m.SeatLit(3, SPAN)),
}


def test_quiet_reads_only_what_cannot_fail() -> None:
    for e in QUIET:
        assert quiet(e, MODEL, False), e
    for why, e in NOT_QUIET.items():
        assert not quiet(e, MODEL, False), why


def test_a_kinds_attribute_is_quiet_only_where_no_kind_value_is_no_kind() -> None:
    e = m.KindAttr("points", K, m.INT)
    assert quiet(e, MODEL, False) and not quiet(e, MODEL, True)


def test_an_answer_is_quiet_at_the_seats_given() -> None:
    e = _bin("==", m.AnswerGet(P), m.Const("now", m.STR))
    assert not quiet(e, MODEL, False)
    assert quiet(e, MODEL, False, frozenset({P.slot}))
    assert not quiet(e, MODEL, False, frozenset({P.slot + 1}))


# Two players, every ask asks nobody (``unasked``): an answer read of a local that holds nobody at first
NOBODY = """game "E"
players 2 to 2

2 Red cards
2 Token cards

zone table
zone held: per player

counter n = 0

setup:
  move all Red from box to table

turn:
  choose:
    "before {q}" for q in other players:
      decide(q)
  n += 1
  if n >= 4:
    end game

rule decide(d: player):
  ask e in other players if e != d:
    "now" if any(Token in held of e)
    "later"
  for e in other players:
    if answer of e == "now":
      n += 1
  let w = nobody
  if n >= 2:
    let w = d
  if answer of w == "now":
    n += 1

rank p by highest count(all in held of p)
"""


def _load(path: Path, monkeypatch: pytest.MonkeyPatch, on: bool) -> Engine:
    with monkeypatch.context() as patch:
        patch.setenv("RULELANG_NO_CACHE", "1")
        patch.setattr(unasked, "NOBODY_ASKED", on)
        patch.setattr(unasked, "UNSAID_ANSWERS", on)
        return load_game(path)


def _error(engine: Engine, seed: int) -> str:
    with pytest.raises(RulelangError) as found:
        plain(engine, 2, seed)
    return str(found.value)


def test_the_answer_of_nobody_fails_as_without_the_rewrites(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``if answer of w`` with ``w`` nobody is an error, with the rewrites as without them (the ``if``
    is not left out as surely false: its test is not quiet), while the loop over the others' answers still is."""
    path = tmp_path / "e.rules"
    path.write_text(NOBODY)
    new, old = _load(path, monkeypatch, True), _load(path, monkeypatch, False)
    source, before = new.program.generated.source, old.program.generated.source
    assert source.count("st.answers[") == 1 and before.count("st.answers[") > 1
    for seed in range(2):
        error = _error(new, seed)
        assert error == _error(old, seed) and "nobody has an answer" in error
        assert re.search(r"e\.rules:33:3: ", error)
