"""Checked model to Program: closures for expressions, instruction lists for rules."""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.program import (
    ADVANCE,
    ASK,
    CALL,
    CHOOSE,
    COUNTDOWN,
    DRAW,
    END_GAME,
    END_TURN,
    EXEC,
    JUMP,
    JUMPF,
    RANDFIRST,
    RET,
    ROLL,
    SHUFFLE,
    TURN,
    AskSpec,
    ChooseSpec,
    DrawSpec,
    Program,
)
from rulelang.errors import RulelangError
from rulelang.numbers import bounded, bounded_text, divide, format_number, fraction, json_number, whole

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
        self.inlining: set[int] = set()
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
        per_kind = self.zones[z].per_kind
        if per_kind is not None:
            base = self.first_of_kind[per_kind]
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
        per_kind = self.zones[z].per_kind
        if per_kind is not None:
            base = self.first_of_kind[per_kind]
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

            def number_range(st: Any, loc: Any) -> list[int]:
                low = whole(bounded(lo(st, loc), span), span, "a range's start")
                high = whole(bounded(hi(st, loc), span), span, "a range's end")
                return list(range(low, high + 1))

            return number_range
        assert it.query is not None
        sel = self.selection(it.query)
        if it.kind == "kinds":
            kind_of = self.kind_of
            return lambda st, loc: sorted({kind_of[c] for c in sel(st, loc)})
        return sel

    def label_parser(self, opt: m.OptionIR) -> Any:
        """Read a label of this option back into its ``for`` values: (regex, converters), or None.

        Possible when every hole of the label shows one of the option's ``for`` variables;
        replay then checks an action without listing every legal one.
        """
        slots = [slot for slot, _it in opt.bindings]
        pattern = ["^"]
        holes: list[tuple[int, Fn]] = []
        for part in opt.label.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                pattern.append(re.escape(part))
                continue
            if not isinstance(part, m.Local) or part.slot not in slots:
                return None
            convert = self._reader(part.type)
            if convert is None:
                return None
            pattern.append("(.+?)")
            holes.append((slots.index(part.slot), convert))
        pattern.append("$")
        if sorted({i for i, _ in holes}) != list(range(len(slots))):
            return None
        return re.compile("".join(pattern), re.S), holes

    def _reader(self, type_: str) -> Fn | None:
        """Text -> value for a label hole of this type (None if it cannot be read back)."""
        if type_ == m.PLAYER:
            def player(text: str) -> int:
                if text == "nobody":
                    return -1
                if not (text.startswith("P") and text[1:].isdigit()):
                    raise ValueError(text)
                return int(text[1:]) - 1
            return player
        if type_ == m.INT:
            return int
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

    # ------------------------------------------------------------------ statements
    def rule_code(self, rule: m.Rule) -> list[tuple]:
        """Compile one rule body to an instruction list ending in RET."""
        code: list[list[Any]] = []
        self.offset = 0
        self.inlining = {rule.index}
        self._block(rule.body, code, rule)
        code.append([RET, None, None, None, rule.span])
        _thread_jumps(code)
        code = _fuse(code)
        return [tuple(i) for i in code]

    def _block(self, body: tuple, code: list, rule: m.Rule) -> None:
        for s in body:
            self._stmt(s, code, rule)

    def _emit(self, code: list, op: int, a: Any = None, b: Any = None, c: Any = None, span: Any = None) -> int:
        code.append([op, a, b, c, span])
        return len(code) - 1

    def _stmt(self, s: Any, code: list, rule: m.Rule) -> None:
        if isinstance(s, m.MoveS):
            if s.query.quantity == "random":
                self._draw(s, code, rule)
            else:
                written = {z.zone for z in s.query.zones} | {s.dest.zone}
                self._emit(code, EXEC, self._move(s), self.triggers_for(written), None, s.span)
        elif isinstance(s, m.RollS):
            sel = self.selection(s.query)
            lst, idx = rule.nlocals, rule.nlocals + 1
            rule.nlocals += 2
            kind_of = self.kind_of
            is_die = [k.cls == "die" for k in self.model.kinds]

            def prepare(st: Any, loc: Any) -> None:
                loc[lst] = [c for c in sel(st, loc) if is_die[kind_of[c]]]
                loc[idx] = 0

            self._emit(code, EXEC, prepare, (), None, s.span)
            self._emit(code, ROLL, lst, idx, self.triggers_for({z.zone for z in s.query.zones}), s.span)
        elif isinstance(s, m.ShuffleS):
            self._emit(code, SHUFFLE, self.zone_list(s.zone), s.zone.zone, self.triggers_for({s.zone.zone}), s.span)
        elif isinstance(s, m.AssignS):
            self._emit(code, EXEC, self._assign(s), self.trigger_for_counter.get(s.counter, ()), None, s.span)
        elif isinstance(s, m.LetS):
            v = self.expr(s.value)
            slot = s.slot + self.offset
            if s.value.type in (m.INT, m.STR):
                span = s.span
                keep = bounded if s.value.type == m.INT else bounded_text

                def let(st: Any, loc: Any) -> None:
                    loc[slot] = keep(v(st, loc), span)
            else:
                def let(st: Any, loc: Any) -> None:
                    loc[slot] = v(st, loc)

            self._emit(code, EXEC, let, (), None, s.span)
        elif isinstance(s, m.SayS):
            text = self.template(s.text)

            def say(st: Any, loc: Any) -> None:
                if st.log is not None:
                    st.log.append({"type": "say", "text": text(st, loc)})

            self._emit(code, EXEC, say, (), None, s.span)
        elif isinstance(s, m.SimpleS):
            if s.what == "end turn":
                self._emit(code, END_TURN, None, None, None, s.span)
            elif s.what == "end game":
                self._emit(code, END_GAME, None, None, None, s.span)
            elif s.what == "another turn":
                def another(st: Any, loc: Any) -> None:
                    st.extra_turn = True
                self._emit(code, EXEC, another, (), None, s.span)
            elif s.what == "pick first player at random":
                self._emit(code, RANDFIRST, None, None, None, s.span)
            # "pass" compiles to nothing
        elif isinstance(s, m.GiveTurnS):
            who = seat_of(self.expr(s.player), "a turn to take", s.span)

            def give(st: Any, loc: Any) -> None:
                st.next_player = who(st, loc)

            self._emit(code, EXEC, give, (), None, s.span)
        elif isinstance(s, m.RevealS):
            sel = self.selection(s.query)
            who = seat_of(self.expr(s.player), "eyes to look with", s.span) if s.player is not None else None
            labels = self.labels
            zone_names = [self.zone_namer(z) for z in s.query.zones]
            kind_of = self.kind_of
            kinds = self.model.kinds
            is_die = [k.cls == "die" for k in kinds]

            def reveal(st: Any, loc: Any) -> None:
                p = who(st, loc) if who is not None else None
                picked = sel(st, loc)
                shown = [labels[c] for c in picked]
                where = ", ".join(name(st, loc)[0] for name in zone_names)
                # the player remembers kinds (see Engine.shown_name), not numbered copies
                remembered = [labels[c] if is_die[kind_of[c]] else kinds[kind_of[c]].name for c in picked]
                for seat in range(st.players) if p is None else (p,):
                    st.seen[seat].append({"turn": st.turn, "where": where, "components": list(remembered)})
                if st.log is not None:
                    st.log.append({"type": "reveal", "to": player_label(p) if p is not None else "all",
                                   "where": where, "components": shown})

            self._emit(code, EXEC, reveal, (), None, s.span)
        elif isinstance(s, m.CallS):
            callee = self.model.rules[s.rule]
            if not callee.params and s.rule not in self.inlining and len(self.inlining) < MAX_INLINE_DEPTH:
                # Inline the rule's body: no frame to push or pop at run time. Its locals
                # live after the caller's; its instructions keep their own spans.
                saved = self.offset
                self.offset = rule.nlocals
                rule.nlocals += callee.nlocals
                self.inlining.add(s.rule)
                self._block(callee.body, code, rule)
                self.inlining.discard(s.rule)
                self.offset = saved
            else:
                args = tuple(self._stored(a, s.span) for a in s.args)
                self._emit(code, CALL, s.rule, args, None, s.span)
        elif isinstance(s, m.IfS):
            ends = []
            for n, (cond, body) in enumerate(s.branches):
                at = self._emit(code, JUMPF, self.expr(cond), None, None, s.span)
                self._block(body, code, rule)
                if s.orelse is not None or n < len(s.branches) - 1:
                    ends.append(self._emit(code, JUMP, None, None, None, s.span))
                code[at][2] = len(code)
            if s.orelse is not None:
                self._block(s.orelse, code, rule)
            for e in ends:
                code[e][1] = len(code)
        elif isinstance(s, m.WhileS):
            top = len(code)
            at = self._emit(code, JUMPF, self.expr(s.cond), None, None, s.span)
            self._block(s.body, code, rule)
            self._emit(code, JUMP, top, None, None, s.span)
            code[at][2] = len(code)
        elif isinstance(s, m.RepeatS):
            count = self.expr(s.count)
            slot = s.slot + self.offset
            span = s.span

            def start(st: Any, loc: Any) -> None:
                loc[slot] = whole(bounded(count(st, loc), span), span, "how many times to repeat")

            self._emit(code, EXEC, start, (), None, s.span)
            top = len(code)
            at = self._emit(code, COUNTDOWN, slot, None, None, s.span)
            self._block(s.body, code, rule)
            self._emit(code, JUMP, top, None, None, s.span)
            code[at][2] = len(code)
        elif isinstance(s, m.ForS):
            values = self.iterable(s.iterable)
            off = self.offset
            lst, idx, var = s.list_slot + off, s.idx_slot + off, s.var + off

            def begin(st: Any, loc: Any) -> None:
                loc[lst] = values(st, loc)
                loc[idx] = 0

            def step(st: Any, loc: Any) -> bool:
                i = loc[idx]
                if i < len(loc[lst]):
                    loc[var] = loc[lst][i]
                    loc[idx] = i + 1
                    return True
                return False

            self._emit(code, EXEC, begin, (), None, s.span)
            top = len(code)
            at = self._emit(code, JUMPF, step, None, None, s.span)
            self._block(s.body, code, rule)
            self._emit(code, JUMP, top, None, None, s.span)
            code[at][2] = len(code)
        elif isinstance(s, m.AskS):
            values = self.iterable(s.iterable)
            var = s.var + self.offset
            cond = self.expr(s.cond) if s.cond is not None else None
            slot = s.list_slot + self.offset
            options = [(label, self.expr(c) if c is not None else None) for label, c, _span in s.options]

            def start_ask(st: Any, loc: Any) -> None:
                st.answers = [""] * st.players
                asked = []
                for p in values(st, loc):
                    loc[var] = p
                    if (cond is None or cond(st, loc)) and any(c is None or c(st, loc) for _label, c in options):
                        asked.append(p)  # (a player with no allowed answer is not asked)
                loc[slot] = asked

            self._emit(code, EXEC, start_ask, (), None, s.span)
            self._emit(code, ASK, AskSpec(var, slot, options), None, None, s.span)
        elif isinstance(s, m.ChooseS):
            chooser = seat_of(self.expr(s.player), "a choice to make", s.span) if s.player is not None else None
            spec = ChooseSpec(chooser, [], 0)
            self._emit(code, CHOOSE, spec, None, None, s.span)
            jumps = []
            for n, opt in enumerate(s.options):
                body_pc = len(code)
                self._block(opt.body, code, rule)
                if n < len(s.options) - 1:
                    jumps.append(self._emit(code, JUMP, None, None, None, opt.span))
                spec.options.append((
                    self.template(opt.label),
                    tuple((slot + self.offset, self.iterable(it)) for slot, it in opt.bindings),
                    self.expr(opt.cond) if opt.cond is not None else None,
                    body_pc,
                    self.public_template(opt.label),
                    self.label_parser(opt),
                    # a condition that reads none of the option's `for` variables is checked once
                    opt.cond is not None and not _reads_slots(opt.cond, {slot for slot, _ in opt.bindings}),
                ))
                spec.spans.append((opt.span, opt.cond_span))
                spec.shown.append(tuple((name, self.value_text(it.type)) for name, (_slot, it)
                                        in zip(opt.names, opt.bindings)))
            for j in jumps:
                code[j][1] = len(code)
            spec.end = len(code)
        else:  # pragma: no cover
            raise AssertionError(f"cannot compile {s!r}")

    def _stored(self, e: Any, span: Any) -> Fn:
        """An expression whose value is kept in the state (a rule's argument): a number is bounded."""
        fn = self.expr(e)
        if e.type == m.STR:
            return lambda st, loc: bounded_text(fn(st, loc), span)
        if e.type != m.INT:
            return fn
        return lambda st, loc: bounded(fn(st, loc), span)

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

    def _move(self, s: m.MoveS) -> Fn:
        q = s.query
        group = self.zone_group(q.zones)
        pred = self.predicate(q)
        dest = self.zone_list(s.dest)
        dest_zone = self.zones[s.dest.zone]
        put = self._insert(dest_zone, s.place)
        unrolled = dest_zone.unrolled
        limit = q.count if q.quantity == "count" else None
        limit_fn = self.expr(q.count_expr) if q.count_expr is not None and q.quantity == "count" else None
        labels = self.labels
        src_names = [self.zone_namer(z) for z in q.zones]
        dest_name = self.zone_namer(s.dest)

        def land(st: Any, loc: Any, d: list[int], moved: list[int], came_from: list) -> None:
            """Put the moved components in place, and tell where they came from and went."""
            if unrolled:
                faces = st.faces
                for c in moved:
                    faces[c] = -1
            put(d, moved)
            if st.log is not None:
                to_name, to_place = dest_name(st, loc)
                st.log.append({"type": "move", "components": [labels[c] for c in moved],
                               "from": ", ".join(t for t, _ in came_from), "to": to_name,
                               "places": [p for _, p in came_from] + [to_place]})
        tbl = self.pred_table(q)
        kind_of = self.kind_of
        takes_all = q.kinds is None and q.where is None and not q.kind_locals and limit is None and limit_fn is None
        if takes_all:
            def move_all(st: Any, loc: Any) -> None:
                d = dest(st, loc)
                moved: list[int] = []
                came_from: list[str] = []
                for lst, zname in zip(group(st, loc), src_names):
                    if lst and lst is not d:
                        moved.extend(lst)
                        lst.clear()
                        if st.log is not None:
                            came_from.append(zname(st, loc))
                if moved:
                    land(st, loc, d, moved, came_from)
            return move_all
        if (tbl is not None and limit is None and limit_fn is None and len(q.zones) == 1 and q.zones[0].owner is None
                and s.dest.owner is None and q.zones[0].zone != s.dest.zone):
            rows1 = [tbl[k] for k in kind_of]
            sz, dz = q.zones[0].zone, s.dest.zone

            def move_shared(st: Any, loc: Any) -> None:
                """The common case, kept lean: one shared zone to another, filtered by kind and face."""
                zs = st.zones
                src = zs[sz]
                if not src:
                    return
                faces = st.faces
                moved = [c for c in src if rows1[c][faces[c] + 1]]
                if not moved:
                    return
                src[:] = [c for c in src if not rows1[c][faces[c] + 1]]
                if unrolled:
                    for c in moved:
                        faces[c] = -1
                put(zs[dz], moved)
                if st.log is not None:
                    st.log.append({"type": "move", "components": [labels[c] for c in moved],
                                   "from": src_names[0](st, loc)[0], "to": dest_name(st, loc)[0],
                                   "places": [src_names[0](st, loc)[1], dest_name(st, loc)[1]]})

            return move_shared
        if tbl is not None and limit_fn is None:
            rows = [tbl[k] for k in kind_of]  # per component: its kind's row of the (kind, face) table

            def move_tabled(st: Any, loc: Any) -> None:
                faces = st.faces
                moved: list[int] = []
                came_from: list[str] = []
                need = limit
                d = None
                for lst, zname in zip(group(st, loc), src_names):
                    if not lst:
                        continue
                    if d is None:
                        d = dest(st, loc)
                    if lst is d:
                        continue
                    if need is None:
                        kept = []
                        n0 = len(moved)
                        for c in lst:
                            if rows[c][faces[c] + 1]:
                                moved.append(c)
                            else:
                                kept.append(c)
                        if len(moved) == n0:
                            continue
                        lst[:] = kept
                    else:
                        taken = []
                        i = len(lst) - 1
                        while i >= 0 and len(taken) < need:
                            c = lst[i]
                            if rows[c][faces[c] + 1]:
                                taken.append(lst.pop(i))
                            i -= 1
                        if not taken:
                            continue
                        need -= len(taken)
                        moved.extend(taken)
                    if st.log is not None:
                        came_from.append(zname(st, loc))
                    if need == 0:
                        break
                if moved:
                    land(st, loc, d, moved, came_from)
            return move_tabled

        def move(st: Any, loc: Any) -> None:
            p = pred(st, loc)
            d = dest(st, loc)
            moved: list[int] = []
            came_from: list[str] = []
            need = limit if limit_fn is None else max(0, whole(limit_fn(st, loc), q.span, "how many to move"))
            if need == 0:
                return
            for lst, zname in zip(group(st, loc), src_names):
                if lst is d:
                    continue
                if need is None:
                    if p is None:
                        taken = lst[:]
                        lst.clear()
                    else:
                        taken = []
                        kept = []
                        for c in lst:
                            (taken if p(c) else kept).append(c)
                        if taken:
                            lst[:] = kept
                else:
                    taken = []
                    i = len(lst) - 1
                    while i >= 0 and len(taken) < need:
                        if p is None or p(lst[i]):
                            taken.append(lst.pop(i))
                        i -= 1
                    need -= len(taken)
                if taken:
                    moved.extend(taken)
                    if st.log is not None:
                        came_from.append(zname(st, loc))
                if need == 0:
                    break
            if moved:
                land(st, loc, d, moved, came_from)

        return move

    def _draw(self, s: m.MoveS, code: list, rule: m.Rule) -> None:
        q = s.query
        sel = q.zones[0]
        dest_zone = self.zones[s.dest.zone]
        slot = rule.nlocals
        rule.nlocals += 1
        spec = DrawSpec(
            source=self.zone_list(sel), pred=self.predicate(q), dest=self.zone_list(s.dest),
            dest_zone=dest_zone.index, place=s.place, remaining_slot=slot, source_zone=sel.zone,
            source_owner=self.expr(sel.owner) if sel.owner is not None else None,
            source_name=self.zone_namer(sel), dest_name=self.zone_namer(s.dest),
        )
        n = q.count or 1
        n_fn = self.expr(q.count_expr) if q.count_expr is not None else None

        def start(st: Any, loc: Any) -> None:
            loc[slot] = n if n_fn is None else whole(bounded(n_fn(st, loc), q.span), q.span, "how many to draw")

        self._emit(code, EXEC, start, (), None, s.span)
        self._emit(code, DRAW, spec, self._insert(dest_zone, s.place), self.triggers_for({sel.zone, s.dest.zone}),
                   s.span)

    def _assign(self, s: m.AssignS) -> Fn:
        i = s.counter
        v = self.expr(s.value)
        op = s.op
        counter = self.model.counters[i]
        name = counter.name
        span = s.span
        owner = seat_of(self.expr(s.owner), f"a '{name}'", span) if s.owner is not None else None
        narrated = counter.doc is not None  # counters without a description are bookkeeping
        shown = _counter_shown(counter)
        secret = counter.visibility != "public"

        def assign(st: Any, loc: Any) -> None:
            value = v(st, loc)
            if owner is None:
                old = st.counters[i]
                new = old + value if op == "+=" else old - value if op == "-=" else value
                st.counters[i] = new = bounded(new, span)
                who = None
            else:
                who = owner(st, loc)
                old = st.counters[i][who]
                new = old + value if op == "+=" else old - value if op == "-=" else value
                st.counters[i][who] = new = bounded(new, span)
            if st.log is not None and new != old and narrated:
                event = {"type": "counter", "counter": name,
                         "player": player_label(who) if who is not None else None, "old": shown(old),
                         "new": shown(new)}
                if secret:
                    event["visible"] = counter.visibility  # views hide the values from those who may not see
                st.log.append(event)

        return assign

    # ------------------------------------------------------------------ program
    def compile(self) -> Program:
        """Compile the whole model."""
        model = self.model
        code: list[list[tuple]] = []
        nlocals: list[int] = []
        for rule in model.rules:
            code.append(self.rule_code(rule))
            nlocals.append(rule.nlocals)
        driver = len(code)
        turn_span = model.rules[model.turn_rule].span if model.rules else None
        code.append([
            (CALL, model.setup_rule, (), None, None),
            (TURN, model.turn_rule, None, None, None),
            (ADVANCE, tuple(i for i, t in enumerate(model.triggers) if t.reads_current and not t.after_step),
             None, None, None),
            (JUMP, 1, None, None, turn_span),  # the loop of turns: a runaway here is a turn that decides nothing
        ])
        nlocals.append(0)
        face_labels, face_weights, face_index = [], [], []
        for kind in model.kinds:
            names: list[str] = []
            weights: list[int] = []
            index: dict[str, int] = {}
            for _pos, f in enumerate(kind.faces):
                name = model.faces[f].name
                if name in index:
                    weights[names.index(name)] += 1
                else:
                    index[name] = f
                    names.append(name)
                    weights.append(1)
            face_labels.append(names)
            face_weights.append(weights)
            face_index.append(index)
        rank_keys = [(d, self.expr(e)) for d, e in model.ranking.keys]
        rank_sheets = [next((i for i, sh in enumerate(model.sheets) if _same(e, _sheet_total(sh))), None)
                       for _d, e in model.ranking.keys]
        return Program(
            model=model, code=code, driver=driver, kind_of=self.kind_of, component_labels=self.labels,
            component_count=len(self.kind_of),
            trigger_conds=[self.expr(t.cond) for t in model.triggers],
            trigger_rules=[t.rule for t in model.triggers],
            counter_inits=[self.expr(c.init) for c in model.counters],
            rank_keys=rank_keys, rank_nlocals=model.ranking.nlocals, nlocals=nlocals,
            face_labels=face_labels, face_weights=face_weights, face_index=face_index,
            trigger_each=[t.each for t in model.triggers],
            sheets=[(sh.name, [(label, self.expr(e)) for label, e in sh.lines], sh.nlocals) for sh in model.sheets],
            rank_sheets=rank_sheets,
        )


