"""Checks for budgets, piles opened in play, markers, tallies and points by places.

``spend N NAME:`` is checked into plain statements (a local holding what is left, a
loop around a ``choose`` whose options are filtered by their cost), so the back end
needs nothing new for it; the other constructs check into their own IR nodes.
"""

from __future__ import annotations

from typing import Any, Protocol

from rulelang.check import model as m
from rulelang.check.common import RuleScope, Skip
from rulelang.check.model import BOOL, INT
from rulelang.numbers import too_big
from rulelang.syntax import ast
from rulelang.syntax.span import Span


class Checker(Protocol):
    """What these checks use of the checker (``rulelang.check.checker.Checker``, which calls them)."""

    kinds: dict[str, m.Kind]
    zones: dict[str, m.Zone]
    counters: dict[str, m.Counter]
    zone_classes: dict[str, str]
    sheets: dict[str, ast.SheetDecl]

    def error(self, message: str, span: Span | None, hint: str | None = None) -> None:
        """Record an error at ``span``."""

    def fail(self, message: str, span: Span | None, hint: str | None = None) -> Skip:
        """Record an error at ``span`` and return the exception that abandons the construct."""

    def expr(self, node: ast.Expr, scope: RuleScope, elem: bool = False) -> Any:
        """Resolve and type one expression."""

    def expect(self, node: ast.Expr, scope: RuleScope, type_: str, elem: bool, why: str) -> Any:
        """Resolve an expression that must be of ``type_``."""

    def seat(self, node: ast.Expr, scope: RuleScope, elem: bool, why: str) -> Any:
        """Resolve a player expression that must name a seat."""

    def zone_sel(self, ref: ast.ZoneRef, scope: RuleScope) -> m.ZoneSel:
        """Resolve ``zone`` or ``zone of player``."""

    def iterable(self, node: ast.Iterable, scope: RuleScope) -> m.IterIR:
        """Resolve what a ``for`` ranges over."""

    def option_head(self, opt: Any, scope: Any) -> tuple[list, Any]:
        """An option's ``for`` names bound in ``scope`` and its checked label."""

    def block(self, stmts: tuple, scope: RuleScope, ctx: dict) -> tuple:
        """Resolve a list of statements."""


CLASS_WORDS = {"card": "card", "cards": "card", "die": "die", "dice": "die", "token": "token",
               "tokens": "token", "piece": "piece", "pieces": "piece", "marker": "marker", "markers": "marker"}


def class_word(word: str) -> str | None:
    """The component class a ``per WORD`` zone property names (``per card``), or None."""
    return CLASS_WORDS.get(word)


def finish_declarations(ck: Checker) -> None:
    """After every declaration is read: markers are single components; ``per card`` zones get their kinds."""
    for kind in ck.kinds.values():
        if kind.cls == "marker" and kind.count != 1:
            ck.error(f"a marker is one component, so '{kind.count} {kind.name} markers' cannot be", kind.span,
                     hint=f"a marker is in one place at a time: declare '1 {kind.name} marker', or use "
                          "tokens for several")
    for name, cls in ck.zone_classes.items():
        zone = ck.zones.get(name)
        if zone is None:
            continue
        kinds = frozenset(ck.kind_groups.get(cls, ()) or (k.index for k in ck.kinds.values() if k.cls == cls))
        if not kinds:
            ck.error(f"'per {cls}': the game has no {cls}s", zone.span,
                     hint=f"declare the {cls}s, or name a kind: per KIND")
        zone.per_class = kinds


def stmt(ck: Checker, node: Any, scope: RuleScope, ctx: dict) -> Any:
    """Resolve a ``spend`` block (into a tuple of statements), a marker's move or a tally."""
    if isinstance(node, ast.Spend):
        return _spend(ck, node, scope, ctx)
    if isinstance(node, ast.MoveMarker):
        return _move_marker(ck, node, scope)
    return _tally(ck, node)


WRITTEN_NUMBERS = True
"""Whether a budget or a cost written as a number is used as that number (see ``written_number``); the
equivalence tests turn it off to compare with the spend that reads it back from its local and tests it."""


def written_number(value: Any) -> bool:
    """Whether a budget's amount or an option's cost (checked to be at least 1 if written as a number) is a
    whole number known when the rules are checked and within what rulelang keeps: the spend then stores
    it as it is (no bound to check, and a cost needs no test that it is at least 1, which it is), instead of
    reading it back from the local that holds it; the values, the narration and any error are the same."""
    return WRITTEN_NUMBERS and type(value) is m.Const and type(value.value) is int and not too_big(value.value)


