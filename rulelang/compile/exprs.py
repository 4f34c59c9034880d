"""Expressions and queries of the checked model as Python source: the first half of the generator.

``ExprWriter`` turns IR expressions into Python expressions over the state (``st``), the
frame's locals (``loc``) and the state's tables (``Z`` zones, ``C`` counters, ``F``
faces). User values become constants (``const``); kinds the writer does not know are
compiled by ``Compiler`` and called through the constants table, counted (``fallback``).
See codegen.py for the statements, the blocks and the module.
"""

from __future__ import annotations

import bisect
import collections
import itertools
import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import piles, runtime
from rulelang.compile.compiler import Compiler, _NotStatic
from rulelang.compile.linetable import SourceWriter
from rulelang.compile.program import Construct
from rulelang.errors import RulelangError
from rulelang.numbers import bounded, bounded_text, format_number, fraction, whole
from rulelang.syntax.span import Span

_PLAIN = re.compile(r"[\w.]+(\[[\w.\[\]]+\])*")  # a name, or subscripts of names: needs no parentheses


class ExprWriter:
    """The expression half of the code generator: constants, coverage constructs, expressions,
    queries, templates (``CodeGen`` adds statements, blocks and the module)."""

    def __init__(self, model: m.Model, comp: Compiler, coverage: bool, filename: str) -> None:
        self.model = model
        self.comp = comp
        self.coverage = coverage
        self.filename = filename
        self.out = SourceWriter()
        self.consts: dict[str, Any] = {}
        self._const_ids: dict[Any, str] = {}
        self.fallbacks: collections.Counter = collections.Counter()
        self.fallback_kinds: list[str] = []
        self.fallback_runs: list[int] = []
        self.names = itertools.count()
        self.off = 0
        self.ikey: tuple = ()
        self.kind_of = comp.kind_of
        self.ncomp = len(comp.kind_of)
        self.is_die = [bool(model.kinds[k].faces) for k in comp.kind_of]  # dice, and components with sides
        # Every kind has at most one component, numbered in the kinds' order: a component stands for its kind.
        self.unique_kinds = all(k.count <= 1 for k in model.kinds) and len(set(comp.kind_of)) == len(comp.kind_of) \
            and comp.kind_of == sorted(comp.kind_of)
        # ... and each component's number is its kind's: KO[c] is c itself
        self.kinds_are_ids = self.unique_kinds and comp.kind_of == list(range(len(comp.kind_of)))
        self.checks: dict[tuple[int, ...], str] = {}
        self.enums: dict[int, str] = {}
        self.pickers: dict[int, str] = {}  # id of a ChooseSpec -> its lazy enumerator, for pickers
        self.same_answers_at: set[int] = set()  # pcs of asks whose answers are the same for everyone asked
        self.members: dict[int, tuple] = {}  # id of a ChooseSpec -> replay's membership tests (see member_tests)
        self.helpers: list[list[tuple[int, str, Span | None]]] = []  # module-level functions
        self.memo: dict[Any, str] | None = None  # while writing standings: canonical node -> memo function
        # While writing an option's condition inside its ranges: the local slots each range binds, and
        # the boxes of counts/totals computed once per values of the outer ranges: (node, level) -> name.
        self.once_levels: list[set[int]] | None = None
        self.once_boxes: dict[Any, str] = {}
        # While writing the expression of a statement (see ``ex_pre``): lines to write before the
        # statement, where totals over zones are added up in plain loops; None elsewhere.
        self.pre: list[tuple[int, str, Span | None]] | None = None
        self.pre_ind = 0
        # While writing an option's condition inside its ranges: the Python variable holding each range's
        # value (IR slot -> name), and the piles on those values read once per value: (zone, slot) -> name.
        self.cse_vars: dict[int, str] | None = None
        self.cse_piles: dict[tuple[int, int], tuple[str, str]] = {}
        self.cse_ids: set[str] = set()  # variables that hold a component of a zone or a seat (never None or < 0)
        # While writing the body of a statement ``for`` that cannot pause: the Python variable holding the
        # loop's value (absolute local slot -> name; ``loc`` is written too, for helpers that read it there).
        self.loop_vars: dict[int, str] = {}
        self.loc_reads: set[int] = set()  # slots read through ``loc`` (-1: maybe any, by a compiler closure)
        self.constructs: list[Construct] = []
        self.construct_of: dict[Any, int] = {}
        self._list_constructs()
        self.consts.update({
            "KO": comp.kind_of, "LB": comp.labels, "ISDIE": self.is_die, "PL": runtime.player_label,
            "div": runtime.div, "mod": runtime.mod, "nobody_has": runtime.nobody_has,
            "counter_of": runtime.counter_of, "zone_of": runtime.zone_of, "place_name": runtime.place_name,
            "log_move": runtime.log_move, "log_counter": runtime.log_counter, "runaway": runtime.runaway,
            "end_turn": runtime.end_turn, "reveal": runtime.reveal, "insort": bisect.insort,
            "KD": [k.display for k in model.kinds], "FB": self.fallback_runs, "place_of": runtime.place_of,
            "DF": [model.kinds[k].faces for k in comp.kind_of], "zone_of_kind": runtime.zone_of_kind,
            "FN": [f.name for f in model.faces], "KN": [k.name for k in model.kinds],
            "FD": [f.display for f in model.faces], "seat": runtime.seat, "seat_in_game": runtime.seat_in_game,
            "fraction": fraction, "bounded": bounded, "bounded_text": bounded_text, "whole": whole,
            "format_number": format_number, "FS": [f.display for f in model.faces] + ["no face"],
            "row_at": runtime.row_at, "number_range": runtime.number_range,
            "MAXO": runtime.MAX_OPTIONS, "DIRTY": [], "keep": runtime.keep,
            "too_many_options": runtime.too_many_options,
            "SEATS_IN": None, "players_in": None,  # given at load, the program's own (runtime.seats_in)
        })
        piles.install(self)

    # ------------------------------------------------------------------ constants
    def const(self, value: Any) -> str:
        """Source for a constant: ints, bools and None by repr, anything else by a table name."""
        if value is None or type(value) in (bool, int):
            return repr(value)
        simple = isinstance(value, (str, float, tuple, frozenset))
        key = (type(value).__name__, repr(value)) if simple else ("id", id(value))
        name = self._const_ids.get(key)
        if name is None:
            name = f"k{len(self.consts)}"
            self.consts[name] = value
            self._const_ids[key] = name
        return name

    def table(self, value: Any, prefix: str = "t") -> str:
        """A new named constant (a table built by the compiler)."""
        name = f"{prefix}{next(self.names)}"
        self.consts[name] = value
        return name

    def fallback(self, kind: str, fn: Callable[..., Any]) -> str:
        """Call a closure built by the compiler for a node kind the generator does not translate."""
        self.fallbacks[kind] += 1
        if kind not in self.fallback_kinds:
            self.fallback_kinds.append(kind)
            self.fallback_runs.append(0)
        i = self.fallback_kinds.index(kind)
        runs = self.fallback_runs

        def counted(*args: Any, fn: Callable[..., Any] = fn, i: int = i) -> Any:
            runs[i] += 1
            return fn(*args)

        return self.table(counted, "fb")

    # ------------------------------------------------------------------ constructs (coverage)
    def _list_constructs(self) -> None:
        model = self.model
        trigger_of = {t.rule: t for t in model.triggers}
        for rule in model.rules:
            t = trigger_of.get(rule.index)
            if t is not None:
                self._construct(("rule", rule.index), "trigger", rule.title or rule.name, t.span)
            else:
                self._construct(("rule", rule.index), "rule", rule.name, rule.span)
        for rule in model.rules:
            self._walk_constructs(rule.body)

    def _construct(self, key: Any, kind: str, name: str, span: Any) -> None:
        self.construct_of[key] = len(self.constructs)
        self.constructs.append(Construct(kind, name, span))

    def _walk_constructs(self, body: tuple) -> None:
        for s in body:
            if isinstance(s, m.IfS):
                for n, (_cond, b) in enumerate(s.branches):
                    span = b[0].span if b and hasattr(b[0], "span") else s.span
                    self._construct(("branch", id(s), n), "branch", "if" if n == 0 else "elif", span)
                    self._walk_constructs(b)
                if s.orelse is not None:
                    span = s.orelse[0].span if s.orelse and hasattr(s.orelse[0], "span") else s.span
                    self._construct(("branch", id(s), len(s.branches)), "branch", "else", span)
                    self._walk_constructs(s.orelse)
            elif isinstance(s, m.ChooseS):
                for n, opt in enumerate(s.options):
                    label = "".join(p if isinstance(p, str) else "{...}" for p in opt.label.parts)
                    self._construct(("option", id(s), n), "option", label, opt.span)
                    self._walk_constructs(opt.body)
            elif isinstance(s, (m.WhileS, m.RepeatS, m.ForS)):
                self._walk_constructs(s.body)

    def cov(self, key: Any, ind: int, lines: list) -> None:
        if self.coverage and key in self.construct_of:
            lines.append((ind, f"COV[{self.construct_of[key]}] += 1", None))

    # ------------------------------------------------------------------ expressions
    def ex(self, e: Any, c: str | None = None) -> str:
        """Python source of an expression; ``c`` names the component being filtered (in ``where``)."""
        t = type(e)
        if self.pre is not None and (c is not None or not _strict(e)):
            return self.ex_in_place(e, c)
        if t is m.Const:
            return self.const(e.value)
        if t is m.Local:
            return self.local(e.slot)
        if t is m.CurrentPlayer:
            return "st.current"
        if t is m.CounterGet:
            i = e.counter
            if e.owner is None:
                return f"C[{i}]"
            if isinstance(e.owner, m.CurrentPlayer):
                return f"C[{i}][st.current]"
            name = self.const(self.model.counters[i].name)
            o = self.ex(e.owner, c)
            sp = self.const(e.span)
            if isinstance(e.owner, m.Local):
                if o in self.cse_ids:
                    return f"C[{i}][{o}]"
                return f"(C[{i}][{o}] if {o} >= 0 else nobody_has({name}, {sp}))"
            return f"counter_of(C[{i}], {o}, {name}, {sp})"
        if t is m.After:
            if e.player is None:
                p = "st.current"
            else:
                p = self.seat_ex(e.player, "a seat, so no player sits next to nobody", e.span, c)
            return f"(({p} + {e.step}) % st.players)"
        if t is m.SeatLit:
            return f"seat_in_game({e.seat}, st.players, {self.const(e.span)})"
        if t is m.CompAttr:
            x = self.ex(e.comp, c)
            if self.face_dependent(e.attr):
                return f"row_at({self.attr_rows(e.attr)}, st.faces, {x})"
            return f"{self.attr_values(e.attr)}[{x}]"
        if t is m.CompFace:
            return f"st.faces[{self.ex(e.comp, c)}]"
        if t is m.CompKind:
            if self.kinds_are_ids:
                x = self.ex(e.comp, c)
                return x if _PLAIN.fullmatch(x) else f"({x})"
            return f"KO[{self.ex(e.comp, c)}]"
        if t is m.Format:
            return self.template(e.text, c)
        if t is m.UnOp:
            x = self.ex(e.operand, c)
            if e.op == "not" and x.startswith("bool(") and _one_group(x[4:]):  # not bool(X): not X
                return f"(not {x[5:-1]})"
            if e.op == "not" and type(e.operand) is m.Agg and e.operand.func == "any" and x.startswith("(not ") \
                    and ".isdisjoint(" in x and _one_group(x):
                return x[5:-1]  # not any(K in Z), any being '(not S.isdisjoint(Z))': S.isdisjoint(Z)
            return f"(not {x})" if e.op == "not" else f"(-{x})"
        if t is m.BinOp:
            if e.op in ("and", "or") and type(e.left) is m.Const:  # the constant decides: write what runs
                return self.ex(fold(e), c)
            if e.op in ("==", "!=") and type(e.left) is m.Const and type(e.right) is m.Const:
                return self.ex(fold(e), c)
            left = e.left
            if e.op == ">" and type(e.right) is m.Const and e.right.value == 0 and type(e.right.value) is int \
                    and type(left) is m.Gen and left.func == "total" and type(left.expr) is m.Const \
                    and type(left.expr.value) is int and left.expr.value > 0:  # total(N for ...) > 0: any passes?
                return self.ex(m.Gen("exists", left.expr, left.var, left.iterable, left.cond, m.BOOL), c)
            a, b = self.ex(e.left, c), self.ex(e.right, c)
            if e.op in ("and", "or", "+", "-", "*", "==", "!=", "<", ">", "<=", ">="):
                return f"({a} {e.op} {b})"
            if e.op in ("/", "%"):
                if _whole(e.left) and type(e.right) is m.Const and type(e.right.value) is int and e.right.value > 0:
                    return f"({a} {'//' if e.op == '/' else '%'} {b})"  # what div/mod do with whole numbers
                fn = "div" if e.op == "/" else "mod"
                return f"{fn}({a}, {b}, {self.const(e.span)})"
        if t is m.IfElseIR:
            cond = fold(e.cond)
            if type(cond) is m.Const:  # an option's value decides: only that branch is written
                return self.ex(e.then if cond.value else e.orelse, c)
            return f"({self.ex(e.then, c)} if {self.ex(e.cond, c)} else {self.ex(e.orelse, c)})"
        if t is m.KindAttr:
            values = self.comp.kind_values[e.attr]
            return f"{self.table(values, 'ka')}[{self.ex(e.kind, c)}]"
        if t is m.AnswerGet:
            return f"st.answers[{self.seat_ex(e.player, 'an answer', None, c)}]"
        if t is m.Builtin:
            if e.func == "players":
                return "st.players"
            if e.func == "seat":
                return f"({self.seat_ex(e.args[0], 'a seat', e.span, c)} + 1)"
            args = [self.ex(a, c) for a in e.args]
            if e.func in ("min", "max"):
                return f"{e.func}({args[0]}, {args[1]})"
            if e.func == "fraction":
                return f"fraction({args[0]}, {args[1]}, {self.const(e.span)})"
            if e.func == "abs":
                return f"abs({args[0]})"
        if t is m.IsOut:
            return f"(st.out[{self.seat_ex(e.player, 'a place in the game', None, c)}] > 0)"
        if t is m.Agg:
            return self.once(e, c) or self.memoized(e, lambda: self.aggregate(e), c)
        if t is m.Gen:
            return self.once(e, c) or self.memoized(e, lambda: self.gen(e), c)
        if t is m.PlacesIR:
            return self.memoized(e, lambda: piles.places(self, e), c)
        if c is not None:
            if t is m.ElemAttr:
                return self.face_value(e.attr, c) if self.face_dependent(e.attr) \
                    else f"{self.attr_values(e.attr)}[{c}]"
            if t is m.ElemIsKind:
                return f"(KO[{c}] in {self.const(frozenset(e.kinds))})"
            self.loc_reads.add(-1)
            saved = self.comp.offset
            self.comp.offset = self.off
            try:
                fn = self.fallback(type(e).__name__, self.comp.elem_expr(e))
            finally:
                self.comp.offset = saved
            return f"{fn}(st, loc, {c})"
        self.loc_reads.add(-1)
        saved = self.comp.offset
        self.comp.offset = self.off
        try:
            fn = self.fallback(type(e).__name__, self.comp.expr(e))
        finally:
            self.comp.offset = saved
        return f"{fn}(st, loc)"

    def local(self, slot: int) -> str:
        """Source reading a local slot: the range's own variable inside an option's condition, else ``loc``."""
        if self.cse_vars is not None:
            name = self.cse_vars.get(slot)
            if name is not None:
                return name
        if self.loop_vars:
            name = self.loop_vars.get(slot + self.off)
            if name is not None:
                return name
        self.loc_reads.add(slot)
        return f"loc[{slot + self.off}]"

    def own_scope(self) -> _OwnScope:
        """Context manager: write a helper function's lines (no variables of the enclosing enumerator)."""
        return _OwnScope(self)

    def face_dependent(self, attr: str) -> bool:
        return any(v is not None for v in self.comp.face_values[attr])

    def attr_values(self, attr: str) -> str:
        kv = self.comp.kind_values[attr]
        return self.table([kv[k] for k in self.kind_of], "av")

    def face_value(self, attr: str, c: str) -> str:
        """Source of the value of a face-dependent attribute of component ``c``, by its face."""
        kv, fv = self.comp.kind_values[attr], self.comp.face_values[attr]
        rows = [[kv[k]] + [fv[f] if fv[f] is not None else kv[k] for f in range(len(fv))] for k in self.kind_of]
        by_face = _by_face(rows)
        if by_face is not None:
            return f"{self.table(by_face, 'af')}[F[{c}]]"
        return f"{self.attr_rows(attr)}[{c}][F[{c}] + 1]"

    def attr_rows(self, attr: str) -> str:
        """Per component, its attribute's value by face + 1 (the face's own value, else the kind's)."""
        kv, fv = self.comp.kind_values[attr], self.comp.face_values[attr]
        rows = [[kv[k]] + [fv[f] if fv[f] is not None else kv[k] for f in range(len(fv))] for k in self.kind_of]
        return self.table(rows, "ar")

    # ------------------------------------------------------------------ queries
    def zone(self, sel: m.ZoneSel) -> str:
        """Source of the component list of a zone."""
        z = sel.zone
        zone = self.model.zones[z]
        if sel.owner is None:
            return f"Z[{z}]"
        if zone.per_class is not None:
            return piles.class_zone(self, sel)
        if zone.per_kind is not None:
            base = self.comp.first_of_kind.get(zone.per_kind, 0)  # no components of the kind: no zone
            o = self.ex(sel.owner)
            slow = f"zone_of_kind(Z[{z}], {o}, {base}, {zone.per_kind}, KO, LB, {self.const(zone.name)}, " \
                   f"{self.const(self.model.kinds[zone.per_kind].name)}, {self.const(zone.span)})"
            if isinstance(sel.owner, m.Local):
                return f"(Z[{z}][{o} - {base}] if KO[{o}] == {zone.per_kind} else {slow})"
            return slow
        if isinstance(sel.owner, m.CurrentPlayer):
            return f"Z[{z}][st.current]"
        if isinstance(sel.owner, m.After):  # a seat by its construction: no check
            return f"Z[{z}][{self.ex(sel.owner)}]"
        o = self.ex(sel.owner)
        if isinstance(sel.owner, m.Local):
            if o in self.cse_ids:
                return f"Z[{z}][{o}]"
            return f"(Z[{z}][{o}] if {o} >= 0 else zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(sel.span)}))"  # noqa: E501
        return f"zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(sel.span)})"

    def zone_name(self, sel: m.ZoneSel) -> str:
        """Source of (narration name, place) of a zone."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return self.const((zone.display, [sel.zone, -1]))
        if zone.per_kind is not None or zone.per_class is not None:
            saved = self.comp.offset
            self.comp.offset = self.off
            try:
                fn = self.comp.zone_namer(sel)
            finally:
                self.comp.offset = saved
            return f"{self.table(fn, 'zn')}(st, loc)"
        return f"place_name({self.const(zone.display)}, {sel.zone}, {self.ex(sel.owner)})"

    def filter(self, q: m.QueryIR, c: str) -> tuple[str, str | None]:
        """(how, source) of a query's filter on component ``c``: ("all", None), ("mask", name) (a list
        by component), or ("pred", source)."""
        if q.kinds is None and q.where is None and not q.kind_locals:
            return "all", None
        tbl = self.comp.pred_table(q)
        if tbl is not None:
            return self._table_filter(tbl, c)
        parts = []
        if q.kind_locals:
            slots = [self.local(s) for s in q.kind_locals]
            if q.kinds is None and len(slots) == 1:
                parts.append(f"(KO[{c}] {'!=' if q.exclude else '=='} {slots[0]})")
            else:
                static = self.const(frozenset(q.kinds or ()))
                test = f"(KO[{c}] in {static} or KO[{c}] in ({', '.join(slots)},))"
                parts.append(f"(not {test})" if q.exclude else test)
            if q.where is not None:
                wt = self.comp.table(q.where, None)
                if wt is not None:
                    how, src = self._table_filter(wt, c)
                    parts.append(f"{src}[{c}]" if how == "mask" else src)
                else:
                    parts.append(self.ex(q.where, c))
        else:
            if q.kinds is not None:
                parts.append(f"(KO[{c}] {'not in' if q.exclude else 'in'} {self.const(frozenset(q.kinds))})")
            parts.append(self.ex(q.where, c))
        return "pred", " and ".join(parts)

    def _table_filter(self, tbl: list[list[Any]], c: str) -> tuple[str, str]:
        rows = [[bool(v) for v in tbl[k]] for k in self.kind_of]
        faces = self.model.kinds
        if all(len({row[0]} | {row[f + 1] for f in faces[k].faces}) == 1 for row, k in zip(rows, self.kind_of)):
            return "mask", self.table([row[0] for row in rows], "mk")
        by_face = _by_face(rows)
        if by_face is not None:
            return "pred", f"{self.table(by_face, 'mf')}[F[{c}]]"
        return "pred", f"{self.table(rows, 'mr')}[{c}][F[{c}] + 1]"

    def selection(self, q: m.QueryIR, copy: bool = True) -> str:
        """Source of the list of ids a (non-random) query selects, in zone order (without ``copy``,
        possibly a zone's own list)."""
        c = self.var("c")
        how, src = self.filter(q, c)
        parts = []
        for sel in q.zones:
            z = self.zone(sel)
            if how == "all":
                parts.append(f"{z}[:]" if len(q.zones) == 1 and copy else z)
            elif how == "mask":
                parts.append(f"[{c} for {c} in {z} if {src}[{c}]]")
            else:
                parts.append(f"[{c} for {c} in {z} if {src}]")
        out = parts[0] if len(parts) == 1 else f"[*{', *'.join(parts)}]"
        if q.quantity == "count" and (q.count is not None or q.count_expr is not None):
            n = repr(q.count) if q.count_expr is None else \
                f"whole({self.ex(q.count_expr)}, {self.const(q.span)}, {self.const('how many')})"
            return f"last_n({out}, {n})"
        return out

    def ex_pre(self, L: list, e: Any, ind: int) -> str:
        """Python source of the expression of a statement written at indent ``ind``: totals over zones
        it always computes are added up in loops written to ``L`` first (no comprehension to call)."""
        saved = self.pre
        self.pre, self.pre_ind = [], ind
        try:
            x = self.ex(e)
            L.extend(self.pre)
        finally:
            self.pre = saved
        return x

    def ex_in_place(self, e: Any, c: str | None) -> str:
        """``ex`` with nothing computed ahead: for what runs only sometimes, or once per component."""
        saved = self.pre
        self.pre = None
        try:
            return self.ex(e, c)
        finally:
            self.pre = saved

    def int_bound(self, e: Any) -> int | None:
        """A bound on the magnitude of an expression sure to be a whole number (None: not sure)."""
        t = type(e)
        if t is m.Const:
            return abs(e.value) if type(e.value) is int else None
        if t is m.Agg:
            if e.func == "count":
                return self.ncomp
            if e.func != "sum" or e.attr is None:
                return None
            values = [v for row in self.sum_rows(e.attr) for v in row]
            if not all(type(v) is int for v in values):
                return None
            return self.ncomp * max((abs(v) for v in values), default=0)
        if t is m.BinOp and e.op in ("+", "-", "*"):
            a, b = self.int_bound(e.left), self.int_bound(e.right)
            if a is None or b is None:
                return None
            return a * b if e.op == "*" else a + b
        if t is m.UnOp and e.op == "-":
            return self.int_bound(e.operand)
        return None

    def sum_rows(self, attr: str) -> list[list[Any]]:
        """Per component, every value an attribute can have (by face, and unrolled)."""
        kv, fv = self.comp.kind_values[attr], self.comp.face_values[attr]
        return [[kv[k]] + [v for v in fv if v is not None] for k in self.kind_of]

    def plain_zone(self, sel: m.ZoneSel) -> bool:
        """Whether a zone's list is found without a check that may fail (no owner, or a seat sure to be one)."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return True
        if zone.per_class is not None or zone.per_kind is not None:
            return False
        o = sel.owner
        if type(o) is m.After:
            o = o.player
        return o is None or type(o) is m.CurrentPlayer

    def hoisted_sum(self, e: m.Agg) -> str | None:
        """A total over zones added up in loops before the statement (see ``ex_pre``); None: not here."""
        q = e.query
        pre = self.pre
        if pre is None or e.func != "sum" or e.attr is None or not all(self.plain_zone(z) for z in q.zones):
            return None
        if q.where is not None and self.comp.pred_table(q) is None:
            return None  # a test that might fail is left where it was (errors come in the same order)
        c, total = self.var("c"), self.var("tot")
        how, src = self.filter(q, c)
        if self.face_dependent(e.attr):
            value = self.face_value(e.attr, c)
        else:
            value = f"{self.attr_values(e.attr)}[{c}]"
        ind = self.pre_ind
        pre.append((ind, f"{total} = 0", q.span))
        for sel in q.zones:
            pre.append((ind, f"for {c} in {self.zone(sel)}:", q.span))
            if how == "all":
                pre.append((ind + 1, f"{total} += {value}", q.span))
            else:
                pre.append((ind + 1, f"if {src if how == 'pred' else f'{src}[{c}]'}:", q.span))
                pre.append((ind + 2, f"{total} += {value}", q.span))
        return total

    def aggregate(self, e: m.Agg) -> str:
        hoisted = self.hoisted_sum(e)
        if hoisted is not None:
            return hoisted
        q = e.query
        c = self.var("c")
        if e.func in ("count", "any") and q.kinds is not None and not q.exclude and q.where is None \
                and not q.kind_locals:
            ids = [i for i, k in enumerate(self.kind_of) if k in q.kinds]
            if len(ids) == 1:  # a kind of one component (a marker): look for it
                each = [f"({ids[0]} in {self.zone(sel)})" if e.func == "any" else f"{self.zone(sel)}.count({ids[0]})"
                        for sel in q.zones]
                return each[0] if len(each) == 1 else "(" + (" or " if e.func == "any" else " + ").join(each) + ")"
        if e.func == "any" and q.count is None and q.count_expr is None and q.quantity != "random" \
                and all(self.plain_zone(sel) for sel in q.zones):
            few = self.few_passing(q)
            if few is not None:  # a test by face that few components can pass: look for those
                terms = [f"({test}{x} in {self.zone(sel)})" for x, test in few for sel in q.zones]
                return "False" if not terms else terms[0] if len(terms) == 1 else "(" + " or ".join(terms) + ")"
        if e.func == "any" and q.where is not None and q.kinds is None and not q.kind_locals and not q.exclude \
                and self.comp.pred_table(q) is None:
            sought = self.attr_equals(q.where)
            if sought is not None:  # any(Z where attr == x), x the same for every component: x among the values
                attr, x = sought
                values = self.attr_values(attr)
                each = [f"({x} in map({values}.__getitem__, {self.zone(sel)}))" for sel in q.zones]
                return each[0] if len(each) == 1 else "(" + " or ".join(each) + ")"
        if e.func == "count" and q.kinds is None and not q.kind_locals and not q.exclude \
                and q.count is None and q.count_expr is None and q.quantity != "random":
            counted = self.count_where_equal(q)
            if counted is not None:
                return counted
        how, src = self.filter(q, c)
        zones = [self.zone(sel) for sel in q.zones]
        if e.func in ("count", "any"):
            is_any = e.func == "any"
            if how == "all":
                each = [f"bool({z})" if is_any else f"len({z})" for z in zones]
            elif how == "mask":
                ids = self.const(frozenset(i for i, v in enumerate(self.consts[src]) if v))
                if is_any:  # the components the mask takes, as a set: any of them in the zone?
                    each = [f"(not {ids}.isdisjoint({z}))" for z in zones]
                else:  # how many of them are in the zone (a component is in one place, once)
                    each = [f"len({ids}.intersection({z}))" for z in zones]
            elif len(q.kind_locals) == 1 and q.kinds is None and q.where is None and not q.exclude:
                kind = self.local(q.kind_locals[0])  # any/count(k in Z), k a local: Z against the components of k
                if "KI" not in self.consts:  # the components of each kind
                    self.consts["KI"] = [frozenset(i for i, k in enumerate(self.kind_of) if k == j)
                                         for j in range(len(self.model.kinds))]
                # (a component is in one place, once: how many of k's are in Z is the size of the intersection)
                each = [f"(not KI[{kind}].isdisjoint({z}))" if is_any else f"len(KI[{kind}].intersection({z}))"
                        for z in zones]
            else:
                each = [f"any([{src} for {c} in {z}])" if is_any else f"len([{c} for {c} in {z} if {src}])"
                        for z in zones]
            return each[0] if len(each) == 1 else "(" + (" or " if is_any else " + ").join(each) + ")"
        assert e.attr is not None
        if how == "mask" and not self.face_dependent(e.attr):
            kv = self.comp.kind_values[e.attr]
            mask = self.consts[src]
            taken = [kv[k] if v else 0 for k, v in zip(self.kind_of, mask)]
            if all(type(v) is int for v in taken):  # whole numbers: 0 for the components the mask leaves out
                vals = self.table(taken, "am")
                each = [f"sum(map({vals}.__getitem__, {z}))" for z in zones]
                return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"
        if self.face_dependent(e.attr):
            value = self.face_value(e.attr, c)
        else:
            value = f"{self.attr_values(e.attr)}[{c}]"
        if how == "all":
            each = [f"sum([{value} for {c} in {z}])" for z in zones]
        elif how == "mask":
            each = [f"sum([{value} for {c} in {z} if {src}[{c}]])" for z in zones]
        else:
            each = [f"sum([{value} for {c} in {z} if {src}])" for z in zones]
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    def few_passing(self, q: m.QueryIR) -> list[tuple[int, str]] | None:
        """For a filter that depends on the faces and nothing else (a table), which at most 4 components can
        pass: each with the source of its face test (followed by ``and``; empty if every face passes).
        None: another filter, or more components."""
        tbl = self.comp.pred_table(q)
        if tbl is None:
            return None
        kinds = self.model.kinds
        if all(len({tbl[k][0]} | {tbl[k][f + 1] for f in kinds[k].faces}) == 1 for k in self.kind_of):
            return None  # the same whatever the face: a mask (see ``filter``)
        few = []
        for x, k in enumerate(self.kind_of):
            faces = [-1, *kinds[k].faces]
            passing = [f for f in faces if tbl[k][f + 1]]
            if not passing:
                continue
            if len(few) == 4:
                return None
            if len(passing) == len(faces):
                few.append((x, ""))
            elif len(passing) == 1:
                few.append((x, f"F[{x}] == {passing[0]} and "))
            else:
                few.append((x, f"F[{x}] in {self.const(frozenset(passing))} and "))
        return few

    def count_where_equal(self, q: m.QueryIR) -> str | None:
        """``count(Z where A and attr == x)``, ``A`` a test of the component alone (the same on every face)
        and ``x`` reading no component: 0 when no component of Z passes ``A``, else how many of Z's
        values of ``attr`` equal ``x`` (a component ``A`` refuses has the value None, which equals no
        value), counted at C speed. ``x`` is computed once, and only when some component passes ``A``:
        where the filter computes it (None: not this form)."""
        w = q.where
        if type(w) is not m.BinOp or w.op != "and" or type(w.right) is not m.BinOp or w.right.op != "==":
            return None
        eq = w.right
        for elem, x in ((eq.left, eq.right), (eq.right, eq.left)):
            if type(elem) is m.ElemAttr and not self.face_dependent(elem.attr) and _reads_no_component(x):
                break
        else:
            return None
        tbl = self.comp.table(w.left, None)
        if tbl is None:
            return None
        how, mask = self._table_filter(tbl, "c")
        if how != "mask":
            return None
        kv = self.comp.kind_values[elem.attr]
        passing = self.consts[mask]
        values = [kv[k] if ok else None for k, ok in zip(self.kind_of, passing)]
        if not all(type(v) in (int, str, bool) for v, ok in zip(values, passing) if ok):
            return None
        ids = self.const(frozenset(i for i, ok in enumerate(passing) if ok))
        tables = self.__dict__.setdefault("_equal_tables", {})  # one table per attribute and mask
        vals = tables.get((elem.attr, tuple(passing)))
        if vals is None:
            vals = tables[(elem.attr, tuple(passing))] = self.table(values, "ae")
        x_src = self.ex(x)
        each = []
        for sel in q.zones:
            z = self.zone(sel)
            each.append(f"(0 if {ids}.isdisjoint({z}) else list(map({vals}.__getitem__, {z})).count({x_src}))")
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    def attr_equals(self, where: Any) -> tuple[str, str] | None:
        """For a filter ``attr == x`` (either way round): the attribute (the same on every face) and the
        source of ``x``, when ``x`` reads no component and nothing in it can fail (None: not this form)."""
        if type(where) is not m.BinOp or where.op != "==":
            return None
        for elem, other in ((where.left, where.right), (where.right, where.left)):
            if type(elem) is m.ElemAttr and not self.face_dependent(elem.attr) and _plain_value(other):
                return elem.attr, self.ex(other)
        return None

    def var(self, base: str) -> str:
        return f"_{base}{next(self.names)}"

    def kind_spans(self) -> None:
        """Constants KLO and KHI: per kind, its first and last component id (components are numbered
        kind by kind; a kind of none has KHI = KLO - 1)."""
        counts = [0] * len(self.model.kinds)
        for k in self.kind_of:
            counts[k] += 1
        first = [self.comp.first_of_kind.get(k, 0) for k in range(len(counts))]
        self.consts["KLO"] = first
        self.consts["KHI"] = [f + n - 1 for f, n in zip(first, counts)]

    def iterable(self, it: m.IterIR, copy: bool = True) -> str:
        """Source of the list of values a ``for`` ranges over (without ``copy``, possibly a zone's own
        list: only where nothing can change it while it is gone through)."""
        if it.kind == "players":
            return "list(range(st.players))" if copy else "range(st.players)"
        if it.kind == "players_in":
            seats = "(SEATS_IN.get(tuple(st.out)) or players_in(st.out))"  # a tuple kept by the values of st.out
            return seats if not copy else f"[*{seats}]"
        if it.kind == "others_in":
            i = self.var("i")
            return f"[(st.current + {i}) % st.players for {i} in range(1, st.players) " \
                   f"if not st.out[(st.current + {i}) % st.players]]"
        if it.kind == "others":
            i = self.var("i")
            listed = f"[(st.current + {i}) % st.players for {i} in range(1, st.players)]"
            # the table of the others of each seat, for each number of players the game takes (a copy of
            # its row where the list is kept and may be changed)
            most = self.model.max_players
            if "OTHERS" not in self.consts:
                self.consts["OTHERS"] = [[[(c + j) % n for j in range(1, n)] for c in range(n)]
                                         for n in range(most + 1)]
            row = "OTHERS[st.players][st.current]" + ("[:]" if copy else "")
            return f"({row} if st.players <= {most} else {listed})"
        if it.kind == "kinds_where":
            try:
                chosen = [k.index for k in self.model.kinds if self.comp.static_value(it.cond, k.index, -1)]
            except _NotStatic:
                raise RulelangError("'kinds where' may only test the kinds' own attributes and names",
                                    None) from None
            return f"list({self.const(tuple(chosen))})" if copy else self.const(tuple(chosen))
        if it.kind == "range":
            rng = self.number_range(it, self.ex(it.low), self.ex(it.high))
            return f"list({rng})" if copy else rng
        assert it.query is not None
        q = it.query
        if it.kind == "kinds" and len(q.zones) == 1 and not (q.quantity == "count" and (
                q.count is not None or q.count_expr is not None)):
            c = self.var("c")
            how, src = self.filter(q, c)
            z = self.zone(q.zones[0])
            test = "" if how == "all" else f" if {src}[{c}]" if how == "mask" else f" if {src}"
            if self.kinds_are_ids:  # each component is its kind: the zone's list, copied (or filtered)
                listed = f"{z}[:]" if not test else f"[{c} for {c} in {z}{test}]"
                return f"sorted({listed})" if self.model.zones[q.zones[0].zone].ordered else listed
            if self.unique_kinds:  # no two components of one kind: the kinds are distinct already
                if self.model.zones[q.zones[0].zone].ordered:
                    return f"sorted([KO[{c}] for {c} in {z}{test}])"
                return f"[KO[{c}] for {c} in {z}{test}]"  # the zone's order (by id) is its kinds' order
            if how == "all" and not self.model.zones[q.zones[0].zone].ordered:  # a zone kept sorted
                self.kind_spans()
                self.consts["kinds_in_order"] = runtime.kinds_in_order
                return f"kinds_in_order({z}, KO, KHI)"
            if how == "mask" and not self.model.zones[q.zones[0].zone].ordered:  # a zone kept sorted, a mask
                self.consts["kinds_in_order_where"] = runtime.kinds_in_order_where
                return f"kinds_in_order_where({z}, KO, {src})"
            return f"sorted({{KO[{c}] for {c} in {z}{test}}})"
        sel = self.selection(q)
        if it.kind == "kinds":
            c = self.var("c")
            return f"sorted({{KO[{c}] for {c} in {sel}}})"
        if not copy and sel.endswith("[:]"):
            return sel[:-3]
        return sel

    def number_range(self, it: m.IterIR, low: str, high: str) -> str:
        """Source of the numbers ``low to high`` of a range (given the sources of both ends)."""
        if type(it.low) is m.Const and type(it.low.value) is int and it.low.value >= 1 and _is_count(it.high):
            # 'N to count(...)': a count is a whole number of at most MAX_COMPONENTS (< MAX_RANGE + N)
            return f"range({it.low.value}, {high} + 1)"
        return f"number_range({low}, {high}, {self.const(it.span)})"

    def gen(self, e: m.Gen) -> str:
        """A max/min/total over values: a module-level function (its variable lives in ``loc`` when
        something reads it there)."""
        name = f"g{next(self.names)}"
        lines: list[tuple[int, str, Span | None]] = []
        var = e.var + self.off
        v = self.var("v")
        # total(N for ...) with N a number written there: a running sum instead of a list
        exists = e.func == "exists"  # total(N for ...) > 0, N > 0: whether any value passes the test
        count = e.func in ("total", "exists") and type(e.expr) is m.Const and type(e.expr.value) is int
        if count and not exists and e.cond is None \
                and e.iterable.kind in ("players", "players_in", "others", "others_in"):
            seats = f"len({self.iterable(e.iterable, copy=False)})"  # N times the number of players in it
            return seats if e.expr.value == 1 else f"({e.expr.value} * {seats})"
        total = self.var("n")
        outer_reads, self.loc_reads = self.loc_reads, set()
        with self.own_scope():
            summed = _summed(e, count)
            lines.append((1, f"{total} = 0" if count or summed else "out = []", None))
            source = self.iterable(e.iterable, copy=False)
            self.cse_vars = {e.var: v}  # the value read from its variable, its piles looked up once
            if never_negative(e.iterable):
                self.cse_ids.add(v)
            value = self.ex(e.expr)
            cond = self.ex(e.cond) if e.cond is not None else None
            all_piles = list(self.cse_piles.values())
        reads, self.loc_reads = self.loc_reads, outer_reads | self.loc_reads
        keep_var = e.var in reads or -1 in reads  # a helper, a memo's key or a closure reads it from ``loc``
        answered = _answer_counted(e) if count and not exists and not keep_var else None
        if answered is not None:  # how many players gave one answer (st.answers has one per player)
            n = f"st.answers.count({self.const(answered)})"
            return n if e.expr.value == 1 else f"({e.expr.value} * {n})"

        def body(texts: list[str], piles: list[tuple[str, str]], ind: int) -> None:
            texts, piles = inline_single_piles(texts, piles)
            add = f"{total} += {texts[0]}" if count or summed else f"out.append({texts[0]})"
            if exists and not keep_var and all(map(cannot_fail, texts)):
                add = "return True"  # nothing the other values would compute can fail: no need to go on
            if keep_var:
                lines.append((ind, f"loc[{var}] = {v}", None))
            lines.extend((ind, f"{name} = {src}", None) for name, src in piles)
            if e.cond is not None:
                lines.append((ind, f"if {texts[1]}:", None))
                lines.append((ind + 1, add, None))
            else:
                lines.append((ind, add, None))

        plain = owned_piles([value, cond or ""], all_piles, v, self.consts)
        masked = _masked_zone(source) if count and not keep_var and plain is None else None
        if masked is not None:  # a count over a zone's components passing a mask: tested in the loop
            zone, mask = masked
            lines.append((1, f"for {v} in {zone}:", None))
            lines.append((2, f"if {mask}[{v}]:", None))
            body([value, cond or ""], all_piles, 3)
        elif plain is None:
            lines.append((1, f"for {v} in {source}:", None))
            body([value, cond or ""], all_piles, 2)
        else:  # when every value owns its piles (as a rule), they are read with no check
            texts, piles, masks = plain
            values = self.var("vs")
            lines.append((1, f"{values} = {source}", None))
            lines.append((1, f"if {' and '.join(f'{mk}.issuperset({values})' for mk in masks)}:", None))
            lines.append((2, f"for {v} in {values}:", None))
            body(texts, piles, 3)
            lines.append((1, "else:", None))
            lines.append((2, f"for {v} in {values}:", None))
            body([value, cond or ""], all_piles, 3)
        if count or summed:
            lines.append((1, f"return {total} > 0" if exists else f"return {total}", None))
        else:
            func = {"max": "max", "min": "min", "total": "sum"}[e.func]
            lines.append((1, f"return {func}(out) if out else 0", None))
        self.helper(name, "st, loc", lines)
        return f"{name}(st, loc)"

    def helper(self, name: str, args: str, lines: list[tuple[int, str, Span | None]]) -> None:
        if self.loop_vars:
            check_no_loop_vars(lines, self.loop_vars)
        body = [(0, f"def {name}({args}):", None)]
        body += _prologue(lines, 1)
        body += lines
        self.helpers.append(body)

    # ------------------------------------------------------------------ memo (standings)
    def memoized(self, e: Any, build: Callable[[], str], c: str | None) -> str:
        """Within a standings computation, a pure Gen/Agg is computed once per values of its free locals.

        Copies of one definition inlined on other slots share one memo table (the same values of the
        free locals give the same value); a count or ``any`` of one zone that needs no per-component
        test is cheaper than a memo and is written as it is."""
        if self.memo is None or c is not None:
            return build()
        if type(e) is m.Agg and self._cheap(e):
            return build()
        free: list[int] = []
        canon = _canonical(e, frozenset(), free)
        name = self.memo.get(canon)
        self.loc_reads.update(free)  # its key is read from ``loc``
        slots = [f"loc[{s + self.off}]" for s in free]
        key = slots[0] if len(slots) == 1 else f"({', '.join(slots)},)" if slots else "()"
        if name is None:
            name = f"m{next(self.names)}"
            self.memo[canon] = name
            alpha = ("alpha", _canonical(e, frozenset(), [], {}))
            table = self.memo.get(alpha)
            if table is None:
                table = self.memo[alpha] = f"{name}_memo"
                self.consts[table] = {}
            with self.own_scope():
                inner = build()
            self.helper(name, "st, loc", [
                (1, f"memo = {table}", None),
                (1, f"key = {key}", None),
                (1, "v = memo.get(key)", None),
                (1, "if v is None:", None),
                (2, "if not memo:", None),  # the first value since the last reset: cleared at the next
                (3, "DIRTY.append(memo)", None),
                (2, f"v = memo[key] = {inner}", None),
                (1, "return v", None),
            ])
        else:
            table = self.memo[("alpha", _canonical(e, frozenset(), [], {}))]
        # A value already kept is read at once, without calling the memo's function.
        return f"({table}[{key}] if {key} in {table} else {name}(st, loc))"

    def _cheap(self, e: m.Agg) -> bool:
        """A count or ``any`` of one zone whose filter is a table lookup, or none (C-speed, no memo needed)."""
        q = e.query
        if e.func not in ("count", "any") or len(q.zones) != 1:
            return False
        if q.kinds is None and q.where is None and not q.kind_locals:
            return True
        if q.kind_locals:  # count/any(k in Z), k a kind variable: the components of k against Z (see aggregate)
            return len(q.kind_locals) == 1 and q.kinds is None and q.where is None and not q.exclude
        tbl = self.comp.pred_table(q)
        if tbl is None:
            return False
        faces = self.model.kinds
        return all(len({bool(tbl[k][0])} | {bool(tbl[k][f + 1]) for f in faces[k].faces}) == 1
                   for k in self.kind_of)

    def once(self, e: Any, c: str | None) -> str | None:
        """In an option's condition, a count or total that reads none of the innermost ranges' values:
        computed at its first use and kept until an outer value it reads changes (None: not here)."""
        levels = self.once_levels
        if levels is None or c is not None or self.memo is not None:
            return None
        free: list[int] = []
        canon = _canonical(e, frozenset(), free)
        read = set(free)
        level = max((i for i, slots in enumerate(levels) if slots & read), default=-1)
        if level == len(levels) - 1:
            return None
        key = (canon, level)
        name = self.once_boxes.get(key)
        if name is None:
            name = self.var("h")
            self.once_boxes[key] = name
        self.once_levels = None  # the value itself is written as usual (its helpers have their own scope)
        try:
            inner = self.memoized(e, (lambda: self.aggregate(e)) if type(e) is m.Agg else (lambda: self.gen(e)), c)
        finally:
            self.once_levels = levels
        return f"({name}[0] if {name}[0] is not None else keep({name}, {inner}))"

    # ------------------------------------------------------------------ templates
    def seat_ex(self, e: Any, what: str, span: Any, c: str | None = None) -> str:
        """Source of a player expression whose value must be a seat (``nobody`` is an error at ``span``)."""
        x = self.ex(e, c)
        if type(e) in (m.CurrentPlayer, m.After, m.SeatLit):  # always a seat: nothing to check
            return x
        if type(e) is m.Local:  # read twice: cheaper than a call when it is a seat, as it nearly always is
            if x in self.cse_ids:  # a value of a range of players
                return x
            return f"({x} if {x} >= 0 else seat({x}, {self.const(what)}, {self.const(span)}))"
        return f"seat({x}, {self.const(what)}, {self.const(span)})"

    def template(self, t: m.TemplateIR, c: str | None = None) -> str:
        exprs = [part.expr if isinstance(part, m.SecretPart) else part for part in t.parts]
        holes = [part for part in exprs if not isinstance(part, str)]
        if len(holes) == 1 and holes[0].type == m.KIND:  # fixed text around one kind: a string per kind
            texts = ["".join(kind.display if part is holes[0] else part for part in exprs)
                     for kind in self.model.kinds]
            return f"{self.table(texts, 'tk')}[{self.ex(holes[0], c)}]"
        parts = []
        for part in t.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                parts.append(self.const(part))
                continue
            x = self.ex(part, c)
            if part.type == m.PLAYER:
                parts.append(f"PL({x})")
            elif part.type == m.KIND:
                parts.append(f"KD[{x}]")
            elif part.type == m.COMPONENT:
                parts.append(f"LB[{x}]")
            elif part.type == m.BOOL:
                parts.append(f"('yes' if {x} else 'no')")
            elif part.type == m.FACE:
                parts.append(f"FS[{x}]")  # index -1: not rolled, "no face"
            elif part.type == m.INT:
                parts.append(f"format_number({x})")
            else:
                parts.append(f"str({x})")
        if not parts:
            return self.const("")
        return parts[0] if len(parts) == 1 and isinstance(t.parts[0], str) else f"''.join(({', '.join(parts)},))"


_STRICT = (m.Const, m.Local, m.CurrentPlayer, m.Agg, m.UnOp, m.Builtin, m.CounterGet, m.SeatLit, m.After)


def owned_piles(texts: list[str], piles: list[tuple[str, str]], v: str,
                consts: dict[str, Any]) -> tuple[list[str], list[tuple[str, str]], list[str]] | None:
    """``texts`` reading the piles (``name = src``, see ``piles.class_zone``) on the value ``v`` with no
    check, for when ``v`` owns them all: (texts, piles, the sets of owners to check); None: no such piles."""
    masks: dict[str, str] = {}  # a table's contents -> its name
    plain = []
    for name, src in piles:
        head, sep, owns = src.partition(" if ")
        mask = owns.removesuffix(" else None").removesuffix(f"[{v}]")
        if not sep or owns != f"{mask}[{v}] else None" or mask not in consts:
            return None
        if f"{mask}s" not in consts:  # the components that own such a pile
            consts[f"{mask}s"] = frozenset(i for i, owns in enumerate(consts[mask]) if owns)
        masks.setdefault(repr(consts[mask]), f"{mask}s")
        texts = [_unguarded(t, name) for t in texts]
        if sum(len(re.findall(rf"\b{name}\b", t)) for t in texts) == 1:  # read once: looked up there
            texts = [re.sub(rf"\b{name}\b", lambda _m, head=head: head, t) for t in texts]
        else:
            plain.append((name, head))
    return (texts, plain, list(masks.values())) if masks else None


def _unguarded(text: str, name: str) -> str:
    """``text`` with each ``(name if name is not None else SLOW)`` read as ``name``."""
    head = f"({name} if {name} is not None else "
    out = []
    at = 0
    while (i := text.find(head, at)) >= 0:
        depth, j = 1, i + 1
        while depth:
            if text[j] == "(":
                depth += 1
            elif text[j] == ")":
                depth -= 1
            j += 1
        out.append(text[at:i] + name)
        at = j
    return "".join(out) + text[at:]


_SAFE_CALLS = frozenset({"isdisjoint", "issuperset", "len", "bool", "sum", "map", "any", "all", "sorted", "set",
                         "frozenset", "min", "max", "abs", "range", "count", "intersection"})


def cannot_fail(text: str) -> bool:
    """Whether generated source calls nothing but builtins and methods that cannot raise a rules error
    (no helper, no check of a seat or a pile, no division): computing it or not changes nothing but time."""
    return all(name in _SAFE_CALLS for name in re.findall(r"([A-Za-z_][A-Za-z_0-9]*)\s*\(", text))


def _one_group(text: str) -> bool:
    """Whether ``text`` is one parenthesized group: its first '(' closes at its last character."""
    if not text.startswith("("):
        return False
    depth = 0
    for i, ch in enumerate(text):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(text) - 1
    return False


def inline_single_piles(texts: list[str], piles: list[tuple[str, str]]) -> tuple[list[str], list[tuple[str, str]]]:
    """Of the piles looked up before a test (``name = src``, see ``piles.class_zone``), those read only
    once in ``texts`` are looked up where they are read instead (so never when an earlier part of the test
    is false); returns the texts and the piles still looked up before."""
    kept = []
    for name, src in piles:
        use = f"({name} if {name} is not None else "
        if src.endswith(" else None") and sum(t.count(use) for t in texts) == 1 \
                and sum(len(re.findall(rf"\b{name}\b", t)) for t in texts) == 2:
            texts = [t.replace(use, f"({src[:-len(' else None')]} else ") for t in texts]
        else:
            kept.append((name, src))
    return texts, kept


def _strict(e: Any) -> bool:
    """Whether an expression evaluates each of its operands every time (no ``and``/``or``/``if``)."""
    t = type(e)
    if t is m.BinOp:
        return e.op not in ("and", "or")
    return t in _STRICT


def _by_face(rows: list[list[Any]]) -> list[Any] | None:
    """Rows of values by face + 1 (index 0: no face) that are the same for every component: one row
    by face (index -1, the last: no face, as the faces list has -1 for it); None if they differ."""
    if not rows or any(row != rows[0] for row in rows):
        return None
    return rows[0][1:] + rows[0][:1]


class _OwnScope:
    """Context manager: no range variables, piles or kept counts of an enclosing option's condition are
    visible (a helper function has its own scope, and its own variables the counts may read)."""

    def __init__(self, gen: ExprWriter) -> None:
        self.gen = gen

    def __enter__(self) -> None:
        gen = self.gen
        self.saved = (gen.cse_vars, gen.cse_piles, gen.once_levels, gen.loop_vars)
        gen.cse_vars, gen.cse_piles, gen.once_levels, gen.loop_vars = None, {}, None, {}

    def __exit__(self, *exc: Any) -> None:
        self.gen.cse_vars, self.gen.cse_piles, self.gen.once_levels, self.gen.loop_vars = self.saved


def _summed(e: m.Gen, count: bool) -> bool:
    """Whether a total's values are added up as they come (no list of them to add up at the end):
    every ``total`` that is not a count of a number written there (whole numbers and exact fractions:
    the same sum, added left to right as ``sum`` does)."""
    return e.func == "total" and not count


_MASKED = re.compile(r"\[(_c\d+) for \1 in (.+) if (mk\d+)\[\1\]\]")


def _masked_zone(source: str) -> tuple[str, str] | None:
    """(zone, mask) of the source ``[c for c in ZONE if MASK[c]]`` of one zone's components passing a
    mask (as ``selection`` writes it), or None for any other source."""
    found = _MASKED.fullmatch(source)
    if found is None or found.group(2).count("[") - found.group(2).count("]") != 0:
        return None
    return found.group(2), found.group(3)


def _answer_counted(e: m.Gen) -> str | None:
    """The answer X of ``total(N for q in players if answer of q == X)`` (X a text written there), or
    None for any other total."""
    c = e.cond
    if e.iterable.kind != "players" or type(c) is not m.BinOp or c.op != "==":
        return None
    for a, b in ((c.left, c.right), (c.right, c.left)):
        if type(a) is m.AnswerGet and type(a.player) is m.Local and a.player.slot == e.var \
                and type(b) is m.Const and type(b.value) is str:
            return b.value
    return None


def check_no_loop_vars(lines: list[tuple[int, str, Any]], loop_vars: dict[int, str]) -> None:
    """A helper function must not read a loop variable of the block being written (it would not see it)."""
    names = set(loop_vars.values())
    for _ind, text, _span in lines:
        if names.intersection(re.findall(r"_v[0-9]+", text)):
            raise AssertionError(f"a helper function reads a loop variable of its caller: {text}")


def _prologue(lines: list[tuple[int, str, Any]], ind: int) -> list[tuple[int, str, Any]]:
    """Local names for the state's tables, for those the body uses."""
    text = "\n".join(t for _i, t, _s in lines)
    out = []
    if "Z[" in text:
        out.append((ind, "Z = st.zones", None))
    if "C[" in text:
        out.append((ind, "C = st.counters", None))
    if "F[" in text:
        out.append((ind, "F = st.faces", None))
    return out


def _canonical(e: Any, bound: frozenset[int], free: list[int], names: dict[int, int] | None = None) -> Any:
    """A hashable form of an IR expression, ignoring spans; ``free`` collects the local slots it reads
    that it does not bind itself. Without ``names``, slots are kept as they are: two nodes share a memo
    only when they read and write the same slots. With ``names`` (filled here), every slot is numbered
    in the order it first appears, so that copies of one definition inlined on other slots agree."""
    if isinstance(e, m.Local):
        if e.slot not in bound and e.slot not in free:
            free.append(e.slot)
        return ("Local", e.slot if names is None else names.setdefault(e.slot, len(names)))
    if isinstance(e, m.Gen):
        inner = bound | {e.var}
        var = e.var if names is None else names.setdefault(e.var, len(names))
        return ("Gen", e.func, var, _canonical(e.iterable, bound, free, names),
                _canonical(e.expr, inner, free, names), _canonical(e.cond, inner, free, names))
    if isinstance(e, m.PlacesIR):  # its variable is bound in the key and the condition
        inner = bound | {e.var}
        points = _canonical(e.points, bound, free, names)
        player = _canonical(e.player, bound, free, names)
        var = e.var if names is None else names.setdefault(e.var, len(names))
        return ("Places", points, player, e.highest, var, _canonical(e.iterable, bound, free, names),
                _canonical(e.key, inner, free, names), _canonical(e.cond, inner, free, names), e.share)
    if isinstance(e, m.QueryIR):  # its kind_locals are local slots too
        return ("Query",) + tuple(
            tuple(_canonical(m.Local(s, m.KIND), bound, free, names) for s in e.kind_locals)
            if f.name == "kind_locals" else _canonical(getattr(e, f.name), bound, free, names)
            for f in attrs.fields(m.QueryIR) if f.name != "span")
    if isinstance(e, (tuple, list)):
        return tuple(_canonical(x, bound, free, names) for x in e)
    if isinstance(e, frozenset):
        return ("set", tuple(sorted(e)))
    if attrs.has(type(e)):
        return (type(e).__name__,) + tuple(_canonical(getattr(e, f.name), bound, free, names)
                                           for f in attrs.fields(type(e)) if f.name != "span")
    return e


def _reads_no_component(e: Any) -> bool:
    """Whether an expression reads nothing of the component a filter tests, nor holds a query or a
    generator of its own (conservatively: those are not looked into)."""
    t = type(e)
    if t in (m.ElemAttr, m.ElemIsKind, m.Agg, m.Gen, m.PlacesIR, m.Format, m.TemplateIR, m.QueryIR):
        return False
    if isinstance(e, tuple):
        return all(_reads_no_component(x) for x in e)
    if attrs.has(t):
        return all(_reads_no_component(getattr(e, f.name)) for f in attrs.fields(t))
    return True


def _plain_value(e: Any) -> bool:
    """Whether an expression is a constant, a local or a kind's attribute of one (no component read, no error)."""
    t = type(e)
    if t is m.KindAttr:
        return type(e.kind) in (m.Const, m.Local)
    return t in (m.Const, m.Local)


def _whole(e: Any) -> bool:
    """Whether an expression is always a whole number (never a fraction): counts, whole constants, the
    number of players, and sums, differences and products of those."""
    t = type(e)
    if t is m.Const:
        return type(e.value) is int
    if t is m.BinOp:
        return e.op in ("+", "-", "*") and _whole(e.left) and _whole(e.right)
    if t is m.Builtin:
        return e.func == "players"
    if t is m.IfElseIR:
        return _whole(e.then) and _whole(e.orelse)
    return _is_count(e)


def _is_count(e: Any) -> bool:
    """Whether an expression is a count of components (a whole number from 0 to the components' number)."""
    return type(e) is m.Agg and e.func == "count"


def kind_count_pattern(it: m.IterIR, slot: int) -> m.Agg | None:
    """For ``for k in kinds(Q)`` (one zone, no kinds named) binding ``slot``: the IR of ``count(k in Q)``,
    which a count of Q's components by kind answers for each ``k`` (None: no such count here)."""
    q = it.query
    if it.kind != "kinds" or q is None or len(q.zones) != 1 or q.quantity != "all" or q.kinds is not None \
            or q.kind_locals or q.exclude or q.count is not None or q.count_expr is not None:
        return None
    return m.Agg("count", None, attrs.evolve(q, quantity="default", kind_locals=(slot,)), m.INT)


def never_negative(it: m.IterIR) -> bool:
    """Whether every value of a range is a seat or a component of a zone (never nobody, nothing or < 0)."""
    return it.kind in ("players", "players_in", "others", "others_in") or (
        it.type == m.COMPONENT and it.query is not None)


def fold(e: Any) -> Any:
    """An ``and``/``or``/``not``/if-else whose deciding operand is a constant, reduced as Python evaluates it
    (``True or X`` is True and never runs X; ``False or X`` is X); anything else as it is."""
    t = type(e)
    if t is m.BinOp and e.op in ("==", "!=") and type(e.left) is m.Const and type(e.right) is m.Const:
        return m.Const((e.left.value == e.right.value) == (e.op == "=="), m.BOOL)  # two option values
    if t is m.BinOp and e.op in ("and", "or"):
        left = fold(e.left)
        if type(left) is m.Const:
            return left if bool(left.value) == (e.op == "or") else fold(e.right)
        right = fold(e.right)
        return e if left is e.left and right is e.right else attrs.evolve(e, left=left, right=right)
    if t is m.UnOp and e.op == "not":
        x = fold(e.operand)
        if type(x) is m.Const:
            return m.Const(not x.value, e.type)
        return e if x is e.operand else attrs.evolve(e, operand=x)
    if t is m.IfElseIR:
        cond = fold(e.cond)
        if type(cond) is m.Const:
            return fold(e.then if cond.value else e.orelse)
    return e


def conjuncts(e: Any) -> list[Any]:
    """The operands of a chain of ``and``s, in the order they are evaluated."""
    if type(e) is m.BinOp and e.op == "and":
        return conjuncts(e.left) + conjuncts(e.right)
    return [e]


def _slots_read(exprs: list[Any]) -> set[int]:
    """The local slots these IR expressions (or ranges) read, ``kind_locals`` of queries included."""
    free: list[int] = []
    for e in exprs:
        _canonical(e, frozenset(), free)
    return set(free)


def last_n(out: list[int], n: int) -> list[int]:
    """The last ``n`` of a selection (none for n <= 0)."""
    return out[-n:] if n > 0 else []
