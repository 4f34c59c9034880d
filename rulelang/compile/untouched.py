"""Trigger checks a move cannot need, proved from the checked model: a move changes only the zones it takes
from and puts into, and in those only components of the kinds it can move. A trigger whose condition reads
those zones only through counts (and ``any``) of other kinds reads nothing the move changed: its condition has
the value it had, its flags stay as they are, and checking it would fire nothing.

The kinds a move can move are the kinds its query names (all but those, for ``all except``), less the kinds
known to be absent from the zones it takes from: in the ``else`` of ``if any(K in Z)`` (and the branches after
it, and the body of ``if not any(K in Z)``), Z holds no K, up to the first statement of the branch that is not
narration or a ``let`` that leaves Z's owner alone.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.analysis import same, slots_read

# Whether a move skips the checks of the triggers it cannot change (off: every trigger reading a zone it
# touches is checked after it; the equivalence tests compare the two).
UNTOUCHED = True
# Whether a trigger watched per player is tested in its check's loop over the seats with the seat read from the
# loop's variable (a seat: its zones and counters read without a check), as a hand-written loop would.
CHECK_SEATS = True

# The nodes a trigger's condition may hold for the proof (any other: the trigger is checked as before). They
# read zones, counters and the components' kinds, attributes and faces, each change of which is followed by a
# check of the triggers that read it (moves, draws, rolls, turns, counters set): so, where a move is, each
# trigger's flags hold the values of its condition, and one the move cannot change keeps them. (Not answers,
# who is out, the current player: those change without a check of their own.)
_NODES = (m.Const, m.BinOp, m.UnOp, m.IfElseIR, m.KindAttr, m.ElemAttr, m.ElemIsKind, m.ElemIs, m.Agg, m.QueryIR,
          m.ZoneSel, m.CounterGet, m.Local, m.SeatLit, m.Builtin, m.Gen, m.IterIR)

Facts = tuple[tuple[m.ZoneSel, frozenset[int]], ...]  # (zone, the kinds sure not to be in it)


def absent_facts(model: m.Model) -> dict[int, Facts]:
    """id of a move -> what is known absent from zones just before it (see the module's docstring); moves
    with nothing known are left out."""
    out: dict[int, Facts] = {}
    seen: set[int] = set()

    def walk(x: Any) -> None:
        if isinstance(x, (tuple, list)):
            for y in x:
                walk(y)
            return
        if not attrs.has(type(x)) or id(x) in seen:
            return
        seen.add(id(x))
        if type(x) is m.IfS:
            known: list[tuple[m.ZoneSel, frozenset[int]]] = []  # from the tests of the branches before
            for cond, body in x.branches:
                mine = list(known)
                fact = _absent(cond, negated=True)
                if fact is not None:  # the body of 'if not any(K in Z)'
                    mine.append(fact)
                _first_move(body, tuple(mine), out)
                fact = _absent(cond, negated=False)
                if fact is None:
                    known = []  # (a test not of that form: nothing more is said after it)
                    break
                known.append(fact)
            else:
                if x.orelse:
                    _first_move(x.orelse, tuple(known), out)
        for f in attrs.fields(type(x)):
            if f.name != "span":
                walk(getattr(x, f.name))

    for rule in model.rules:
        walk(rule.body)
    return out


def _absent(cond: Any, negated: bool) -> tuple[m.ZoneSel, frozenset[int]] | None:
    """(Z, K) when ``cond`` (``not cond`` with ``negated``) false says that zone Z holds no component of kinds
    K: ``any(K in Z)`` (``not any(K in Z)``), K named kinds or all but named ones, one zone, no filter."""
    if negated:
        if type(cond) is not m.UnOp or cond.op != "not":
            return None
        cond = cond.operand
    if type(cond) is not m.Agg or cond.func != "any":
        return None
    q = cond.query
    if q.kinds is None or q.kind_locals or q.where is not None or q.count is not None or q.count_expr is not None \
            or q.one is not None or q.quantity not in ("default", "all") or len(q.zones) != 1:
        return None
    return q.zones[0], (frozenset([-1]) | q.kinds if q.exclude else q.kinds)  # (-1: "all but" these)


def _first_move(body: tuple, facts: Facts, out: dict[int, Facts]) -> None:
    """Give ``facts`` to the first move of ``body`` if only narration and lets that leave the zones' owners
    alone come before it."""
    alive = list(facts)
    for s in body:
        if not alive:
            return
        t = type(s)
        if t is m.SayS:
            continue
        if t is m.LetS:
            alive = [(sel, k) for sel, k in alive if s.slot not in slots_read([sel.owner])]
            continue
        if t is m.MoveS:
            out[id(s)] = tuple(alive)
        return


def moved_kinds(model: m.Model, s: m.MoveS, facts: Facts) -> frozenset[int]:
    """The kinds of the components move ``s`` can move (all kinds when its query may take any)."""
    q = s.query
    every = frozenset(range(len(model.kinds)))
    if q.kind_locals or q.one is not None or not q.zones:
        return every
    if q.kinds is None:
        kinds = every
    elif q.exclude:
        kinds = every - q.kinds
    else:
        kinds = q.kinds
    for sel in q.zones:  # a kind absent from every zone it takes from is not moved
        gone = [_kinds_of(k, every) for z, k in facts if same(z, sel)]
        if not gone:
            return kinds
        kinds = kinds - frozenset.union(*gone)
    return kinds


def _kinds_of(fact: frozenset[int], every: frozenset[int]) -> frozenset[int]:
    """The kinds a fact says are absent (``-1`` in it: all but the others)."""
    return every - fact if -1 in fact else fact


def untouched(model: m.Model, s: m.MoveS, trig: m.Trigger, facts: Facts) -> bool:
    """Whether trigger ``trig``'s condition cannot read anything move ``s`` changes (see the module's
    docstring): the move's zones read only through counts or ``any`` of kinds it does not move."""
    zones = {sel.zone for sel in s.query.zones} | {s.dest.zone}
    if not s.query.zones or model.zones[s.dest.zone].unrolled:  # (anywhere; or faces cleared as dice arrive)
        return False
    moved = moved_kinds(model, s, facts)
    touched = zones & trig.reads_zones

    def ok(e: Any, in_query: bool = False) -> bool:
        if e is None or isinstance(e, (int, str, bool, frozenset)):
            return True
        if isinstance(e, (tuple, list)):
            return all(ok(x) for x in e)
        if type(e) not in _NODES:
            return False
        if type(e) is m.QueryIR:
            if any(sel.zone in touched for sel in e.zones):
                if e.kinds is None or e.exclude or e.kind_locals or e.one is not None or e.count is not None \
                        or e.count_expr is not None or e.quantity not in ("default", "all") or e.kinds & moved:
                    return False
            return ok(e.where) and all(ok(sel.owner) for sel in e.zones) and ok(e.one)
        if type(e) is m.ZoneSel:  # a zone read outside a query's zones
            return e.zone not in touched and ok(e.owner)
        return all(ok(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name not in ("span", "type"))

    return ok(trig.cond)
