"""A fixed action space per game: one id for every option any decision can ever offer.

Computed from the checked model and the compiled decision sites, never from play: every
option of every ``choose`` (``spend`` options included: a ``spend`` is a ``choose``) and
every answer of every ``ask``, times the finite domains of its ``for`` values, gets one id
for the whole game (per number of players), the same in every state and every game.

Numbering (see docs/environments.md): the compiled decision sites are walked in the order
of the program (rule by rule, in the order their code is laid out); each option, in the
order written, takes the next free block of ids unless a block with the same key already
exists:

- an option without ``for``s is one id, keyed by its label text (holes that read the state
  written as in the rules, ``{next player}``): the same label text means the same id at
  every site;
- an option with ``for``s is a block of ``d1 * d2 * ...`` ids for the domains of its
  ranges (the first ``for`` varying slowest, as the engine lists them), keyed by its label
  text and domains: the same template over the same domains shares its block; two options
  of one site never share;
- an ``ask`` answer is one id per label it can render (its ``for`` values written in),
  keyed by the label text.

A value outside its domain at run time (a bound the analysis got wrong) raises
``ActionSpaceError``: never a wrong or truncated id.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile.program import ASK, CHOOSE
from rulelang.compile.runtime import IdsOnly, Listed
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import RulelangError
from rulelang.numbers import format_number
from rulelang.syntax.span import Span, source_line

KEPT_LISTS = 4096  # option lists whose ids an action space keeps (a choice seen again is a look-up)


class ActionSpaceError(RulelangError):
    """An action the fixed action space has no id for, or a space larger than its declared bound."""


_KIND_OPS: dict[str, Callable[[Any, Any], Any]] = {
    "and": lambda a, b: a and b, "or": lambda a, b: a or b, "==": operator.eq, "!=": operator.ne,
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "+": operator.add, "-": operator.sub, "*": operator.mul,
}


_SEAT_RANGES = ("players", "others", "players_in", "others_in")


class _NotStatic(Exception):
    pass


@attrs.define
class Block:
    """A run of ids: one option (or one answer label) and the domains of its ``for`` values."""

    base: int
    size: int
    parts: tuple  # the label: texts, ("value", binding number, how to write it) or ("kind", binding number)
    domains: tuple[tuple[int, ...], ...]
    texts: tuple[Callable[[Any], str], ...]
    strides: tuple[int, ...]
    positions: tuple[dict[int, int], ...]

    def id_of(self, values: Sequence[Any]) -> int | None:
        """The id of these ``for`` values, or None when one is outside its domain."""
        i = self.base
        for value, pos, stride in zip(values, self.positions, self.strides):
            p = pos.get(value)
            if p is None:
                return None
            i += p * stride
        return i

    def values_of(self, action: int) -> tuple[Any, ...]:
        """The ``for`` values of id ``action`` (in this block)."""
        rest = action - self.base
        out = []
        for domain, stride in zip(self.domains, self.strides):
            out.append(domain[rest // stride])
            rest %= stride
        return tuple(out)


@attrs.define
class ActionSpace:
    """Every action of a game (for a number of players) and its id."""

    size: int
    blocks: list[Block]
    choose: dict[int, list[Block]]  # id(ChooseSpec) -> per option, its block
    ask: dict[int, dict[str, int]]  # id(AskSpec) -> answer label -> id
    kind_names: list[str]
    # (spec, options) -> (ids, ids sorted), for option lists seen (at most KEPT_LISTS)
    lists: dict[tuple, tuple[tuple[int, ...], tuple[int, ...]]] = attrs.field(factory=dict, eq=False, repr=False)
    # id(ChooseSpec) -> (option number, values) -> id, for the options seen (at most the choice's blocks' sizes)
    found: dict[int, dict[tuple, int]] = attrs.field(factory=dict, eq=False, repr=False)
    # id(ChooseSpec) -> per option, (its ids' base, per ``for`` a dict: value -> offset in the block): what the
    # compiled listing with ids sums (``ChooseSpec.ids``); a state holding it lists its choices with their ids
    tables: dict[int, tuple] = attrs.field(factory=dict, eq=False, repr=False)
    # id(ChooseSpec) -> action id -> (option number, values): the options taken by id (``option_of``)
    options: dict[int, dict[int, tuple]] = attrs.field(factory=dict, eq=False, repr=False)

    def string(self, action: int) -> str:
        """The stable text of id ``action``: the option's label with its ``for`` values written in."""
        if not 0 <= action < self.size:
            raise ActionSpaceError(f"there is no action {action}: the game's actions are 0 to {self.size - 1}")
        block = self.blocks[bisect.bisect_right([b.base for b in self.blocks], action) - 1]
        values = block.values_of(action)
        out = []
        for part in block.parts:
            if isinstance(part, str):
                out.append(part)
            elif part[0] == "value":
                out.append(block.texts[part[1]](values[part[1]]))
            else:
                out.append(part[2](values[part[1]]))
        return "".join(out)

    def choose_ids(self, spec: Any, options: Sequence[tuple[int, tuple]], where: Span | None) -> list[int]:
        """The ids of a ``choose``'s legal options, as the engine lists them ((option, values) pairs)."""
        return list(self.choose_legal(spec, options, where)[0])

    def choose_legal(self, spec: Any, options: Sequence[tuple[int, tuple]],
                     where: Span | None = None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(the ids of a ``choose``'s legal options in the engine's order, the same ids sorted), kept for the
        option lists seen (at most ``KEPT_LISTS``): a choice seen again is a look-up; another is an id per
        option from the choice's options seen (``found``). Options listed with their ids (a ``Listed``, from
        ``tables``) need no look-up."""
        if type(options) is IdsOnly:  # (the ids alone, listed by the compiled listing)
            return options, sorted(options)  # type: ignore[return-value]
        if type(options) is Listed:
            ids = options.ids
            return ids, sorted(ids)  # type: ignore[return-value]
        key = (id(spec), *options)
        known = self.lists.get(key)
        if known is not None:
            return known
        found = self.found.get(id(spec))
        if found is None:
            if id(spec) not in self.choose:
                raise ActionSpaceError("a choice the action space does not know", where)  # pragma: no cover
            found = self.found[id(spec)] = {}
        try:
            out = [found[option] for option in options]
        except KeyError:
            table = self.choose[id(spec)]
            for option in options:
                if option not in found:
                    index, values = option
                    block = table[index]
                    i = block.id_of(values) if values else block.base
                    if i is None:
                        raise ActionSpaceError(
                            f"an option's values {values!r} are outside the domains the action space was built "
                            "with", where,
                            hint="declare a bound for the option's range (a number or a count of components)") from None
                    found[option] = i
            out = [found[option] for option in options]
        pair = (tuple(out), tuple(sorted(out)))
        if len(self.lists) < KEPT_LISTS:
            self.lists[key] = pair
        return pair

    def option_of(self, spec: Any, action: int) -> tuple[int, tuple]:
        """The option of ``choose`` ``spec`` that id ``action`` stands for, as the engine lists it (option
        number, ``for`` values); ``action`` must be one of the choice's ids (as an ``IdsOnly`` listed it)."""
        known = self.options.get(id(spec))
        if known is None:
            known = self.options[id(spec)] = {}
        option = known.get(action)
        if option is None:
            for index, block in enumerate(self.choose[id(spec)]):
                if block.base <= action < block.base + block.size:
                    option = known[action] = (index, block.values_of(action))
                    break
            else:
                raise ActionSpaceError(f"action {action} is no option of this choice")  # pragma: no cover
        return option

    def ask_ids(self, spec: Any, answers: Sequence[str], where: Span | None) -> list[int]:
        """The ids of an ``ask``'s allowed answers (labels)."""
        table = self.ask.get(id(spec), {})
        out = []
        for label in answers:
            i = table.get(label)
            if i is None:
                raise ActionSpaceError(f"the answer {label!r} has no id in the action space", where,
                                       hint="an answer's label may show only its 'for' values and their kinds")
            out.append(i)
        return out