def _number_at_least_one(ck: Checker, node: ast.Expr, scope: RuleScope, what: str, hint: str) -> Any:
    value = ck.expr(node, scope)
    if value.type not in (INT, "any"):
        raise ck.fail(f"{what} must be a number, but this is a {value.type}", node.span, hint=hint)
    if isinstance(value, m.Const) and value.value < 1:
        raise ck.fail(f"{what} must be at least 1, not {value.value}", node.span,
                      hint="a budget is spent by options that cost something, or it would never run out")
    return value


def _spend(ck: Checker, node: ast.Spend, scope: RuleScope, ctx: dict) -> tuple:
    if ctx["kind"] == "setup":
        raise ck.fail("'spend' is a player's decision: it has no place in setup", node.span,
                      hint="spend a budget in 'turn:' or a rule the turn calls")
    amount = _number_at_least_one(ck, node.amount, scope, f"the budget of {node.name}",
                                  hint=f"write a whole number: spend 3 {node.name}:")
    player = None
    if node.player is not None:
        player = ck.seat(node.player, scope, False, "'spend ... by' needs the player who spends")
    left = m.Local(scope.new_slot(), INT)
    total = m.Local(scope.new_slot(), INT)
    paid = m.Local(scope.new_slot(), INT)
    cost_slot = m.Local(scope.new_slot(), INT)
    who = player if player is not None else m.CurrentPlayer()
    options = []
    static_labels: set[str] = set()
    for opt in node.options:
        try:
            options.append(_spend_option(ck, opt, scope, ctx, node, left, total, paid, cost_slot, who, static_labels))
        except Skip:
            scope.pop()
            continue
    zero = m.Const(0, INT)
    stuck = m.FailS(
        m.TemplateIR((left, f" {node.name} left, and no option of this 'spend' can be paid for now")),
        f"offer an option costing 1 whenever {node.name} are left (every option's 'if' and cost are "
        "checked), or end the turn inside an option", node.span, m.BinOp("==", paid, zero, BOOL, node.span))
    body = (
        m.LetS(paid.slot, zero, node.span),
        m.ChooseS(player, tuple(options), node.span),
        stuck,
    )
    return (
        m.LetS(total.slot, amount, node.span),
        m.LetS(left.slot, amount if written_number(amount) else total, node.span),  # (a number: stored as it is)
        m.WhileS(m.BinOp(">", left, zero, BOOL, node.span), body, node.span),
    )


def _spend_option(ck: Checker, opt: ast.SpendOption, scope: RuleScope, ctx: dict, node: ast.Spend,
                  left: m.Local, total: m.Local, paid: m.Local, cost_slot: m.Local, who: Any,
                  static_labels: set[str]) -> m.OptionIR:
    if opt.cost is None:
        text = "".join(p for p in opt.label.parts if isinstance(p, str))
        ck.error(f"every option of a 'spend' block needs its cost: the {node.name} this option costs", opt.span,
                 hint=f"write 'costs N' after the label: \"{text}\" costs 1:")
    if all(isinstance(p, str) for p in opt.label.parts) and not opt.bindings:
        text = "".join(opt.label.parts)  # type: ignore[arg-type]
        if text in static_labels:
            ck.error(f"two options are both labelled {text!r}", opt.span,
                     hint="every option of a choice needs its own label")
        static_labels.add(text)
    scope.push()
    bindings, label = ck.option_head(opt, scope)
    cost: Any = m.Const(1, INT)
    if opt.cost is not None:
        cost = _number_at_least_one(ck, opt.cost, scope, "a cost", hint="write how many it costs: costs 2")
    affordable = m.BinOp("<=", cost, left, BOOL, opt.span)
    cond = affordable
    if opt.cond is not None:
        user = ck.expect(opt.cond, scope, BOOL, False, "an option's 'if' needs true/false")
        cond = m.BinOp("and", affordable, user, BOOL, opt.span)  # the cheap test first
    sp = opt.cost_span or opt.span
    bad_cost = m.FailS(m.TemplateIR(("a cost must be at least 1, but this option costs ", cost_slot)),
                       "a budget is spent by options that cost something, or it would never run out", sp,
                       m.BinOp("<", cost_slot, m.Const(1, INT), BOOL, sp))
    said = m.SayS(m.TemplateIR(("(", who, " has ", left, " of ", total, f" {node.name} left)")), sp)
    if written_number(cost):  # a cost written as a number (at least 1: checked above): no test, no bound on it
        pay = (
            m.LetS(cost_slot.slot, cost, sp),
            m.LetS(paid.slot, cost, sp),
            m.LetS(left.slot, m.BinOp("-", left, cost, INT, sp), sp),
            said,
        )
    else:
        pay = (
            m.LetS(cost_slot.slot, cost, sp),
            bad_cost,
            m.LetS(paid.slot, cost_slot, sp),
            m.LetS(left.slot, m.BinOp("-", left, cost_slot, INT, sp), sp),
            said,
        )
    body = ck.block(opt.body, scope, {**ctx, "loops": None})  # no 'break' out of the spend's own loop
    scope.pop()
    # An option not offered is shown from its cost to the end of its 'if': either may say no.
    cond_span = opt.cost_span
    if cond_span is not None and opt.cond is not None:
        end = opt.cond.span
        cond_span = Span(cond_span.file, cond_span.line, cond_span.col, end.end_line, end.end_col)
    elif cond_span is not None and opt.cost is not None:
        end = opt.cost.span
        cond_span = Span(cond_span.file, cond_span.line, cond_span.col, end.end_line, end.end_col)
    return m.OptionIR(label, tuple(bindings), cond, pay + body, opt.span, cond_span,
                      tuple(name for name, _ in opt.bindings))


