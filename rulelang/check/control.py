"""Checks of the constructs of control: counters of a stated or inferred type (numbers, texts, kinds,
players, faces), ``no kind``, ``no face``, ``break``/``continue`` (only inside a loop of the same rule)
and ``best NAME in IT by highest|lowest KEY [if C] [ties first|none]``.

These are module functions over the :class:`~rulelang.check.checker.Checker` (``ck``), as in
:mod:`~rulelang.check.budgets`.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.check.common import RuleScope, Skip
from rulelang.check.model import FACE, INT, KIND, PLAYER, STR
from rulelang.syntax import ast

COUNTER_TYPES = {"number": INT, "text": STR, "kind": KIND, "player": PLAYER, "face": FACE}
"""The types a counter may hold, by the word that states them (``counter trump: kind``)."""

EMPTY = {INT: m.Const(0, INT), STR: m.Const("", STR), KIND: m.Const(-1, KIND), PLAYER: m.Const(-1, PLAYER),
         FACE: m.Const(-1, FACE)}
"""What a counter of a stated type starts as when no starting value is written: 0, "", no kind, nobody,
no face."""

TIE_WORDS = ("first", "none")
"""What ``ties WORD`` may say: the first of the tied values in the iterable's order, or none of them."""

LOOP_KEY = "loops"
"""The key of a statement context (``ctx``) that counts the loops around a statement within its rule;
``None`` where a loop cannot be left by ``break`` (a ``spend``'s options: the loop there is the engine's)."""


def counter_type(ck: Any, counter: m.Counter) -> None:
    """Type a counter from its stated type and its starting value (checked), or report what is wrong.

    A counter whose declaration is wrong gets the type it states (else ``any``), so that the
    statements that set it do not each report an error of their own.
    """
    stated = counter.stated
    want = None
    if stated is not None:
        want = COUNTER_TYPES.get(stated.name)
        if want is None:  # (the grammar admits only the five words; kept for a merge that adds one)
            ck.error(f"a counter holds a number, a text, a kind, a player or a face, not a '{stated.name}'",
                     stated.span)
    try:
        if counter.init is None:
            init = EMPTY[want or INT]
        else:
            init = ck.expr(counter.init, RuleScope())
            if want is not None and init.type not in (want, "any"):
                raise ck.fail(f"counter '{counter.name}' holds a {stated.name}, but its starting value is a "
                              f"{init.type}", counter.init.span,
                              hint=_empty_hint(stated.name))
            if init.type not in (*COUNTER_TYPES.values(), "any"):
                raise ck.fail("a counter holds a number, a text, a kind, a player or a face, but this is a "
                              f"{init.type}",
                              counter.init.span,
                              hint="say the type and start it empty ('counter trump: kind' starts as 'no kind'), "
                                   "or keep something else in a 'let'")
        counter.type = init.type
        counter.init = init
    except Skip:
        counter.type = want or "any"
        counter.init = EMPTY.get(want or INT, m.Const(0, INT))


def _empty_hint(word: str) -> str:
    start = {"number": "0", "text": '""', "kind": "no kind", "player": "nobody", "face": "no face"}[word]
    return f"a {word} counter with no starting value starts as {start}"


def in_loop(ck: Any, node: ast.Simple, ctx: dict) -> m.SimpleS:
    """``break``/``continue``: an error outside a loop of the same rule (a called rule's loop is not it)."""
    loops = ctx.get(LOOP_KEY, 0)
    if loops is None:
        raise ck.fail(f"'{node.what}' cannot leave the options of 'spend'", node.span,
                      hint="'spend' offers its options until the budget is spent or the player stops; "
                           "add an option that stops, or put the loop inside the option")
    if loops == ANSWER_FENCE:
        raise ck.fail(f"'{node.what}' cannot leave a loop from an answer's block", node.span,
                      hint="every player's answer still runs its block; set a counter in the block and "
                           f"test it after the 'ask' (if ...: {node.what}), or put the loop inside the block")
    if not loops:
        raise ck.fail(f"'{node.what}' is outside any loop", node.span,
                      hint=f"'{node.what}' goes inside a 'while', 'repeat' or 'for' of the same rule "
                           "(a rule called from a loop cannot leave it)")
    return m.SimpleS(node.what, node.span)


ANSWER_FENCE = "answer"
"""The loops count inside an answer's block: a ``break`` there would leave the players' blocks, not the loop."""


def loop_body(ctx: dict) -> dict:
    """The statement context inside a loop's body."""
    loops = ctx.get(LOOP_KEY, 0)
    return {**ctx, LOOP_KEY: 1 if loops is None or loops == ANSWER_FENCE else loops + 1}


def answer_body(ctx: dict) -> dict:
    """The statement context inside an answer's block (no ``break`` out of a loop around the ``ask``)."""
    return {**ctx, LOOP_KEY: ANSWER_FENCE}


def best(ck: Any, node: ast.Best, scope: RuleScope, elem: bool) -> m.Gen:
    """``best NAME in IT by highest|lowest KEY [if C] [ties first|none]``: a ``Gen`` of func
    ``best highest first`` and the like (a tie, when no ``ties`` is written: ``best highest``)."""
    iterable = ck.iterable(node.iterable, scope)
    if iterable.type not in (PLAYER, KIND, m.COMPONENT, INT):
        raise ck.fail(f"'best' picks among players, kinds, components or numbers, not {iterable.type}s",
                      node.iterable.span)
    if node.ties is not None:
        if node.ties not in TIE_WORDS:
            raise ck.fail(f"unknown tie rule 'ties {node.ties}'", node.ties_span or node.span,
                          hint="'ties first' (the first of them in the order of the values) or "
                               "'ties none' (nobody, or no kind); without it a tie is an error when played")
        if node.ties == "none" and iterable.type not in (PLAYER, KIND):
            raise ck.fail(f"'ties none' gives nobody or no kind, but this picks among {iterable.type}s",
                          node.ties_span or node.span, hint="write 'ties first', or leave a tie an error")
    var, key, cond = ck.gen_parts(node.var, iterable, node.key, node.cond, scope, elem,
                                  f"'best ... by {node.direction}' needs a number to compare")
    func = " ".join(("best", node.direction) + ((node.ties,) if node.ties else ()))
    return m.Gen(func, key, var, iterable, cond, iterable.type, node.span)


def reserved_rule_names(ck: Any) -> None:
    """A rule named ``break`` or ``continue`` could not be called (the words start statements): say so
    at its declaration, with the mechanical change."""
    for name, (decl, _section) in ck.blocks.items():
        if name in ("break", "continue"):
            what = "leaves a loop" if name == "break" else "goes on with a loop's next pass"
            ck.error(f"a rule cannot be called '{name}': '{name}' is a statement (it {what})", decl.span,
                     hint=f"rename the rule and its calls, for instance to '{name}_now'")
