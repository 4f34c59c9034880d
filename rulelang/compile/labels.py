"""Labels and what a decision reads: the texts of templates, and the small generated functions a
decision's spec holds (its labels, conditions, ranges, chooser, zones, filters and place names).

Each such function is written by the one translation of expressions (``ExprWriter.ex`` and the
query writer) as a module-level function of the generated module, ``def NAME(st, loc): return
...``; the spec holds a ``Pending`` name until ``resolve`` puts the compiled function in its place
when the module is loaded. So what an option's label or condition shows and checks is the same
Python as what a block computes. Label parsers (``label_parser``) stay table-driven: they are data,
the inverse of how a value is shown (a seat's ``P3``, a kind's display name, a component's label),
not a second meaning of any expression.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.program import AskSpec, ChooseSpec, DrawSpec
from rulelang.numbers import ascii_whole

Fn = Callable[..., Any]


@attrs.frozen
class Pending:
    """A function of the generated module, by name, until the module is loaded (see ``resolve``)."""

    name: str


def resolve(value: Any, ns: dict[str, Any]) -> Any:
    """``value`` with every ``Pending`` in it replaced by the function of that name in ``ns``: lists
    and specs are changed in place, tuples rebuilt."""
    if type(value) is Pending:
        return ns[value.name]
    if type(value) is tuple:
        if not any(type(x) in _WALKED for x in value):
            return value
        return tuple(resolve(x, ns) for x in value)
    if type(value) is list:
        for i, x in enumerate(value):
            if type(x) in _WALKED:
                value[i] = resolve(x, ns)
        return value
    if type(value) in (ChooseSpec, AskSpec, DrawSpec):
        for f in attrs.fields(type(value)):
            x = getattr(value, f.name)
            if type(x) in _WALKED:
                setattr(value, f.name, resolve(x, ns))
    return value


_WALKED = (Pending, tuple, list, ChooseSpec, AskSpec, DrawSpec)


class LabelWriter:
    """The label half of the expression writer (mixed into ``ExprWriter``): templates, and the
    decision functions of the specs."""

    model: m.Model
    off: int
    fixed_labels: dict[str, str]  # template_fn's name -> the source of its constant text, where it has no holes

    # ------------------------------------------------------------------ templates
    def text_of(self, type_: str, x: str) -> str:
        """Source of how a value of this type (Python source ``x``) is written in a label or message."""
        if type_ == m.PLAYER:
            return f"PL({x})"
        if type_ == m.KIND:
            return f"KD[{x}]"
        if type_ == m.COMPONENT:
            return f"LB[{x}]"
        if type_ == m.BOOL:
            return f"('yes' if {x} else 'no')"
        if type_ == m.FACE:
            return f"FS[{x}]"  # index -1: not rolled, "no face"
        if type_ == m.INT:
            return f"format_number({x})"
        return f"str({x})"

    def kind_texts(self, t: m.TemplateIR) -> tuple[str, Any] | None:
        """Where a label or narration is fixed text around one kind: the table of its text per kind (the name of
        a constant) and the kind's expression; else None."""
        exprs = [part.expr if isinstance(part, m.SecretPart) else part for part in t.parts]
        holes = [part for part in exprs if not isinstance(part, str)]
        if len(holes) != 1 or holes[0].type != m.KIND:
            return None
        texts = ["".join(kind.display if part is holes[0] else part for part in exprs) for kind in self.model.kinds]
        if getattr(self, "no_kind", False):  # index -1: no kind
            texts.append("".join("no kind" if part is holes[0] else part for part in exprs))
        return self.table(texts, "tk"), holes[0]

    def template(self, t: m.TemplateIR, c: str | None = None) -> str:
        """Source of the text of a label or narration."""
        by_kind = self.kind_texts(t)
        if by_kind is not None:  # fixed text around one kind: a string per kind
            return f"{by_kind[0]}[{self.ex(by_kind[1], c)}]"
        parts = []
        for part in t.parts:
            if isinstance(part, m.SecretPart):
                part = part.expr
            if isinstance(part, str):
                parts.append(self.const(part))
                continue
            parts.append(self.text_of(part.type, self.ex(part, c)))
        if not parts:
            return self.const("")
        return parts[0] if len(parts) == 1 and isinstance(t.parts[0], str) else f"''.join(({', '.join(parts)},))"

    # ------------------------------------------------------------------ decision functions
    def decision_fn(self, prefix: str, args: str, build: Callable[[], list[tuple[int, str, Any]]]) -> Pending:
        """Write a module-level function ``prefix<N>(args)`` whose body ``build`` writes (at indent 1, in a
        scope of its own: it reads the locals from ``loc``), and name it for the spec that holds it."""
        name = f"{prefix}{next(self.names)}"
        with self.own_scope():
            saved = (self.pre, self.memo, self.loc_reads)
            self.pre, self.memo, self.loc_reads = None, None, set()
            try:
                lines = build()
            finally:
                self.pre, self.memo, self.loc_reads = saved
            self.helper(name, args, lines)
        return Pending(name)

    def expr_fn(self, e: Any, prefix: str = "dx") -> Pending:
        """``f(st, loc)``: the value of an expression at a decision."""
        return self.decision_fn(prefix, "st, loc", lambda: [(1, f"return {self.ex(e)}", None)])

    def seat_fn(self, e: Any, what: str, span: Any) -> Pending:
        """``f(st, loc)``: a player expression whose value must be a seat (``nobody`` is an error at ``span``)."""
        return self.decision_fn("ds", "st, loc", lambda: [(1, f"return {self.seat_ex(e, what, span)}", span)])

    def template_fn(self, t: m.TemplateIR) -> Pending:
        """``f(st, loc)``: the text of an option's label."""
        fn = self.decision_fn("dl", "st, loc", lambda: [(1, f"return {self.template(t)}", None)])
        if all(isinstance(part.expr if isinstance(part, m.SecretPart) else part, str) for part in t.parts):
            self.fixed_labels[fn.name] = self.template(t)  # (a text with no holes: one constant)
        return fn

    def label_call(self, fn: Pending) -> str:
        """Source of the text of the label ``fn`` (a ``template_fn``) at a decision: its constant where
        it has no holes, else a call of it."""
        return self.fixed_labels.get(fn.name) or f"{fn.name}(st, loc)"

    def public_template_fn(self, t: m.TemplateIR) -> Pending | None:
        """``f(st, loc)``: a label as the other players see it, or None if it has no secret part."""
        if not any(isinstance(p, m.SecretPart) for p in t.parts):
            return None
        return self.template_fn(m.TemplateIR(tuple("(hidden)" if isinstance(p, m.SecretPart) else p for p in t.parts)))

    def iterable_fn(self, it: m.IterIR) -> Pending:
        """``f(st, loc)``: the list of values a ``for`` of an option ranges over (a list of its own)."""
        return self.decision_fn("dr", "st, loc", lambda: [(1, f"return {self.iterable(it)}", it.span)])

    def zone_fn(self, sel: m.ZoneSel) -> Pending:
        """``f(st, loc)``: the component list of a zone."""
        return self.decision_fn("dz", "st, loc", lambda: [(1, f"return {self.zone(sel)}", sel.span)])

    def zone_name_fn(self, sel: m.ZoneSel) -> Pending:
        """``f(st, loc)``: (how a zone is named in narration, [zone index, owner or -1])."""
        return self.decision_fn("dn", "st, loc", lambda: [(1, f"return {self.zone_name(sel)}", sel.span)])

    def predicate_fn(self, q: m.QueryIR) -> Pending:
        """``f(st, loc)``: a predicate ``p(c)`` for the query's filter, or None for every component."""

        def build() -> list[tuple[int, str, Any]]:
            c = self.var("c")
            how, src = self.filter(q, c)
            if how == "all":
                return [(1, "return None", q.span)]
            if how == "mask":
                return [(1, f"return {src}.__getitem__", q.span)]
            return [(1, f"return lambda {c}: {src}", q.span)]

        return self.decision_fn("dp", "st, loc", build)

    def value_text_fn(self, type_: str) -> Pending:
        """``f(value)``: how a value of a ``for`` variable of this type is written (in labels and messages)."""
        if type_ not in (m.PLAYER, m.KIND, m.COMPONENT, m.INT, m.FACE):
            type_ = m.STR
        return self.decision_fn("dt", "v", lambda: [(1, f"return {self.text_of(type_, 'v')}", None)])

    def insert_fn(self, zone: m.Zone, place: str | None) -> Pending:
        """``put(lst, ids)``: add ids to a zone's list: kept sorted, on top, or at the bottom."""
        if not zone.ordered:  # (``out`` the zone's list, ``v`` the ids)
            lines = [(1, "if len(v) == 1:", None), (2, "insort(out, v[0])", None), (1, "else:", None),
                     (2, "out += v", None), (2, "out.sort()", None)]
        elif place == "bottom":
            lines = [(1, "out[0:0] = v", None)]
        else:
            lines = [(1, "out += v", None)]  # (in place, as extend)
        return self.decision_fn("dm", "out, v", lambda: lines)

    # the writer's own methods these use (ExprWriter and the query writer define them)
    const: Fn
    table: Fn
    ex: Fn
    seat_ex: Fn
    iterable: Fn
    zone: Fn
    zone_name: Fn
    filter: Fn
    var: Fn
    own_scope: Fn
    helper: Fn
    names: Any
    pre: Any
    memo: Any
    loc_reads: set[int]


