"""Asks that ask nobody, and answers nobody can have given, proved from the checked model.

In a game of at most two players, ``other players`` is one seat at most: the one seat that is not the current
player's. An ``ask e in other players if e != X`` where X is surely one of the other players (of the same
current player) asks nobody: X is that one seat. X is surely one of the others where it is read from a
local whose every value comes from ``other players`` (a ``for``, a choice's or an ask's ``for`` over them), a
``let`` of such a value, or a rule's argument that every call passes such a value. The current player stays
the same from where such a value is taken to where it is read: the turn changes only between the turn
rule's runs (so not in a game played in rounds, and not in the setup, which picks the first player).

Where every ask of a game asks nobody, no one ever has an answer: each ``answer of P`` is the empty text
the state starts with and every ask writes again (so the ask need not write it again; nor, without answer
blocks, its player and list, which only the ask's own listing and answer blocks read), and
``answer of P == "T"`` (T not empty) is false. An ``if`` whose every test is then false, without an ``else``,
does nothing; a loop over seats whose body is only such ``if``s does nothing but count its passes in the step
budget. (Leaving that code out lays the rule's locals and entry points out otherwise: fewer of them.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.analysis import quiet

NOBODY_ASKED = True
"""Whether an ask proved to ask nobody (see the module's docstring) goes on at once, with the state the
ask's loop would leave (the answers cleared, its variable and list as the loop sets them), instead of going
through its players to find none (off: written as before; the equivalence tests compare the two)."""

UNSAID_ANSWERS = True
"""Whether, in a game whose every ask asks nobody, an ``if`` whose tests compare answers to texts (so are all
false) and a loop over seats doing only such ``if``s are left out (the loop's passes still counted in the
step budget)."""

_SEATS = ("players", "others", "players_in", "others_in")
_BINDERS = ("slot", "var", "qvar", "list_slot", "idx_slot")  # fields that bind a local slot (not m.Local's)
_MATCHES = (m.AnswerMatch, m.AnswerIs, m.AnswerValue)


@attrs.define
class Facts:
    """What this module proves of one model: the asks that ask nobody (by id), whether every ask does."""

    empty: frozenset[int]
    all_empty: bool
    quiet: bool = False  # every ask asks nobody and none has answer blocks: nothing reads what an ask leaves


def facts(gen: Any) -> Facts:
    """The facts of the model ``gen`` writes (worked out once per generator)."""
    found = gen.__dict__.get("_unasked_facts")
    if found is None:
        found = gen.__dict__["_unasked_facts"] = _prove(gen.model)
    return found


def asks_nobody(gen: Any, s: m.AskS) -> bool:
    """Whether the ask ``s`` is proved to ask nobody (and the rewrite is on)."""
    return NOBODY_ASKED and not gen.coverage and id(s) in facts(gen).empty


def idle(gen: Any, s: Any) -> bool:
    """Whether statement ``s`` is written as no pause by these rewrites: an ask of nobody (where no trigger
    is checked after each step), a dead ``if`` or loop."""
    t = type(s)
    if t is m.AskS:
        return asks_nobody(gen, s) and not gen.after_step_triggers
    return (t is m.IfS and dead_if(gen, s)) or dead_loop(gen, s)


def dead_if(gen: Any, s: m.IfS, seats: frozenset[int] = frozenset()) -> bool:
    """Whether the ``if`` ``s`` surely does nothing: no ``else`` and every test false (see the docstring);
    ``seats``: the locals surely holding a seat where it is tested (a loop's over seats)."""
    if not UNSAID_ANSWERS or gen.coverage or s.orelse is not None or not facts(gen).all_empty:
        return False
    return all(_surely(cond, False, lambda e: quiet(e, gen.model, gen.no_kind, seats)) for cond, _body in s.branches)


def dead_loop(gen: Any, s: Any) -> bool:
    """Whether ``s`` is a ``for`` over seats whose body is only ``if``s that do nothing."""
    return type(s) is m.ForS and s.iterable.kind in _SEATS and s.iterable.cond is None and bool(s.body) \
        and all(type(b) is m.IfS and dead_if(gen, b, frozenset({s.var})) for b in s.body)


def passes(gen: Any, it: m.IterIR) -> str:
    """Source of how many passes a loop over the seats ``it`` makes: a number where the game takes one number
    of players (all of them, or all but the current player), else the length of the range."""
    most = gen.model.max_players
    if gen.model.min_players == most and it.kind in ("players", "others"):
        return str(most if it.kind == "players" else most - 1)
    return f"len({gen.iterable(it, copy=False)})"


def _surely(e: Any, value: bool, pure: Callable[[Any], bool]) -> bool:
    """Whether ``e`` is surely ``value`` where nobody has an answer: a constant, ``not`` of the other value, the
    operator that stops at ``value`` (``or`` for True, ``and`` for False) with either side (the right one after a
    ``pure`` left: no effect, no error), the other with both, or an unsaid answer's comparison (``!=`` is True,
    ``==`` False)."""
    t = type(e)
    if t is m.Const:
        return e.value is value
    if t is m.UnOp and e.op == "not":
        return _surely(e.operand, not value, pure)
    if t is m.BinOp:
        stops, needs_both, compare = ("or", "and", "!=") if value else ("and", "or", "==")
        if e.op == stops:
            return _surely(e.left, value, pure) or (_surely(e.right, value, pure) and pure(e.left))
        if e.op == needs_both:
            return _surely(e.left, value, pure) and _surely(e.right, value, pure)
        if e.op == compare:
            return _unsaid_compare(e, pure)
    return False


def _unsaid_compare(e: m.BinOp, pure: Callable[[Any], bool]) -> bool:
    """``answer of P`` compared with a text that is not empty (the answer read without effect or error)."""
    for a, b in ((e.left, e.right), (e.right, e.left)):
        if type(a) is m.AnswerGet and pure(a) and type(b) is m.Const and type(b.value) is str and b.value:
            return True
    return False


# ------------------------------------------------------------------ the proof


def calls_of(model: m.Model) -> dict[int, list[tuple[int, m.CallS]]]:
    """rule -> every call of it: (the calling rule, the call)."""
    calls: dict[int, list[tuple[int, m.CallS]]] = {}
    for rule in model.rules:
        for node in _nodes(rule.body):
            if type(node) is m.CallS:
                calls.setdefault(node.rule, []).append((rule.index, node))
    return calls


def _prove(model: m.Model) -> Facts:
    asks: list[tuple[int, m.AskS]] = []
    calls = calls_of(model)
    first_picked = False  # the first player picked outside the setup: the current player changes there
    for rule in model.rules:
        for node in _nodes(rule.body):
            if type(node) is m.AskS:
                asks.append((rule.index, node))
            elif type(node) is m.SimpleS and node.what == "pick first player at random" and rule.kind != "setup":
                first_picked = True
    if model.max_players > 2 or model.min_players < 2 or model.rounds or first_picked:
        return Facts(frozenset(), not asks)
    proof = _Others(model, calls)
    empty = frozenset(id(s) for r, s in asks if s.iterable.kind == "others" and proof.excludes(r, s.cond, s.var))
    matched = any(type(x) in _MATCHES for rule in model.rules for x in _nodes(rule.body))
    return Facts(empty, len(empty) == len(asks), len(empty) == len(asks) and not matched)


def _nodes(x: Any) -> Any:
    """Every IR node in ``x`` (statements and expressions), depth first."""
    if isinstance(x, (tuple, list)):
        for y in x:
            yield from _nodes(y)
        return
    if not attrs.has(type(x)):
        return
    yield x
    for f in attrs.fields(type(x)):
        if f.name != "span":
            yield from _nodes(getattr(x, f.name))


class SlotFlow:
    """Which locals surely hold a value of one class: every write of the local (a ``let``, a ``for``, a
    choice's or an ask's ``for``, a rule's argument at every call) is of that class. ``iterable(it)``: the
    values of the range ``it`` are; ``value(e)``: the expression ``e`` (not a local) is; ``in_setup``: whether
    locals of the setup rule may be proved (not where the class depends on the current player)."""

    def __init__(self, model: m.Model, calls: dict[int, list[tuple[int, m.CallS]]],
                 iterable: Callable[[m.IterIR], bool], value: Callable[[Any], bool], in_setup: bool) -> None:
        self.model = model
        self.calls = calls
        self.iterable_ok, self.value_ok, self.in_setup = iterable, value, in_setup
        self.engine_called = {t.rule for t in model.triggers} | {model.setup_rule, model.turn_rule}
        self.assumed: set[tuple[int, int]] = set()  # (rule, slot) being proved: assumed (a greatest fixpoint)

    def holds(self, rule: int, e: Any) -> bool:
        """Whether expression ``e``, read in ``rule``, is surely of the class."""
        if type(e) is not m.Local:
            return self.value_ok(e)
        if not self.in_setup and self.model.rules[rule].kind == "setup":
            return False
        key = (rule, e.slot)
        if key in self.assumed:
            return True
        self.assumed.add(key)
        try:
            return self._slot(rule, e.slot)
        finally:
            self.assumed.discard(key)

    def _slot(self, rule: int, slot: int) -> bool:
        r = self.model.rules[rule]
        if slot < len(r.params):  # an argument: every call passes such a value
            sites = self.calls.get(rule, [])
            if rule in self.engine_called or not sites:
                return False
            if not all(self.holds(caller, call.args[slot]) for caller, call in sites):
                return False
        writes = 0
        for node in _nodes(r.body):
            got = self._writes(rule, node, slot)
            if got is None:
                return False
            writes += got
        return writes > 0 or slot < len(r.params)

    def _writes(self, rule: int, node: Any, slot: int) -> int | None:
        """How many writes of ``slot`` node makes, each of the class (None: some other write)."""
        if type(node) is m.Local:
            return 0
        n = 0
        if type(node) is m.LetS and node.slot == slot:
            return 1 if self.holds(rule, node.value) else None
        if type(node) in (m.ForS, m.AskS) and node.var == slot:
            if not self.iterable_ok(node.iterable):
                return None
            n += 1
        for f in attrs.fields(type(node)):
            value = getattr(node, f.name)
            if f.name == "bindings":
                for bound, it in value:
                    if bound == slot:
                        if type(it) is not m.IterIR or not self.iterable_ok(it):
                            return None
                        n += 1
            elif f.name in _BINDERS and value == slot and not (type(node) in (m.ForS, m.AskS) and f.name == "var"):
                return None
        return n


class _Others(SlotFlow):
    """Which locals surely hold one of the other players (of the current player where they are read)."""

    def __init__(self, model: m.Model, calls: dict[int, list[tuple[int, m.CallS]]]) -> None:
        super().__init__(model, calls, lambda it: it.kind == "others", lambda e: False, in_setup=False)

    def other(self, rule: int, e: Any) -> bool:
        """Whether expression ``e``, read in ``rule``, is surely one of the current player's others."""
        return type(e) is m.Local and self.holds(rule, e)

    def excludes(self, rule: int, cond: Any, var: int) -> bool:
        """Whether the ask condition ``cond`` is false for every other player in local ``var``: it is (or
        has, joined by ``and``) ``var != X`` with X one of the others."""
        if type(cond) is not m.BinOp:
            return False
        if cond.op == "and":
            return self.excludes(rule, cond.left, var) or self.excludes(rule, cond.right, var)
        if cond.op != "!=":
            return False
        for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
            if type(a) is m.Local and a.slot == var and self.other(rule, b):
                return True
        return False
