"""When replay may test a recorded option of a ``choose`` instead of listing every legal one.

Listing a choice's options (the generated enumerator) can itself fail: an error in some
option's range or condition, or more tries than the options limit. Replay reports that as
``malformed`` at the choice's line, so it may skip the listing only where the listing cannot
fail. :func:`listing_guard` decides that from the checked model: every range and condition of
every option is built only of parts that cannot raise (no division by a value, no seat that
may be ``nobody``, no pile of a component that may lack it, no compiler closure), and the
combinations tried stay within the limit. What can only be known at run time (a pile on each
component of a zone, a rule's player that is a seat, the sizes of the zones a range goes
through) becomes a guard: Python sources that must all be true for the shortcut to be taken.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile import piles
from rulelang.compile.analysis import is_count, slots_read, whole_valued
from rulelang.compile.runtime import MAX_OPTIONS

_SAFE_OPS = ("and", "or", "+", "-", "*", "==", "!=", "<", ">", "<=", ">=")
_SEAT_RANGES = ("players", "players_in", "others", "others_in", "players_from")


class _Unsafe(Exception):
    """Something in a range or condition may raise while the options are listed."""


class _Walk:
    """One walk over a ``choose``'s ranges and conditions (see :func:`listing_guard`)."""

    def __init__(self, gen: Any, s: m.ChooseS) -> None:
        self.gen = gen
        self.model = gen.model
        self.guards: list[str] = []
        self.bound = {slot for opt in s.options for slot, _it in opt.bindings}  # the options' range variables
        self.seats: set[int] = set()  # slots sure to hold a seat while the options are listed
        self.comps: dict[int, m.IterIR] = {}  # slots holding a component of a zone: the range they go through
        self.ints: set[int] = set()  # slots holding a kind or a number of a range

    # ------------------------------------------------------------------ expressions
    def expr(self, e: Any) -> None:  # noqa: C901
        """Raise _Unsafe if evaluating ``e`` may raise (beyond what the guards rule out)."""
        t = type(e)
        if t in (m.Const, m.CurrentPlayer, m.ElemAttr, m.ElemIsKind, m.Local):
            return
        if t is m.CounterGet:
            if e.owner is not None:
                self.seat(e.owner)
            return
        if t is m.After:
            if e.player is not None:
                self.seat(e.player)
            return
        if t is m.SeatLit:
            if e.seat >= self.model.min_players:
                raise _Unsafe()
            return
        if t in (m.CompAttr, m.CompFace, m.CompKind):
            self.index(e.comp)
            return
        if t is m.UnOp:
            self.expr(e.operand)
            return
        if t is m.BinOp:
            if e.op in ("/", "%"):  # only what is written as Python's // and % of a whole number by a constant > 0
                if not (whole_valued(e.left) and type(e.right) is m.Const and type(e.right.value) is int
                        and e.right.value > 0):
                    raise _Unsafe()
            elif e.op not in _SAFE_OPS:
                raise _Unsafe()
            self.expr(e.left)
            self.expr(e.right)
            return
        if t is m.IfElseIR:
            self.expr(e.cond)
            self.expr(e.then)
            self.expr(e.orelse)
            return
        if t is m.KindAttr:
            self.index(e.kind)
            return
        if t is m.AnswerGet or t is m.IsOut:
            self.seat(e.player)
            return
        if t is m.Builtin:
            if e.func == "players":
                return
            if e.func == "seat":
                self.seat(e.args[0])
                return
            if e.func not in ("min", "max", "abs"):
                raise _Unsafe()
            for a in e.args:
                self.expr(a)
            return
        if t is m.Agg:
            if e.func not in ("count", "any"):
                raise _Unsafe()
            self.query(e.query)
            return
        if t is m.Gen:
            if e.func not in ("total", "max", "min"):
                raise _Unsafe()
            self.iterable(e.iterable, e.var)
            self.expr(e.expr)
            if e.cond is not None:
                self.expr(e.cond)
            return
        raise _Unsafe()

    def index(self, e: Any) -> None:
        """``e`` indexes a table (a component or a kind): it must be a whole number, never None."""
        if type(e) is not m.Local:
            self.expr(e)
            return
        if e.slot in self.seats or e.slot in self.comps or e.slot in self.ints:
            return
        if e.slot in self.bound:
            raise _Unsafe()
        x = self.gen.local(e.slot)
        self.guards.append(f"type({x}) is int")

    def seat(self, e: Any) -> None:
        """``e`` must be a seat (never ``nobody``): sure by its construction, or guarded at run time."""
        t = type(e)
        if t is m.CurrentPlayer:
            return
        if t in (m.After, m.SeatLit):
            self.expr(e)
            return
        if t is m.Local:
            if e.slot in self.seats:
                return
            if e.slot in self.bound:
                raise _Unsafe()
            x = self.gen.local(e.slot)
            self.guards.append(f"(type({x}) is int and 0 <= {x} < st.players)")
            return
        raise _Unsafe()

    def query(self, q: m.QueryIR) -> None:
        if q.count_expr is not None or q.count is not None or q.quantity not in ("all", "default"):
            raise _Unsafe()
        for sel in q.zones:
            self.zone(sel)
        if q.where is not None:
            self.expr(q.where)

    def zone(self, sel: m.ZoneSel) -> None:
        zone = self.model.zones[sel.zone]
        o = sel.owner
        if o is None:
            return
        if zone.per_kind is None and zone.per_class is None:
            self.seat(o)
            return
        if type(o) is not m.Local:
            raise _Unsafe()
        if zone.per_kind is not None:
            def owns(c: str) -> str:
                return f"KO[{c}] == {zone.per_kind}"
        else:
            def owns(c: str) -> str:
                return f"{piles.owners_mask(self.gen, zone)}[{c}]"
        it = self.comps.get(o.slot)
        if it is not None:  # a component of a range: each component of the zones it goes through has the pile
            assert it.query is not None
            kinds = zone.per_class if zone.per_kind is None else frozenset((zone.per_kind,))
            lacking = self.gen.const(frozenset(c for c, k in enumerate(self.gen.kind_of) if k not in kinds))
            for zs in it.query.zones:
                if slots_read([zs.owner]) & self.bound:
                    raise _Unsafe()
                self.guards.append(f"{lacking}.isdisjoint({self.gen.zone(zs)})")
            return
        if o.slot in self.bound:
            raise _Unsafe()
        x = self.gen.local(o.slot)
        self.guards.append(f"(type({x}) is int and {x} >= 0 and {owns(x)})")

    def iterable(self, it: m.IterIR, slot: int) -> None:
        """Check a range (binding ``slot``) and note what its values are sure to be."""
        if it.kind in _SEAT_RANGES:
            self.seats.add(slot)
            return
        if it.kind in ("kinds_where", "faces"):
            self.ints.add(slot)
            return
        if it.kind == "range":
            if not (type(it.low) is m.Const and type(it.low.value) is int and it.low.value >= 1 and is_count(it.high)):
                raise _Unsafe()  # 'number_range' may refuse a range too long
            self.expr(it.high)
            self.ints.add(slot)
            return
        if it.query is None:
            raise _Unsafe()
        self.query(it.query)
        if it.type == m.COMPONENT:
            self.comps[slot] = it
        else:
            self.ints.add(slot)

    # ------------------------------------------------------------------ the options limit
    def size(self, it: m.IterIR, outer: set[int]) -> tuple[int, str]:
        """(a bound on how many values a range has, the source of a bound at run time)."""
        model = self.model
        if it.kind in _SEAT_RANGES:
            return model.max_players, "st.players"
        if it.kind == "kinds_where":
            return len(model.kinds), str(len(model.kinds))
        if it.kind == "faces":
            return len(it.values), str(len(it.values))
        q = it.query if it.kind != "range" else it.high.query
        assert q is not None
        ncomp = self.gen.ncomp
        static = min(ncomp, len(model.kinds)) if it.kind == "kinds" else ncomp
        if any(slots_read([sel.owner]) & outer for sel in q.zones if sel.owner is not None):
            return static, str(static)
        held = " + ".join(f"len({self.gen.zone(sel)})" for sel in q.zones)
        return static, f"({held})"