def find_statements(node: Any, types: tuple[type, ...]) -> Iterator[Any]:
    """Every statement of one of ``types`` inside a statement tree (options' blocks included)."""
    if isinstance(node, types):
        yield node
    if isinstance(node, tuple | list):
        for item in node:
            yield from find_statements(item, types)
    elif attrs.has(type(node)) and not isinstance(node, m.IterIR | m.TemplateIR | m.QueryIR):
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            if isinstance(value, tuple | list) or attrs.has(type(value)):
                yield from find_statements(value, types)


def _hole_texts(span: Span | None) -> list[str] | None:
    """The ``{...}`` holes of the label string starting at ``span``, as written in the source."""
    if span is None:
        return None
    line = source_line(span.file, span.line)
    if line is None:
        return None
    at = line.find('"', span.col - 1)
    if at < 0:
        return None
    holes, depth, current, i = [], 0, "", at + 1
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            current += line[i:i + 2] if depth else ""
            i += 2
            continue
        if ch == '"' and depth == 0:
            return holes
        if ch == "{":
            depth += 1
            if depth == 1:
                current = ""
                i += 1
                continue
        elif ch == "}":
            depth -= 1
            if depth == 0:
                holes.append(current.strip())
                i += 1
                continue
        if depth:
            current += ch
        i += 1
    return None


