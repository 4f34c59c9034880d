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

Layout: ``CodeGen`` is put together here from one mixin per construct family, each in a file named by
what it emits (``statements``, ``moves``, ``chance``, ``decisions``, ``options``, ``triggers``, ``blocks``;
``rounds`` and ``piles`` are module functions), over ``exprs.ExprWriter``; this module writes the whole
module (``CodeGen.generate``), compiles, loads and lists it.

What a decision reads (labels, conditions, ranges, zones, draws' filters) is written by the
same expression writer, as small functions of the module (see labels.py); the static
analyses every part shares are analysis.py's.
"""

from __future__ import annotations

import bisect
import itertools
import linecache
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import expansion, piles_runtime, runtime
from rulelang.compile.analysis import Analysis, same, sheet_total
from rulelang.compile.answers import AnswerEmitter
from rulelang.compile.blocks import BlockEmitter
from rulelang.compile.chance import ChanceEmitter
from rulelang.compile.counted import CountedEmitter
from rulelang.compile.decisions import DecisionEmitter
from rulelang.compile.emit import with_rules_lines
from rulelang.compile.exprs import ExprWriter
from rulelang.compile.labels import resolve
from rulelang.compile.linetable import LineTable
from rulelang.compile.moves import MoveEmitter
from rulelang.compile.options import OptionEmitter
from rulelang.compile.program import (
    ASK,
    BLOCK,
    CHOOSE,
    DRAW,
    RANDFIRST,
    ROLL,
    SHUFFLE,
    Construct,
    Program,
)
from rulelang.compile.source_text import last_n
from rulelang.compile.statements import StatementEmitter
from rulelang.compile.triggers import TriggerEmitter
from rulelang.errors import RulelangError

ENGINE_NAMES = ("pick_option", "bad_option", "bad_answer", "BUDGET")  # see load()


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
    constructs: list[Construct]
    rank_fns: list[str]
    sheet_fns: list[list[str]]
    ncounters: int
    code_object: Any = None
    pickers: dict[int, str] = attrs.field(factory=dict)  # id of a ChooseSpec -> its lazy enumerator (see pick)
    # id of a ChooseSpec -> its enumerator with ids; minus that id -> the one writing the ids alone
    id_listers: dict[int, str] = attrs.field(factory=dict)
    members: dict[int, tuple] = attrs.field(factory=dict)  # id of a ChooseSpec -> its membership tests (see member)
    pay_fn: str | None = None  # the declared payoff of a player (the player in loc[0]), if the game declares one
    stand_fn: str | None = None  # every seat's sheets and keys at once (compile/standings.py), if written


class CodeGen(StatementEmitter, MoveEmitter, ChanceEmitter, DecisionEmitter, CountedEmitter, AnswerEmitter,
              OptionEmitter, TriggerEmitter, BlockEmitter, ExprWriter):
    """Writes the Python module of one checked model: statements, blocks, triggers, standings."""

    def generate(self) -> Generated:
        """Write the whole module."""
        self.code: list[list[Any]] = []
        self.written = 0  # lines written so far (see expansion.MAX_GENERATED_LINES)
        self.frame = -1
        self.nlocals: list[int] = []
        self.listing_writes: dict[int, set[int]] = {}  # id of a ChooseSpec -> loc slots its listing stores into
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
        self.consts["bisect_right"] = bisect.bisect_right
        for name in ENGINE_NAMES:  # the engine's helpers where a block takes a decision: given at load
            self.consts[name] = None
        self.consts["last_n"] = last_n
        out = self.out
        out.add(0, "# Generated by rulelang from a checked model (see rulelang/compile/codegen.py).", None)
        for fn in self.helpers + self.blocks:
            out.add(0, "", None)
            for ind, text, span in with_rules_lines(fn):
                out.add(ind, text, span)
        return Generated(
            source=out.text(), filename=self.filename, lines=LineTable(self.filename, out.spans),
            constants=self.consts, code=self.code, nlocals=self.nlocals, checks=self.checks, enums=self.enums,
            constructs=self.constructs, rank_fns=self.rank_fns, sheet_fns=self.sheet_fns,
            ncounters=len(model.counters), pickers=self.pickers, members=self.members, pay_fn=self.pay_fn,
            id_listers=self.id_listers, stand_fn=self.stand_fn,
        )


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
    pay_fn: Callable[..., Any] | None = None  # (st, loc with the player in loc[0]) -> the declared payoff
    tallied_rows: Callable[..., Any] | None = None  # (st, sheet_fns[i]) -> the rows of the last tally, if still so
    stand_fn: Callable[..., Any] | None = None  # (st) -> every seat's sheets and keys (compile/standings.py)


_MODULES = itertools.count(1)


def generate(model: m.Model, coverage: bool = False, compile_source: Callable[[str, str, str], Any] = compile
             ) -> Generated:
    """Write and compile the Python module of a checked model (with coverage counting, or without).

    ``compile_source`` compiles the source as the built-in ``compile(source, filename, "exec")`` does (raising
    what it raises); one that only checks (the language server's) may return None: the module cannot run then."""
    filename = f"<rulelang-generated-{next(_MODULES)}>"
    expansion.check_expansion(model)
    gen = CodeGen(model, Analysis(model), coverage, filename).generate()
    try:
        gen.code_object = compile_source(gen.source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError) as exc:
        # Python's own limits on nesting (e.g. 20 nested loops): said at the rules' place.
        line = getattr(exc, "lineno", None)
        span = gen.lines.span_at(line) if line else None
        raise RulelangError(
            "the rules nest too deeply here to be compiled (Python allows at most 20 loops inside one another)",
            span,
            hint="use fewer loops inside one another (the loops of a rule called inside a loop count too)",
        ) from None
    linecache.cache[filename] = (len(gen.source), None, gen.source.splitlines(True), filename)
    return gen


def load(gen: Generated, coverage: list[int] | None = None, engine_names: dict[str, Any] | None = None) -> Loaded:
    """Run a generated module (``coverage``: the list its counting variant adds to) and resolve its names.

    ``engine_names``: the engine's helpers the generated code calls where it takes a decision
    itself (``pick_option``, ``bad_option``, ``bad_answer``, and the step budget ``BUDGET``)."""
    ns: dict[str, Any] = dict(gen.constants)
    ns["COV"] = coverage
    if engine_names:
        ns.update(engine_names)
    owned = piles_runtime.owned()  # what the helpers remember between calls: this program's own
    ns["move_marker"], ns["tally_rows"], ns["MS"] = owned.move_marker, owned.tally_rows, owned.last_seen
    ns["SEATS_IN"], ns["players_in"] = runtime.seats_in()
    exec(gen.code_object, ns)  # the module only defines functions
    code = [[(ins[0], ns[ins[1]], *ins[2:]) if ins[0] == BLOCK else resolve(ins, ns) for ins in rule]
            for rule in gen.code]  # (a decision's functions are the module's: see labels.resolve)
    for rule in code:
        for ins in rule:
            if ins[0] in (CHOOSE, ASK) and ins[1].enum is None:
                ins[1].enum = ns[gen.enums[id(ins[1])]]
            if ins[0] == CHOOSE and ins[1].pick is None and id(ins[1]) in gen.pickers:
                ins[1].pick = ns[gen.pickers[id(ins[1])]]
            if ins[0] == CHOOSE and ins[1].ids is None and id(ins[1]) in gen.id_listers:
                ins[1].ids = ns[gen.id_listers[id(ins[1])]]
                ins[1].only = ns[gen.id_listers[-id(ins[1])]]
            if ins[0] == CHOOSE and ins[1].member is None and id(ins[1]) in gen.members:
                guard, tests, ranges, exact, prefixes, read_back, wholes = gen.members[id(ins[1])]
                ins[1].member = (ns[guard] if guard else None, tuple(zip(
                    prefixes, wholes, (ns[t] for t in tests), (ns[r] if r else None for r in ranges), exact,
                    read_back, ins[1].options)))
    return Loaded(
        code=code, checks={which: ns[name] for which, name in gen.checks.items()}, arm=ns["arm"],
        rank_fns=[ns[n] for n in gen.rank_fns], sheet_fns=[[ns[n] for n in names] for names in gen.sheet_fns],
        reset_memo=ns["reset_memo"], counter_inits=[ns[f"ci{i}"] for i in range(gen.ncounters)],
        lines=gen.lines,
        pay_fn=ns[gen.pay_fn] if gen.pay_fn else None, tallied_rows=owned.tallied_rows,
        stand_fn=ns[gen.stand_fn] if gen.stand_fn else None,
    )


def compile_model(model: m.Model, compile_source: Callable[[str, str, str], Any] = compile) -> Program:
    """Compile a checked model into a Program whose rules run as generated Python (``compile_source``: see
    :func:`generate`)."""
    comp = Analysis(model)
    gen = generate(model, compile_source=compile_source)
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
    rank_sheets = [next((i for i, sh in enumerate(model.sheets) if same(e, sheet_total(sh))), None)
                   for _d, e in model.ranking.keys]
    return Program(
        model=model, code=gen.code, driver=len(model.rules), kind_of=comp.kind_of, component_labels=comp.labels,
        component_count=len(comp.kind_of), trigger_rules=[t.rule for t in model.triggers],
        rank_keys=[(d, None) for d, _e in model.ranking.keys], rank_nlocals=model.ranking.nlocals,
        nlocals=gen.nlocals, face_labels=face_labels, face_weights=face_weights, face_index=face_index,
        trigger_each=[t.each for t in model.triggers],
        sheets=[(sh.name, [(label, None) for label, _e in sh.lines], sh.nlocals) for sh in model.sheets],
        rank_sheets=rank_sheets, generated=gen, constructs=gen.constructs,
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
        if callable(value):
            text = f"<{getattr(value, '__qualname__', type(value).__name__)}>"
        elif attrs.has(type(value)):  # a compiled spec (its repr shows closures by their addresses)
            text = f"<{type(value).__name__}>"
        else:
            text = repr(value)
        if len(text) > 100:
            text = text[:97] + "..."
        out.append(f"#   {name} = {text}")
    return "\n".join(out) + "\n"
