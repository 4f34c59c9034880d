"""Expressions of the checked model as Python source: the first half of the generator.

``ExprWriter`` turns IR expressions into Python expressions over the state (``st``), the
frame's locals (``loc``) and the state's tables (``Z`` zones, ``C`` counters, ``F``
faces). User values become constants (``const``). This is the one translation of what an
expression means: blocks inline it, and what a decision reads (labels, conditions, ranges,
zones) are small functions of the module written by it too (see labels.py); queries
(zones, filters, selections, aggregates, ranges) are written by its half in queries.py. The
static analyses it relies on are in analysis.py. See codegen.py for the statements, the blocks and
the module.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Callable
from typing import Any

from rulelang.check import model as m
from rulelang.compile import control, piles, runtime, seat_totals, standings
from rulelang.compile.analysis import Analysis, canonical, fold, is_count, strict, whole_valued
from rulelang.compile.labels import LabelWriter
from rulelang.compile.linetable import SourceWriter
from rulelang.compile.program import Construct
from rulelang.compile.queries import PLAIN_READ, QueryWriter
from rulelang.compile.source_text import (
    cannot_fail,
    check_no_loop_vars,
    one_group,
    prologue,
    same_by_face,
    truth_tests,
    zone_locals,
)
from rulelang.numbers import MAX_NUMBER, bounded, bounded_text, format_number, fraction, whole
from rulelang.syntax.span import Span


def never_below_zero(e: Any) -> bool:
    """Whether a number expression is never below 0: a count of components, a whole constant of at least
    0, or such a value divided by (or the remainder of it by) a whole constant above 0."""
    t = type(e)
    if t is m.Const:
        return type(e.value) is int and e.value >= 0
    if t is m.BinOp and e.op in ("/", "%"):
        return never_below_zero(e.left) and whole_valued(e.left) and type(e.right) is m.Const \
            and type(e.right.value) is int and e.right.value > 0
    return is_count(e)

_PLAIN = re.compile(r"[\w.]+(\[[\w.\[\]]+\])*")  # a name, or subscripts of names: needs no parentheses


INLINE_BOUNDS = True
"""Whether generated code tests ``bounded``'s common case where it stores a number (see ``CodeGen.bound``); the
equivalence tests turn it off to compare with the code that calls ``bounded`` at each store."""

class ExprWriter(QueryWriter, LabelWriter):
    """The expression half of the code generator: constants, coverage constructs, expressions,
    queries, templates (``CodeGen`` adds statements, blocks and the module)."""

    def __init__(self, model: m.Model, comp: Analysis, coverage: bool, filename: str) -> None:
        self.model = model
        self.comp = comp
        self.coverage = coverage
        self.filename = filename
        self.out = SourceWriter()
        self.consts: dict[str, Any] = {}
        self._const_ids: dict[Any, str] = {}
        self.names = itertools.count()
        self.fixed_labels: dict[str, str] = {}
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
        self.kept_listers: dict[int, str] = {}  # id of a ChooseSpec -> its lazy enumerator that keeps (kept.py)
        self.kept_block: tuple[int, int] | None = None  # while writing an option's block: see rule_blocks
        self.kept_now: tuple | None = None  # while writing a decision that keeps: (plan, kept var, passed var)
        self.id_listers: dict[int, str] = {}  # id of a ChooseSpec -> its enumerator with action ids, for adapters
        self.same_answers_at: set[int] = set()  # pcs of asks whose answers are the same for everyone asked
        self.members: dict[int, tuple] = {}  # id of a ChooseSpec -> replay's membership tests (see member_tests)
        self.helpers: list[list[tuple[int, str, Span | None]]] = []  # module-level functions
        self.memo: dict[Any, str] | None = None  # while writing standings: canonical node -> memo function
        self.memo_once: frozenset[Any] | None = None  # while writing standings: standings.evaluated_once
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
        # While writing a generator's helper: the kind locals whose components it looks up once (slot -> [the
        # variable, whether it is read]; queries.KIND_SETS_ONCE).
        self.kind_sets: dict[int, list[Any]] = {}
        self.cse_ids: set[str] = set()  # variables that hold a component of a zone or a seat (never None or < 0)
        self.range_filters: dict[int, list[Any]] = {}  # per option (id): its last range's filter (counted_pick)
        self.owners_proven = False  # a pile's owner is sure to have it (a counted choice's guard holds: pause_pick)
        # While writing the body of a statement ``for`` that cannot pause: the Python variable holding the
        # loop's value (absolute local slot -> name; ``loc`` is written too, for helpers that read it there).
        self.loop_vars: dict[int, str] = {}
        self.let_slots: set[int] = set()  # the slots of loop_vars that are lets (statements.let_local)
        # the helpers of running totals, by name: (total's name, lines), for queries.nested_total
        self.running_totals: dict[str, tuple[str, list]] = {}
        self.loc_reads: set[int] = set()  # slots read through ``loc`` (-1: maybe any)
        self.constructs: list[Construct] = []
        self.construct_of: dict[Any, int] = {}
        self._list_constructs()
        self.consts.update({
            "KO": comp.kind_of, "LB": comp.labels, "ISDIE": self.is_die, "PL": runtime.player_label,
            "div": runtime.div, "mod": runtime.mod, "nobody_has": runtime.nobody_has,
            "counter_of": runtime.counter_of, "zone_of": runtime.zone_of, "place_name": runtime.place_name,
            "log_move": runtime.log_move, "log_counter": runtime.log_counter, "runaway": runtime.runaway,
            "end_turn": runtime.end_turn, "reveal": runtime.reveal, "insort": bisect.insort,
            "kinds_apart": runtime.kinds_apart, "kinds_differ": runtime.kinds_differ,
            "kinds_differ_kept": runtime.kinds_differ_kept,
            "KD": [k.display for k in model.kinds], "place_of": runtime.place_of,
            "DF": [model.kinds[k].faces for k in comp.kind_of], "zone_of_kind": runtime.zone_of_kind,
            "FN": [f.name for f in model.faces], "KN": [k.name for k in model.kinds],
            "FD": [f.display for f in model.faces], "seat": runtime.seat, "seat_in_game": runtime.seat_in_game,
            "lasted": runtime.lasted,
            "fraction": fraction, "bounded": bounded, "bounded_text": bounded_text, "whole": whole,
            "format_number": format_number, "FS": [f.display for f in model.faces] + ["no face"],
            "row_at": runtime.row_at, "number_range": runtime.number_range,
            "MAXO": runtime.MAX_OPTIONS, "DIRTY": [], "keep": runtime.keep,
            "too_many_options": runtime.too_many_options, "the_one": runtime.the_one,
            "SEATS_IN": None, "players_in": None,  # given at load, the program's own (runtime.seats_in)
        })
        piles.install(self)
        self.no_kind = control.holds_no_kind(model)  # kind values may be no kind: guarded as indices
        control.install(self)
        self.py_loops: list[Any] = []  # the rulelang loops written as Python loops around what is written now

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
            elif isinstance(s, m.AskS):
                for n, (label, _cond, span) in enumerate(s.options):
                    dyn = s.dynamic[n] if s.dynamic else None
                    shown = label if dyn is None else "".join(
                        p if isinstance(p, str) else "{...}" for p in dyn[0].parts)
                    self._construct(("answer", id(s), n), "answer", shown, span)
            elif isinstance(s, (m.WhileS, m.RepeatS, m.ForS)):
                self._walk_constructs(s.body)

    def cov(self, key: Any, ind: int, lines: list) -> None:
        if self.coverage and key in self.construct_of:
            lines.append((ind, f"COV[{self.construct_of[key]}] += 1", None))

    # ------------------------------------------------------------------ expressions
    def ex(self, e: Any, c: str | None = None) -> str:
        """Python source of an expression; ``c`` names the component being filtered (in ``where``)."""
        t = type(e)
        if self.pre is not None and (c is not None or not strict(e)):
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
            if e.op == "not" and x.startswith("bool(") and one_group(x[4:]):  # not bool(X): not X
                return f"(not {x[5:-1]})"
            if e.op == "not" and type(e.operand) is m.Agg and e.operand.func == "any" and x.startswith("(not ") \
                    and ".isdisjoint(" in x and one_group(x):
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
            emptiness = seat_totals.compared_with_zero(self.model, e)
            if emptiness is not None:  # total(count(all in Z of q) for q in players) == 0: every list empty
                return emptiness
            a, b = self.ex(e.left, c), self.ex(e.right, c)
            if e.op in (">", "<"):
                above = self.above_a_count(e, a, b)
                if above is not None:
                    return above
            if e.op in ("and", "or", "+", "-", "*", "==", "!=", "<", ">", "<=", ">="):
                return f"({a} {e.op} {b})"
            if e.op in ("/", "%"):
                if whole_valued(e.left) and type(e.right) is m.Const and type(e.right.value) is int \
                        and e.right.value > 0:
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
            return f"{self.table(values, 'ka')}[{control.kind_index(self, e.kind, self.ex(e.kind, c))}]"
        if t is m.AnswerGet:
            return f"st.answers[{self.seat_ex(e.player, 'an answer', None, c)}]"
        if t is m.AnswerMatch:  # which answer each seat gave, with its values (compile/decisions.py)
            return self.answer_match(e)  # type: ignore[attr-defined]
        if t is m.AnswerIs:
            found = f"{self.ex(e.match, c)}[{self.ex(e.player, c)}]"
            return f"({found} is not None and {found}[0] == {e.option})"
        if t is m.AnswerValue:
            return f"{self.ex(e.match, c)}[{self.ex(e.player, c)}][{e.index + 1}]"
        if t is m.Builtin:
            if e.func == "players":
                return "st.players"
            if e.func == "seat":
                return f"({self.seat_ex(e.args[0], 'a seat', e.span, c)} + 1)"
            if e.func == "lasted":
                return f"lasted(st, {self.seat_ex(e.args[0], 'a place in the game', e.span, c)})"
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
        if t is m.FaceAttr:  # the face's own value, else the attribute's default (index -1: no face)
            default = self.model.attributes[e.attr].default
            values = [v if v is not None else default for v in self.comp.face_values[e.attr]] + [default]
            return f"{self.table(values, 'fa')}[{self.ex(e.face, c)}]"
        if t is m.TheOne:
            sel = self.selection(e.query, copy=False)
            return f"the_one({sel}, {self.const(e.what)}, {self.const(e.span)})"
        if c is not None:
            if t is m.ElemAttr:
                return self.face_value(e.attr, c) if self.face_dependent(e.attr) \
                    else f"{self.attr_values(e.attr)}[{c}]"
            if t is m.ElemIsKind:
                return f"(KO[{c}] in {self.const(frozenset(e.kinds))})"
            if t is m.ElemIs:  # a query of one component: the component tested is that one
                return f"({c} == {self.ex(e.comp)})"
            if t is m.ElemFace:
                return f"F[{c}]"
        raise AssertionError(f"the generator does not translate {type(e).__name__} nodes: {e!r}")

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
        by_face = same_by_face(rows)
        if by_face is not None:
            return f"{self.table(by_face, 'af')}[F[{c}]]"
        return f"{self.attr_rows(attr)}[{c}][F[{c}] + 1]"

    def attr_rows(self, attr: str) -> str:
        """Per component, its attribute's value by face + 1 (the face's own value, else the kind's)."""
        kv, fv = self.comp.kind_values[attr], self.comp.face_values[attr]
        rows = [[kv[k]] + [fv[f] if fv[f] is not None else kv[k] for f in range(len(fv))] for k in self.kind_of]
        return self.table(rows, "ar")

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

    def above_a_count(self, e: m.BinOp, a: str, b: str) -> str | None:
        """``X > N`` (or ``N < X``), N never below 0 (a count, or a count divided by a whole number above 0)
        and both read without a call that may fail: ``(X > 0 and X > N)``, the same value, N not computed
        where X is 0 or less (a counter that starts at 0, say, against ``count(K in Z of p) / 3``).
        None: not this shape (X must be a plain read: a name, its items and attributes, written twice)."""
        x, n = (e.left, e.right) if e.op == ">" else (e.right, e.left)
        xs, ns = (a, b) if e.op == ">" else (b, a)
        if not never_below_zero(n) or type(n) is m.Const or not PLAIN_READ.match(xs) \
                or not cannot_fail(ns) or not cannot_fail(xs):
            return None
        return f"({xs} > 0 and {a} {e.op} {b})"

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

    def bound(self, x: str, span: Any) -> str:
        """Source of the number ``x`` kept within what rulelang keeps, as ``bounded(x, span)`` keeps it: the common
        case (a whole number within the bound, which ``bounded`` returns at once) tested where it is written, and
        ``bounded`` called with the same value otherwise (which returns it or raises the same error)."""
        sp = self.const(span)
        if not INLINE_BOUNDS:
            return f"bounded({x}, {sp})"
        v = self.var("b")
        self.consts["MAXNUM"], self.consts["MINNUM"] = MAX_NUMBER, -MAX_NUMBER
        return f"({v} if type({v} := {x}) is int and MINNUM <= {v} <= MAXNUM else bounded({v}, {sp}))"

    def var(self, base: str) -> str:
        return f"_{base}{next(self.names)}"

    def helper(self, name: str, args: str, lines: list[tuple[int, str, Span | None]]) -> None:
        if self.loop_vars:
            check_no_loop_vars(lines, self.loop_vars)
        body = [(0, f"def {name}({args}):", None)]
        if self.helper_counts and "loc" in args:  # the seat's zones' counts it reads (standings.SEAT_LOCALS)
            lines = [(1, f"{v} = kind_counts(Z[{z}][loc[0]])", None) for z, v in self.helper_counts.items()
                     if any(re.search(rf"\b{v}\b", text) for _i, text, _s in lines)] + lines
        lines = truth_tests(zone_locals(lines, 1))
        body += prologue(lines, 1)
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
        if standings.COUNTS_UNKEPT and type(e) is m.Agg and self.pre is None:
            by_kind = self.counted_by_kind(e)  # type: ignore[attr-defined]
            if by_kind is not None:  # a read of the zone's counts by kind, kept already: cheaper than a memo
                return by_kind
        if self.memo_once is not None and canonical(e, frozenset(), [], {}) in self.memo_once:
            return build()  # computed once per values of what it reads (standings.evaluated_once): no memo
        free: list[int] = []
        canon = canonical(e, frozenset(), free)
        name = self.memo.get(canon)
        self.loc_reads.update(free)  # its key is read from ``loc``
        slots = [f"loc[{s + self.off}]" for s in free]
        key = slots[0] if len(slots) == 1 else f"({', '.join(slots)},)" if slots else "()"
        if name is None:
            name = f"m{next(self.names)}"
            self.memo[canon] = name
            alpha = ("alpha", canonical(e, frozenset(), [], {}))
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
            table = self.memo[("alpha", canonical(e, frozenset(), [], {}))]
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
        canon = canonical(e, frozenset(), free)
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