class _Builder:
    def __init__(self, engine: Engine, players: int, cap: int | None) -> None:
        self.engine = engine
        self.model = engine.model
        self.players = players
        self.cap = cap  # how many values a range with no bound gets (None: such a range is an error)
        program = engine.program
        self.kind_of = program.kind_of
        self.component_labels = program.component_labels
        self.kind_components: dict[int, list[int]] = {}
        for c, k in enumerate(self.kind_of):
            self.kind_components.setdefault(k, []).append(c)
        self.blocks: list[Block] = []
        self.keys: dict[Any, Block] = {}
        self.size = 0

    # -------------------------------------------------------------- domains
    def kind_value(self, e: Any, k: m.Kind) -> Any:
        if isinstance(e, m.ElemAttr):
            if e.attr in k.values:
                return k.values[e.attr]
            attr = self.model.attributes.get(e.attr)
            if attr is None:
                raise _NotStatic
            return attr.default
        if isinstance(e, m.ElemIsKind):
            return k.index in e.kinds
        if isinstance(e, m.Const):
            return e.value
        if isinstance(e, m.UnOp):
            v = self.kind_value(e.operand, k)
            return (not v) if e.op == "not" else -v
        if isinstance(e, m.BinOp) and e.op in _KIND_OPS:
            return _KIND_OPS[e.op](self.kind_value(e.left, k), self.kind_value(e.right, k))
        raise _NotStatic

    def query_kinds(self, q: m.QueryIR) -> list[int]:
        if q.kinds is not None:
            return sorted(q.kinds)
        return [k.index for k in self.model.kinds]

    def count_bound(self, q: m.QueryIR) -> int:
        """The most components ``count(q)`` can be."""
        if q.kinds is None and q.kind_locals:
            counts = sorted((k.count for k in self.model.kinds), reverse=True)
            return sum(counts[:len(q.kind_locals)])
        return sum(self.model.kinds[k].count for k in self.query_kinds(q))

    def bounds(self, e: Any) -> tuple[int | None, int | None]:
        """The least and most an integer expression can be (None: the model does not bound that end)."""
        if isinstance(e, m.Const) and isinstance(e.value, int) and not isinstance(e.value, bool):
            return e.value, e.value
        if isinstance(e, m.Agg) and e.func == "count":
            return 0, self.count_bound(e.query)
        if isinstance(e, m.UnOp) and e.op == "-":
            lo, hi = self.bounds(e.operand)
            return (None if hi is None else -hi), (None if lo is None else -lo)
        if isinstance(e, m.BinOp) and e.op in ("+", "-"):
            (alo, ahi), (blo, bhi) = self.bounds(e.left), self.bounds(e.right)
            if e.op == "-":
                blo, bhi = (None if bhi is None else -bhi), (None if blo is None else -blo)
            low = None if alo is None or blo is None else alo + blo
            return low, (None if ahi is None or bhi is None else ahi + bhi)
        if isinstance(e, m.BinOp) and e.op == "*":
            a, b = self.bounds(e.left), self.bounds(e.right)
            if None in a or None in b:
                return None, None
            corners = [x * y for x in a for y in b]  # type: ignore[operator]
            return min(corners), max(corners)
        if isinstance(e, m.IfElseIR):
            (alo, ahi), (blo, bhi) = self.bounds(e.then), self.bounds(e.orelse)
            return (None if alo is None or blo is None else min(alo, blo)), \
                (None if ahi is None or bhi is None else max(ahi, bhi))
        if isinstance(e, m.Gen) and e.func in ("total", "max", "min") and e.iterable.kind in _SEAT_RANGES:
            return self.gen_bounds(e)
        if isinstance(e, m.Builtin) and e.func in ("min", "max") and e.args:
            got = [self.bounds(a) for a in e.args]
            los, his = [g[0] for g in got], [g[1] for g in got]
            known_lo, known_hi = [x for x in los if x is not None], [x for x in his if x is not None]
            if e.func == "min":
                return (min(known_lo) if len(known_lo) == len(los) else None), (min(known_hi) if known_hi else None)
            return (max(known_lo) if known_lo else None), (max(known_hi) if len(known_hi) == len(his) else None)
        return None, None

    def gen_bounds(self, e: m.Gen) -> tuple[int | None, int | None]:
        """The bounds of ``total``, ``max`` or ``min`` of an expression over players (some of them, where
        the generator has a condition or ranges over the others): a total of counts of each player's own
        zones (``total(count(all in cup of p) for p in players)``) is at most one count of them all, the
        places being apart; any other total at most as many times its expression's bounds as there
        are players."""
        lo, hi = self.bounds(e.expr)
        if e.func != "total":  # (a max or min over no one is an error at run time, not a value)
            return lo, hi
        n = self.players
        zones = e.expr.query.zones if isinstance(e.expr, m.Agg) and e.expr.func == "count" else ()
        if zones and len({sel.zone for sel in zones}) == len(zones) and all(
                type(sel.owner) is m.Local and sel.owner.slot == e.var for sel in zones):
            return 0, self.count_bound(e.expr.query)
        low = None if lo is None else min(0, lo * n)  # (between none and every player counted)
        high = None if hi is None else max(0, hi * n)
        return low, high

    def domain(self, it: m.IterIR, fn: Any, what: str, span: Span | None) -> tuple[int, ...]:
        """Every value a ``for`` range can give, as a superset fixed by the model."""
        if it.kind in ("players", "others", "players_in", "others_in"):
            return tuple(range(self.players))
        if it.kind == "kinds_where":
            try:
                return tuple(k.index for k in self.model.kinds if self.kind_value(it.cond, k))
            except _NotStatic:
                return tuple(k.index for k in self.model.kinds)
        if it.kind == "faces":
            return it.values
        if it.kind == "kinds":
            assert it.query is not None
            return tuple(self.query_kinds(it.query))
        if it.kind == "range":
            low, high = self.bounds(it.low)[0], self.bounds(it.high)[1]
            if low is not None and high is None and self.cap is not None:
                return tuple(range(low, low + self.cap))
            if low is None or high is None:
                raise ActionSpaceError(
                    f"{what} ranges over numbers the model does not bound, so its actions have no fixed ids",
                    it.span or span,
                    hint="bound the range by a number or a count of components (1 to count(k in hand)), "
                         "or give max_actions= to bound it")
            return tuple(range(low, high + 1))
        assert it.query is not None
        return tuple(c for k in self.query_kinds(it.query) for c in self.kind_components.get(k, ()))

    # -------------------------------------------------------------- labels
    def parts(self, template: m.TemplateIR, slots: list[int], names: Sequence[str], span: Span | None) -> tuple:
        """A label as texts and the holes showing ``for`` values; other holes as written in the rules."""
        written = _hole_texts(span)
        holes = [p for p in template.parts if not isinstance(p, str)]
        if written is not None and len(written) != len(holes):
            written = None
        out: list[Any] = []
        h = 0
        for part in template.parts:
            if isinstance(part, str):
                out.append(part)
                continue
            expr = part.expr if isinstance(part, m.SecretPart) else part
            if isinstance(expr, m.Local) and expr.slot in slots:
                out.append(("value", slots.index(expr.slot)))
            elif isinstance(expr, m.CompKind) and isinstance(expr.comp, m.Local) and expr.comp.slot in slots:
                out.append(("kind", slots.index(expr.comp.slot), self.kind_text))
            elif isinstance(expr, m.Const):
                out.append(format_number(expr.value) if isinstance(expr.value, int) else str(expr.value))
            else:
                text = written[h] if written is not None else "..."
                if text.startswith("secret "):
                    text = text[len("secret "):]
                out.append("{" + text + "}")
            h += 1
        merged: list[Any] = []
        for p in out:
            if isinstance(p, str) and merged and isinstance(merged[-1], str):
                merged[-1] += p
            else:
                merged.append(p)
        return tuple(merged)

    def kind_text(self, c: int) -> str:
        """The kind of component ``c`` as a label shows it."""
        return self.model.kinds[self.kind_of[c]].display

    def value_texts(self, bindings: Sequence[tuple[int, m.IterIR]]) -> tuple[Callable[[Any], str], ...]:
        out: list[Callable[[Any], str]] = []
        for _slot, it in bindings:
            if it.type == m.PLAYER:
                out.append(lambda v: f"P{v + 1}")
            elif it.type == m.KIND:
                kinds = self.model.kinds
                out.append(lambda v, kinds=kinds: kinds[v].display)
            elif it.type == m.COMPONENT:
                labels = self.component_labels
                out.append(lambda v, labels=labels: labels[v])
            elif it.type == m.FACE:
                faces = self.model.faces
                out.append(lambda v, faces=faces: faces[v].display)
            else:
                out.append(format_number)
        return tuple(out)

    def block(self, key: Any, parts: tuple, domains: tuple, texts: tuple) -> Block:
        found = self.keys.get(key)
        if found is not None:
            return found
        strides = []
        size = 1
        for d in reversed(domains):
            strides.append(size)
            size *= len(d)
        block = Block(self.size, size, parts, domains, texts, tuple(reversed(strides)),
                      tuple({v: i for i, v in enumerate(d)} for d in domains))
        self.size += size
        if size:
            self.blocks.append(block)
        self.keys[key] = block
        return block

    def choose_site(self, spec: Any, s: m.ChooseS) -> list[Block]:
        table: list[Block] = []
        used: set[int] = set()
        for j, opt in enumerate(s.options):
            slots = [slot for slot, _it in opt.bindings]
            parts = self.parts(opt.label, slots, opt.names, opt.span)
            compiled = spec.options[j][1] if j < len(spec.options) else ()
            what = f"the option {_shape(parts)!r}"
            domains = tuple(self.domain(it, fn, what, opt.span)
                            for (_slot, it), (_s, fn) in zip(opt.bindings, compiled or [(None, None)] * len(slots)))
            key = ("option", _shape(parts), domains)
            block = self.block(key, parts, domains, self.value_texts(opt.bindings))
            if id(block) in used:  # two options of one site: never the same ids
                block = self.block(("site", id(spec), j), parts, domains, self.value_texts(opt.bindings))
            used.add(id(block))
            table.append(block)
        return table

    def ask_site(self, s: m.AskS) -> dict[str, int]:
        table: dict[str, int] = {}
        for n, (label, _cond, span) in enumerate(s.options):
            dynamic = s.dynamic[n] if n < len(s.dynamic) else None
            if dynamic is None:
                table[label] = self.block(("label", label), (label,), (), ()).base
                continue
            template, bindings = dynamic
            slots = [slot for slot, _it in bindings]
            parts = self.parts(template, slots, (), span)
            domains = [self.domain(it, None, f"the answer {_shape(parts)!r}", span) for _slot, it in bindings]
            texts = self.value_texts(bindings)
            for values in _product(domains):
                text = _render(parts, texts, values)
                if text not in table:
                    table[text] = self.block(("label", text), (text,), (), ()).base
        return table