def label_parser(model: m.Model, labels: list[str], opt: m.OptionIR) -> Any:
    """Read a label of this option back into its ``for`` values: (regex, converters), or None.

    Table-driven, and data only: each converter is the inverse of how a value of its type is
    shown (``text_of``), a map from text to value. Possible when each of the option's ``for``
    variables is shown by a hole of the label (other holes are skipped: the caller renders the
    label again to compare); replay then checks an action without listing every legal one. A
    hole's position is None when it shows something else.
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
        convert = _reader(model, labels, part.type)
        if convert is None:
            return None
        holes.append((slots.index(part.slot), convert))
    pattern.append("$")
    if sorted({i for i, _ in holes if i is not None}) != list(range(len(slots))):
        return None
    return re.compile("".join(pattern), re.S), holes


def _reader(model: m.Model, labels: list[str], type_: str) -> Fn | None:
    """Text -> value for a label hole of this type (None if it cannot be read back)."""
    if type_ == m.PLAYER:
        return _read_player
    if type_ == m.INT:
        return ascii_whole  # not int(): "١٢" and "1_000" are no number of a label
    if type_ == m.KIND:
        displays = [k.display for k in model.kinds]
        if len(set(displays)) != len(displays):
            return None
        index = {d: i for i, d in enumerate(displays)}
        return lambda text: index[text]
    if type_ == m.COMPONENT:
        by_label = {label: c for c, label in enumerate(labels)}
        return lambda text: by_label[text]
    if type_ == m.FACE:  # (a face of 'faces of KIND': shown by its display name)
        shown = [f.display for f in model.faces]
        if len(set(shown)) != len(shown):
            return None
        by_display = {d: i for i, d in enumerate(shown)}
        return lambda text: by_display[text]
    if type_ == m.STR:
        return str
    return None


def _read_player(text: str) -> int:
    """A seat from its label: ``P3`` is 2, ``nobody`` is -1."""
    if text == "nobody":
        return -1
    if not (text.startswith("P") and text[1:].isascii() and text[1:].isdigit()):
        raise ValueError(text)
    return int(text[1:]) - 1