class _OwnScope:
    """Context manager: no range variables, piles or kept counts of an enclosing option's condition are
    visible (a helper function has its own scope, and its own variables the counts may read)."""

    def __init__(self, gen: ExprWriter) -> None:
        self.gen = gen

    def __enter__(self) -> None:
        gen = self.gen
        self.saved = (gen.cse_vars, gen.cse_piles, gen.once_levels, gen.loop_vars, gen.kind_sets)
        gen.cse_vars, gen.cse_piles, gen.once_levels, gen.loop_vars, gen.kind_sets = None, {}, None, {}, {}

    def __exit__(self, *exc: Any) -> None:
        gen = self.gen
        gen.cse_vars, gen.cse_piles, gen.once_levels, gen.loop_vars, gen.kind_sets = self.saved


def expression_function(model: m.Model, e: Any) -> Callable[[Any, Any], Any]:
    """``f(st, loc)``: one expression of a checked model on its own, written by the one translation
    (as a decision's functions are: no memo, locals read from ``loc``), for tools and tests."""
    writer = ExprWriter(model, Analysis(model), False, "<rulelang-expression>")
    name = writer.expr_fn(e).name
    out = SourceWriter()
    for lines in writer.helpers:
        for ind, text, span in lines:
            out.add(ind, text, span)
    ns: dict[str, Any] = dict(writer.consts)
    exec(compile(out.text(), "<rulelang-expression>", "exec"), ns)  # source of the checked model only
    return ns[name]