def _move_marker(ck: Checker, node: ast.MoveMarker, scope: RuleScope) -> m.MoveMarkerS | m.MoveS:
    held = scope.lookup(node.kind)
    if held is not None and getattr(held, "type", None) == m.COMPONENT:  # 'move c to Z': c from wherever it is
        query = m.QueryIR("default", None, None, (), False, (), None, node.kind_span, None, held)
        return m.MoveS(query, ck.zone_sel(node.dest, scope), None, node.span)
    kind = ck.kinds.get(node.kind)
    if kind is None:
        raise ck.fail(f"unknown component '{node.kind}'", node.kind_span,
                      hint="'move KIND to ZONE' moves a marker (declared '1 NAME marker') from wherever it is")
    if kind.cls != "marker":
        raise ck.fail(f"'{node.kind}' is a {kind.cls}, not a marker: say where it comes from", node.kind_span,
                      hint=f"write 'move 1 {node.kind} from ZONE to ...'; only a marker (one component, "
                           "declared '1 NAME marker') moves from wherever it is")
    dest = ck.zone_sel(node.dest, scope)
    return m.MoveMarkerS(kind.index, dest, node.span)


def _tally(ck: Checker, node: ast.Tally) -> m.TallyS:
    names = list(ck.sheets)
    if node.sheet not in ck.sheets:
        raise ck.fail(f"unknown score sheet '{node.sheet}'", node.span,
                      hint="declare it: sheet NAME for p: then one \"label\": EXPR a line")
    counter = ck.counters.get(node.counter)
    if counter is None or not counter.per_player or counter.type != INT:
        raise ck.fail(f"'tally ... into {node.counter}' needs a per-player counter of numbers", node.span,
                      hint="declare it: counter score per player = 0 \"points\"")
    return m.TallyS(names.index(node.sheet), counter.index, node.span)


def places(ck: Checker, node: ast.Places, scope: RuleScope, elem: bool) -> m.PlacesIR:
    """Resolve ``places(3, 1 to p by highest KEY for q in IT [if C] [ties share|each])``."""
    points = tuple(ck.expect(p, scope, INT, elem, "the points of a place must be a number") for p in node.points)
    who = ck.expr(node.player, scope, elem)
    iterable = ck.iterable(node.iterable, scope)
    if who.type not in (iterable.type, "any"):
        raise ck.fail(f"'places' ranks values of '{node.var}' ({iterable.type}s), but this is a {who.type}",
                      node.player.span, hint=f"give the {iterable.type} whose points you want")
    if node.ties not in (None, "share", "each"):
        raise ck.fail(f"unknown way to settle ties '{node.ties}'", node.ties_span,
                      hint="'ties share' (tied values share their places' points) or 'ties each' "
                           "(each gets its place's points)")
    scope.push()
    try:
        var = scope.bind(node.var, iterable.type)
        key = ck.expect(node.key, scope, INT, elem, "a ranking key must be a number")
        cond = None
        if node.cond is not None:
            cond = ck.expect(node.cond, scope, BOOL, elem, "'if' needs a true/false condition")
    finally:
        scope.pop()
    return m.PlacesIR(points, who, node.direction == "highest", key, var,
                      iterable, cond, node.ties != "each", node.span)

