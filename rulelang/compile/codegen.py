"""Checked model -> Python source: each stretch of a rule between two pause points is one function.

The engine's continuation stays plain data: frames ``[rule, pc, locals]``. Here ``pc``
numbers the *entry points* of a rule: where it starts, where play resumes after a
decision, a call or a trigger, the start of each ``choose`` option and its end. For
every entry point that is not a decision the generator writes one function (a block)
``block(st, loc, fr, left) -> left`` that runs the rule from there to the next pause:
it sets ``fr[1]`` to where play resumes, pushes or pops frames as the rule calls or
returns, and returns the step budget left (negative: stop the driver). A decision's
pc holds the decision itself, an instruction tuple ``(op, spec, b, c, span)`` the
engine reads (see program.py).

Safety: the source is built from the checked model only. User values (texts, numbers
of other types, tables) enter it only as constants: ints, bools and None by ``repr``,
everything else through names of a constants table the compiler chooses
(``k0, k1, ...``). No identifier of a rules file ever becomes a Python name.

Expression and statement kinds the generator does not know are compiled by
``Compiler``'s closure builders and called from generated code through the constants
table; every such fallback is counted per node kind (``Program.fallbacks``).
"""

from __future__ import annotations

import bisect
import collections
import itertools
import linecache
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import runtime
from rulelang.compile.compiler import MAX_INLINE_DEPTH, Compiler, _NotStatic, _reads_slots, _same, _sheet_total
from rulelang.compile.linetable import LineTable, SourceWriter
from rulelang.compile.program import (
    ASK,
    BLOCK,
    CHOOSE,
    DRAW,
    EXEC,
    RANDFIRST,
    ROLL,
    SHUFFLE,
    AskSpec,
    ChooseSpec,
    Construct,
    DrawSpec,
    Program,
)
from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

SOFT_LIMIT = 6  # trigger checks run inline in one block before the rest moves to its own block
STOP, END = -1, -2  # what a block returns to stop the driver: paused at a turn, game over


@attrs.define
class Generated:
    """The generated module of one game, with what the engine needs to run it."""

    source: str
    filename: str
    lines: LineTable
    constants: dict[str, Any]
    code: list[list[Any]]  # per frame rule, per pc: a decision tuple, or (BLOCK, block name, None, None, span)
    nlocals: list[int]
    checks: dict[tuple[int, ...], str]  # triggers to check -> generated function name
    enums: dict[int, str]  # id of a ChooseSpec -> name of its generated option enumerator
    fallbacks: collections.Counter  # node kind -> sites compiled by a closure builder
    constructs: list[Construct]
    fallback_runs: list[int]  # per fallback kind index (see fallback_kinds): how often it ran
    fallback_kinds: list[str]
    rank_fns: list[str]
    sheet_fns: list[list[str]]
    ncounters: int
    code_object: Any = None


def _kids(e: Any) -> list[Any]:
    if isinstance(e, (tuple, list)):
        return list(e)
    if attrs.has(type(e)):
        return [getattr(e, f.name) for f in attrs.fields(type(e)) if f.name != "span"]
    return []


