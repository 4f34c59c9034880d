"""Checks of the declarations of a game and the merge of its files: the first pass of the checker.

``collect`` reads every file, base first, into the tables (options, attributes, faces, components,
zones, counters, definitions, rules, triggers, sheets), reports names declared twice, lets a variant
replace options and ``override rule``s, and applies the options given on the command line.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import budgets, payoffs
from rulelang.check import model as m
from rulelang.check.common import BOX, Reporter, split_param, suggest, type_of_value
from rulelang.numbers import MAX_NUMBER, ascii_whole
from rulelang.syntax import ast
from rulelang.syntax.span import Span

ZONE_FLAGS = {"per player", "public", "hidden", "owner", "ordered", "unrolled"}
COUNTER_VISIBILITY = ("owner", "hidden")

MAX_COMPONENTS = 100_000
"""How many components a game may have in all (every one is an entry of the state)."""


class DeclarationChecks(Reporter):
    """Checker methods for the declarations (mixed into ``Checker``)."""

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
                    attr = m.Attribute(decl.name, decl.default, type_of_value(decl.default), decl.span)
                    self._declare(self.attributes, decl.name, attr, decl.span, "attribute")
                elif isinstance(decl, ast.FaceDecl):
                    self._face(decl)
                elif isinstance(decl, ast.ComponentDecl):
                    self._component(decl)
                elif isinstance(decl, ast.ZoneDecl):
                    self._zone(decl)
                elif isinstance(decl, ast.CounterDecl):
                    counter = m.Counter(len(self.counters), decl.name, decl.per_player, decl.init, decl.doc, decl.span,
                                        visibility=self._counter_visibility(decl), stated=decl.type_name)
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
                self.error(f"unknown option '{name}'", None, hint=suggest(name, self.options) or
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
            try:  # ASCII digits only: int() would also read "١٢" and "1_000"
                value = ascii_whole(raw)
            except ValueError:
                self.error(f"option '{name}' needs a {type_of_value(current)}, not {raw[:40]!r}", None,
                           hint=f"write it in the digits 0-9, with an optional sign (e.g. -o {name}=12)")
                return current
            else:
                if abs(value) <= MAX_NUMBER:
                    return value
                self.error(f"option '{name}' = {raw[:20]}... is beyond the largest number rulelang keeps "
                           f"(10^18)", None)
                return current
        else:
            return raw
        self.error(f"option '{name}' needs a {type_of_value(current)}, not {raw!r}", None)
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
                           hint=suggest(pair.name, self.attributes) or "declare it first: attribute NAME = default")
                continue
            if type_of_value(pair.value) != attr.type:
                self.error(f"attribute '{pair.name}' is a {attr.type}, not a {type_of_value(pair.value)}", pair.span)
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
                               hint=suggest(face.name, self.faces) or "declare it first: face NAME: attribute value")
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
                if flag.name[4:] in self.kind_groups:  # the shared name of numbered components: a pile on each
                    self.zone_classes[decl.name] = flag.name[4:]
                    continue
                kind = self.kinds.get(flag.name[4:])
                if kind is None:
                    self.error(f"'{flag.name}': unknown component '{flag.name[4:]}'", flag.span,
                               hint=suggest(flag.name[4:], self.kinds) or
                               "'per player', or 'per KIND' for one zone under each component of a kind "
                               "(declare the kind first)")
                else:
                    per_kind = kind.index
                continue
            if flag.name not in ZONE_FLAGS:
                self.error(f"unknown zone property '{flag.name}'", flag.span,
                           hint=suggest(flag.name, ZONE_FLAGS) or "properties: " + ", ".join(sorted(ZONE_FLAGS)))
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
                           decl.span, hint=suggest(decl.name, self.blocks) or "drop 'override' to add a new rule")
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