def listing_guard(gen: Any, s: m.ChooseS) -> list[str] | None:
    """None if listing the options of ``s`` may fail (an error, or more tries than the options
    limit) whatever the state; else the sources of the guards that, all true at run time, make
    sure it cannot (an empty list: it never can)."""
    walk = _Walk(gen, s)
    static_total = 0
    runtime_terms: list[str] = []
    try:
        for opt in s.options:
            slots = [slot for slot, _it in opt.bindings]
            walk.seats, walk.comps, walk.ints = set(), {}, set()  # options may share slots: each binds its own
            for slot, it in opt.bindings:
                walk.iterable(it, slot)
            if opt.cond is not None:
                walk.expr(opt.cond)
            if not opt.bindings:
                static_total += 1
                runtime_terms.append("1")
                continue
            # tries: every value of each range, for every combination of the ranges outside it
            prod_static, prod_src = 1, []
            for i, (_slot, it) in enumerate(opt.bindings):
                n, src = walk.size(it, set(slots[:i]) | walk.bound)
                prod_static *= n
                prod_src.append(src)
                static_total += prod_static
                runtime_terms.append(" * ".join(prod_src))
    except _Unsafe:
        return None
    guards = list(dict.fromkeys(walk.guards))
    if static_total > MAX_OPTIONS:
        guards.append(f"({' + '.join(runtime_terms)}) <= MAXO")
    return guards


def never_fails(gen: Any, exprs: list[Any], seats: set[int]) -> bool:
    """Whether evaluating each of ``exprs`` can never raise, with no guard, the slots in ``seats``
    sure to hold a seat (as ``listing_guard`` tells it for a choice's conditions)."""
    walk = _Walk.__new__(_Walk)
    walk.gen, walk.model, walk.guards, walk.bound = gen, gen.model, [], set()
    walk.seats, walk.comps, walk.ints = set(seats), {}, set()
    try:
        for e in exprs:
            walk.expr(e)
    except _Unsafe:
        return False
    return not walk.guards