class CodeGen:
    """Writes the Python module of one checked model."""

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
        self.is_die = [model.kinds[k].cls == "die" for k in comp.kind_of]
        self.checks: dict[tuple[int, ...], str] = {}
        self.enums: dict[int, str] = {}
        self.helpers: list[list[tuple[int, str, Span | None]]] = []  # module-level functions
        self.memo: dict[Any, str] | None = None  # while writing standings: canonical node -> memo function
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
            "FD": [f.display for f in model.faces],
        })

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
        if t is m.Const:
            return self.const(e.value)
        if t is m.Local:
            return f"loc[{e.slot + self.off}]"
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
            if isinstance(e.owner, m.Local):
                return f"(C[{i}][{o}] if {o} >= 0 else nobody_has({name}))"
            return f"counter_of(C[{i}], {o}, {name})"
        if t is m.After:
            p = "st.current" if e.player is None else self.ex(e.player, c)
            return f"(({p} + 1) % st.players)"
        if t is m.UnOp:
            x = self.ex(e.operand, c)
            return f"(not {x})" if e.op == "not" else f"(-{x})"
        if t is m.BinOp:
            a, b = self.ex(e.left, c), self.ex(e.right, c)
            if e.op in ("and", "or", "+", "-", "*", "==", "!=", "<", ">", "<=", ">="):
                return f"({a} {e.op} {b})"
            if e.op in ("/", "%"):
                fn = "div" if e.op == "/" else "mod"
                return f"{fn}({a}, {b}, {self.const(e.span)})"
        if t is m.IfElseIR:
            return f"({self.ex(e.then, c)} if {self.ex(e.cond, c)} else {self.ex(e.orelse, c)})"
        if t is m.KindAttr:
            values = self.comp.kind_values[e.attr]
            return f"{self.table(values, 'ka')}[{self.ex(e.kind, c)}]"
        if t is m.AnswerGet:
            return f"st.answers[{self.ex(e.player, c)}]"
        if t is m.Builtin:
            if e.func == "players":
                return "st.players"
            args = [self.ex(a, c) for a in e.args]
            if e.func in ("min", "max"):
                return f"{e.func}({args[0]}, {args[1]})"
            if e.func == "seat":
                return f"({args[0]} + 1)"
            if e.func == "abs":
                return f"abs({args[0]})"
        if t is m.Agg:
            return self.memoized(e, lambda: self.aggregate(e), c)
        if t is m.Gen:
            return self.memoized(e, lambda: self.gen(e), c)
        if c is not None:
            if t is m.ElemAttr:
                return f"{self.attr_rows(e.attr)}[{c}][F[{c}] + 1]" if self.face_dependent(e.attr) \
                    else f"{self.attr_values(e.attr)}[{c}]"
            if t is m.ElemIsKind:
                return f"(KO[{c}] in {self.const(frozenset(e.kinds))})"
            saved = self.comp.offset
            self.comp.offset = self.off
            try:
                fn = self.fallback(type(e).__name__, self.comp.elem_expr(e))
            finally:
                self.comp.offset = saved
            return f"{fn}(st, loc, {c})"
        saved = self.comp.offset
        self.comp.offset = self.off
        try:
            fn = self.fallback(type(e).__name__, self.comp.expr(e))
        finally:
            self.comp.offset = saved
        return f"{fn}(st, loc)"

    def face_dependent(self, attr: str) -> bool:
        return any(v is not None for v in self.comp.face_values[attr])

    def attr_values(self, attr: str) -> str:
        kv = self.comp.kind_values[attr]
        return self.table([kv[k] for k in self.kind_of], "av")

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
        if zone.per_kind is not None:
            base = self.comp.first_of_kind[zone.per_kind]
            o = self.ex(sel.owner)
            slow = f"zone_of_kind(Z[{z}], {o}, {base}, {zone.per_kind}, KO, LB, {self.const(zone.name)}, " \
                   f"{self.const(self.model.kinds[zone.per_kind].name)}, {self.const(zone.span)})"
            if isinstance(sel.owner, m.Local):
                return f"(Z[{z}][{o} - {base}] if KO[{o}] == {zone.per_kind} else {slow})"
            return slow
        if isinstance(sel.owner, m.CurrentPlayer):
            return f"Z[{z}][st.current]"
        o = self.ex(sel.owner)
        if isinstance(sel.owner, m.Local):
            return f"(Z[{z}][{o}] if {o} >= 0 else zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(zone.span)}))"  # noqa: E501
        return f"zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(zone.span)})"

    def zone_name(self, sel: m.ZoneSel) -> str:
        """Source of (narration name, place) of a zone."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return self.const((zone.display, [sel.zone, -1]))
        if zone.per_kind is not None:
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
            slots = [f"loc[{s + self.off}]" for s in q.kind_locals]
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
            n = repr(q.count) if q.count_expr is None else self.ex(q.count_expr)
            return f"last_n({out}, {n})"
        return out

    def aggregate(self, e: m.Agg) -> str:
        q = e.query
        c = self.var("c")
        how, src = self.filter(q, c)
        zones = [self.zone(sel) for sel in q.zones]
        if e.func in ("count", "any"):
            is_any = e.func == "any"
            if how == "all":
                each = [f"bool({z})" if is_any else f"len({z})" for z in zones]
            elif how == "mask":
                each = [f"{'any' if is_any else 'sum'}(map({src}.__getitem__, {z}))" for z in zones]
            else:
                each = [f"any([{src} for {c} in {z}])" if is_any else f"len([{c} for {c} in {z} if {src}])"
                        for z in zones]
            return each[0] if len(each) == 1 else "(" + (" or " if is_any else " + ").join(each) + ")"
        assert e.attr is not None
        if self.face_dependent(e.attr):
            value = f"{self.attr_rows(e.attr)}[{c}][F[{c}] + 1]"
        else:
            value = f"{self.attr_values(e.attr)}[{c}]"
        if how == "all":
            each = [f"sum([{value} for {c} in {z}])" for z in zones]
        elif how == "mask":
            each = [f"sum([{value} for {c} in {z} if {src}[{c}]])" for z in zones]
        else:
            each = [f"sum([{value} for {c} in {z} if {src}])" for z in zones]
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    def var(self, base: str) -> str:
        return f"_{base}{next(self.names)}"

    def iterable(self, it: m.IterIR, copy: bool = True) -> str:
        """Source of the list of values a ``for`` ranges over (without ``copy``, possibly a zone's own
        list: only where nothing can change it while it is gone through)."""
        if it.kind == "players":
            return "list(range(st.players))" if copy else "range(st.players)"
        if it.kind == "others":
            i = self.var("i")
            return f"[(st.current + {i}) % st.players for {i} in range(1, st.players)]"
        if it.kind == "kinds_where":
            try:
                chosen = [k.index for k in self.model.kinds if self.comp.static_value(it.cond, k.index, -1)]
            except _NotStatic:
                raise RulelangError("'kinds where' may only test the kinds' own attributes and names",
                                    None) from None
            return f"list({self.const(tuple(chosen))})" if copy else self.const(tuple(chosen))
        if it.kind == "range":
            rng = f"range({self.ex(it.low)}, {self.ex(it.high)} + 1)"
            return f"list({rng})" if copy else rng
        assert it.query is not None
        q = it.query
        if it.kind == "kinds" and len(q.zones) == 1 and not (q.quantity == "count" and (
                q.count is not None or q.count_expr is not None)):
            c = self.var("c")
            how, src = self.filter(q, c)
            z = self.zone(q.zones[0])
            test = "" if how == "all" else f" if {src}[{c}]" if how == "mask" else f" if {src}"
            return f"sorted({{KO[{c}] for {c} in {z}{test}}})"
        sel = self.selection(q)
        if it.kind == "kinds":
            c = self.var("c")
            return f"sorted({{KO[{c}] for {c} in {sel}}})"
        if not copy and sel.endswith("[:]"):
            return sel[:-3]
        return sel

    def gen(self, e: m.Gen) -> str:
        """A max/min/total over values: a module-level function (its variable lives in ``loc``)."""
        name = f"g{next(self.names)}"
        lines: list[tuple[int, str, Span | None]] = []
        var = e.var + self.off
        v = self.var("v")
        lines.append((1, "out = []", None))
        lines.append((1, f"for {v} in {self.iterable(e.iterable, copy=False)}:", None))
        lines.append((2, f"loc[{var}] = {v}", None))
        if e.cond is not None:
            lines.append((2, f"if {self.ex(e.cond)}:", None))
            lines.append((3, f"out.append({self.ex(e.expr)})", None))
        else:
            lines.append((2, f"out.append({self.ex(e.expr)})", None))
        func = {"max": "max", "min": "min", "total": "sum"}[e.func]
        lines.append((1, f"return {func}(out) if out else 0", None))
        self.helper(name, "st, loc", lines)
        return f"{name}(st, loc)"

    def helper(self, name: str, args: str, lines: list[tuple[int, str, Span | None]]) -> None:
        body = [(0, f"def {name}({args}):", None)]
        body += _prologue(lines, 1)
        body += lines
        self.helpers.append(body)

    # ------------------------------------------------------------------ memo (standings)
    def memoized(self, e: Any, build: Callable[[], str], c: str | None) -> str:
        """Within a standings computation, a pure Gen/Agg is computed once per values of its free locals."""
        if self.memo is None or c is not None:
            return build()
        free: list[int] = []
        canon = _canonical(e, frozenset(), free)
        name = self.memo.get(canon)
        slots = [f"loc[{s + self.off}]" for s in free]
        key = f"({', '.join(slots)},)" if slots else "()"
        if name is None:
            name = f"m{next(self.names)}"
            self.memo[canon] = name
            self.consts[f"{name}_memo"] = {}
            inner = build()
            self.helper(name, "st, loc", [
                (1, f"memo = {name}_memo", None),
                (1, f"key = {key}", None),
                (1, "v = memo.get(key)", None),
                (1, "if v is None:", None),
                (2, f"v = memo[key] = {inner}", None),
                (1, "return v", None),
            ])
        return f"{name}(st, loc)"

    # ------------------------------------------------------------------ templates
    def template(self, t: m.TemplateIR) -> str:
        parts = []
        for part in t.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                parts.append(self.const(part))
                continue
            x = self.ex(part)
            if part.type == m.PLAYER:
                parts.append(f"PL({x})")
            elif part.type == m.KIND:
                parts.append(f"KD[{x}]")
            elif part.type == m.COMPONENT:
                parts.append(f"LB[{x}]")
            elif part.type == m.BOOL:
                parts.append(f"('yes' if {x} else 'no')")
            else:
                parts.append(f"str({x})")
        if not parts:
            return self.const("")
        return parts[0] if len(parts) == 1 and isinstance(t.parts[0], str) else f"''.join(({', '.join(parts)},))"


    # ------------------------------------------------------------------ statements
    def at_offset(self) -> _Offset:
        """Build compiler closures with this generator's local-slot offset."""
        return _Offset(self.comp, self.off)

    def alloc(self, key: Any, n: int) -> int:
        """Local slots of the frame rule for one site (the same on every emission of the site)."""
        key = (self.ikey, key)
        base = self.slots.get(key)
        if base is None:
            base = self.slots[key] = self.nloc
            self.nloc += n
        return base

    def site_pc(self, s: Any, n: int, key: Any = None) -> int:
        """The first of ``n`` consecutive pcs of a pause site (statement ``s``, or ``key``)."""
        key = (self.ikey, id(s) if key is None else key)
        pc = self.pcs.get(key)
        if pc is None:
            pc = self.pcs[key] = self.npc
            self.npc += n
        return pc

    def resume(self, pc: int, ctx: tuple, span: Any, prelude: list | None = None) -> None:
        """Make sure a block is written for entry ``pc``, continuing with ``ctx``."""
        if pc not in self.entries:
            self.entries[pc] = (BLOCK, f"r{self.frame}_{pc}", None, None, span)
            self.todo.append((pc, ctx, prelude or []))

    def inlining(self) -> set[int]:
        return {self.frame} | {r for _site, r in self.ikey}

    def inlines(self, s: m.CallS) -> bool:
        chain = self.inlining()
        return s.rule not in chain and len(chain) < MAX_INLINE_DEPTH

    def can_pause(self, body: Any) -> bool:
        """Whether the code of these statements may leave its block (a pause, a call, a trigger)."""
        for s in body:
            t = type(s)
            if t is m.MoveS:
                if s.query.quantity == "random" or self.move_triggers(s):
                    return True
            elif t is m.AssignS:
                if self.comp.trigger_for_counter.get(s.counter, ()):
                    return True
            elif t in (m.RollS, m.ShuffleS, m.AskS, m.ChooseS):
                return True
            elif t is m.SimpleS:
                if s.what in ("end turn", "end game", "pick first player at random"):
                    return True
            elif t is m.CallS:
                if not self.inlines(s):
                    return True
                saved = self.ikey
                self.ikey = self.ikey + ((id(s), s.rule),)
                try:
                    if self.can_pause(self.model.rules[s.rule].body):
                        return True
                finally:
                    self.ikey = saved
            elif t is m.IfS:
                if any(self.can_pause(b) for _c, b in s.branches) or (s.orelse and self.can_pause(s.orelse)):
                    return True
            elif t in (m.WhileS, m.RepeatS, m.ForS):
                if self.can_pause(s.body):
                    return True
            elif t not in (m.LetS, m.SayS, m.GiveTurnS, m.RevealS):
                return True  # a statement the generator does not know: assume it may
        return False

    def move_triggers(self, s: m.MoveS) -> tuple[int, ...]:
        return self.comp.triggers_for({z.zone for z in s.query.zones} | {s.dest.zone})

    def emit_ctx(self, L: list, ctx: tuple, ind: int) -> bool:
        """Write what comes after (a continuation): always ends in a return."""
        if ctx[0] == "ret":
            L.append((ind, "st.stack.pop()", None))
            L.append((ind, "return left", None))
            return True
        saved = (self.off, self.ikey)
        self.off, self.ikey = ctx[3], ctx[4]
        try:
            if ctx[0] == "seq":
                return self.emit_seq(L, ctx[1], ctx[2], ctx[5], True, ind)
            self.emit_loop(L, ctx[1], ctx[5], ind, init=False)
            return self.emit_ctx(L, ctx[5], ind)
        finally:
            self.off, self.ikey = saved

    def emit_seq(self, L: list, seq: tuple, j: int, ctx: tuple, tail: bool, ind: int) -> bool:
        for idx in range(j, len(seq)):
            after = ("seq", seq, idx + 1, self.off, self.ikey, ctx)
            if self.emit_stmt(L, seq[idx], after, ind):
                return True
        if tail:
            return self.emit_ctx(L, ctx, ind)
        return False

    def pause(self, L: list, pc: int, ind: int) -> bool:
        L.append((ind, f"fr[1] = {pc}", None))
        L.append((ind, "return left", None))
        return True

    def soft(self, L: list, which: tuple[int, ...], after: tuple, span: Any, ind: int) -> bool:
        """After a statement that may make a trigger's condition true: check, and leave if one fired."""
        chk = self.check_fn(which)
        pc = self.site_pc(None, 1, ("soft", id(after[1]), after[2]))
        self.resume(pc, after, span)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT:
            L.append((ind, f"{chk}(st)", span))
            return self.pause(L, pc, ind)
        L.append((ind, f"if {chk}(st):", span))
        self.pause(L, pc, ind + 1)
        return False

    def budget(self, L: list, ind: int, span: Any) -> None:
        L.append((ind, "left -= 1", span))
        L.append((ind, "if left < 0:", span))
        L.append((ind + 1, "runaway()", span))

    def emit_stmt(self, L: list, s: Any, after: tuple, ind: int) -> bool:  # noqa: C901
        """Write one statement; True when it ends its block on every path."""
        t = type(s)
        sp = getattr(s, "span", None)
        if t is m.MoveS:
            if s.query.quantity == "random":
                return self.emit_draw(L, s, after, ind)
            self.emit_move(L, s, ind)
            which = self.move_triggers(s)
            return self.soft(L, which, after, sp, ind) if which else False
        if t is m.AssignS:
            self.emit_assign(L, s, ind)
            which = self.comp.trigger_for_counter.get(s.counter, ())
            return self.soft(L, which, after, sp, ind) if which else False
        if t is m.LetS:
            L.append((ind, f"loc[{s.slot + self.off}] = {self.ex(s.value)}", sp))
            return False
        if t is m.SayS:
            L.append((ind, "if st.log is not None:", sp))
            L.append((ind + 1, f"st.log.append({{'type': 'say', 'text': {self.template(s.text)}}})", sp))
            return False
        if t is m.GiveTurnS:
            L.append((ind, f"st.next_player = {self.ex(s.player)}", sp))
            return False
        if t is m.SimpleS:
            if s.what == "end turn":
                L.append((ind, f"end_turn(st, {self.model.turn_rule})", sp))
                L.append((ind, "return left", sp))
                return True
            if s.what == "end game":
                L.append((ind, f"return {END}", sp))
                return True
            if s.what == "another turn":
                L.append((ind, "st.extra_turn = True", sp))
                return False
            if s.what == "pick first player at random":
                pc = self.site_pc(s, 2)
                self.entries.setdefault(pc, (RANDFIRST, None, None, None, sp))
                self.resume(pc + 1, after, sp)
                return self.pause(L, pc, ind)
            return False  # pass
        if t is m.RevealS:
            p, picked = self.var("p"), self.var("pk")
            L.append((ind, f"{p} = {self.ex(s.player)}", sp))
            L.append((ind, f"{picked} = {self.selection(s.query)}", sp))
            where = ", ".join(f"{self.zone_name(z)}[0]" for z in s.query.zones)
            kinds = self.model.kinds
            remembered = self.table([self.comp.labels[c] if self.is_die[c] else kinds[k].name
                                     for c, k in enumerate(self.kind_of)], "rm")
            L.append((ind, f"reveal(st, {p}, {picked}, ', '.join(({where},)), LB, {remembered})", sp))
            return False
        if t is m.RollS:
            return self.emit_roll(L, s, after, ind)
        if t is m.ShuffleS:
            pc = self.site_pc(s, 2)
            if pc not in self.entries:
                with self.at_offset():
                    zl = self.comp.zone_list(s.zone)
                which = self.comp.triggers_for({s.zone.zone})
                self.check_fn(which)
                self.entries[pc] = (SHUFFLE, zl, s.zone.zone, which, sp)
            self.resume(pc + 1, after, sp)
            return self.pause(L, pc, ind)
        if t is m.AskS:
            return self.emit_ask(L, s, after, ind)
        if t is m.ChooseS:
            return self.emit_choose(L, s, after, ind)
        if t is m.CallS:
            callee = self.model.rules[s.rule]
            if self.inlines(s):
                # The callee's body runs here, its locals after the caller's: no frame to push or pop.
                self.cov(("rule", s.rule), ind, L)
                saved = (self.off, self.ikey)
                base = self.alloc((id(s), "inline"), callee.nlocals)
                if s.args:
                    args = [self.ex(a) for a in s.args]
                    targets = ", ".join(f"loc[{base + i}]" for i in range(len(args)))
                    L.append((ind, f"{targets}, = {', '.join(args)},", sp))
                self.off = base
                self.ikey = self.ikey + ((id(s), s.rule),)
                try:
                    return self.emit_seq(L, callee.body, 0, after, False, ind)
                finally:
                    self.off, self.ikey = saved
            self.budget(L, ind, sp)
            new = self.var("n")
            L.append((ind, f"{new} = [None] * NL[{s.rule}]", sp))
            for i, a in enumerate(s.args):
                L.append((ind, f"{new}[{i}] = {self.ex(a)}", sp))
            pc = self.site_pc(s, 1)
            self.resume(pc, after, sp)
            self.frames.append(s.rule)
            L.append((ind, f"fr[1] = {pc}", sp))
            L.append((ind, f"st.stack.append([{s.rule}, 0, {new}])", sp))
            L.append((ind, "return left", sp))
            return True
        if t is m.IfS:
            done = True
            for n, (cond, body) in enumerate(s.branches):
                L.append((ind, f"{'if' if n == 0 else 'elif'} {self.ex(cond)}:", sp))
                done &= self.emit_body(L, body, after, ind + 1, ("branch", id(s), n))
            if s.orelse is not None:
                L.append((ind, "else:", sp))
                done &= self.emit_body(L, s.orelse, after, ind + 1, ("branch", id(s), len(s.branches)))
            else:
                done = False
            return done
        if t in (m.WhileS, m.RepeatS, m.ForS):
            self.emit_loop(L, s, after, ind, init=True)
            return False
        return self.emit_fallback_stmt(L, s, after, ind)

    def emit_body(self, L: list, body: tuple, after: tuple, ind: int, construct: Any = None) -> bool:
        n = len(L)
        if construct is not None:
            self.cov(construct, ind, L)
        done = self.emit_seq(L, body, 0, after, False, ind)
        if len(L) == n:
            L.append((ind, "pass", None))
        return done

    def emit_loop(self, L: list, s: Any, after: tuple, ind: int, init: bool) -> None:
        """A loop, from its start (``init``) or resumed in the middle of its iterations."""
        sp = s.span
        end = ("loop", s, None, self.off, self.ikey, after)
        paused = self.can_pause(s.body)
        if type(s) is m.WhileS:
            L.append((ind, f"while {self.ex(s.cond)}:", sp))
        elif type(s) is m.RepeatS:
            if paused:
                slot = f"loc[{s.slot + self.off}]"
            else:
                slot = self.var("n")
            if init:
                L.append((ind, f"{slot} = {self.ex(s.count)}", sp))
            L.append((ind, f"while {slot} > 0:", sp))
            L.append((ind + 1, f"{slot} -= 1", sp))
        else:
            var = f"loc[{s.var + self.off}]"
            if paused:
                lst, idx = f"loc[{s.list_slot + self.off}]", f"loc[{s.idx_slot + self.off}]"
                if init:
                    L.append((ind, f"{lst} = {self.iterable(s.iterable)}", sp))
                    L.append((ind, f"{idx} = 0", sp))
                L.append((ind, f"while {idx} < len({lst}):", sp))
                L.append((ind + 1, f"{var} = {lst}[{idx}]", sp))
                L.append((ind + 1, f"{idx} += 1", sp))
            else:
                v = self.var("v")
                L.append((ind, f"for {v} in {self.iterable(s.iterable)}:", sp))
                L.append((ind + 1, f"{var} = {v}", sp))
        self.budget(L, ind + 1, sp)
        self.emit_seq(L, s.body, 0, end, False, ind + 1)

    def emit_fallback_stmt(self, L: list, s: Any, after: tuple, ind: int) -> bool:
        """A statement kind the generator does not know: run the compiler's closures for it."""
        scratch = m.Rule(-1, "", None, "rule", (), (), self.nloc)
        code: list = []
        with self.at_offset():
            self.comp._stmt(s, code, scratch)
        self.nloc = max(self.nloc, scratch.nlocals)
        if any(ins[0] != EXEC for ins in code):
            raise AssertionError(f"the generator cannot translate {type(s).__name__}")  # pragma: no cover
        sp = getattr(s, "span", None)
        for ins in code:
            fn = self.fallback(type(s).__name__, ins[1])
            L.append((ind, f"{fn}(st, loc)", sp))
            if ins[2]:
                self.check_fn(tuple(ins[2]))
                if self.soft(L, tuple(ins[2]), after, sp, ind):
                    return True
        return False

    def emit_assign(self, L: list, s: m.AssignS, ind: int) -> None:
        sp = s.span
        i = s.counter
        counter = self.model.counters[i]
        v, old, new = self.var("v"), self.var("o"), self.var("n")
        L.append((ind, f"{v} = {self.ex(s.value)}", sp))
        if s.owner is None:
            cell, who = f"C[{i}]", "None"
        else:
            who = self.var("w")
            L.append((ind, f"{who} = {self.ex(s.owner)}", sp))
            cell = f"C[{i}][{who}]"
        L.append((ind, f"{old} = {cell}", sp))
        value = {"+=": f"{old} + {v}", "-=": f"{old} - {v}"}.get(s.op, v)
        L.append((ind, f"{new} = {cell} = {value}", sp))
        if counter.doc is not None:
            L.append((ind, f"if st.log is not None and {new} != {old}:", sp))
            L.append((ind + 1, f"log_counter(st.log, {self.const(counter.name)}, {who}, {old}, {new})", sp))

    def put(self, L: list, zone: m.Zone, place: str | None, d: str, mv: str, ind: int, sp: Any) -> None:
        if not zone.ordered:
            L.append((ind, f"if len({mv}) == 1:", sp))
            L.append((ind + 1, f"insort({d}, {mv}[0])", sp))
            L.append((ind, "else:", sp))
            L.append((ind + 1, f"{d} += {mv}", sp))
            L.append((ind + 1, f"{d}.sort()", sp))
        elif place == "bottom":
            L.append((ind, f"{d}[0:0] = {mv}", sp))
        else:
            L.append((ind, f"{d} += {mv}", sp))

    def emit_move(self, L: list, s: m.MoveS, ind: int) -> None:
        """A move of every matching component (or the top N of them) from zones to a zone."""
        sp = s.span
        q = s.query
        dz = self.model.zones[s.dest.zone]
        d, mv, lg, came = self.var("d"), self.var("mv"), self.var("lg"), self.var("came")
        c = self.var("c")
        how, src = self.filter(q, c)
        limited = q.quantity == "count" and (q.count is not None or q.count_expr is not None)
        if len(q.zones) == 1:
            return self.emit_move_one(L, s, ind, how, src, c, limited)
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        L.append((ind, f"{lg} = st.log", sp))
        L.append((ind, f"if {lg} is not None:", sp))
        L.append((ind + 1, f"{came} = []", sp))
        L.append((ind, f"{mv} = []", sp))
        need = self.var("need")
        if limited:
            n = repr(q.count) if q.count_expr is None else f"max(0, {self.ex(q.count_expr)})"
            L.append((ind, f"{need} = {n}", sp))
        names = self.var("names")
        if len(q.zones) > 1:
            L.append((ind, f"if {lg} is not None:", sp))
            L.append((ind + 1, f"{names} = ({', '.join(self.zone_name(sel) for sel in q.zones)},)", sp))
            i, z = self.var("i"), self.var("s")
            L.append((ind, f"for {i}, {z} in enumerate(({', '.join(self.zone(sel) for sel in q.zones)},)):", sp))
            self.move_from(L, z, d, mv, lg, came, f"{names}[{i}]", how, src, c, need if limited else None, ind + 1, sp)
        else:
            z = self.var("s")
            L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))
            self.move_from(L, z, d, mv, lg, came, self.zone_name(q.zones[0]), how, src, c, need if limited else None,
                           ind, sp)
        L.append((ind, f"if {mv}:", sp))
        if dz.unrolled:
            L.append((ind + 1, f"for {c} in {mv}:", sp))
            L.append((ind + 2, f"F[{c}] = -1", sp))
        self.put(L, dz, s.place, d, mv, ind + 1, sp)
        L.append((ind + 1, f"if {lg} is not None:", sp))
        L.append((ind + 2, f"log_move({lg}, LB, {mv}, {came}, {self.zone_name(s.dest)})", sp))

    def emit_move_one(self, L: list, s: m.MoveS, ind: int, how: str, src: str | None, c: str, limited: bool) -> None:
        """A move from one zone: the components taken are the components moved."""
        sp = s.span
        q = s.query
        dz = self.model.zones[s.dest.zone]
        d, z, t = self.var("d"), self.var("s"), self.var("t")
        test = f"{src}[{c}]" if how == "mask" else src
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        if limited:
            need = self.var("need")
            n = repr(q.count) if q.count_expr is None else f"max(0, {self.ex(q.count_expr)})"
            L.append((ind, f"{need} = {n}", sp))
            L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))
            L.append((ind, f"if {need} > 0 and {z} and {z} is not {d}:", sp))
            if how == "all":
                L.append((ind + 1, f"{t} = {z}[-{need}:]", sp))
                L.append((ind + 1, f"del {z}[-{need}:]", sp))
                L.append((ind + 1, f"{t}.reverse()", sp))
            else:
                j = self.var("j")
                L.append((ind + 1, f"{t} = []", sp))
                L.append((ind + 1, f"{j} = len({z}) - 1", sp))
                L.append((ind + 1, f"while {j} >= 0 and len({t}) < {need}:", sp))
                L.append((ind + 2, f"{c} = {z}[{j}]", sp))
                L.append((ind + 2, f"if {test}:", sp))
                L.append((ind + 3, f"{t}.append({z}.pop({j}))", sp))
                L.append((ind + 2, f"{j} -= 1", sp))
        else:
            L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
            if how == "all":
                L.append((ind + 1, f"{t} = {z}[:]", sp))
                L.append((ind + 1, f"{z}.clear()", sp))
            else:
                L.append((ind + 1, f"{t} = [{c} for {c} in {z} if {test}]", sp))
        L.append((ind + 1, f"if {t}:", sp))
        if how != "all" and not limited:
            L.append((ind + 2, f"{z}[:] = [{c} for {c} in {z} if not {test}]", sp))
        if dz.unrolled:
            L.append((ind + 2, f"for {c} in {t}:", sp))
            L.append((ind + 3, f"F[{c}] = -1", sp))
        self.put(L, dz, s.place, d, t, ind + 2, sp)
        L.append((ind + 2, "if st.log is not None:", sp))
        L.append((ind + 3, f"log_move(st.log, LB, {t}, [{self.zone_name(q.zones[0])}], {self.zone_name(s.dest)})", sp))

    def emit_roll(self, L: list, s: m.RollS, after: tuple, ind: int) -> bool:
        """Roll dice: while playing with a chance stream, at once (one trace event per die); else pause."""
        sp = s.span
        lst = self.alloc((id(s), "roll"), 2)
        c = self.var("c")
        L.append((ind, f"loc[{lst}] = [{c} for {c} in {self.selection(s.query, copy=False)} if ISDIE[{c}]]", sp))
        L.append((ind, f"loc[{lst + 1}] = 0", sp))
        pc = self.site_pc(s, 2)
        which = self.comp.triggers_for({z.zone for z in s.query.zones})
        self.entries.setdefault(pc, (ROLL, lst, lst + 1, which, sp))
        self.check_fn(which)
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT:
            return self.pause(L, pc, ind)
        rng, die, face, ev = self.var("rng"), self.var("die"), self.var("face"), self.var("ev")
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"{ev} = st.chance_events", sp))
        L.append((ind, "F = st.faces", sp))
        if not which:
            below = self.var("below")
            L.append((ind, f"if {ev} is None and st.log is None:", sp))
            L.append((ind + 1, f"{below} = {rng}.below", sp))
            L.append((ind + 1, f"for {die} in loc[{lst}]:", sp))
            L.append((ind + 2, f"{face} = DF[{die}]", sp))
            L.append((ind + 2, f"F[{die}] = {face}[{below}(len({face}))]", sp))
            L.append((ind + 1, f"st.step += len(loc[{lst}])", sp))
            L.append((ind + 1, f"loc[{lst + 1}] = len(loc[{lst}])", sp))
            L.append((ind, "else:", sp))
            ind += 1
        L.append((ind, f"for {die} in loc[{lst}]:", sp))
        L.append((ind + 1, f"{face} = DF[{die}]", sp))
        L.append((ind + 1, f"{face} = {face}[{rng}.below(len({face}))]", sp))
        L.append((ind + 1, "st.step += 1", sp))
        L.append((ind + 1, f"if {ev} is not None:", sp))
        L.append((ind + 2, f"{ev}.append({{'type': 'chance', 'step': st.step, 'roll': LB[{die}], "
                           f"'outcome': FN[{face}]}})", sp))
        L.append((ind + 1, f"F[{die}] = {face}", sp))
        L.append((ind + 1, "if st.log is not None:", sp))
        L.append((ind + 2, f"st.log.append({{'type': 'roll', 'component': LB[{die}], 'face': FD[{face}], "
                           f"'places': [place_of(st, {die})]}})", sp))
        L.append((ind + 1, f"loc[{lst + 1}] += 1", sp))
        if which:
            L.append((ind + 1, f"if {self.check_fn(which)}(st):", sp))
            L.append((ind + 2, f"fr[1] = {pc} if loc[{lst + 1}] < len(loc[{lst}]) else {pc + 1}", sp))
            L.append((ind + 2, "return left", sp))
        return False

    def move_from(self, L: list, z: str, d: str, mv: str, lg: str, came: str, name: str, how: str, src: str | None,
                  c: str, need: str | None, ind: int, sp: Any) -> None:
        """Take the matching components (or the top ``need`` of them) out of one source list ``z``."""
        taken = self.var("t")
        test = f"{src}[{c}]" if how == "mask" else src
        if need is None:
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
            if how == "all":
                L.append((ind + 1, f"{taken} = {z}[:]", sp))
                L.append((ind + 1, f"{z}.clear()", sp))
            else:
                L.append((ind + 1, f"{taken} = [{c} for {c} in {z} if {test}]", sp))
                L.append((ind + 1, f"if {taken}:", sp))
                L.append((ind + 2, f"{z}[:] = [{c} for {c} in {z} if not {test}]", sp))
        elif how == "all":
            L.append((ind, f"if {need} > 0 and {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{taken} = {z}[-{need}:]", sp))
            L.append((ind + 1, f"del {z}[-{need}:]", sp))
            L.append((ind + 1, f"{taken}.reverse()", sp))
            L.append((ind + 1, f"{need} -= len({taken})", sp))
        else:
            j = self.var("j")
            L.append((ind, f"if {need} > 0 and {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{taken} = []", sp))
            L.append((ind + 1, f"{j} = len({z}) - 1", sp))
            L.append((ind + 1, f"while {j} >= 0 and len({taken}) < {need}:", sp))
            L.append((ind + 2, f"{c} = {z}[{j}]", sp))
            L.append((ind + 2, f"if {test}:", sp))
            L.append((ind + 3, f"{taken}.append({z}.pop({j}))", sp))
            L.append((ind + 2, f"{j} -= 1", sp))
            L.append((ind + 1, f"{need} -= len({taken})", sp))
        L.append((ind + 1, f"if {taken}:", sp))
        L.append((ind + 2, f"{mv} += {taken}", sp))
        L.append((ind + 2, f"if {lg} is not None:", sp))
        L.append((ind + 3, f"{came}.append({name})", sp))

    def emit_draw(self, L: list, s: m.MoveS, after: tuple, ind: int) -> bool:
        sp = s.span
        q = s.query
        sel = q.zones[0]
        slot = self.alloc((id(s), "draw"), 1)
        n = repr(q.count or 1) if q.count_expr is None else self.ex(q.count_expr)
        L.append((ind, f"loc[{slot}] = {n}", sp))
        pc = self.site_pc(s, 2)
        if pc not in self.entries:
            dest_zone = self.model.zones[s.dest.zone]
            with self.at_offset():
                spec = DrawSpec(
                    source=self.comp.zone_list(sel), pred=self.comp.predicate(q), dest=self.comp.zone_list(s.dest),
                    dest_zone=dest_zone.index, place=s.place, remaining_slot=slot, source_zone=sel.zone,
                    source_owner=self.comp.expr(sel.owner) if sel.owner is not None else None,
                    source_name=self.comp.zone_namer(sel), dest_name=self.comp.zone_namer(s.dest),
                )
                put = self.comp._insert(dest_zone, s.place)
            which = self.comp.triggers_for({sel.zone, s.dest.zone})
            self.check_fn(which)
            self.entries[pc] = (DRAW, spec, put, which, sp)
        which = self.entries[pc][3]
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT:
            return self.pause(L, pc, ind)
        # While playing with a chance stream: draw at once, as Engine.apply_random would.
        rng, src, cnt, kinds, k, c, i, ev = (self.var(x) for x in ("rng", "src", "cnt", "kinds", "k", "c", "i", "ev"))
        how, test = self.filter(q, c)
        cond = "" if how == "all" else f"{test}[{c}]" if how == "mask" else test
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"while loc[{slot}] > 0:", sp))
        j = ind + 1
        L.append((j, f"{src} = {self.zone(sel)}", sp))
        L.append((j, f"{cnt} = {{}}", sp))
        L.append((j, f"for {c} in {src}:", sp))
        if cond:
            L.append((j + 1, f"if {cond}:", sp))
            L.append((j + 2, f"{cnt}[KO[{c}]] = {cnt}.get(KO[{c}], 0) + 1", sp))
        else:
            L.append((j + 1, f"{cnt}[KO[{c}]] = {cnt}.get(KO[{c}], 0) + 1", sp))
        L.append((j, f"if not {cnt}:", sp))
        L.append((j + 1, "break", sp))
        L.append((j, f"{kinds} = sorted({cnt})", sp))
        L.append((j, f"{k} = {kinds}[0] if len({kinds}) == 1 else {kinds}[{rng}.weighted([{cnt}[x] for x in {kinds}])]",
                  sp))
        L.append((j, "st.step += 1", sp))
        L.append((j, f"{ev} = st.chance_events", sp))
        L.append((j, f"if {ev} is not None:", sp))
        zname = self.const(self.model.zones[sel.zone].name)
        label = zname if sel.owner is None else f"{zname} + ' of ' + PL({self.ex(sel.owner)})"
        L.append((j + 1, f"{ev}.append({{'type': 'chance', 'step': st.step, 'draw': {label}, 'outcome': KN[{k}]}})",
                  sp))
        L.append((j, f"for {i}, {c} in enumerate({src}):", sp))
        L.append((j + 1, f"if KO[{c}] == {k}{' and ' + cond if cond else ''}:", sp))
        L.append((j + 2, "break", sp))
        L.append((j, f"{src}.pop({i})", sp))
        if self.model.zones[s.dest.zone].unrolled:
            L.append((j, f"st.faces[{c}] = -1", sp))
        d, one = self.var("d"), self.var("one")
        L.append((j, f"{d} = {self.zone(s.dest)}", sp))
        L.append((j, f"{one} = [{c}]", sp))
        self.put(L, self.model.zones[s.dest.zone], s.place, d, one, j, sp)
        L.append((j, "if st.log is not None:", sp))
        fn, tn = self.var("fn"), self.var("tn")
        L.append((j + 1, f"{fn} = {self.zone_name(sel)}", sp))
        L.append((j + 1, f"{tn} = {self.zone_name(s.dest)}", sp))
        L.append((j + 1, f"st.log.append({{'type': 'move', 'components': [LB[{c}]], 'from': {fn}[0], 'to': {tn}[0], "
                         f"'random': True, 'places': [{fn}[1], {tn}[1]]}})", sp))
        L.append((j, f"loc[{slot}] -= 1", sp))
        if which:
            L.append((j, f"if {self.check_fn(which)}(st):", sp))
            self.pause(L, pc, j + 1)
        return False

    def emit_ask(self, L: list, s: m.AskS, after: tuple, ind: int) -> bool:
        sp = s.span
        var, slot = s.var + self.off, s.list_slot + self.off
        asked, p = self.var("a"), self.var("p")
        L.append((ind, "st.answers = [''] * st.players", sp))
        L.append((ind, f"{asked} = []", sp))
        L.append((ind, f"for {p} in {self.iterable(s.iterable)}:", sp))
        L.append((ind + 1, f"loc[{var}] = {p}", sp))
        conds = [self.ex(c) if c is not None else "True" for _label, c, _span in s.options]
        test = "(" + " or ".join(conds) + ")" if conds else "False"
        if s.cond is not None:
            test = f"{self.ex(s.cond)} and {test}"
        L.append((ind + 1, f"if {test}:", sp))
        L.append((ind + 2, f"{asked}.append({p})", sp))
        L.append((ind, f"loc[{slot}] = {asked}", sp))
        pc = self.site_pc(s, 2)
        if pc not in self.entries:
            with self.at_offset():
                options = [(label, self.comp.expr(c) if c is not None else None) for label, c, _span in s.options]
            spec = AskSpec(var, slot, options)
            self.entries[pc] = (ASK, spec, None, None, sp)
            name = f"a{next(self.names)}"
            lines: list = [(1, "out = []", sp)]
            for label, c, span in s.options:
                if c is None:
                    lines.append((1, f"out.append({self.const(label)})", span))
                else:
                    lines.append((1, f"if {self.ex(c)}:", span))
                    lines.append((2, f"out.append({self.const(label)})", span))
            lines.append((1, "return out", sp))
            self.helper(name, "st, loc", lines)
            self.enums[id(spec)] = name
        self.resume(pc + 1, after, sp)
        return self.pause(L, pc, ind)

    def emit_choose(self, L: list, s: m.ChooseS, after: tuple, ind: int) -> bool:
        sp = s.span
        k = len(s.options)
        pc = self.site_pc(s, k + 2)
        if pc not in self.entries:
            with self.at_offset():
                spec = ChooseSpec(self.comp.expr(s.player) if s.player is not None else None, [], pc + k + 1)
                for n, opt in enumerate(s.options):
                    spec.options.append((
                        self.comp.template(opt.label),
                        tuple((slot + self.off, self.comp.iterable(it)) for slot, it in opt.bindings),
                        self.comp.expr(opt.cond) if opt.cond is not None else None,
                        pc + 1 + n,
                        self.comp.public_template(opt.label),
                        self.comp.label_parser(opt),
                        opt.cond is not None and not _reads_slots(opt.cond, {slot for slot, _ in opt.bindings}),
                    ))
                    spec.spans.append((opt.span, opt.cond_span))
            self.entries[pc] = (CHOOSE, spec, None, None, sp)
            self.enums[id(spec)] = self.enumerator(s)
            for n, opt in enumerate(s.options):
                prelude: list = []
                self.cov(("option", id(s), n), 1, prelude)
                self.resume(pc + 1 + n, ("seq", opt.body, 0, self.off, self.ikey, after), opt.span, prelude)
            self.resume(pc + k + 1, after, sp)
        return self.pause(L, pc, ind)

    def enumerator(self, s: m.ChooseS) -> str:
        """A function listing the legal options of a ``choose`` as (option index, values of its ``for``s)."""
        name = f"o{next(self.names)}"
        lines: list = [(1, "out = []", None)]
        for n, opt in enumerate(s.options):
            slots = {slot for slot, _ in opt.bindings}
            hoisted = opt.cond is not None and not _reads_slots(opt.cond, slots)
            ind = 1
            if hoisted:
                lines.append((ind, f"if {self.ex(opt.cond)}:", opt.span))
                ind += 1
            values = []
            last = len(opt.bindings) - 1
            for i, (slot, it) in enumerate(opt.bindings):
                v = self.var("v")
                later = [it2 for _s, it2 in opt.bindings[i + 1:]] + ([opt.cond] if not hoisted else [])
                read = slot in _slots_read(later)  # a later range or the condition reads this variable
                values_src = self.iterable(it, copy=False)
                if i == 0:
                    outer_at, outer_ind = len(lines), ind
                elif not _slots_read([it]) & {s for s, _ in opt.bindings[:i]}:
                    fixed = self.var("r")  # a range that reads none of the outer variables: listed once
                    lines.insert(outer_at, (outer_ind, f"{fixed} = {values_src}", opt.span))
                    outer_at += 1
                    values_src = fixed
                if i == last and not read:
                    values.append(v)
                    tup = f"({', '.join(values)},)"
                    lines.append((ind, f"out += [({n}, {tup}) for {v} in {values_src}]", opt.span))
                    break
                lines.append((ind, f"for {v} in {values_src}:", opt.span))
                if read:
                    lines.append((ind + 1, f"loc[{slot + self.off}] = {v}", opt.span))
                values.append(v)
                ind += 1
            else:
                if opt.cond is not None and not hoisted:
                    lines.append((ind, f"if {self.ex(opt.cond)}:", opt.cond_span or opt.span))
                    ind += 1
                tup = f"({', '.join(values)},)" if values else "()"
                lines.append((ind, f"out.append(({n}, {tup}))", opt.span))
        lines.append((1, "return out", None))
        self.helper(name, "st, loc", lines)
        return name

    # ------------------------------------------------------------------ triggers
    def check_fn(self, which: tuple[int, ...]) -> str:
        """The generated function that checks these triggers (and fires those that became true)."""
        which = tuple(which)
        name = self.checks.get(which)
        if name is not None:
            return name
        name = self.checks[which] = f"chk{len(self.checks)}"
        lines: list = [(1, "armed = st.armed", None), (1, "if armed is None:", None), (2, "return False", None),
                       (1, "fired = []", None)]
        saved = self.off
        self.off = 0
        try:
            for t in which:
                trig = self.model.triggers[t]
                lines.append((1, f"loc = TL[{t}]", trig.span))
                if trig.each:
                    lines.append((1, f"flags = armed[{t}]", trig.span))
                    lines.append((1, "for p in range(st.players):", trig.span))
                    lines.append((2, "loc[0] = p", trig.span))
                    lines.append((2, f"now = bool({self.ex(trig.cond)})", trig.span))
                    lines.append((2, "if now and not flags[p]:", trig.span))
                    lines.append((3, f"fired.append(({t}, p))", trig.span))
                    lines.append((2, "flags[p] = now", trig.span))
                else:
                    lines.append((1, f"now = bool({self.ex(trig.cond)})", trig.span))
                    lines.append((1, f"if now and not armed[{t}]:", trig.span))
                    lines.append((2, f"fired.append(({t}, None))", trig.span))
                    lines.append((1, f"armed[{t}] = now", trig.span))
        finally:
            self.off = saved
        lines.append((1, "if fired:", None))
        lines.append((2, "return fire(st, fired, TR, NL, TT)", None))
        lines.append((1, "return False", None))
        self.helper(name, "st", lines)
        return name

    # ------------------------------------------------------------------ rules and the module
    def rule_blocks(self, rule: m.Rule) -> tuple[list, int]:
        """Write every block of one rule run as its own frame."""
        self.frame = rule.index
        self.npc = 1
        self.pcs: dict[Any, int] = {}
        self.entries: dict[int, tuple] = {}
        self.todo: list = []
        self.nloc = rule.nlocals
        self.slots: dict[Any, int] = {}
        self.off, self.ikey = 0, ()
        prelude: list = []
        self.cov(("rule", rule.index), 1, prelude)
        self.resume(0, ("seq", rule.body, 0, 0, (), ("ret",)), rule.span, prelude)
        while self.todo:
            pc, ctx, pre = self.todo.pop(0)
            self.nsoft = 0
            lines = list(pre)
            self.emit_ctx(lines, ctx, 1)
            self.function(f"r{rule.index}_{pc}", "st, loc, fr, left", lines)
        return [self.entries[pc] for pc in range(self.npc)], self.nloc

    def function(self, name: str, args: str, lines: list) -> None:
        body = [(0, f"def {name}({args}):", None)]
        body += _prologue(lines, 1)
        body += lines
        self.blocks.append(body)

    def driver(self) -> None:
        """The driver: setup once, then turns forever (a turn, then the next player)."""
        model = self.model
        d = len(model.rules)
        self.code.append([(BLOCK, f"r{d}_{pc}", None, None, None) for pc in range(3)])
        self.nlocals.append(0)
        advance = tuple(i for i, t in enumerate(model.triggers) if t.reads_current)
        self.function(f"r{d}_0", "st, loc, fr, left", [
            (1, "left -= 1", None), (1, "if left < 0:", None), (2, "runaway()", None),
            (1, "fr[1] = 1", None),
            (1, f"st.stack.append([{model.setup_rule}, 0, [None] * NL[{model.setup_rule}]])", None),
            (1, "return left", None)])
        self.function(f"r{d}_1", "st, loc, fr, left", [
            (1, "if st.pause_at_turn:", None), (2, "st.pause_at_turn = False", None), (2, f"return {STOP}", None),
            (1, "fr[1] = 2", None), (1, "st.turn += 1", None),
            (1, "if st.log is not None:", None),
            (2, "st.log.append({'type': 'turn', 'turn': st.turn, 'player': PL(st.current)})", None),
            (1, f"st.stack.append([{model.turn_rule}, 0, [None] * NL[{model.turn_rule}]])", None),
            (1, "if st.armed is None:", None), (2, "arm(st)", None),
            (1, "return left", None)])
        lines = [
            (1, "if st.extra_turn:", None), (2, "st.extra_turn = False", None),
            (1, "elif st.next_player >= 0:", None), (2, "st.current = st.next_player", None),
            (2, "st.next_player = -1", None),
            (1, "else:", None), (2, "st.current = (st.current + 1) % st.players", None),
            (1, "fr[1] = 1", None),
            (1, "left -= 1", None), (1, "if left < 0:", None), (2, "runaway()", None)]
        if advance:
            lines.append((1, f"{self.check_fn(advance)}(st)", None))
        lines.append((1, "return left", None))
        self.function(f"r{d}_2", "st, loc, fr, left", lines)
        alltrig = tuple(range(len(model.triggers)))
        each = self.const(tuple(t.each for t in model.triggers))
        arm = [(1, f"st.armed = [[False] * st.players if each else False for each in {each}]", None)]
        arm.append((1, f"return {self.check_fn(alltrig)}(st)" if alltrig else "return False", None))
        self.helper("arm", "st", arm)

    def standings(self) -> None:
        """Ranking keys and score sheet lines, pure defines computed once per arguments in one standings."""
        self.memo = {}
        self.off = 0
        model = self.model
        self.rank_fns = []
        for k, (_direction, e) in enumerate(model.ranking.keys):
            self.helper(f"rk{k}", "st, loc", [(1, f"return {self.ex(e)}", model.ranking.span)])
            self.rank_fns.append(f"rk{k}")
        self.sheet_fns = []
        for n, sheet in enumerate(model.sheets):
            names = []
            for i, (_label, e) in enumerate(sheet.lines):
                self.helper(f"sh{n}_{i}", "st, loc", [(1, f"return {self.ex(e)}", sheet.span)])
                names.append(f"sh{n}_{i}")
            self.sheet_fns.append(names)
        clears = [(1, f"{name}_memo.clear()", None) for name in self.memo.values()] or [(1, "pass", None)]
        self.helper("reset_memo", "", clears)
        self.memo = None
        for i, counter in enumerate(model.counters):
            self.helper(f"ci{i}", "st, loc", [(1, f"return {self.ex(counter.init)}", counter.span)])

    def generate(self) -> Generated:
        """Write the whole module."""
        self.code: list[list[Any]] = []
        self.nlocals: list[int] = []
        self.blocks: list[list] = []
        model = self.model
        self.frames = [model.setup_rule, model.turn_rule] + [t.rule for t in model.triggers]
        done: dict[int, tuple[list, int]] = {}
        while self.frames:
            r = self.frames.pop(0)
            if r not in done:
                done[r] = self.rule_blocks(model.rules[r])
        for rule in model.rules:  # rules that only ever run inlined have no entry points of their own
            code, nloc = done.get(rule.index, ([], rule.nlocals))
            self.code.append(code)
            self.nlocals.append(nloc)
        self.driver()
        self.standings()
        model = self.model
        self.consts["NL"] = self.nlocals
        self.consts["TR"] = [t.rule for t in model.triggers]
        self.consts["TT"] = [model.rules[t.rule].title or model.rules[t.rule].name for t in model.triggers]
        self.consts["TL"] = [[None] * max(1, self.nlocals[t.rule]) for t in model.triggers]
        self.consts["fire"] = runtime.fire
        self.consts["last_n"] = last_n
        out = self.out
        out.add(0, "# Generated by rulelang from a checked model (see rulelang/compile/codegen.py).", None)
        for fn in self.helpers + self.blocks:
            out.add(0, "", None)
            for ind, text, span in fn:
                out.add(ind, text, span)
        return Generated(
            source=out.text(), filename=self.filename, lines=LineTable(self.filename, out.spans),
            constants=self.consts, code=self.code, nlocals=self.nlocals, checks=self.checks, enums=self.enums,
            fallbacks=self.fallbacks, constructs=self.constructs, fallback_runs=self.fallback_runs,
            fallback_kinds=self.fallback_kinds, rank_fns=self.rank_fns, sheet_fns=self.sheet_fns,
            ncounters=len(model.counters),
        )


