"""Lark parse tree to the attrs AST of rulelang.syntax.ast, with source spans."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import attrs
from lark import Token, Transformer, Tree, v_args
from lark.exceptions import VisitError

from rulelang.errors import RulelangError
from rulelang.safeio import long_number_place
from rulelang.syntax import ast, control, extensions
from rulelang.syntax.parser import parse_text
from rulelang.syntax.span import Span
from rulelang.syntax.strings import unescape, unquote


class _Builder(control.ControlBuilder, extensions.AskBuilder, extensions.BudgetBuilder,
               extensions.ComponentBuilder, Transformer):
    """Turns each grammar rule into its AST node."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self.path = path

    # -------------------------------------------------------------- helpers
    def _span(self, meta: Any) -> Span:
        if getattr(meta, "empty", False):
            return Span(self.path, 1, 1, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def _tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + 1)

    def _template(self, tok: Token) -> ast.Template:
        raw = str(tok)[1:-1]
        span = self._tspan(tok)
        parts: list[str | ast.Expr] = []
        pos = 0
        for m in re.finditer(r"\{([^{}]*)\}", raw):
            if m.start() > pos:
                parts.append(unescape(raw[pos : m.start()]))
            inner = m.group(1)
            stripped = inner.strip()
            if '"' in inner:
                raise RulelangError("a string cannot go inside {...}", span,
                                    hint="put the text outside the braces: \"{p} says yes\", "
                                         "or compare in a 'let' first")
            if not stripped:
                raise RulelangError("empty {} in a string", span, hint="write {expr} or remove the braces")
            secret = stripped.startswith("secret ")
            if secret:
                inner = inner.replace("secret", " " * len("secret"), 1)
                stripped = inner.strip()
            lead = len(inner) - len(inner.lstrip())
            column = tok.column + 1 + m.start(1) + lead  # the opening quote, then the hole's text
            tree = parse_text(stripped, self.path, start="expr", offset=(tok.line - 1, column - 1))
            try:
                expr = _Builder(self.path).transform(tree)
            except VisitError as exc:  # pragma: no cover - nested holes are not allowed
                raise exc.orig_exc from None
            expr = _respan(expr, span)
            parts.append(ast.Secret(expr, span) if secret else expr)
            pos = m.end()
        rest = raw[pos:]
        if "{" in rest or "}" in rest:
            raise RulelangError("unbalanced '{' or '}' in a string", span,
                                hint="holes are written {expr}; a string cannot hold a lone brace")
        if rest:
            parts.append(unescape(rest))
        return ast.Template(tuple(parts), span)

    # -------------------------------------------------------------- file
    def start(self, items: list) -> list:
        out: list = []
        for i in items:
            if isinstance(i, _Many):
                out.extend(i.items)
            elif i is not None:
                out.append(i)
        return out

    # -------------------------------------------------------------- literals
    @v_args(meta=True)
    def int_lit(self, meta, c):
        return ast.Lit(int(c[0]), self._span(meta))

    @v_args(meta=True)
    def neg_int_lit(self, meta, c):
        return ast.Lit(-int(c[0]), self._span(meta))

    @v_args(meta=True)
    def str_lit(self, meta, c):
        return ast.Lit(unquote(str(c[0])), self._span(meta))

    @v_args(meta=True)
    def str_expr(self, meta, c):
        """A string used as a value: its ``{...}`` holes are filled as in ``say``."""
        if "{" in str(c[0]) or "}" in str(c[0]):
            return self._template(c[0])
        return ast.Lit(unquote(str(c[0])), self._span(meta))

    @v_args(meta=True)
    def true_lit(self, meta, c):
        return ast.Lit(True, self._span(meta))

    @v_args(meta=True)
    def false_lit(self, meta, c):
        return ast.Lit(False, self._span(meta))

    def literal(self, c):  # pragma: no cover - inlined aliases cover all cases
        return c[0]

    # -------------------------------------------------------------- declarations
    @v_args(meta=True)
    def game_decl(self, meta, c):
        extends_span = self._tspan(c[1]) if c[1] else None
        return ast.GameDecl(unquote(c[0]), unquote(c[1]) if c[1] else None, self._span(meta), extends_span)

    @v_args(meta=True)
    def players_decl(self, meta, c):
        low = int(c[0])  # ``players N`` alone: exactly N (as ``players N to N``)
        return ast.PlayersDecl(low, int(c[1]) if c[1] else low, int(c[2]) if c[2] else None, self._span(meta))

    @v_args(meta=True)
    def section_decl(self, meta, c):
        return ast.SectionDecl(unquote(c[0]), self._span(meta))

    @v_args(meta=True)
    def option_decl(self, meta, c):
        return ast.OptionDecl(str(c[0]), c[1].value, unquote(c[2]) if c[2] else None, self._span(meta))

    @v_args(meta=True)
    def attribute_decl(self, meta, c):
        return ast.AttributeDecl(str(c[0]), c[1].value, self._span(meta))

    @v_args(meta=True)
    def attr(self, meta, c):
        return ast.AttrValue(str(c[0]), c[1].value, self._span(meta))

    @v_args(meta=True)
    def attr_var(self, meta, c):
        return ast.AttrValue(str(c[0]), _BulkVar(str(c[1])), self._span(meta))

    def bulk_range(self, c):
        return (str(c[0]), int(c[1]), int(c[2]), self._tspan(c[0]))

    def attr_list(self, c):
        return ("attrs", tuple(c))

    @v_args(meta=True)
    def attr_sides(self, meta, c):
        return _Sides(tuple(c[1:]), self._span(meta))

    @v_args(meta=True)
    def side(self, meta, c):
        name, num, op, den = c
        span = self._span(meta)
        if num is None:
            weight: Any = 1
        elif op is None:
            weight = int(num)
        else:
            if str(op) != "/" or int(den) == 0:
                raise RulelangError("a side's weight is a whole number or a fraction like 1/2", span,
                                    hint="write: sides (Heads 1/2, Tails 1/2)")
            weight = Fraction(int(num), int(den))
        return ast.Side(str(name), weight, span)

    def face_list(self, c):
        return ("faces", tuple(ast.Name(str(t), self._tspan(t)) for t in c))

    @v_args(meta=True)
    def face_decl(self, meta, c):
        attrs_ = c[2][1] if c[2] else ()
        return ast.FaceDecl(str(c[0]), unquote(c[1]) if c[1] else None, attrs_, self._span(meta))

    @v_args(meta=True)
    def component_decl(self, meta, c):
        count, name, cls, bulk, display, body = c
        if bulk is not None:
            return self._bulk(meta, count, name, cls, bulk, display, body)
        if body is not None and body[0] == "attrs":
            for pair in body[1]:
                if isinstance(pair.value, _BulkVar):
                    raise RulelangError(f"unknown value '{pair.value.name}' for attribute '{pair.name}'", pair.span,
                                        hint='a value is a number, true, false or a "string"; a name is allowed '
                                             "only in numbered components: 1 Card cards for n in 3 to 35: value n")
        return self._component(meta, count, name, cls, display, body)

    def _bulk(self, meta, count, name, cls, bulk, display, body):
        """``1 Card cards for n in 3 to 35 "Card {n}": value n``: one kind per number, named Card3, ..."""
        var, low, high, vspan = bulk
        if high < low:
            raise RulelangError(f"the range {low} to {high} is empty", vspan, hint="write LOW to HIGH with LOW <= HIGH")
        if high - low >= 10_000:
            raise RulelangError(f"{high - low + 1} numbered kinds are more than rulelang declares at once "
                                "(at most 10000)", vspan)
        if body is not None and body[0] == "attrs":
            for pair in body[1]:
                if isinstance(pair.value, _BulkVar) and pair.value.name != var:
                    raise RulelangError(f"unknown value '{pair.value.name}' for attribute '{pair.name}'", pair.span,
                                        hint=f"the number of each component is '{var}'")
        out = []
        for n in range(low, high + 1):
            shown = None
            if display is not None:
                shown = '"' + str(display)[1:-1].replace("{" + var + "}", str(n)) + '"'
            attrs_ = body
            if body is not None and body[0] == "attrs":
                attrs_ = ("attrs", tuple(p if isinstance(p, _Sides) else
                                         ast.AttrValue(p.name, n if isinstance(p.value, _BulkVar) else p.value, p.span)
                                         for p in body[1]))
            decl = self._component(meta, count, f"{name}{n}", cls, shown, attrs_)
            out.append(attrs.evolve(decl, group=str(name)))
        return _Many(out)

    def _component(self, meta, count, name, cls, display, body):
        attrs_: tuple = ()
        faces: tuple = ()
        sides: tuple = ()
        if body is not None:
            if body[0] == "attrs":
                attrs_ = tuple(a for a in body[1] if not isinstance(a, _Sides))
                found = [a for a in body[1] if isinstance(a, _Sides)]
                if len(found) > 1:
                    raise RulelangError("a component lists its sides once", found[1].span)
                sides = found[0].sides if found else ()
            else:
                faces = body[1]
        cls_s = str(cls)
        cls_norm = {"dice": "die", "cards": "card", "tokens": "token", "pieces": "piece",
                    "markers": "marker"}.get(cls_s, cls_s)
        return ast.ComponentDecl(
            int(count), str(name), cls_norm, unquote(display) if display else None, attrs_, faces, self._span(meta),
            sides=sides,
        )

    @v_args(meta=True)
    def table_decl(self, meta, c):
        """``cards table:``, a header line (count, name, display, attributes) and one line per kind."""
        cls, head, *rows = c
        names = [str(t) for t in head.children]
        head_span = self._tspan(head.children[0])
        for required in ("count", "name"):
            if required not in names:
                raise RulelangError(f"a component table needs a '{required}' column", head_span,
                                    hint="the header names the columns: count name [display] ATTRIBUTE ...")
        if len(set(names)) != len(names):
            raise RulelangError("a column is named twice", head_span)
        out = []
        for cells, span in rows:
            if len(cells) != len(names):
                raise RulelangError(f"this line has {len(cells)} values for {len(names)} columns", span,
                                    hint="columns: " + " ".join(names))
            row = dict(zip(names, cells))
            count, name, display = row.pop("count"), row.pop("name"), row.pop("display", None)
            if not (isinstance(count, ast.Lit) and type(count.value) is int):
                raise RulelangError("'count' is a whole number", span)
            if not isinstance(name, ast.Name):
                raise RulelangError("'name' is a name (letters, digits and '_')", span)
            if display is not None and not (isinstance(display, ast.Lit) and isinstance(display.value, str)):
                raise RulelangError('\'display\' is a "string"', span)
            pairs = []
            for attr, cell in row.items():
                if not isinstance(cell, ast.Lit):
                    raise RulelangError(f"unknown value '{cell.name}' for attribute '{attr}'", span,
                                        hint='a value is a number, true, false or a "string"')
                pairs.append(ast.AttrValue(attr, cell.value, span))
            decl = self._component(meta, count.value, name.name, cls, None, ("attrs", tuple(pairs)))
            out.append(attrs.evolve(decl, display=display.value if display is not None else None, span=span))
        return _Many(out)

    @v_args(meta=True)
    def table_row(self, meta, c):
        return (list(c), self._span(meta))

    def table_name(self, c):
        return ast.Name(str(c[0]), self._tspan(c[0]))

    def zone_flag(self, c):
        tok = c[0]
        return ast.Name("per player" if tok.type == "PER_PLAYER" else str(tok), self._tspan(tok))

    def zone_per_kind(self, c):
        tok = c[0]
        return ast.Name(f"per {tok}", self._tspan(tok))

    def zone_flags(self, c):
        return tuple(c)

    @v_args(meta=True)
    def zone_decl(self, meta, c):
        return ast.ZoneDecl(str(c[0]), unquote(c[1]) if c[1] else None, c[2] or (), self._span(meta))

    @v_args(meta=True)
    def counter_decl(self, meta, c):
        visibility = ast.Name(str(c[4]), self._tspan(c[4])) if c[4] is not None else None
        return ast.CounterDecl(str(c[0]), c[1] is not None, c[2], unquote(c[3]) if c[3] else None, self._span(meta),
                               visibility)

    def params(self, c):
        return tuple(c)

    def param(self, c):
        return str(c[0]) if c[1] is None else f"{c[0]}:{c[1]}"

    @v_args(meta=True)
    def define_decl(self, meta, c):
        return ast.DefineDecl(str(c[0]), c[1] or (), c[2], self._span(meta))

    @v_args(meta=True)
    def define_block_decl(self, meta, c):
        return ast.DefineDecl(str(c[0]), c[1] or (), None, self._span(meta), c[2])

    @v_args(meta=True)
    def return_stmt(self, meta, c):
        return ast.Return(c[0], self._span(meta))

    def block(self, c):
        return tuple(c)

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        return ast.BlockDecl("setup", "setup", (), "Setup", False, c[0], self._span(meta))

    @v_args(meta=True)
    def turn_decl(self, meta, c):
        return ast.BlockDecl("turn", "turn", (), "Turn", False, c[0], self._span(meta))

    @v_args(meta=True)
    def round_decl(self, meta, c):
        return ast.BlockDecl("round", "turn", (), "Round", False, c[0], self._span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, c):
        override, name, params, title, body = c
        return ast.BlockDecl(
            "rule", str(name), params or (), unquote(title) if title else None, override is not None, body,
            self._span(meta),
        )

    @v_args(meta=True)
    def trigger_decl(self, meta, c):
        each, cond, after, title, body = c
        return ast.TriggerDecl(cond, unquote(title) if title else None, body, self._span(meta), each,
                               after is not None)

    def trigger_each(self, c):
        return str(c[0])

    @v_args(meta=True)
    def sheet_decl(self, meta, c):
        return ast.SheetDecl(str(c[0]), str(c[1]), tuple(c[2:]), self._span(meta))

    @v_args(meta=True)
    def sheet_line(self, meta, c):
        return (unquote(c[0]), c[1], self._span(meta))

    def rank_key(self, c):
        return (str(c[0]), c[1])

    @v_args(meta=True)
    def rank_decl(self, meta, c):
        return ast.RankDecl(str(c[0]), tuple(c[1:]), self._span(meta))

    @v_args(meta=True)
    def payoff_decl(self, meta, c):
        var, expr, _between, low, high, utility = c
        kind, total, uspan = utility if utility is not None else (None, None, None)
        span = self._span(meta)  # the declaration's place: its first line, the keyword underlined
        span = Span(span.file, span.line, span.col, span.line, span.col + len("payoff"))
        return ast.PayoffDecl(str(var), expr, low, high, kind, total, span, uspan)

    @v_args(meta=True)
    def zero_sum(self, meta, c):
        return ("zero_sum", None, self._span(meta))

    @v_args(meta=True)
    def constant_sum(self, meta, c):
        return ("constant_sum", c[1], self._span(meta))

    @v_args(meta=True)
    def general_sum(self, meta, c):
        return ("general_sum", None, self._span(meta))

    # -------------------------------------------------------------- statements
    @v_args(meta=True)
    def move_stmt(self, meta, c):
        place = None
        if c[2] is not None:
            place = "top" if str(c[2]).endswith("top") else "bottom"
        return ast.Move(c[0], c[1], place, self._span(meta))

    @v_args(meta=True)
    def roll_stmt(self, meta, c):
        return ast.Roll(c[0], self._span(meta))

    @v_args(meta=True)
    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(c[0], self._span(meta))

    @v_args(meta=True)
    def add_stmt(self, meta, c):
        ref, op, value = c
        return ast.Assign(str(op), ref[0], ref[1], value, self._span(meta))

    @v_args(meta=True)
    def set_stmt(self, meta, c):
        ref, value = c
        return ast.Assign("=", ref[0], ref[1], value, self._span(meta))

    def counter_ref(self, c):
        return (str(c[0]), c[1])

    @v_args(meta=True)
    def let_stmt(self, meta, c):
        return ast.Let(str(c[0]), c[1], self._span(meta))

    @v_args(meta=True)
    def say_stmt(self, meta, c):
        return ast.Say(self._template(c[0]), self._span(meta))

    @v_args(meta=True)
    def say_value_stmt(self, meta, c):
        """``say t``: a value held in a name, shown as ``say "{t}"`` shows it."""
        span = self._span(meta)
        if c[1] is None:
            value: ast.Expr = ast.Name(str(c[0]), span)
        else:
            value = ast.AnswerOf(c[1], span) if str(c[0]) == "answer" else ast.Of(str(c[0]), c[1], span)
        return ast.Say(ast.Template((value,), span), span)

    @v_args(meta=True)
    def end_turn_stmt(self, meta, c):
        return ast.Simple("end turn", self._span(meta))

    @v_args(meta=True)
    def end_game_stmt(self, meta, c):
        return ast.Simple("end game", self._span(meta))

    @v_args(meta=True)
    def another_turn_stmt(self, meta, c):
        return ast.Simple("another turn", self._span(meta))

    @v_args(meta=True)
    def give_turn_stmt(self, meta, c):
        return ast.GiveTurn(c[0], self._span(meta))

    @v_args(meta=True)
    def reveal_stmt(self, meta, c):
        return ast.Reveal(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def reveal_all_stmt(self, meta, c):
        return ast.Reveal(c[0], None, self._span(meta))

    @v_args(meta=True)
    def pass_stmt(self, meta, c):
        return ast.Simple("pass", self._span(meta))

    @v_args(meta=True)
    def random_first_stmt(self, meta, c):
        return ast.Simple("pick first player at random", self._span(meta))

    @v_args(meta=True)
    def spin_stmt(self, meta, c):
        return ast.Roll(c[0], self._span(meta), "spin")

    @v_args(meta=True)
    def turn_face_stmt(self, meta, c):
        return ast.TurnFace(c[0], ast.Name(str(c[1]), self._tspan(c[1])), self._span(meta))

    @v_args(meta=True)
    def drop_out_stmt(self, meta, c):
        return ast.DropOut(c[0], self._span(meta))

    @v_args(meta=True)
    def end_round_stmt(self, meta, c):
        return ast.Simple("end round", self._span(meta))

    @v_args(meta=True)
    def end_no_winner_stmt(self, meta, c):
        return ast.Simple("end game with no winner", self._span(meta))

    @v_args(meta=True)
    def pick_stmt(self, meta, c):
        var, qvar, iterable, cond = c
        return ast.PickAt(str(var), str(qvar), iterable, cond, self._span(meta))

    @v_args(meta=True)
    def call_stmt(self, meta, c):
        return ast.CallRule(str(c[0]), tuple(c[1] or ()), self._span(meta))

    def args(self, c):
        return tuple(x for x in c if x is not None)

    @v_args(meta=True)
    def if_stmt(self, meta, c):
        cond, body, *rest = c
        branches = [(cond, body)]
        orelse = None
        for r in rest:
            if r is None:
                continue
            if r[0] == "elif":
                branches.append((r[1], r[2]))
            else:
                orelse = r[1]
        return ast.If(tuple(branches), orelse, self._span(meta))

    def elif_clause(self, c):
        return ("elif", c[0], c[1])

    def else_clause(self, c):
        return ("else", c[0])

    @v_args(meta=True)
    def while_stmt(self, meta, c):
        return ast.While(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def repeat_stmt(self, meta, c):
        return ast.Repeat(c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def for_stmt(self, meta, c):
        return ast.For(str(c[0]), c[1], c[2], self._span(meta))

    @v_args(meta=True)
    def choose_stmt(self, meta, c):
        return ast.Choose(c[0], tuple(c[1:]), self._span(meta))

    @v_args(meta=True)
    def option(self, meta, c):
        label, *bindings, cond, body = c
        return ast.Option(self._template(label), tuple(bindings), cond, body, self._span(meta))

    def binding(self, c):
        return (str(c[0]), c[1])

    # -------------------------------------------------------------- queries
    @v_args(meta=True)
    def query(self, meta, c):
        quantity, kinds, *rest = c
        where = rest[-1]
        zones = tuple(z for z in rest[:-1] if z is not None)
        qname, count = quantity or ("default", None)
        count_expr = None
        if isinstance(count, tuple):
            count_expr = count[1]
            count = None
        return ast.Query(qname, count, count_expr, kinds[1], kinds[0], zones, where, self._span(meta))

    def q_all(self, c):
        return ("all", None)

    def q_expr(self, c):
        return ("random" if c[1] is not None else "count", ("expr", c[0]))

    def q_random_one(self, c):
        return ("random", 1)

    def q_count(self, c):
        return ("random" if c[1] is not None else "count", int(c[0]))

    def kinds_only(self, c):
        return (False, tuple(ast.Name(str(t), self._tspan(t)) for t in c))

    def kinds_except(self, c):
        return (True, tuple(ast.Name(str(t), self._tspan(t)) for t in c))

    def kinds_any(self, c):
        return (False, ())

    @v_args(meta=True)
    def zone_ref(self, meta, c):
        return ast.ZoneRef(str(c[0]), c[1], self._span(meta))

    @v_args(meta=True)
    def it_players(self, meta, c):
        return ast.Iterable("players", None, None, None, self._span(meta))

    @v_args(meta=True)
    def it_players_in(self, meta, c):
        return ast.Iterable("players_in", None, None, None, self._span(meta))

    @v_args(meta=True)
    def it_others_in(self, meta, c):
        return ast.Iterable("others_in", None, None, None, self._span(meta))

    @v_args(meta=True)
    def it_others(self, meta, c):
        return ast.Iterable("others", None, None, None, self._span(meta))

    @v_args(meta=True)
    def it_kinds(self, meta, c):
        return ast.Iterable("kinds", c[0], None, None, self._span(meta))

    @v_args(meta=True)
    def it_kinds_where(self, meta, c):
        return ast.Iterable("kinds_where", None, None, None, self._span(meta), c[0])

    @v_args(meta=True)
    def it_range(self, meta, c):
        return ast.Iterable("range", None, c[0], c[1], self._span(meta))

    @v_args(meta=True)
    def it_query(self, meta, c):
        return ast.Iterable("query", c[0], None, None, self._span(meta))

    # -------------------------------------------------------------- expressions
    def _binary_chain(self, meta, c, op_from_tokens: bool, fixed_op: str | None = None):
        node = c[0]
        i = 1
        while i < len(c):
            if op_from_tokens:
                op, right = str(c[i]), c[i + 1]
                i += 2
            else:
                op, right = fixed_op, c[i]
                i += 1
            node = ast.Binary(op, node, right, _join(node.span, right.span))
        return node

    @v_args(meta=True)
    def or_expr(self, meta, c):
        return self._binary_chain(meta, c, False, "or")

    @v_args(meta=True)
    def and_expr(self, meta, c):
        return self._binary_chain(meta, c, False, "and")

    @v_args(meta=True)
    def comparison(self, meta, c):
        return self._binary_chain(meta, c, True)

    @v_args(meta=True)
    def sum_expr(self, meta, c):
        return self._binary_chain(meta, c, True)

    @v_args(meta=True)
    def product(self, meta, c):
        return self._binary_chain(meta, c, True)

    @v_args(meta=True)
    def not_op(self, meta, c):
        return ast.Unary("not", c[0], self._span(meta))

    @v_args(meta=True)
    def neg(self, meta, c):
        return ast.Unary("-", c[0], self._span(meta))

    @v_args(meta=True)
    def is_out(self, meta, c):
        return ast.IsOut(c[0], self._span(meta))

    @v_args(meta=True)
    def current(self, meta, c):
        return ast.Current(self._span(meta))

    @v_args(meta=True)
    def next_player(self, meta, c):
        return ast.PlayerAfter(None, self._span(meta))

    @v_args(meta=True)
    def cond_expr(self, meta, c):
        return ast.IfElse(c[1], c[0], c[2], self._span(meta))

    @v_args(meta=True)
    def nobody(self, meta, c):
        return ast.Nobody(self._span(meta))

    @v_args(meta=True)
    def answer_of(self, meta, c):
        return ast.AnswerOf(c[0], self._span(meta))

    @v_args(meta=True)
    def gen_call(self, meta, c):
        func, expr, var, iterable, cond = c
        return ast.GenCall(str(func), expr, str(var), iterable, cond, self._span(meta))

    @v_args(meta=True)
    def player_after(self, meta, c):
        return ast.PlayerAfter(c[0], self._span(meta))

    @v_args(meta=True)
    def player_before(self, meta, c):
        return ast.PlayerAfter(c[0], self._span(meta), -1)

    @v_args(meta=True)
    def of_ref(self, meta, c):
        return ast.Of(str(c[0]), c[1], self._span(meta))

    @v_args(meta=True)
    def name_ref(self, meta, c):
        return ast.Name(str(c[0]), self._span(meta))

    @v_args(meta=True)
    def func_call(self, meta, c):
        return ast.Call(str(c[0]), tuple(x for x in c[1:] if x is not None), self._span(meta))

    @v_args(meta=True)
    def count_q(self, meta, c):
        return ast.Aggregate("count", None, c[0], self._span(meta))

    @v_args(meta=True)
    def any_q(self, meta, c):
        return ast.Aggregate("any", None, c[0], self._span(meta))

    @v_args(meta=True)
    def sum_q(self, meta, c):
        tok = c[0]
        return ast.Aggregate("sum", ast.Name(str(tok), self._tspan(tok)), c[1], self._span(meta))


class _BulkVar:
    """A name given as an attribute value: the number of a numbered component."""

    def __init__(self, name: str) -> None:
        self.name = name


class _Sides:
    """``sides (F w, G w)`` in a component's list of attributes."""

    value = None  # not an attribute value (so checks of attribute values pass it by)

    def __init__(self, sides: tuple, span: Span) -> None:
        self.sides = sides
        self.span = span


class _Many:
    """Several declarations made by one line (numbered components)."""

    def __init__(self, items: list) -> None:
        self.items = items


def _join(a: Span, b: Span) -> Span:
    return Span(a.file, a.line, a.col, b.end_line, b.end_col)


def _respan(node: Any, span: Span) -> Any:
    """Give an expression parsed from inside a string the span of the whole string."""
    import attrs as _attrs

    if _attrs.has(type(node)):
        changes = {}
        for field in _attrs.fields(type(node)):
            value = getattr(node, field.name)
            if field.name == "span":
                changes["span"] = span
            elif _attrs.has(type(value)):
                changes[field.name] = _respan(value, span)
            elif isinstance(value, tuple):
                changes[field.name] = tuple(_respan(v, span) if _attrs.has(type(v)) else v for v in value)
        return _attrs.evolve(node, **changes)
    return node


def _number_too_long(text: str, path: str, meta: Any) -> RulelangError:
    """The error for a number literal too long to read, placed at the first such number of the
    construct that holds it (``meta``: where that construct starts, when known)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = meta.line if meta is not None and not getattr(meta, "empty", True) else 1
    line, col = long_number_place("\n".join(lines[first - 1 :]))
    line += first - 1
    return RulelangError("a number too long to read", Span(path, line, col, line, col + 1),
                         hint="a stored number may have at most 19 digits (the limit is 10^18)")


def build_file(text: str, path: str) -> ast.RulesFile:
    """Parse the text of one .rules file into its AST."""
    tree: Tree = parse_text(text, path)
    try:
        decls = _Builder(path).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, RulelangError):
            raise exc.orig_exc from None
        if isinstance(exc.orig_exc, ValueError):  # a number of thousands of digits, which Python will not read
            raise _number_too_long(text, path, getattr(exc.obj, "meta", None)) from None
        raise
    return ast.RulesFile(path, tuple(decls))