def _product(domains: Sequence[Sequence[int]]) -> Iterator[tuple[int, ...]]:
    if not domains:
        yield ()
        return
    for v in domains[0]:
        for rest in _product(domains[1:]):
            yield (v, *rest)


def _render(parts: tuple, texts: tuple, values: tuple) -> str:
    out = []
    for part in parts:
        if isinstance(part, str):
            out.append(part)
        elif part[0] == "value":
            out.append(texts[part[1]](values[part[1]]))
        else:
            out.append(part[2](values[part[1]]))
    return "".join(out)


def _shape(parts: tuple) -> str:
    """A label template as text: ``for`` values as ``{1}``, ``{2}``... (by binding), kinds as ``{kind of 1}``."""
    return "".join(p if isinstance(p, str) else f"{{{p[1] + 1}}}" if p[0] == "value" else f"{{kind of {p[1] + 1}}}"
                   for p in parts)


def build_action_space(engine: Engine, players: int, max_actions: int | None = None) -> ActionSpace:
    """The game's fixed action space for ``players`` players (``max_actions``: a declared bound, or None).

    A ``for n in LOW to HIGH`` whose HIGH the model does not bound is an error naming the
    option, unless ``max_actions`` is given: then such ranges get as many numbers as fit in
    it (a larger number met in play raises ``ActionSpaceError``).
    """
    try:
        return _build(engine, players, max_actions, None)
    except ActionSpaceError as err:
        if max_actions is None or "does not bound" not in str(err.message):
            raise
    low, high = 1, max_actions
    best = None
    while low <= high:
        mid = (low + high) // 2
        try:
            best, low = _build(engine, players, max_actions, mid), mid + 1
        except ActionSpaceError:
            high = mid - 1
    if best is None:
        return _build(engine, players, max_actions, 1)  # raises: even one number each does not fit
    return best