class _Offset:
    """Context manager: the compiler builds closures at this local-slot offset."""

    def __init__(self, comp: Compiler, off: int) -> None:
        self.comp, self.off = comp, off

    def __enter__(self) -> None:
        self.saved = self.comp.offset
        self.comp.offset = self.off

    def __exit__(self, *exc: Any) -> None:
        self.comp.offset = self.saved


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


def _canonical(e: Any, bound: frozenset[int], free: list[int]) -> Any:
    """A hashable form of an IR expression, ignoring spans; ``free`` collects the local slots it reads
    that it does not bind itself. Slots are kept as they are: two nodes share a memo only when
    they read and write the same slots."""
    if isinstance(e, m.Local):
        if e.slot not in bound and e.slot not in free:
            free.append(e.slot)
        return ("Local", e.slot)
    if isinstance(e, m.Gen):
        inner = bound | {e.var}
        return ("Gen", e.func, e.var, _canonical(e.iterable, bound, free), _canonical(e.expr, inner, free),
                _canonical(e.cond, inner, free))
    if isinstance(e, m.QueryIR):  # its kind_locals are local slots too
        return ("Query",) + tuple(
            tuple(_canonical(m.Local(s, m.KIND), bound, free) for s in e.kind_locals) if f.name == "kind_locals"
            else _canonical(getattr(e, f.name), bound, free)
            for f in attrs.fields(m.QueryIR) if f.name != "span")
    if isinstance(e, (tuple, list)):
        return tuple(_canonical(x, bound, free) for x in e)
    if isinstance(e, frozenset):
        return ("set", tuple(sorted(e)))
    if attrs.has(type(e)):
        return (type(e).__name__,) + tuple(_canonical(getattr(e, f.name), bound, free)
                                           for f in attrs.fields(type(e)) if f.name != "span")
    return e


