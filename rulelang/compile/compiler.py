"""Closures for expressions, queries and labels of a checked model.

The rules themselves run as generated Python (codegen.py); these closures serve what the
engine reads at a decision (option labels and conditions, answers, random draws) and
the generator's tables (attribute values, static predicates).
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import budget_closures
from rulelang.compile.runtime import number_range
from rulelang.errors import RulelangError
from rulelang.numbers import ascii_whole, divide, format_number, fraction, whole

Fn = Callable[..., Any]
MAX_INLINE_DEPTH = 12


def player_label(p: int) -> str:
    """The label of seat ``p`` (0-based): P1, P2, ...; -1 is "nobody"."""
    return f"P{p + 1}" if p >= 0 else "nobody"


def no_seat(what: str, span: Any) -> RulelangError:
    """The error for ``nobody`` used where a seat is needed (a counter's or zone's owner, a chooser)."""
    return RulelangError(f"nobody has {what}", span, hint="check for 'nobody' first: if p != nobody: ...")


def seat_of(fn: Fn, what: str, span: Any) -> Fn:
    """Wrap a player expression whose value must be a seat: ``nobody`` is an error at ``span``."""

    def seat(st: Any, loc: Any) -> int:
        p = fn(st, loc)
        if p < 0:
            raise no_seat(what, span)
        return p

    return seat




class Compiler:
    """Compiles one checked model."""

    def __init__(self, model: m.Model) -> None:
        self.model = model
        self.kind_of: list[int] = []
        self.labels: list[str] = []
        for kind in model.kinds:
            for i in range(kind.count):
                self.kind_of.append(kind.index)
                self.labels.append(f"{kind.name}#{i + 1}" if kind.count > 1 else kind.name)
        self.zones = model.zones
        self.first_of_kind: dict[int, int] = {}
        for c, k in enumerate(self.kind_of):
            self.first_of_kind.setdefault(k, c)
        self.offset = 0  # where the locals of an inlined rule start in its caller's frame
        self.trigger_for_counter: dict[int, tuple[int, ...]] = {}
        for counter in model.counters:
            self.trigger_for_counter[counter.index] = tuple(
                i for i, t in enumerate(model.triggers) if counter.index in t.reads_counters and not t.after_step
            )
        # attribute tables
        self.kind_values: dict[str, list[Any]] = {}
        self.face_values: dict[str, list[Any]] = {}
        for name, attr in model.attributes.items():
            self.kind_values[name] = [k.values.get(name, attr.default) for k in model.kinds]
            self.face_values[name] = [f.values.get(name) for f in model.faces]

    def triggers_for(self, zones: set[int]) -> tuple[int, ...]:
        """The triggers to check after a statement that changes these zones."""
        return tuple(i for i, t in enumerate(self.model.triggers) if t.reads_zones & zones and not t.after_step)

    # ------------------------------------------------------------------ expressions
    def expr(self, e: Any) -> Fn:
        """Compile an expression to ``f(state, locals)``."""
        if isinstance(e, m.Const):
            v = e.value
            return lambda st, loc: v
        if isinstance(e, m.Local):
            s = e.slot + self.offset
            return lambda st, loc: loc[s]
        if isinstance(e, m.CounterGet):
            i = e.counter
            if e.owner is None:
                return lambda st, loc: st.counters[i]
            owner = self.expr(e.owner)
            if isinstance(e.owner, m.CurrentPlayer):
                return lambda st, loc: st.counters[i][st.current]
            name = self.model.counters[i].name
            span = e.span

            def counter_of(st: Any, loc: Any) -> int:
                p = owner(st, loc)
                if p < 0:
                    raise no_seat(f"a '{name}'", span)
                return st.counters[i][p]

            return counter_of
        if isinstance(e, m.CurrentPlayer):
            return lambda st, loc: st.current
        if isinstance(e, m.After):
            step = e.step
            if e.player is None:
                return lambda st, loc: (st.current + step) % st.players
            p = seat_of(self.expr(e.player), "a seat, so no player sits next to nobody", e.span)
            return lambda st, loc: (p(st, loc) + step) % st.players
        if isinstance(e, m.SeatLit):
            seat, span = e.seat, e.span

            def seat_lit(st: Any, loc: Any) -> int:
                if seat >= st.players:
                    raise RulelangError(f"{player_label(seat)} is not in this game: P1 to P{st.players} play it",
                                        span, hint="check how many play first: if players >= ...")
                return seat

            return seat_lit
        if isinstance(e, m.CompAttr):
            get = self.attr_getter(e.attr)
            comp = self.expr(e.comp)
            return lambda st, loc: get(st, comp(st, loc))
        if isinstance(e, m.CompFace):
            comp = self.expr(e.comp)
            return lambda st, loc: st.faces[comp(st, loc)]
        if isinstance(e, m.CompKind):
            comp = self.expr(e.comp)
            kind_of = self.kind_of
            return lambda st, loc: kind_of[comp(st, loc)]
        if isinstance(e, m.Format):
            return self.template(e.text)
        if isinstance(e, m.UnOp):
            x = self.expr(e.operand)
            if e.op == "not":
                return lambda st, loc: not x(st, loc)
            return lambda st, loc: -x(st, loc)
        if isinstance(e, m.BinOp):
            return self._binop(e)
        if isinstance(e, m.Agg):
            return self._aggregate(e)
        if isinstance(e, m.IfElseIR):
            c, a, b = self.expr(e.cond), self.expr(e.then), self.expr(e.orelse)
            return lambda st, loc: a(st, loc) if c(st, loc) else b(st, loc)
        if isinstance(e, m.KindAttr):
            values = self.kind_values[e.attr]
            kind = self.expr(e.kind)
            return lambda st, loc: values[kind(st, loc)]
        if isinstance(e, m.AnswerGet):
            who = seat_of(self.expr(e.player), "an answer", None)
            return lambda st, loc: st.answers[who(st, loc)]
        if isinstance(e, m.Gen):
            values = self.iterable(e.iterable)
            value = self.expr(e.expr)
            cond = self.expr(e.cond) if e.cond is not None else None
            var = e.var + self.offset
            func = {"max": max, "min": min, "total": sum}[e.func]

            def gen(st: Any, loc: Any) -> int:
                out = []
                for v in values(st, loc):
                    loc[var] = v
                    if cond is None or cond(st, loc):
                        out.append(value(st, loc))
                if not out:
                    return 0
                return func(out)

            return gen
        if isinstance(e, m.IsOut):
            who = seat_of(self.expr(e.player), "a place in the game", None)
            return lambda st, loc: st.out[who(st, loc)] > 0
        if isinstance(e, m.Builtin):
            if e.func == "players":
                return lambda st, loc: st.players
            args = [self.expr(a) for a in e.args]
            if e.func == "min":
                a, b = args
                return lambda st, loc: min(a(st, loc), b(st, loc))
            if e.func == "max":
                a, b = args
                return lambda st, loc: max(a(st, loc), b(st, loc))
            if e.func == "fraction":
                a, b = args
                span = e.span
                return lambda st, loc: fraction(a(st, loc), b(st, loc), span)
            (a,) = args
            if e.func == "seat":
                a = seat_of(a, "a seat", e.span)
                return lambda st, loc: a(st, loc) + 1
            return lambda st, loc: abs(a(st, loc))
        if isinstance(e, m.PlacesIR):
            return budget_closures.places(self, e)
        raise AssertionError(f"cannot compile {e!r}")  # pragma: no cover

    def _binop(self, e: m.BinOp) -> Fn:
        a, b = self.expr(e.left), self.expr(e.right)
        op = e.op
        span = e.span
        if op == "and":
            return lambda st, loc: a(st, loc) and b(st, loc)
        if op == "or":
            return lambda st, loc: a(st, loc) or b(st, loc)
        if op == "+":
            return lambda st, loc: a(st, loc) + b(st, loc)
        if op == "-":
            return lambda st, loc: a(st, loc) - b(st, loc)
        if op == "*":
            return lambda st, loc: a(st, loc) * b(st, loc)
        if op in ("/", "%"):
            def div(st: Any, loc: Any) -> int:
                return divide(a(st, loc), b(st, loc), op, span)
            return div
        if op == "==":
            return lambda st, loc: a(st, loc) == b(st, loc)
        if op == "!=":
            return lambda st, loc: a(st, loc) != b(st, loc)
        if op == "<":
            return lambda st, loc: a(st, loc) < b(st, loc)
        if op == ">":
            return lambda st, loc: a(st, loc) > b(st, loc)
        if op == "<=":
            return lambda st, loc: a(st, loc) <= b(st, loc)
        if op == ">=":
            return lambda st, loc: a(st, loc) >= b(st, loc)
        raise AssertionError(op)  # pragma: no cover

    def attr_getter(self, name: str) -> Fn:
        """``get(st, c)``: the value of attribute ``name`` for component ``c``."""
        kv = self.kind_values[name]
        fv = self.face_values[name]
        kind_of = self.kind_of
        if all(v is None for v in fv):
            return lambda st, c: kv[kind_of[c]]

        def get(st: Any, c: int) -> Any:
            f = st.faces[c]
            if f >= 0:
                v = fv[f]
                if v is not None:
                    return v
            return kv[kind_of[c]]

        return get

    def elem_expr(self, e: Any) -> Fn:
        """Compile an expression inside ``where``: ``f(st, loc, c)`` for component ``c``."""
        if isinstance(e, m.ElemAttr):
            get = self.attr_getter(e.attr)
            return lambda st, loc, c: get(st, c)
        if isinstance(e, m.ElemIsKind):
            kinds = e.kinds
            kind_of = self.kind_of
            return lambda st, loc, c: kind_of[c] in kinds
        if isinstance(e, m.Const):
            v = e.value
            return lambda st, loc, c: v
        if isinstance(e, m.UnOp):
            x = self.elem_expr(e.operand)
            if e.op == "not":
                return lambda st, loc, c: not x(st, loc, c)
            return lambda st, loc, c: -x(st, loc, c)
        if isinstance(e, m.BinOp) and e.op not in ("/", "%"):
            a, b = self.elem_expr(e.left), self.elem_expr(e.right)
            return _ELEM_OPS[e.op](a, b)
        g = self.expr(e)
        return lambda st, loc, c: g(st, loc)

    # ------------------------------------------------------------------ queries
    def zone_list(self, sel: m.ZoneSel) -> Fn:
        """``f(st, loc)``: the list of component ids of a zone (shared or a player's)."""
        z = sel.zone
        if sel.owner is None:
            return lambda st, loc: st.zones[z]
        if self.zones[z].per_class is not None:
            return budget_closures.class_zone_list(self, sel)
        per_kind = self.zones[z].per_kind
        if per_kind is not None:
            base = self.first_of_kind.get(per_kind, 0)  # no components of the kind: no zone to name
            owner_c = self.expr(sel.owner)
            kind_of = self.kind_of
            span = self.zones[z].span

            def owned(st: Any, loc: Any) -> list[int]:
                c = owner_c(st, loc)
                if kind_of[c] != per_kind:
                    raise RulelangError(f"{self.labels[c]} has no '{self.zones[z].name}' zone", span,
                                        hint=f"only each {self.model.kinds[per_kind].name} has one")
                return st.zones[z][c - base]

            return owned
        if isinstance(sel.owner, m.CurrentPlayer):
            return lambda st, loc: st.zones[z][st.current]
        owner = self.expr(sel.owner)
        zone_name = self.zones[z].name
        span = sel.span

        def of_player(st: Any, loc: Any) -> list[int]:
            p = owner(st, loc)
            if p < 0:
                raise no_seat(f"a '{zone_name}'", span)
            return st.zones[z][p]

        return of_player

    def zone_group(self, sels: tuple[m.ZoneSel, ...]) -> Fn:
        """``f(st, loc)``: the component lists of several zones, in order."""
        if all(sel.owner is None for sel in sels):
            idx = [sel.zone for sel in sels]
            if len(idx) == 1:
                z = idx[0]
                return lambda st, loc: (st.zones[z],)
            getter = operator.itemgetter(*idx)
            return lambda st, loc: getter(st.zones)
        fns = [self.zone_list(sel) for sel in sels]
        if len(fns) == 1:
            only = fns[0]
            return lambda st, loc: (only(st, loc),)
        return lambda st, loc: [f(st, loc) for f in fns]

    def zone_namer(self, sel: m.ZoneSel) -> Fn:
        """``f(st, loc)``: (how a zone is named in narration, [zone index, owner or -1])."""
        display = self.zones[sel.zone].display
        z = sel.zone
        if sel.owner is None:
            place = (display, [z, -1])
            return lambda st, loc: place
        owner = self.expr(sel.owner)
        if self.zones[z].per_class is not None:
            labels = self.labels
            return lambda st, loc: (f"{display} {labels[owner(st, loc)]}", [z, owner(st, loc)])
        per_kind = self.zones[z].per_kind
        if per_kind is not None:
            base = self.first_of_kind.get(per_kind, 0)  # no components of the kind: no zone to name
            labels = self.labels
            return lambda st, loc: (f"{display} {labels[owner(st, loc)]}", [z, owner(st, loc) - base])

        def name(st: Any, loc: Any) -> tuple[str, list[int]]:
            p = owner(st, loc)
            return f"{player_label(p)}'s {display}", [z, p]

        return name

    def static_value(self, e: Any, kind: int, face: int) -> Any:
        """The value of an element-only expression for a component of ``kind`` showing ``face``."""
        if isinstance(e, m.ElemAttr):
            if face >= 0:
                v = self.face_values[e.attr][face]
                if v is not None:
                    return v
            return self.kind_values[e.attr][kind]
        if isinstance(e, m.ElemIsKind):
            return kind in e.kinds
        if isinstance(e, m.Const):
            return e.value
        if isinstance(e, m.UnOp):
            v = self.static_value(e.operand, kind, face)
            return (not v) if e.op == "not" else -v
        if isinstance(e, m.BinOp):
            a = self.static_value(e.left, kind, face)
            b = self.static_value(e.right, kind, face)
            return _STATIC_OPS[e.op](a, b)
        raise _NotStatic

    def table(self, e: Any | None, allow: list[bool] | None) -> list[list[Any]] | None:
        """Tabulate an element-only expression over (kind, face + 1), or None if it needs more."""
        nfaces = len(self.model.faces)
        try:
            return [
                [(allow is None or allow[k]) and (e is None or self.static_value(e, k, f)) for f in range(-1, nfaces)]
                for k in range(len(self.model.kinds))
            ]
        except _NotStatic:
            return None

    def pred_table(self, q: m.QueryIR) -> list[list[bool]] | None:
        """The query's filter as a (kind, face + 1) table, when it depends on nothing else."""
        if q.kind_locals or (q.kinds is None and q.where is None):
            return None
        nkinds = len(self.model.kinds)
        allow = None if q.kinds is None else [(k in q.kinds) != q.exclude for k in range(nkinds)]
        return self.table(q.where, allow)

    def predicate(self, q: m.QueryIR) -> Fn:
        """``f(st, loc)`` returning a predicate ``p(c)`` for the query's filter, or None for all."""
        kind_of = self.kind_of
        nkinds = len(self.model.kinds)
        static = q.kinds
        exclude = q.exclude
        kind_locals = tuple(slot + self.offset for slot in q.kind_locals)
        if not kind_locals and q.where is not None:
            allow0 = None if static is None else [(k in static) != exclude for k in range(nkinds)]
            tbl = self.table(q.where, allow0)
            if tbl is not None:
                def tabled(st: Any, loc: Any) -> Fn:
                    faces = st.faces
                    return lambda c: tbl[kind_of[c]][faces[c] + 1]
                return tabled
        wf = self.elem_expr(q.where) if q.where is not None else None
        if not kind_locals:
            allow = None if static is None else [(k in static) != exclude for k in range(nkinds)]
            if wf is None:
                if allow is None:
                    return lambda st, loc: None
                return lambda st, loc: (lambda c: allow[kind_of[c]])
            if allow is None:
                return lambda st, loc: (lambda c: wf(st, loc, c))
            return lambda st, loc: (lambda c: allow[kind_of[c]] and wf(st, loc, c))

        def dynamic(st: Any, loc: Any) -> Fn:
            kinds = set(static or ()) | {loc[s] for s in kind_locals}
            if wf is None:
                return lambda c: (kind_of[c] in kinds) != exclude
            return lambda c: ((kind_of[c] in kinds) != exclude) and wf(st, loc, c)

        return dynamic

    def selection(self, q: m.QueryIR) -> Fn:
        """``f(st, loc)``: the ids selected by a (non-random) query, in zone order."""
        group = self.zone_group(q.zones)
        pred = self.predicate(q)
        count = q.count if q.quantity == "count" else None
        count_fn = self.expr(q.count_expr) if q.count_expr is not None and q.quantity == "count" else None

        span = q.span

        def select(st: Any, loc: Any) -> list[int]:
            p = pred(st, loc)
            out: list[int] = []
            for lst in group(st, loc):
                out.extend(lst if p is None else [c for c in lst if p(c)])
            n = count if count_fn is None else whole(count_fn(st, loc), span, "how many")
            if n is not None:
                return out[-n:] if n > 0 else []
            return out

        return select

    def _aggregate(self, e: m.Agg) -> Fn:
        q = e.query
        group = self.zone_group(q.zones)
        pred = self.predicate(q)
        if e.func in ("count", "any"):
            is_any = e.func == "any"
            tbl = self.pred_table(q)
            kind_of = self.kind_of
            if tbl is not None:
                def count_tabled(st: Any, loc: Any) -> Any:
                    faces = st.faces
                    n = 0
                    for lst in group(st, loc):
                        for c in lst:
                            if tbl[kind_of[c]][faces[c] + 1]:
                                if is_any:
                                    return True
                                n += 1
                    return False if is_any else n
                return count_tabled
            if q.kinds is None and q.where is None and not q.kind_locals:
                if is_any:
                    return lambda st, loc: any(group(st, loc))
                return lambda st, loc: sum(map(len, group(st, loc)))

            def count(st: Any, loc: Any) -> Any:
                p = pred(st, loc)
                n = 0
                for lst in group(st, loc):
                    if p is None:
                        n += len(lst)
                    else:
                        for c in lst:
                            if p(c):
                                n += 1
                    if is_any and n:
                        return True
                return n > 0 if is_any else n

            return count
        assert e.attr is not None
        get = self.attr_getter(e.attr)
        values = self.table(m.ElemAttr(e.attr, m.INT), None)
        kind_of = self.kind_of
        if not q.kind_locals and q.where is None:
            allow = None if q.kinds is None else [(k in q.kinds) != q.exclude for k in range(len(self.model.kinds))]
            assert values is not None
            vt = [[v if allow is None or allow[k] else 0 for v in row] for k, row in enumerate(values)]

            def fast_total(st: Any, loc: Any) -> int:
                faces = st.faces
                n = 0
                for lst in group(st, loc):
                    for c in lst:
                        n += vt[kind_of[c]][faces[c] + 1]
                return n

            return fast_total

        def total(st: Any, loc: Any) -> int:
            p = pred(st, loc)
            n = 0
            for lst in group(st, loc):
                for c in lst:
                    if p is None or p(c):
                        n += get(st, c)
            return n

        return total

    def iterable(self, it: m.IterIR) -> Fn:
        """``f(st, loc)``: the list of values a ``for`` ranges over."""
        if it.kind == "players":
            return lambda st, loc: list(range(st.players))
        if it.kind == "others":
            return lambda st, loc: [(st.current + i) % st.players for i in range(1, st.players)]
        if it.kind == "players_in":
            return lambda st, loc: [p for p in range(st.players) if not st.out[p]]
        if it.kind == "others_in":
            return lambda st, loc: [(st.current + i) % st.players for i in range(1, st.players)
                                    if not st.out[(st.current + i) % st.players]]
        if it.kind == "kinds_where":
            try:
                chosen = [k.index for k in self.model.kinds if self.static_value(it.cond, k.index, -1)]
            except _NotStatic:
                raise RulelangError("'kinds where' may only test the kinds' own attributes and names",
                                    None) from None
            return lambda st, loc: list(chosen)
        if it.kind == "range":
            lo, hi = self.expr(it.low), self.expr(it.high)
            span = it.span

            def numbers(st: Any, loc: Any) -> list[int]:
                return list(number_range(lo(st, loc), hi(st, loc), span))

            return numbers
        assert it.query is not None
        sel = self.selection(it.query)
        if it.kind == "kinds":
            kind_of = self.kind_of
            return lambda st, loc: sorted({kind_of[c] for c in sel(st, loc)})
        return sel

    def label_parser(self, opt: m.OptionIR) -> Any:
        """Read a label of this option back into its ``for`` values: (regex, converters), or None.

        Possible when each of the option's ``for`` variables is shown by a hole of the label
        (other holes are skipped: the caller renders the label again to compare); replay
        then checks an action without listing every legal one. A hole's position is None
        when it shows something else.
        """
        slots = [slot for slot, _it in opt.bindings]
        pattern = ["^"]
        holes: list[tuple[int | None, Fn | None]] = []
        for part in opt.label.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                pattern.append(re.escape(part))
                continue
            pattern.append("(.+?)")
            if not isinstance(part, m.Local) or part.slot not in slots:
                holes.append((None, None))
                continue
            convert = self._reader(part.type)
            if convert is None:
                return None
            holes.append((slots.index(part.slot), convert))
        pattern.append("$")
        if sorted({i for i, _ in holes if i is not None}) != list(range(len(slots))):
            return None
        return re.compile("".join(pattern), re.S), holes

    def _reader(self, type_: str) -> Fn | None:
        """Text -> value for a label hole of this type (None if it cannot be read back)."""
        if type_ == m.PLAYER:
            def player(text: str) -> int:
                if text == "nobody":
                    return -1
                if not (text.startswith("P") and text[1:].isascii() and text[1:].isdigit()):
                    raise ValueError(text)
                return int(text[1:]) - 1
            return player
        if type_ == m.INT:
            return ascii_whole  # not int(): "١٢" and "1_000" are no number of a label
        if type_ == m.KIND:
            displays = [k.display for k in self.model.kinds]
            if len(set(displays)) != len(displays):
                return None
            index = {d: i for i, d in enumerate(displays)}
            return lambda text: index[text]
        if type_ == m.COMPONENT:
            index = {label: c for c, label in enumerate(self.labels)}
            return lambda text: index[text]
        if type_ == m.STR:
            return str
        return None

    def value_text(self, type_: str) -> Fn:
        """``f(value)``: how a value of this type is written (in labels and messages)."""
        if type_ == m.PLAYER:
            return player_label
        if type_ == m.KIND:
            kinds = self.model.kinds
            return lambda v: kinds[v].display
        if type_ == m.COMPONENT:
            labels = self.labels
            return lambda v: labels[v]
        if type_ == m.INT:
            return format_number
        return str

    def public_template(self, t: m.TemplateIR) -> Fn | None:
        """``f(st, loc)``: a label as the other players see it, or None if it has no secret part."""
        if not any(isinstance(p, m.SecretPart) for p in t.parts):
            return None
        return self.template(m.TemplateIR(tuple("(hidden)" if isinstance(p, m.SecretPart) else p for p in t.parts)))

    def template(self, t: m.TemplateIR) -> Fn:
        """``f(st, loc)``: the text of a label or narration."""
        kinds = self.model.kinds
        labels = self.labels
        pieces: list[Any] = []
        for part in t.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                if pieces and isinstance(pieces[-1], str):
                    pieces[-1] += part
                else:
                    pieces.append(part)
                continue
            fn = self.expr(part)
            if part.type == m.PLAYER:
                pieces.append(lambda st, loc, fn=fn: player_label(fn(st, loc)))
            elif part.type == m.KIND:
                pieces.append(lambda st, loc, fn=fn: kinds[fn(st, loc)].display)
            elif part.type == m.COMPONENT:
                pieces.append(lambda st, loc, fn=fn: labels[fn(st, loc)])
            elif part.type == m.BOOL:
                pieces.append(lambda st, loc, fn=fn: "yes" if fn(st, loc) else "no")
            elif part.type == m.FACE:
                shown = [f.display for f in self.model.faces] + ["no face"]  # index -1: not rolled
                pieces.append(lambda st, loc, fn=fn, shown=shown: shown[fn(st, loc)])
            elif part.type == m.INT:
                pieces.append(lambda st, loc, fn=fn: format_number(fn(st, loc)))
            else:
                pieces.append(lambda st, loc, fn=fn: str(fn(st, loc)))
        if all(isinstance(p, str) for p in pieces):
            text = "".join(pieces)
            return lambda st, loc: text
        parts = tuple((p, True) if isinstance(p, str) else (p, False) for p in pieces)

        def render(st: Any, loc: Any) -> str:
            return "".join(p if is_text else p(st, loc) for p, is_text in parts)

        return render

    # ------------------------------------------------------------------ moves (for random draws)
    def _insert(self, zone: m.Zone, place: str | None) -> Fn:
        """``put(lst, ids)``: add ids to a zone list: sorted, on top, or at the bottom."""
        if not zone.ordered:
            def put_sorted(lst: list[int], ids: list[int]) -> None:
                if len(ids) == 1:
                    bisect.insort(lst, ids[0])
                else:
                    lst.extend(ids)
                    lst.sort()
            return put_sorted
        if place == "bottom":
            def put_bottom(lst: list[int], ids: list[int]) -> None:
                lst[0:0] = ids
            return put_bottom

        def put_top(lst: list[int], ids: list[int]) -> None:
            lst.extend(ids)

        return put_top


def _reads_slots(expr: Any, slots: set[int]) -> bool:
    """Whether an IR expression reads any of these local slots."""
    if isinstance(expr, m.Local):
        return expr.slot in slots
    if isinstance(expr, m.QueryIR) and not slots.isdisjoint(expr.kind_locals):
        return True  # (a query of the kind a local holds, ``k in hand``, reads that local)
    if isinstance(expr, (tuple, list)):
        return any(_reads_slots(x, slots) for x in expr)
    if attrs.has(type(expr)):
        return any(_reads_slots(getattr(expr, f.name), slots) for f in attrs.fields(type(expr)))
    return False


def _sheet_total(sheet: m.Sheet) -> Any:
    """The sum of a score sheet's lines, as the checker writes ``NAME of p``."""
    if not sheet.lines:
        return None
    total = sheet.lines[0][1]
    for _label, expr in sheet.lines[1:]:
        total = m.BinOp("+", total, expr, m.INT, None)  # type: ignore[arg-type]
    return total


def _same(a: Any, b: Any) -> bool:
    """Structural equality of IR, ignoring source spans."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if attrs.has(type(a)):
        return all(_same(getattr(a, f.name), getattr(b, f.name)) for f in attrs.fields(type(a)) if f.name != "span")
    return a == b


class _NotStatic(Exception):
    """An expression that depends on more than a component's kind and face."""


_STATIC_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "and": lambda a, b: a and b, "or": lambda a, b: a or b, "+": lambda a, b: a + b, "-": lambda a, b: a - b,
    "*": lambda a, b: a * b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
    ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
}

_ELEM_OPS: dict[str, Callable[[Fn, Fn], Fn]] = {
    "and": lambda a, b: lambda st, loc, c: a(st, loc, c) and b(st, loc, c),
    "or": lambda a, b: lambda st, loc, c: a(st, loc, c) or b(st, loc, c),
    "+": lambda a, b: lambda st, loc, c: a(st, loc, c) + b(st, loc, c),
    "-": lambda a, b: lambda st, loc, c: a(st, loc, c) - b(st, loc, c),
    "*": lambda a, b: lambda st, loc, c: a(st, loc, c) * b(st, loc, c),
    "==": lambda a, b: lambda st, loc, c: a(st, loc, c) == b(st, loc, c),
    "!=": lambda a, b: lambda st, loc, c: a(st, loc, c) != b(st, loc, c),
    "<": lambda a, b: lambda st, loc, c: a(st, loc, c) < b(st, loc, c),
    ">": lambda a, b: lambda st, loc, c: a(st, loc, c) > b(st, loc, c),
    "<=": lambda a, b: lambda st, loc, c: a(st, loc, c) <= b(st, loc, c),
    ">=": lambda a, b: lambda st, loc, c: a(st, loc, c) >= b(st, loc, c),
}
