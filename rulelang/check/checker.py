"""AST to checked model: resolves every name, checks arities and types.

Errors are collected, not thrown one at a time: a user fixing a file sees every
problem the checker can find in one run, each with file:line:col and a hint.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable as TIterable
from typing import Any

import attrs

from rulelang.check import budgets, payoffs
from rulelang.check import model as m
from rulelang.check.model import BOOL, COMPONENT, FACE, INT, KIND, PLAYER, STR
from rulelang.check.rounds import RoundChecks, reads_elimination
from rulelang.errors import ErrorList, RulelangError
from rulelang.numbers import MAX_NUMBER
from rulelang.syntax import ast
from rulelang.syntax.loader import SourceFile
from rulelang.syntax.span import Span, source_line

BOX = "box"
ZONE_FLAGS = {"per player", "public", "hidden", "owner", "ordered", "unrolled"}
BUILTINS = {"min": 2, "max": 2, "abs": 1, "seat": 1, "fraction": 2}
COUNTER_VISIBILITY = ("owner", "hidden")
SEAT_LITERAL = re.compile(r"^P([1-9][0-9]{0,2})$")
PARAM_TYPES = {"player": PLAYER, "kind": KIND, "number": INT, "text": STR, "truth": BOOL, "component": COMPONENT}


def split_param(raw: str) -> tuple[str, str | None]:
    """``"k:kind"`` -> ("k", "kind"); ``"k"`` -> ("k", None)."""
    name, _, type_name = raw.partition(":")
    return name, type_name or None


MAX_COMPONENTS = 100_000
"""How many components a game may have in all (every one is an entry of the state)."""

MAX_EXPANSIONS = 100_000
"""How many uses of definitions a game may expand in all (uses inside uses multiply)."""

MAX_DEFINE_DEPTH = 32
"""How many definitions may be used inside one another (each is expanded where it is used)."""


class _Skip(Exception):
    """Raised after an error is recorded, to abandon the construct being checked."""


def _type_of_value(value: Any) -> str:
    if isinstance(value, bool):
        return BOOL
    if isinstance(value, int):
        return INT
    return STR


def _suggest(name: str, candidates: TIterable[str]) -> str | None:
    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


class _RuleScope:
    """Local names of one rule body, with slot allocation."""

    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = [{}]
        self.nslots = 0

    def new_slot(self) -> int:
        self.nslots += 1
        return self.nslots - 1

    def bind(self, name: str, type_: str) -> int:
        slot = self.new_slot()
        self.frames[-1][name] = m.Local(slot, type_)
        return slot

    def bind_expr(self, name: str, expr: Any) -> None:
        self.frames[-1][name] = expr

    def lookup(self, name: str) -> Any | None:
        for frame in reversed(self.frames):
            if name in frame:
                return frame[name]
        return None

    def names(self) -> list[str]:
        return [n for f in self.frames for n in f]

    def push(self) -> None:
        self.frames.append({})

    def pop(self) -> None:
        self.frames.pop()


class Checker(RoundChecks):
    """Checks one game (a file and the files it extends) into a :class:`Model`."""

    def __init__(self, sources: list[SourceFile], option_overrides: dict[str, str] | None = None) -> None:
        self.sources = sources
        self.errors: list[RulelangError] = []
        self.option_overrides = option_overrides or {}
        self.title = ""
        self.players: ast.PlayersDecl | None = None
        self.options: dict[str, m.Option] = {}
        self.attributes: dict[str, m.Attribute] = {}
        self.faces: dict[str, m.Face] = {}
        self.kinds: dict[str, m.Kind] = {}
        self.kind_groups: dict[str, list[int]] = {}  # numbered components: Card -> Card3, Card4, ...
        self.zones: dict[str, m.Zone] = {}
        self.counters: dict[str, m.Counter] = {}
        self.defines: dict[str, ast.DefineDecl] = {}
        self.blocks: dict[str, tuple[ast.BlockDecl, str | None]] = {}
        self.triggers: list[tuple[ast.TriggerDecl, str | None]] = []
        self.rank: ast.RankDecl | None = None
        self.uses_elimination = False
        self.rank_file = -1
        self.payoff_decl: tuple[ast.PayoffDecl, int] | None = None  # the 'payoff' line and its file's index
        self.players_seen = False
        self.sheets: dict[str, ast.SheetDecl] = {}
        self.sections: list[tuple[str, Span]] = []
        self.rule_index: dict[str, int] = {}
        self._define_stack: list[str] = []
        self.zone_classes: dict[str, str] = {}  # zones declared 'per card' (a pile on every card) -> the class
        self._expansions = 0  # definitions expanded so far (each use is expanded in place)

    # ------------------------------------------------------------------ errors
    def error(self, message: str, span: Span | None, hint: str | None = None) -> None:
        self.errors.append(RulelangError(message, span, hint))

    def fail(self, message: str, span: Span | None, hint: str | None = None) -> _Skip:
        self.error(message, span, hint)
        return _Skip()

    # ------------------------------------------------------------------ declarations
    def _declare(self, table: dict, name: str, value: Any, span: Span, what: str) -> None:
        if name in table:
            prev = table[name]
            where = getattr(prev, "span", None)
            self.error(
                f"{what} '{name}' is already declared" + (f" at {where}" if where else ""), span,
                hint="give it another name",
            )
            return
        table[name] = value

    def collect(self) -> None:
        """Gather declarations from every file, base first, applying overrides."""
        box = m.Zone(0, BOX, "the box", False, "hidden", False, False, Span("<builtin>", 1, 1, 1, 1))
        self.zones[BOX] = box
        for index, source in enumerate(self.sources):
            is_variant = index > 0
            section: str | None = None
            game_seen = False
            for decl in source.tree.decls:
                if isinstance(decl, ast.GameDecl):
                    if game_seen:
                        self.error("a file has only one 'game' line", decl.span)
                    game_seen = True
                    self.title = decl.title
                elif isinstance(decl, ast.PlayersDecl):
                    self._players(decl)
                elif isinstance(decl, ast.SectionDecl):
                    section = decl.title
                    self.sections.append((decl.title, decl.span))
                elif isinstance(decl, ast.OptionDecl):
                    if decl.name in self.options and is_variant:
                        self.options[decl.name] = m.Option(decl.name, decl.value, decl.doc, decl.span)
                    else:
                        self._declare(self.options, decl.name, m.Option(decl.name, decl.value, decl.doc, decl.span),
                                      decl.span, "option")
                elif isinstance(decl, ast.AttributeDecl):
                    attr = m.Attribute(decl.name, decl.default, _type_of_value(decl.default), decl.span)
                    self._declare(self.attributes, decl.name, attr, decl.span, "attribute")
                elif isinstance(decl, ast.FaceDecl):
                    self._face(decl)
                elif isinstance(decl, ast.ComponentDecl):
                    self._component(decl)
                elif isinstance(decl, ast.ZoneDecl):
                    self._zone(decl)
                elif isinstance(decl, ast.CounterDecl):
                    counter = m.Counter(len(self.counters), decl.name, decl.per_player, decl.init, decl.doc, decl.span,
                                        visibility=self._counter_visibility(decl))
                    self._declare(self.counters, decl.name, counter, decl.span, "counter")
                elif isinstance(decl, ast.DefineDecl):
                    self._declare(self.defines, decl.name, decl, decl.span, "definition")
                elif isinstance(decl, ast.BlockDecl):
                    self._fixed_title(decl.title, decl.span)
                    self._block(decl, section, is_variant)
                elif isinstance(decl, ast.TriggerDecl):
                    self._fixed_title(decl.title, decl.span)
                    self.triggers.append((decl, section))
                elif isinstance(decl, ast.RankDecl):
                    if self.rank is not None and self.rank_file == index:
                        self.error(f"a second 'rank' line (the first is at {self.rank.span})", decl.span,
                                   hint="a game is ranked by one 'rank' line: join the keys with ', then'")
                    self.rank = decl
                    self.rank_file = index
                elif isinstance(decl, ast.SheetDecl):
                    self._sheet(decl)
                elif isinstance(decl, ast.PayoffDecl):
                    payoffs.collect_payoff(self, decl, index)
            if not game_seen:
                self.error("the file has no 'game \"Title\"' line", Span(source.path, 1, 1, 1, 2),
                           hint="start the file with: game \"Name of the game\"")
        for name, raw in self.option_overrides.items():
            if name not in self.options:
                self.error(f"unknown option '{name}'", None, hint=_suggest(name, self.options) or
                           "options: " + (", ".join(sorted(self.options)) or "(this game has none)"))
                continue
            opt = self.options[name]
            self.options[name] = m.Option(name, self._parse_option_value(name, raw, opt.value), opt.doc, opt.span)

    def _parse_option_value(self, name: str, raw: str, current: Any) -> Any:
        if isinstance(current, bool):
            if raw.lower() in ("true", "yes", "1", "on"):
                return True
            if raw.lower() in ("false", "no", "0", "off"):
                return False
        elif isinstance(current, int):
            try:
                value = int(raw)
            except ValueError:
                pass
            else:
                if abs(value) <= MAX_NUMBER:
                    return value
                self.error(f"option '{name}' = {raw[:20]}... is beyond the largest number rulelang keeps "
                           f"(10^18)", None)
                return current
        else:
            return raw
        self.error(f"option '{name}' needs a {_type_of_value(current)}, not {raw!r}", None)
        return current

    def _fixed_title(self, title: str | None, span: Span) -> None:
        """A rule's or trigger's title is shown as written: holes there would print literally."""
        if title is not None and ("{" in title or "}" in title):
            self.error("a title is fixed text: '{...}' would not be filled in", span,
                       hint="narrate values with 'say \"...{x}...\"' in the block")

    def _counter_visibility(self, decl: ast.CounterDecl) -> str:
        flag = decl.visibility
        if flag is None:
            return "public"
        if flag.name not in COUNTER_VISIBILITY:
            self.error(f"unknown counter property '{flag.name}'", flag.span,
                       hint="'owner' (a per-player counter only its owner sees) or 'hidden' (nobody sees it)")
            return "public"
        if flag.name == "owner" and not decl.per_player:
            self.error("only a per-player counter can be seen by its owner only", flag.span,
                       hint="add 'per player', or use 'hidden'")
            return "public"
        return flag.name

    def _seat(self, node: ast.Expr, scope: _RuleScope, elem: bool, why: str) -> Any:
        """A player expression that must name a seat: ``nobody`` written there is an error."""
        if isinstance(node, ast.Nobody):
            raise self.fail(f"{why}: nobody is no player", node.span,
                            hint="test 'if p != nobody:' first and use p")
        return self.expect(node, scope, PLAYER, elem, why)

    def _players(self, decl: ast.PlayersDecl) -> None:
        self.players_seen = True
        if decl.high > 100:
            self.error(f"{decl.high} players is more than rulelang plays (at most 100)", decl.span)
            return
        if decl.low < 1 or decl.high < decl.low:
            self.error("players must be 'players LOW to HIGH' with 1 <= LOW <= HIGH", decl.span)
            return
        if decl.default is not None and not decl.low <= decl.default <= decl.high:
            self.error(f"the default of {decl.default} players is outside {decl.low} to {decl.high}", decl.span)
            return
        self.players = decl

    def _values(self, pairs: tuple[ast.AttrValue, ...], owner: str) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for pair in pairs:
            if not hasattr(pair, "name"):  # 'sides (...)' outside a component's declaration
                self.error(f"'sides (...)' gives a component the sides it lands on, but this is {owner}",
                           pair.span, hint="write the sides on a card, token or piece: "
                                           "1 Coin token: sides (Heads 1, Tails 1)")
                continue
            attr = self.attributes.get(pair.name)
            if attr is None:
                self.error(f"unknown attribute '{pair.name}' for {owner}", pair.span,
                           hint=_suggest(pair.name, self.attributes) or "declare it first: attribute NAME = default")
                continue
            if _type_of_value(pair.value) != attr.type:
                self.error(f"attribute '{pair.name}' is a {attr.type}, not a {_type_of_value(pair.value)}", pair.span)
                continue
            values[pair.name] = pair.value
        return values

    def _sheet(self, decl: ast.SheetDecl) -> None:
        if not decl.lines:
            self.error(f"score sheet '{decl.name}' has no lines", decl.span)
            return
        total: ast.Expr = decl.lines[0][1]
        for _label, expr, span in decl.lines[1:]:
            total = ast.Binary("+", total, expr, span)
        self._declare(self.defines, decl.name, ast.DefineDecl(decl.name, (decl.var,), total, decl.span), decl.span,
                      "score sheet")
        self.sheets[decl.name] = decl

    def _face(self, decl: ast.FaceDecl) -> None:
        values = self._values(decl.attrs, f"face {decl.name}")
        face = m.Face(len(self.faces), decl.name, decl.display or decl.name, values, decl.span)
        self._declare(self.faces, decl.name, face, decl.span, "face")

    def _component(self, decl: ast.ComponentDecl) -> None:
        faces: list[int] = []
        if decl.cls == "die":
            if not decl.faces and decl.attrs:
                self.error(f"die '{decl.name}' lists attributes where its faces belong", decl.span,
                           hint="write the faces: 2 Red dice: One, Two, Three, Four, Five, Six")
            if len(decl.faces) < 2:
                self.error(f"die '{decl.name}' needs at least two faces", decl.span,
                           hint="list its faces after ':' separated by commas")
            for face in decl.faces:
                found = self.faces.get(face.name)
                if found is None:
                    self.error(f"unknown die face '{face.name}'", face.span,
                               hint=_suggest(face.name, self.faces) or "declare it first: face NAME: attribute value")
                else:
                    faces.append(found.index)
        elif decl.faces:
            self.error(f"only dice have faces; '{decl.name}' is a {decl.cls}", decl.span)
        if decl.sides:
            faces = self.side_faces(decl) if decl.cls != "die" or not decl.faces else faces
        kind = m.Kind(len(self.kinds), decl.name, decl.display or decl.name, decl.cls, decl.count, faces,
                      self._values(decl.attrs, decl.name), decl.span)
        if decl.count < 0:
            self.error("a component count cannot be negative", decl.span)
        total = decl.count + sum(k.count for k in self.kinds.values())
        if total > MAX_COMPONENTS:
            self.error(f"too many components: {min(total, 10**12)}{'+' if total > 10**12 else ''} "
                       f"(a game may have at most {MAX_COMPONENTS})", decl.span)
            kind.count = 0
        self._declare(self.kinds, decl.name, kind, decl.span, "component")
        if decl.group is not None and self.kinds.get(decl.name) is kind:
            if decl.group in self.kinds:
                self.error(f"'{decl.group}' is already a component: numbered ones need another name", decl.span)
            self.kind_groups.setdefault(decl.group, []).append(kind.index)

    def _zone(self, decl: ast.ZoneDecl) -> None:
        flags = set()
        per_kind = None
        for flag in decl.flags:
            if flag.name.startswith("per ") and flag.name != "per player":
                if flag.name[4:] not in self.kinds and budgets.class_word(flag.name[4:]):
                    self.zone_classes[decl.name] = budgets.class_word(flag.name[4:])  # type: ignore[assignment]
                    continue
                kind = self.kinds.get(flag.name[4:])
                if kind is None:
                    self.error(f"'{flag.name}': unknown component '{flag.name[4:]}'", flag.span,
                               hint=_suggest(flag.name[4:], self.kinds) or
                               "'per player', or 'per KIND' for one zone under each component of a kind "
                               "(declare the kind first)")
                else:
                    per_kind = kind.index
                continue
            if flag.name not in ZONE_FLAGS:
                self.error(f"unknown zone property '{flag.name}'", flag.span,
                           hint=_suggest(flag.name, ZONE_FLAGS) or "properties: " + ", ".join(sorted(ZONE_FLAGS)))
            flags.add(flag.name)
        visibility = "public"
        for v in ("hidden", "owner"):
            if v in flags:
                visibility = v
        if "owner" in flags and "per player" not in flags:
            self.error("only a per-player zone can be visible to its owner only", decl.span,
                       hint="add 'per player', or use 'hidden'")
        if decl.name == BOX:
            self.error("'box' is built in: every component starts in the box", decl.span)
            return
        if (per_kind is not None or decl.name in self.zone_classes) and "per player" in flags:
            self.error("a zone is per player or per component, not both", decl.span)
        zone = m.Zone(len(self.zones), decl.name, decl.display or decl.name, "per player" in flags, visibility,
                      "ordered" in flags, "unrolled" in flags, decl.span, per_kind)
        self._declare(self.zones, decl.name, zone, decl.span, "zone")

    def _block(self, decl: ast.BlockDecl, section: str | None, is_variant: bool) -> None:
        if decl.override:
            if decl.name not in self.blocks:
                self.error(f"'override rule {decl.name}' replaces nothing: the base game has no rule '{decl.name}'",
                           decl.span, hint=_suggest(decl.name, self.blocks) or "drop 'override' to add a new rule")
                return
            old, _ = self.blocks[decl.name]
            if [split_param(p)[0] for p in old.params] != [split_param(p)[0] for p in decl.params]:
                self.error(f"rule '{decl.name}' must keep its parameters ({', '.join(old.params) or 'none'})",
                           decl.span)
            self.blocks[decl.name] = (decl, section)
            return
        if decl.name in self.blocks:
            prev, _ = self.blocks[decl.name]
            if decl.name == "turn" and prev.kind != decl.kind:
                self.error(f"a game is played in turns or in rounds, not both ('{prev.kind}:' at {prev.span})",
                           decl.span, hint="keep 'turn:' (one player at a time) or 'round:' (the whole table)")
                return
            what = "rule" if decl.kind == "rule" else decl.kind
            hint = "write 'override rule NAME:' in a variant" if is_variant and decl.kind == "rule" else None
            self.error(f"{what} '{decl.name}' is already declared at {prev.span}", decl.span, hint=hint)
            return
        self.blocks[decl.name] = (decl, section)

    # ------------------------------------------------------------------ expressions
    def expr(self, node: ast.Expr, scope: _RuleScope, elem: bool = False) -> Any:
        """Resolve and type one expression (``elem``: inside a ``where``)."""
        if isinstance(node, ast.Lit):
            return m.Const(node.value, _type_of_value(node.value))
        if isinstance(node, ast.Name):
            return self._name(node, scope, elem)
        if isinstance(node, ast.Current):
            self.no_current("'current'", node.span)
            return m.CurrentPlayer()
        if isinstance(node, ast.IsOut):
            return self.is_out(node, scope, elem)
        if isinstance(node, ast.PlayerAfter):
            if node.target is None:
                self.no_current("'next player'", node.span)
            target = None
            word = "after" if node.step > 0 else "before"
            if node.target is not None:
                target = self._seat(node.target, scope, elem, f"'player {word}' needs a player")
            return m.After(target, step=node.step, span=node.span)
        if isinstance(node, ast.Of):
            return self._of(node, scope, elem)
        if isinstance(node, ast.Call):
            return self._call(node, scope, elem)
        if isinstance(node, ast.Unary):
            if node.op == "not":
                return m.UnOp("not", self.expect(node.operand, scope, BOOL, elem, "'not' needs true/false"), BOOL)
            return m.UnOp("-", self.expect(node.operand, scope, INT, elem, "'-' needs a number"), INT)
        if isinstance(node, ast.Binary):
            return self._binary(node, scope, elem)
        if isinstance(node, ast.Nobody):
            return m.Const(-1, PLAYER)
        if isinstance(node, ast.IfElse):
            cond = self.expect(node.cond, scope, BOOL, elem, "'if' needs a true/false condition")
            then = self.expr(node.then, scope, elem)
            orelse = self.expr(node.orelse, scope, elem)
            if then.type != orelse.type and "any" not in (then.type, orelse.type):
                raise self.fail(f"both sides of '... if ... else ...' must be alike: {then.type} and {orelse.type}",
                                node.span)
            return m.IfElseIR(cond, then, orelse, then.type)
        if isinstance(node, ast.AnswerOf):
            return m.AnswerGet(self._seat(node.target, scope, elem, "'answer of' needs a player"))
        if isinstance(node, ast.Template):
            return m.Format(self.template(node, scope))
        if isinstance(node, ast.GenCall):
            return self._gen(node, scope, elem)
        if isinstance(node, ast.Aggregate):
            query = self.query(node.query, scope)
            if node.func == "sum":
                assert node.attr is not None
                attr = self.attributes.get(node.attr.name)
                if attr is None:
                    raise self.fail(f"unknown attribute '{node.attr.name}'", node.attr.span,
                                    hint=_suggest(node.attr.name, self.attributes))
                if attr.type != INT:
                    raise self.fail(f"cannot sum '{attr.name}': it is a {attr.type}", node.attr.span)
                return m.Agg("sum", attr.name, query, INT)
            return m.Agg(node.func, None, query, INT if node.func == "count" else BOOL)
        if isinstance(node, ast.Places):
            return budgets.places(self, node, scope, elem)
        raise self.fail("this expression is not supported here", getattr(node, "span", None))  # pragma: no cover

    def _gen(self, node: ast.GenCall, scope: _RuleScope, elem: bool) -> Any:
        if node.func not in ("max", "min", "total"):
            raise self.fail(f"unknown function '{node.func}' over a 'for'", node.span,
                            hint="use max(...), min(...) or total(...) with 'for'")
        iterable = self.iterable(node.iterable, scope)
        scope.push()
        var = scope.bind(node.var, iterable.type)
        try:
            value = self.expect(node.expr, scope, INT, elem, f"{node.func}(...) needs numbers")
            cond = None
            if node.cond is not None:
                cond = self.expect(node.cond, scope, BOOL, elem, "'if' needs a true/false condition")
        finally:
            scope.pop()
        return m.Gen(node.func, value, var, iterable, cond)

    def expect(self, node: ast.Expr, scope: _RuleScope, type_: str, elem: bool, why: str) -> Any:
        """Resolve ``node`` and require it to be of ``type_``."""
        ir = self.expr(node, scope, elem)
        if ir.type != type_ and ir.type != "any":
            raise self.fail(f"{why}, but this is a {ir.type}", node.span)
        return ir

    def _name(self, node: ast.Name, scope: _RuleScope, elem: bool) -> Any:
        name = node.name
        local = scope.lookup(name)
        if local is not None:
            return local
        if name in self.defines:
            return self._inline_define(self.defines[name], (), node.span, scope)
        if name in self.options:
            value = self.options[name].value
            return m.Const(value, _type_of_value(value))
        if elem and name in self.attributes:
            return m.ElemAttr(name, self.attributes[name].type)
        if elem and name in self.kinds:
            return m.ElemIsKind(frozenset([self.kinds[name].index]))
        if name in self.kinds:
            return m.Const(self.kinds[name].index, KIND)
        if name in self.faces:
            return m.Const(self.faces[name].index, FACE)
        if name in self.counters:
            counter = self.counters[name]
            if counter.per_player:
                raise self.fail(f"counter '{name}' is per player", node.span,
                                hint=f"say whose: '{name} of current' or '{name} of p'")
            return m.CounterGet(counter.index, None, counter.type, node.span)
        if name in self.attributes:
            raise self.fail(f"attribute '{name}' belongs to a component", node.span,
                            hint="use it inside 'where', or sum it: sum(" + name + " of all in ZONE)")
        if name in self.zones:
            raise self.fail(f"zone '{name}' is not a value", node.span,
                            hint=f"count its components: count(all in {name})")
        if name == "players":
            return m.Builtin("players", (), INT)
        seat = SEAT_LITERAL.match(name)
        if seat is not None:
            n = int(seat.group(1))
            most = self.players.high if self.players is not None else 100
            if n > most:
                raise self.fail(f"there is no {name}: the game takes at most {most} players", node.span)
            return m.SeatLit(n - 1, node.span)
        candidates = set(scope.names()) | set(self.defines) | set(self.options) | set(self.counters)
        if elem:
            candidates |= set(self.attributes) | set(self.kinds)
        raise self.fail(f"unknown name '{name}'", node.span, hint=_suggest(name, candidates))

    def _inline_define(self, decl: ast.DefineDecl, args: tuple[Any, ...], span: Span, scope: _RuleScope) -> Any:
        if len(args) != len(decl.params):
            raise self.fail(f"'{decl.name}' takes {len(decl.params)} argument(s), not {len(args)}", span,
                            hint=f"declared at {decl.span} as {decl.name}({', '.join(decl.params)})")
        if decl.name in self._define_stack:
            raise self.fail(f"definition '{decl.name}' refers to itself", span)
        self._expansions += 1
        if self._expansions > MAX_EXPANSIONS:
            raise self.fail(f"definitions expand to more than {MAX_EXPANSIONS} uses in all", span,
                            hint=f"'{decl.name}' is used inside definitions that are used many times each; "
                                 "use a counter or fewer nested uses")
        if len(self._define_stack) >= MAX_DEFINE_DEPTH:
            raise self.fail(f"definitions nest too deeply: more than {MAX_DEFINE_DEPTH} uses inside one another",
                            span, hint="through " + " -> ".join(self._define_stack[:3]) + " -> ... -> "
                            + decl.name + "; write a shorter chain")
        self._define_stack.append(decl.name)
        inner = _RuleScope()
        inner.nslots = scope.nslots
        for raw, arg in zip(decl.params, args):
            pname, tname = split_param(raw)
            want = PARAM_TYPES.get(tname) if tname else None
            if tname and want is None:
                raise self.fail(f"unknown type '{tname}' for parameter '{pname}'", decl.span,
                                hint="types: " + ", ".join(PARAM_TYPES))
            if want is not None and arg.type not in (want, "any"):
                raise self.fail(f"'{decl.name}' needs a {want} for '{pname}', but this is a {arg.type}", span)
            inner.bind_expr(pname, arg)
        try:
            return self.expr(decl.expr, inner)
        finally:
            scope.nslots = max(scope.nslots, inner.nslots)
            self._define_stack.pop()

    def _of(self, node: ast.Of, scope: _RuleScope, elem: bool) -> Any:
        if node.name in self.counters:
            counter = self.counters[node.name]
            if not counter.per_player:
                raise self.fail(f"counter '{node.name}' is shared, not per player", node.span,
                                hint=f"write just '{node.name}'")
            owner = self._seat(node.target, scope, elem, f"'{node.name} of' needs a player")
            return m.CounterGet(counter.index, owner, counter.type, node.span)
        if node.name in self.defines:
            arg = self.expr(node.target, scope, elem)
            return self._inline_define(self.defines[node.name], (arg,), node.span, scope)
        if node.name in self.attributes:
            target = self.expr(node.target, scope, elem)
            if target.type == COMPONENT:
                return m.CompAttr(node.name, target, self.attributes[node.name].type)
            if target.type not in (KIND, "any"):
                raise self.fail(f"'{node.name} of' needs a kind or one component, but this is a {target.type}",
                                node.target.span)
            return m.KindAttr(node.name, target, self.attributes[node.name].type)
        if node.name in ("face", "kind"):
            target = self.expr(node.target, scope, elem)
            if target.type not in (COMPONENT, "any"):
                raise self.fail(f"'{node.name} of' needs one component, but this is a {target.type}",
                                node.target.span, hint="for c in all in ZONE: ... {" + node.name + " of c}")
            return m.CompFace(target) if node.name == "face" else m.CompKind(target)
        if node.name in self.zones:
            raise self.fail(f"zone '{node.name}' is not a value", node.span,
                            hint=f"count its components: count(all in {node.name} of ...)")
        raise self.fail(f"unknown counter '{node.name}'", node.span,
                        hint=_suggest(node.name, list(self.counters) + list(self.defines)))

    def _call(self, node: ast.Call, scope: _RuleScope, elem: bool) -> Any:
        args = tuple(self.expr(a, scope, elem) for a in node.args)
        if node.name in self.defines:
            return self._inline_define(self.defines[node.name], args, node.span, scope)
        if node.name in BUILTINS:
            if len(args) != BUILTINS[node.name]:
                raise self.fail(f"{node.name}() takes {BUILTINS[node.name]} argument(s), not {len(args)}", node.span)
            want = PLAYER if node.name == "seat" else INT
            for a, raw in zip(args, node.args):
                if a.type not in (want, "any"):
                    raise self.fail(f"{node.name}() needs a {want}, but this is a {a.type}", raw.span)
                if want == PLAYER and isinstance(raw, ast.Nobody):
                    raise self.fail("nobody has a seat", raw.span, hint="check for 'nobody' first")
            return m.Builtin(node.name, args, INT, node.span)
        if node.name in self.blocks:
            raise self.fail(f"'{node.name}' is a rule, not a value", node.span,
                            hint="call a rule as a statement on its own line")
        raise self.fail(f"unknown function '{node.name}'", node.span,
                        hint=_suggest(node.name, list(self.defines) + list(BUILTINS)))

    def _binary(self, node: ast.Binary, scope: _RuleScope, elem: bool) -> Any:
        op = node.op
        if op in ("and", "or"):
            left = self.expect(node.left, scope, BOOL, elem, f"'{op}' needs true/false on its left")
            right = self.expect(node.right, scope, BOOL, elem, f"'{op}' needs true/false on its right")
            return m.BinOp(op, left, right, BOOL, node.span)
        left = self.expr(node.left, scope, elem)
        right = self.expr(node.right, scope, elem)
        if op in ("==", "!="):
            if left.type != right.type and "any" not in (left.type, right.type):
                raise self.fail(f"cannot compare a {left.type} with a {right.type}", node.span)
            return m.BinOp(op, left, right, BOOL, node.span)
        for side, raw in ((left, node.left), (right, node.right)):
            if side.type not in (INT, "any"):
                raise self.fail(f"'{op}' needs numbers, but this is a {side.type}", raw.span)
        return m.BinOp(op, left, right, BOOL if op in ("<", ">", "<=", ">=") else INT, node.span)

    # ------------------------------------------------------------------ queries
    def zone_sel(self, ref: ast.ZoneRef, scope: _RuleScope) -> m.ZoneSel:
        """Resolve ``zone`` or ``zone of player``."""
        zone = self.zones.get(ref.name)
        if zone is None:
            raise self.fail(f"unknown zone '{ref.name}'", ref.span,
                            hint=_suggest(ref.name, self.zones) or "declare it: zone NAME")
        if zone.per_class is not None:
            cls = self.zone_classes.get(zone.name, "component")
            if ref.owner is None:
                raise self.fail(f"zone '{ref.name}' is one per {cls}", ref.span,
                                hint=f"say which: '{ref.name} of c' with c a {cls}")
            owner = self.expect(ref.owner, scope, COMPONENT, False, f"'{ref.name} of' needs a {cls}")
            return m.ZoneSel(zone.index, owner, ref.span)
        if zone.per_kind is not None:
            kind = self.kinds_by_index[zone.per_kind]
            if ref.owner is None:
                raise self.fail(f"zone '{ref.name}' is one per {kind.name}", ref.span,
                                hint=f"say which: '{ref.name} of b' with b a {kind.name}")
            owner = self.expect(ref.owner, scope, COMPONENT, False, f"'{ref.name} of' needs a {kind.name}")
            return m.ZoneSel(zone.index, owner, ref.span)
        if zone.per_player and ref.owner is None:
            raise self.fail(f"zone '{ref.name}' is per player", ref.span,
                            hint=f"say whose: '{ref.name} of current'")
        if not zone.per_player and ref.owner is not None:
            raise self.fail(f"zone '{ref.name}' is shared, not per player", ref.span,
                            hint=f"write just '{ref.name}'")
        owner = None
        if ref.owner is not None:
            owner = self._seat(ref.owner, scope, False, f"'{ref.name} of' needs a player")
        return m.ZoneSel(zone.index, owner, ref.span)

    def query(self, node: ast.Query, scope: _RuleScope) -> m.QueryIR:
        """Resolve a selection of components."""
        kinds: set[int] = set()
        kind_locals: list[int] = []
        for name in node.kinds:
            local = scope.lookup(name.name)
            if isinstance(local, m.Const) and local.type == KIND:  # a definition's parameter given a kind name
                kinds.add(local.value)
                continue
            if local is not None:
                if getattr(local, "type", None) not in (KIND, "any") or not isinstance(local, m.Local):
                    hint = None
                    if getattr(local, "type", None) == COMPONENT:
                        hint = (f"a query selects by kind, not one component: 'let k = kind of {name.name}', "
                                f"then 'move 1 k from ...' moves one like it ('where ATTR == ...' narrows it)")
                    raise self.fail(f"'{name.name}' is not a kind of component", name.span, hint=hint)
                kind_locals.append(local.slot)
                continue
            if name.name in self.kind_groups:
                kinds.update(self.kind_groups[name.name])
                continue
            kind = self.kinds.get(name.name)
            if kind is None:
                raise self.fail(f"unknown component '{name.name}'", name.span,
                                hint=_suggest(name.name, list(self.kinds) + scope.names()))
            kinds.add(kind.index)
        zones = tuple(self.zone_sel(z, scope) for z in node.zones)
        where = None
        if node.where is not None:
            where = self.expect(node.where, scope, BOOL, True, "'where' needs a true/false condition")
        if node.quantity == "random" and len(zones) != 1:
            raise self.fail("a random draw comes from exactly one zone", node.span)
        if node.quantity == "random" and self.zones_by_index[zones[0].zone].ordered:
            raise self.fail("a random draw needs an unordered zone (a bag, a face-down mix)", node.span,
                            hint="from an ordered pile, shuffle it and take from the top: move 1 from ZONE")
        count_expr = None
        if node.count_expr is not None:
            count_expr = self.expect(node.count_expr, scope, INT, False, "how many must be a number")
        return m.QueryIR(
            node.quantity, node.count, frozenset(kinds) if kinds else None,
            tuple(kind_locals), node.exclude, zones, where, node.span, count_expr,
        )

    def iterable(self, node: ast.Iterable, scope: _RuleScope) -> m.IterIR:
        """Resolve what a ``for`` ranges over."""
        if node.kind in ("others", "others_in"):
            self.no_current("'other players'", node.span)
        if node.kind in ("players_in", "others_in"):
            self.uses_elimination = True
        if node.kind in ("players", "others", "players_in", "others_in"):
            return m.IterIR(node.kind, None, None, None, PLAYER)
        if node.kind == "kinds_where":
            cond = self.expect(node.cond, scope, BOOL, True, "'kinds where' needs a true/false condition")
            if not _static(cond):
                raise self.fail("'kinds where' may only test the kinds' own attributes and names", node.span,
                                hint="for a test that depends on play, add 'if ...' to the option or loop")
            return m.IterIR("kinds_where", None, None, None, KIND, cond)
        if node.kind == "range":
            low = self.expect(node.low, scope, INT, False, "a range needs numbers")
            high = self.expect(node.high, scope, INT, False, "a range needs numbers")
            return m.IterIR("range", None, low, high, INT, span=node.span)
        assert node.query is not None
        query = self.query(node.query, scope)
        if query.quantity == "random":
            raise self.fail("cannot range over a random selection", node.span,
                            hint="draw first with 'move N random from ...', then range over where they went")
        return m.IterIR(node.kind, query, None, None, KIND if node.kind == "kinds" else COMPONENT)

    def template(self, node: ast.Template, scope: _RuleScope) -> m.TemplateIR:
        """Resolve the holes of a label or narration string."""
        parts = tuple(
            p if isinstance(p, str)
            else m.SecretPart(self.expr(p.expr, scope)) if isinstance(p, ast.Secret)
            else self.expr(p, scope)
            for p in node.parts
        )
        return m.TemplateIR(parts)

    # ------------------------------------------------------------------ statements
    def block(self, stmts: tuple, scope: _RuleScope, ctx: dict) -> tuple:
        """Resolve a list of statements, skipping (after reporting) the broken ones."""
        out = []
        for stmt in stmts:
            try:
                ir = self.stmt(stmt, scope, ctx)
                if isinstance(ir, tuple):  # a construct checked into several statements ('spend')
                    out.extend(ir)
                else:
                    out.append(ir)
            except _Skip:
                if isinstance(stmt, ast.Let) and scope.lookup(stmt.name) is None:
                    scope.bind(stmt.name, "any")  # so later uses do not cascade into more errors
                if isinstance(stmt, ast.PickAt) and scope.lookup(stmt.var) is None:
                    scope.bind(stmt.var, PLAYER)
                continue
        return tuple(out)

    def stmt(self, node: ast.Stmt, scope: _RuleScope, ctx: dict) -> Any:
        """Resolve one statement."""
        if isinstance(node, ast.Move):
            query = self.query(node.query, scope)
            if not query.zones:
                raise self.fail("say where the components come from", node.span)
            dest = self.zone_sel(node.dest, scope)
            if node.place is not None and not self._zone_by_index(dest.zone).ordered:
                raise self.fail(f"'at {node.place}' needs an ordered zone", node.span,
                                hint="declare the zone with the property 'ordered'")
            return m.MoveS(query, dest, node.place, node.span)
        if isinstance(node, ast.Roll):
            query = self.query(node.query, scope)
            for k in query.kinds or ():
                kind = self.kinds_by_index[k]
                if not kind.faces:
                    raise self.fail(f"cannot {node.verb} '{kind.name}': it is a {kind.cls}, not a die", node.span,
                                    hint=None if kind.cls == "die" else
                                    "give it sides to land on: 'sides (Heads 1/2, Tails 1/2)'")
            if query.quantity == "random":
                raise self.fail("roll the dice themselves, not a random draw", node.span)
            return m.RollS(query, node.span, node.verb)
        if isinstance(node, ast.Shuffle):
            zone = self.zone_sel(node.zone, scope)
            if not self._zone_by_index(zone.zone).ordered:
                raise self.fail(f"zone '{node.zone.name}' is not ordered, so it cannot be shuffled", node.span,
                                hint="declare it with the property 'ordered' (a deck or a pile)")
            return m.ShuffleS(zone, node.span)
        if isinstance(node, ast.Assign):
            counter = self.counters.get(node.name)
            if counter is None:
                raise self.fail(f"unknown counter '{node.name}'", node.span,
                                hint=_suggest(node.name, self.counters) or "declare it: counter NAME = 0")
            if counter.per_player and node.owner is None:
                raise self.fail(f"counter '{node.name}' is per player", node.span,
                                hint=f"say whose: '{node.name} of current'")
            if not counter.per_player and node.owner is not None:
                raise self.fail(f"counter '{node.name}' is shared, not per player", node.span)
            owner = None
            if node.owner is not None:
                owner = self._seat(node.owner, scope, False, f"'{node.name} of' needs a player")
            if counter.type != INT and node.op != "=":
                raise self.fail(f"counter '{node.name}' holds a {counter.type}: it cannot be added to", node.span,
                                hint=f"write 'set {node.name} to ...'")
            value = self.expect(node.value, scope, counter.type, False, f"counter '{node.name}' holds a {counter.type}")
            return m.AssignS(node.op, counter.index, owner, value, node.span)
        if isinstance(node, ast.Let):
            value = self.expr(node.value, scope)
            existing = scope.lookup(node.name)
            if isinstance(existing, m.Local) and existing.type == value.type:
                return m.LetS(existing.slot, value, node.span)
            return m.LetS(scope.bind(node.name, value.type), value, node.span)
        if isinstance(node, ast.Say):
            if any(isinstance(p, ast.Secret) for p in node.text.parts):
                raise self.fail("'secret' hides part of a choice's label from the other players; "
                                "narration is for everyone", node.span,
                                hint="say only what every player may know, or put it in a choice label")
            return m.SayS(self.template(node.text, scope), node.span)
        if isinstance(node, ast.Simple):
            if node.what in ("end turn", "another turn") and ctx["kind"] == "setup":
                raise self.fail(f"'{node.what}' has no meaning during setup", node.span)
            if node.what in ("end turn", "another turn", "pick first player at random"):
                self.no_current(f"'{node.what}'", node.span)
            if node.what == "end round":
                if not self.round_game:
                    raise self.fail("'end round' is for a game played in rounds ('round:')", node.span,
                                    hint="in a game of turns, write 'end turn'")
                if ctx["kind"] == "setup":
                    raise self.fail("'end round' has no meaning during setup", node.span)
                return m.SimpleS("end turn", node.span)
            return m.SimpleS(node.what, node.span)
        if isinstance(node, ast.CallRule):
            return self._call_rule(node, scope)
        if isinstance(node, ast.If):
            branches = []
            for cond, body in node.branches:
                c = self.expect(cond, scope, BOOL, False, "'if' needs a true/false condition")
                scope.push()
                branches.append((c, self.block(body, scope, ctx)))
                scope.pop()
            orelse = None
            if node.orelse is not None:
                scope.push()
                orelse = self.block(node.orelse, scope, ctx)
                scope.pop()
            return m.IfS(tuple(branches), orelse, node.span)
        if isinstance(node, ast.While):
            cond = self.expect(node.cond, scope, BOOL, False, "'while' needs a true/false condition")
            scope.push()
            body = self.block(node.body, scope, ctx)
            scope.pop()
            return m.WhileS(cond, body, node.span)
        if isinstance(node, ast.Repeat):
            count = self.expect(node.count, scope, INT, False, "'repeat N times' needs a number")
            slot = scope.new_slot()
            scope.push()
            body = self.block(node.body, scope, ctx)
            scope.pop()
            return m.RepeatS(count, body, slot, node.span)
        if isinstance(node, ast.For):
            iterable = self.iterable(node.iterable, scope)
            list_slot, idx_slot = scope.new_slot(), scope.new_slot()
            scope.push()
            var = scope.bind(node.var, iterable.type)
            body = self.block(node.body, scope, ctx)
            scope.pop()
            return m.ForS(var, iterable, body, list_slot, idx_slot, node.span)
        if isinstance(node, ast.Choose):
            return self._choose(node, scope, ctx)
        if isinstance(node, ast.Ask):
            return self._ask(node, scope)
        if isinstance(node, ast.GiveTurn):
            self.no_current("'give turn to'", node.span)
            if ctx["kind"] == "setup":
                raise self.fail("'give turn to' has no meaning during setup", node.span,
                                hint="use 'pick first player at random' or let P1 start")
            return m.GiveTurnS(self._seat(node.player, scope, False, "'give turn to' needs a player"),
                               node.span)
        if isinstance(node, ast.Reveal):
            query = self.query(node.query, scope)
            if query.quantity == "random":
                raise self.fail("reveal shows components where they are, not a random draw", node.span)
            if node.player is None:
                return m.RevealS(query, None, node.span)
            return m.RevealS(query, self._seat(node.player, scope, False, "'reveal ... to' needs a player"),
                             node.span)
        if isinstance(node, ast.TurnFace):
            return self.turn_face(node, scope)
        if isinstance(node, ast.DropOut):
            return self.drop_out(node, scope, ctx)
        if isinstance(node, ast.PickAt):
            return self.pick_at(node, scope)
        if isinstance(node, (ast.Spend, ast.MoveMarker, ast.Tally)):
            return budgets.stmt(self, node, scope, ctx)
        raise self.fail("unsupported statement", getattr(node, "span", None))  # pragma: no cover

    def _zone_by_index(self, index: int) -> m.Zone:
        return self.zones_by_index[index]

    def _call_rule(self, node: ast.CallRule, scope: _RuleScope) -> m.CallS:
        if node.name in ("setup", "turn"):
            raise self.fail(f"'{node.name}' is run by the engine and cannot be called", node.span)
        if node.name not in self.rule_index:
            raise self.fail(f"unknown rule '{node.name}'", node.span,
                            hint=_suggest(node.name, [n for n in self.rule_index if n not in ("setup", "turn")])
                            or "declare it: rule NAME:")
        decl, _ = self.blocks[node.name]
        if len(node.args) != len(decl.params):
            raise self.fail(
                f"rule '{node.name}' takes {len(decl.params)} argument(s), not {len(node.args)}", node.span,
                hint=f"declared at {decl.span}" + (f" as {node.name}({', '.join(decl.params)})" if decl.params else ""),
            )
        args = tuple(self.expr(a, scope) for a in node.args)
        expected = self.param_types.get(node.name, ())
        for arg, raw, want in zip(args, node.args, expected):
            if want is not None and arg.type != want:
                raise self.fail(f"argument of '{node.name}' should be a {want}, but this is a {arg.type}", raw.span)
        return m.CallS(self.rule_index[node.name], args, node.span)

    def option_head(self, opt: Any, scope: Any) -> tuple[list, Any]:
        """An option's ``for`` names bound in ``scope`` (with their iterables) and its checked label.

        An option that ranges over values its label does not show is an error.
        """
        bindings = []
        for name, raw_iterable in opt.bindings:
            iterable = self.iterable(raw_iterable, scope)
            bindings.append((scope.bind(name, iterable.type), iterable))
        if opt.bindings and all(isinstance(p, str) for p in opt.label.parts):
            self.error(f"option {''.join(opt.label.parts)!r} ranges over values its label "  # type: ignore[arg-type]
                       "does not show", opt.span, hint="put {" + opt.bindings[0][0] + "} in the label")
        return bindings, self.template(opt.label, scope)

    def _ask(self, node: ast.Ask, scope: _RuleScope) -> m.AskS:
        iterable = self.iterable(node.iterable, scope)
        if iterable.type != PLAYER:
            raise self.fail("'ask' asks players: write 'ask q in players' or 'ask q in other players'", node.span)
        list_slot = scope.new_slot()
        scope.push()
        var = scope.bind(node.var, PLAYER)
        try:
            cond = None
            if node.cond is not None:
                cond = self.expect(node.cond, scope, BOOL, False, "'if' needs a true/false condition")
            options = []
            dynamic: list = []
            seen: set[str] = set()
            for opt in node.options:
                if opt.bindings:
                    scope.push()
                    try:
                        ocond, spec = self.ask_answer(opt, scope, seen)
                    finally:
                        scope.pop()
                    options.append((opt.label, ocond, opt.span))
                    dynamic.append(spec)
                    continue
                dynamic.append(None)
                if "{" in opt.label or "}" in opt.label:
                    raise self.fail("an answer of 'ask' is fixed text: '{...}' would not be filled in", opt.span,
                                    hint="every asked player chooses among the same answers; "
                                         "say what depends on the player before asking")
                if opt.label in seen:
                    raise self.fail(f"two answers are both labelled {opt.label!r}", opt.span)
                seen.add(opt.label)
                ocond = None
                if opt.cond is not None:
                    ocond = self.expect(opt.cond, scope, BOOL, False, "an answer's 'if' needs true/false")
                options.append((opt.label, ocond, opt.span))
        finally:
            scope.pop()
        return m.AskS(var, iterable, cond, tuple(options), list_slot, node.span,
                      tuple(dynamic) if any(d is not None for d in dynamic) else ())

    def _choose(self, node: ast.Choose, scope: _RuleScope, ctx: dict) -> m.ChooseS:
        player = None
        if node.player is None:
            self.no_current("'choose:' without a player", node.span)
        if node.player is not None:
            player = self._seat(node.player, scope, False, "'choose' needs the player who chooses")
        options = []
        static_labels: dict[str, Span] = {}
        for opt in node.options:
            try:
                if all(isinstance(p, str) for p in opt.label.parts) and not opt.bindings:
                    text = "".join(opt.label.parts)  # type: ignore[arg-type]
                    if text in static_labels:
                        self.error(f"two options are both labelled {text!r}", opt.span,
                                   hint="every option of a choice needs its own label")
                        continue
                    static_labels[text] = opt.span
                scope.push()
                bindings, label = self.option_head(opt, scope)
                cond = None
                if opt.cond is not None:
                    cond = self.expect(opt.cond, scope, BOOL, False, "an option's 'if' needs true/false")
                body = self.block(opt.body, scope, ctx)
                scope.pop()
                cond_span = opt.cond.span if opt.cond is not None else None
                options.append(m.OptionIR(label, tuple(bindings), cond, body, opt.span, cond_span,
                                          tuple(name for name, _ in opt.bindings)))
            except _Skip:
                scope.pop()
                continue
        return m.ChooseS(player, tuple(options), node.span)

    # ------------------------------------------------------------------ whole game
    def check(self) -> m.Model:
        """Run every check; raise ErrorList if anything is wrong, else return the model."""
        self.collect()
        budgets.finish_declarations(self)
        self.zones_by_index = sorted(self.zones.values(), key=lambda z: z.index)
        self.kinds_by_index = sorted(self.kinds.values(), key=lambda k: k.index)
        main = self.sources[-1]
        where = Span(main.path, 1, 1, 1, 2)
        if not main.tree.decls:
            self.errors = [RulelangError("the file is empty", where,
                                         hint="a game starts with: game \"Name\", players, setup: and turn:")]
            raise ErrorList(self.errors)
        if "setup" not in self.blocks:
            self.error("the game has no 'setup:' block", where, hint="add one, even if it only says: pass")
        if "turn" not in self.blocks:
            self.error("the game has no 'turn:' block", where, hint="add 'turn:' with what a player does on a turn "
                       "(or 'round:' for a game played in rounds by the whole table)")
        if self.players is None and not self.players_seen:
            self.error("the game does not say how many players it takes", where,
                       hint="add a line like: players 2 to 4")
        rules: list[m.Rule] = []
        for name, (decl, section) in self.blocks.items():
            self.rule_index[name] = len(rules)
            rules.append(m.Rule(len(rules), name, decl.title, decl.kind, decl.params, section=section, span=decl.span))
        self.param_types: dict[str, tuple] = {}
        for name, (decl, _) in self.blocks.items():
            types = []
            for raw in decl.params:
                pname, tname = split_param(raw)
                if tname is None:
                    self.error(f"parameter '{pname}' of rule '{name}' needs a type", decl.span,
                               hint=f"write '{pname}: player' (types: " + ", ".join(PARAM_TYPES) + ")")
                elif tname not in PARAM_TYPES:
                    self.error(f"unknown type '{tname}' for parameter '{pname}'", decl.span,
                               hint="types: " + ", ".join(PARAM_TYPES))
                    tname = None
                types.append(PARAM_TYPES[tname] if tname else None)
            self.param_types[name] = tuple(types)
        counters = sorted(self.counters.values(), key=lambda c: c.index)
        for counter in counters:
            try:
                init = self.expr(counter.init, _RuleScope())
                if init.type not in (INT, PLAYER):
                    raise self.fail(f"a counter holds a number or a player, but this is a {init.type}",
                                    counter.init.span,
                                    hint="to keep a text or a kind, number its values (an attribute "
                                         "'suit = 1') and keep the number in the counter")
                counter.type = init.type
                counter.init = init
            except _Skip:
                counter.init = m.Const(0, INT)
        for name, (decl, _) in self.blocks.items():
            rule = rules[self.rule_index[name]]
            scope = _RuleScope()
            for p, t in zip(decl.params, self.param_types[name]):
                scope.bind(split_param(p)[0], t or "any")
            rule.body = self.block(decl.body, scope, {"kind": decl.kind})
            rule.nlocals = scope.nslots
        triggers: list[m.Trigger] = []
        for decl, section in self.triggers:
            scope = _RuleScope()
            if decl.each is not None:
                scope.bind(decl.each, PLAYER)
            try:
                cond = self.expect(decl.cond, scope, BOOL, False, "'when' needs a true/false condition")
            except _Skip:
                continue
            rule = m.Rule(len(rules), f"when@{decl.span.line}", decl.title, "trigger",
                          (decl.each,) if decl.each else (), section=section, span=decl.span)
            rules.append(rule)
            rule.body = self.block(decl.body, scope, {"kind": "trigger"})
            rule.nlocals = scope.nslots
            zones, ctrs, cur = _reads(cond)
            if reads_elimination(cond):
                self.error("a trigger's condition cannot watch who is out ('is out', 'players still in')", decl.span,
                           hint="test it in the rules right after 'drop out'")
            if not zones and not ctrs and not cur:
                self.error("this condition reads no zone, counter or player, so it can never change", decl.span)
            triggers.append(m.Trigger(cond, rule.index, frozenset(zones), frozenset(ctrs), cur, decl.span,
                                      decl.each is not None, decl.after_step))
        ranking = self._ranking()
        payoff = self._payoff()
        sheets = []
        for sheet in self.sheets.values():
            scope = _RuleScope()
            scope.bind(sheet.var, PLAYER)
            lines = []
            for label, expr, _span in sheet.lines:
                try:
                    lines.append((label, self.expect(expr, scope, INT, False, "a score sheet line is a number")))
                except _Skip:
                    continue
            sheets.append(m.Sheet(sheet.name, lines, sheet.span, scope.nslots))
        if self.errors:
            unique: dict[tuple[str, str], RulelangError] = {}
            for err in self.errors:  # an error inside a definition is met at every use
                unique.setdefault((err.message, str(err.span)), err)
            raise ErrorList(list(unique.values()))
        assert self.players is not None
        return m.Model(
            title=self.title,
            files=[(s.path, s.sha256) for s in self.sources],
            min_players=self.players.low,
            max_players=self.players.high,
            default_players=self.players.default or self.players.low,
            options=self.options,
            attributes=self.attributes,
            faces=sorted(self.faces.values(), key=lambda f: f.index),
            kinds=self.kinds_by_index,
            zones=self.zones_by_index,
            counters=counters,
            rules=rules,
            triggers=triggers,
            ranking=ranking,
            sheets=sheets,
            setup_rule=self.rule_index.get("setup", 0),
            turn_rule=self.rule_index.get("turn", 0),
            sections=self.sections,
            rounds=self.round_game,
            eliminates=self.uses_elimination,
            payoff=payoff,
        )

    def _payoff(self) -> m.Payoff | None:
        if self.payoff_decl is None:
            return None
        decl = self.payoff_decl[0]
        scope = _RuleScope()
        scope.bind(decl.var, PLAYER)
        try:
            ir = self.expr(decl.expr, scope)
            constants = [None if node is None else self.expect(node, _RuleScope(), INT, False, what)
                         for node, what in ((decl.low, "a payoff's bound must be a number"),
                                            (decl.high, "a payoff's bound must be a number"),
                                            (decl.total, "the sum of a constant-sum game must be a number"))]
        except _Skip:
            return None
        return payoffs.check_payoff(self, decl, ir, scope.nslots, *constants)

    def _ranking(self) -> m.Ranking:
        if self.rank is None:
            if "score" in self.counters and self.counters["score"].per_player:
                return m.Ranking([("highest", m.CounterGet(self.counters["score"].index, m.Local(0, PLAYER)))], 1, None)
            main = self.sources[-1]
            self.error("the game does not say how the winner is found", Span(main.path, 1, 1, 1, 2),
                       hint="add a line like: rank p by highest score of p")
            return m.Ranking([], 1, None)
        scope = _RuleScope()
        scope.bind(self.rank.var, PLAYER)
        keys = []
        self.rank_labels: list[str] = []
        for direction, expr in self.rank.keys:
            try:
                keys.append((direction, self.expect(expr, scope, INT, False, "a ranking key must be a number")))
                label = _source_text(expr.span)
                var = re.escape(self.rank.var)
                self.rank_labels.append(re.sub(rf"\s+of\s+{var}\b|\({var}\)", "", label).strip() or label)
            except _Skip:
                continue
        return m.Ranking(keys, scope.nslots, self.rank.span, self.rank_labels)


def _static(expr: Any) -> bool:
    """True when an element expression depends only on a component's kind (and face)."""
    if isinstance(expr, (m.ElemAttr, m.ElemIsKind, m.Const)):
        return True
    if isinstance(expr, m.UnOp):
        return _static(expr.operand)
    if isinstance(expr, m.BinOp):
        return _static(expr.left) and _static(expr.right)
    return False