def _slots_read(exprs: list[Any]) -> set[int]:
    """The local slots these IR expressions (or ranges) read, ``kind_locals`` of queries included."""
    free: list[int] = []
    for e in exprs:
        _canonical(e, frozenset(), free)
    return set(free)


def last_n(out: list[int], n: int) -> list[int]:
    """The last ``n`` of a selection (none for n <= 0)."""
    return out[-n:] if n > 0 else []


# ---------------------------------------------------------------------- building and loading


@attrs.define
class Loaded:
    """A generated module run into a namespace: the functions the engine calls."""

    code: list[list[tuple]]  # as Generated.code, with the block functions in place of their names
    checks: dict[tuple[int, ...], Callable[..., bool]]
    arm: Callable[..., bool]
    rank_fns: list[Callable[..., Any]]
    sheet_fns: list[list[Callable[..., Any]]]
    reset_memo: Callable[[], None]
    counter_inits: list[Callable[..., Any]]
    lines: LineTable
    fallback_runs: list[int]
    fallback_kinds: list[str]


_MODULES = itertools.count(1)


def generate(model: m.Model, coverage: bool = False) -> Generated:
    """Write and compile the Python module of a checked model (with coverage counting, or without)."""
    filename = f"<rulelang-generated-{next(_MODULES)}>"
    gen = CodeGen(model, Compiler(model), coverage, filename).generate()
    gen.code_object = compile(gen.source, filename, "exec")
    linecache.cache[filename] = (len(gen.source), None, gen.source.splitlines(True), filename)
    return gen