def _build(engine: Engine, players: int, max_actions: int | None, cap: int | None) -> ActionSpace:
    b = _Builder(engine, players, cap)
    chooses: dict[Span, list[m.ChooseS]] = {}
    asks: dict[Span, list[m.AskS]] = {}
    for rule in engine.model.rules:
        for node in find_statements(rule.body, (m.ChooseS, m.AskS)):
            (chooses if isinstance(node, m.ChooseS) else asks).setdefault(node.span, []).append(node)  # type: ignore
    choose: dict[int, list[Block]] = {}
    ask: dict[int, dict[str, int]] = {}
    for code in engine.code:
        for ins in code:
            if ins[0] == CHOOSE and id(ins[1]) not in choose:
                spec = ins[1]
                found = [s for s in chooses.get(ins[4], []) if len(s.options) == len(spec.options)
                         and all(o.span == sp[0] for o, sp in zip(s.options, spec.spans))]
                if not found:
                    raise ActionSpaceError("a choice the model lacks", ins[4])  # pragma: no cover
                choose[id(spec)] = b.choose_site(spec, found[0])
            elif ins[0] == ASK and id(ins[1]) not in ask:
                found_ask = [s for s in asks.get(ins[4], []) if len(s.options) == len(ins[1].options)]
                if not found_ask:
                    raise ActionSpaceError("an ask the model lacks", ins[4])  # pragma: no cover
                ask[id(ins[1])] = b.ask_site(found_ask[0])
    if b.size == 0:
        b.block(("none",), ("(no action)",), (), ())
    if max_actions is not None and max_actions < b.size:
        raise ActionSpaceError(
            f"{engine.model.title} has {b.size} distinct actions for {players} players, "
            f"more than the declared max_actions={max_actions}",
            hint=f"give max_actions={b.size} or more (or leave it out: the space is sized from the rules)")
    space = ActionSpace(b.size, b.blocks, choose, ask, [k.name for k in engine.model.kinds])
    space.tables = {spec: id_tables(table) for spec, table in choose.items()}
    return space


def id_tables(table: list[Block]) -> tuple:
    """Per option of a choice (its blocks), what its compiled listing sums into each option's id: the block's
    base and, per ``for``, each value of its domain -> its position times its stride (``Block.id_of``)."""
    return tuple((block.base, *({v: p * stride for v, p in pos.items()}
                                for pos, stride in zip(block.positions, block.strides))) for block in table)


def legal_ids(engine: Engine, space: ActionSpace, st: State) -> tuple[int, list[int]]:
    """(the seat to decide now, the ids of its legal actions, in the engine's order)."""
    kind, seat, spec, listed = engine.decision_options(st)
    if kind == "choose":
        return seat, space.choose_ids(spec, listed, engine.where_span(st))
    return seat, space.ask_ids(spec, listed, engine.where_span(st))