def _source_text(span: Span) -> str:
    """The text of a one-line span, for labels; the span itself when it cannot be read."""
    line = source_line(span.file, span.line)
    if line is None or span.end_line != span.line:
        return str(span)
    return line[span.col - 1 : span.end_col - 1]


def _reads(expr: Any) -> tuple[set[int], set[int], bool]:
    """Which zones and counters an expression reads, and whether it reads ``current``."""
    zones: set[int] = set()
    counters: set[int] = set()
    current = False

    def walk(e: Any) -> None:
        nonlocal current
        if isinstance(e, (tuple, list)):
            for x in e:
                walk(x)
            return
        if not attrs.has(type(e)):
            return
        if isinstance(e, m.CounterGet):
            counters.add(e.counter)
        elif isinstance(e, m.ZoneSel):
            zones.add(e.zone)
        elif isinstance(e, m.CurrentPlayer) or (isinstance(e, m.After) and e.player is None):
            current = True
        elif isinstance(e, m.IterIR) and e.kind in ("others", "others_in"):
            current = True
        for field in attrs.fields(type(e)):
            walk(getattr(e, field.name))

    walk(expr)
    return zones, counters, current


def check_sources(sources: list[SourceFile], options: dict[str, str] | None = None) -> m.Model:
    """Check a game given as its source files (base first)."""
    return Checker(sources, options).check()