def load(gen: Generated, coverage: list[int] | None = None) -> Loaded:
    """Run a generated module (``coverage``: the list its counting variant adds to) and resolve its names."""
    ns: dict[str, Any] = dict(gen.constants)
    ns["COV"] = coverage
    exec(gen.code_object, ns)  # the module only defines functions
    code = [[(ins[0], ns[ins[1]], *ins[2:]) if ins[0] == BLOCK else ins for ins in rule] for rule in gen.code]
    for rule in code:
        for ins in rule:
            if ins[0] in (CHOOSE, ASK) and ins[1].enum is None:
                ins[1].enum = ns[gen.enums[id(ins[1])]]
    return Loaded(
        code=code, checks={which: ns[name] for which, name in gen.checks.items()}, arm=ns["arm"],
        rank_fns=[ns[n] for n in gen.rank_fns], sheet_fns=[[ns[n] for n in names] for names in gen.sheet_fns],
        reset_memo=ns["reset_memo"], counter_inits=[ns[f"ci{i}"] for i in range(gen.ncounters)],
        lines=gen.lines, fallback_runs=gen.fallback_runs, fallback_kinds=gen.fallback_kinds,
    )


def compile_program(model: m.Model) -> Program:
    """Compile a checked model into a Program whose rules run as generated Python."""
    comp = Compiler(model)
    gen = generate(model)
    face_labels, face_weights, face_index = [], [], []
    for kind in model.kinds:
        names: list[str] = []
        weights: list[int] = []
        index: dict[str, int] = {}
        for f in kind.faces:
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
    rank_sheets = [next((i for i, sh in enumerate(model.sheets) if _same(e, _sheet_total(sh))), None)
                   for _d, e in model.ranking.keys]
    return Program(
        model=model, code=gen.code, driver=len(model.rules), kind_of=comp.kind_of, component_labels=comp.labels,
        component_count=len(comp.kind_of), trigger_conds=[], trigger_rules=[t.rule for t in model.triggers],
        counter_inits=[], rank_keys=[(d, None) for d, _e in model.ranking.keys], rank_nlocals=model.ranking.nlocals,
        nlocals=gen.nlocals, face_labels=face_labels, face_weights=face_weights, face_index=face_index,
        trigger_each=[t.each for t in model.triggers],
        sheets=[(sh.name, [(label, None) for label, _e in sh.lines], sh.nlocals) for sh in model.sheets],
        rank_sheets=rank_sheets, generated=gen, constructs=gen.constructs, fallbacks=dict(gen.fallbacks),
    )


