"""How much code a game compiles to, estimated before any is written: rules run inlined where they are called.

A rule called from two places is written twice, and a rule that calls another one twice
doubles it again, so a short chain of rules can ask the code generator (and Python's
``compile``) for millions of lines. :func:`check_expansion` counts, in time linear in the
model, the parts (statements and expressions) each rule expands to with its calls inlined,
and refuses a game past MAX_EXPANDED_CODE before any code is generated.
"""

from __future__ import annotations

from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.errors import RulelangError

MAX_EXPANDED_CODE = 20_000
"""Parts of statements and expressions a game may expand to with every call inlined (the shipped games:
at most 1,986). Each part becomes about five lines of Python."""

MAX_GENERATED_LINES = 48_000
"""Lines of Python the code generator may write for a game (the shipped games: at most 7,305).
Writing and compiling a line costs about 50 microseconds on a loaded 2-core machine."""


def generated_too_much(model: m.Model, rule_index: int) -> RulelangError:
    """The error for a game whose generated code passes MAX_GENERATED_LINES while rule ``rule_index`` is written."""
    rule = model.rules[rule_index] if 0 <= rule_index < len(model.rules) else None
    return RulelangError(
        f"the rules compile to too much code (more than {MAX_GENERATED_LINES} lines of Python)",
        rule.span if rule is not None else None,
        hint="statements after an 'if' or a call that may pause are written once for each way through; "
             "move long runs of 'if' blocks into rules of their own, or use a loop",
    )


def _parts(node: Any, sizes: dict[int, int], model: m.Model, busy: set[int]) -> tuple[int, m.CallS | None]:
    """The parts under ``node`` with calls inlined, and the call that weighs most among them."""
    total = 0
    heaviest: tuple[int, m.CallS | None] = (0, None)
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, (tuple, list)):
            stack.extend(item)
            continue
        if not attrs.has(type(item)):
            continue
        total += 1
        if isinstance(item, m.CallS):
            callee = _rule_parts(item.rule, sizes, model, busy)
            total += callee
            if callee > heaviest[0]:
                heaviest = (callee, item)
        for field in attrs.fields(type(item)):
            if field.name != "span":
                stack.append(getattr(item, field.name))
    return total, heaviest[1]


def _rule_parts(index: int, sizes: dict[int, int], model: m.Model, busy: set[int]) -> int:
    if index in sizes:
        return sizes[index]
    if index in busy or not 0 <= index < len(model.rules):  # a recursive call is a call, never inlined
        return 1
    busy.add(index)
    rule = model.rules[index]
    total, heaviest = _parts(rule.body, sizes, model, busy)
    busy.discard(index)
    sizes[index] = total
    if total > MAX_EXPANDED_CODE:
        raise _too_much(model, rule, heaviest)
    return total


def _too_much(model: m.Model, rule: m.Rule, call: m.CallS | None) -> RulelangError:
    where = call.span if call is not None else rule.span
    called = f"'{model.rules[call.rule].name}'" if call is not None else "the rules it calls"
    return RulelangError(
        f"the rules expand to too much code (more than {MAX_EXPANDED_CODE} parts of statements with every call "
        "written out where it is made)",
        where,
        hint=f"a rule is copied where it is called, and calls inside calls multiply: {called} is copied too often "
             "here; call it from fewer places, or from a loop",
    )


def check_expansion(model: m.Model) -> int:
    """The parts ``model`` expands to with its calls inlined; RulelangError past MAX_EXPANDED_CODE."""
    sizes: dict[int, int] = {}
    total = 0
    for rule in model.rules:
        total += _rule_parts(rule.index, sizes, model, set())
        if total > MAX_EXPANDED_CODE:
            raise _too_much(model, rule, None)
    return total