def _counter_shown(counter: m.Counter) -> Fn:
    """How a counter's value is written in narration events: a player by label, a fraction as text."""
    if counter.type == m.PLAYER:
        return player_label
    return json_number


def _reads_slots(expr: Any, slots: set[int]) -> bool:
    """Whether an IR expression reads any of these local slots."""
    if isinstance(expr, m.Local):
        return expr.slot in slots
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


def _thread_jumps(code: list[list[Any]]) -> None:
    """Point every jump straight at its final destination (a jump to a jump is followed)."""

    def final(target: int) -> int:
        seen = set()
        while code[target][0] == JUMP and target not in seen:
            seen.add(target)
            target = code[target][1]
        return target

    for ins in code:
        if ins[0] == JUMP:
            ins[1] = final(ins[1])
        elif ins[0] in (JUMPF, COUNTDOWN):
            ins[2] = final(ins[2])


def _fuse(code: list[list[Any]]) -> list[list[Any]]:
    """Merge runs of plain statements (no trigger to check, not a jump target) into one step."""
    targets: set[int] = set()
    for ins in code:
        if ins[0] == JUMP:
            targets.add(ins[1])
        elif ins[0] in (JUMPF, COUNTDOWN):
            targets.add(ins[2])
        elif ins[0] == CHOOSE:
            targets.update(opt[3] for opt in ins[1].options)
            targets.add(ins[1].end)
    new: list[list[Any]] = []
    where: dict[int, int] = {}
    for pc, ins in enumerate(code):
        prev = new[-1] if new else None
        if (ins[0] == EXEC and not ins[2] and pc not in targets and prev is not None and prev[0] == EXEC
                and not prev[2]):
            first, second = prev[1], ins[1]
            fused = getattr(first, "steps", (first,)) + (second,)

            def run(st: Any, loc: Any, fused: tuple = fused) -> None:
                for f in fused:
                    f(st, loc)

            run.steps = fused  # type: ignore[attr-defined]
            prev[1] = run
            where[pc] = len(new) - 1
            continue
        where[pc] = len(new)
        new.append(ins)
    where[len(code)] = len(new)
    for ins in new:
        if ins[0] == JUMP:
            ins[1] = where[ins[1]]
        elif ins[0] in (JUMPF, COUNTDOWN):
            ins[2] = where[ins[2]]
        elif ins[0] == CHOOSE:
            spec = ins[1]
            spec.options = [(*opt[:3], where[opt[3]], *opt[4:]) for opt in spec.options]
            spec.end = where[spec.end]
    return new


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


def compile_model(model: m.Model) -> Program:
    """Compile a checked model into a Program (its rules run as generated Python: see codegen.py)."""
    from rulelang.compile.codegen import compile_program  # codegen builds on this module's closures

    return compile_program(model)