def listing(program: Program) -> str:
    """The generated module of a program, for reading: its source, then its constants table.

    Each block says which rule it belongs to; each constant is shown by ``repr`` (cut short
    when long), in a comment.
    """
    gen: Generated = program.generated
    model = program.model
    out = [gen.source.rstrip("\n"), "", "", "# ---- entry points: rule, pc -> block or decision"]
    names = {BLOCK: "block", CHOOSE: "choose", ASK: "ask", ROLL: "roll", DRAW: "draw", SHUFFLE: "shuffle",
             RANDFIRST: "first player"}
    for r, entries in enumerate(gen.code):
        rule = model.rules[r].name if r < len(model.rules) else "(driver: setup, then turns)"
        for pc, ins in enumerate(entries):
            what = ins[1] if ins[0] == BLOCK else names.get(ins[0], str(ins[0]))
            out.append(f"#   {r} {rule!r} pc {pc}: {what}" + (f"  ({ins[4]})" if ins[4] is not None else ""))
    out += ["", "# ---- constants (the only way user values enter the module)"]
    for name, value in gen.constants.items():
        text = repr(value) if not callable(value) else f"<{getattr(value, '__qualname__', type(value).__name__)}>"
        if len(text) > 100:
            text = text[:97] + "..."
        out.append(f"#   {name} = {text}")
    fallbacks = ", ".join(f"{k} x{n}" for k, n in sorted(gen.fallbacks.items())) or "none"
    out.append(f"# fallbacks to compiler closures: {fallbacks}")
    return "\n".join(out) + "\n"
