"""What is left of a budget after paying, stored without its bound test (``PAID_LEFT``).

A ``spend`` is checked into a loop around a ``choose`` (check/budgets.py): each option's condition starts
with its cost test (``cost <= left``) and its body with the payment (``let left = left - cost``). A ``let``
of a number is tested against the bound where it is stored (``CodeGen.stored``); this one cannot fail it:

- the option's body runs only where its condition held when it was taken (every picker takes an option
  listed or matched as offered), so ``left >= cost`` there when nothing before the payment in the body
  writes ``left`` (only ``let`` of other locals may come first);
- ``cost`` is a whole number written in the rules, 0 or more, within the bound;
- ``left`` holds a number within the bound: the rule writes it only by ``let`` (each bounded, this one too:
  see below) and binds it nowhere else.

So ``left - cost`` lies between 0 and ``left``: a whole number within the bound if ``left`` is one, and a
fraction ``a/b`` with ``0 <= a - cost*b <= a`` otherwise, which ``bounded`` returns as it is as well. The
value stored is the same, so is every error (none can come from there).
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile import spills
from rulelang.compile.analysis import conjuncts
from rulelang.numbers import MAX_NUMBER

PAID_LEFT = True
"""Whether a payment proved within the bound (see the module's docstring) is stored without its bound test;
the equivalence tests turn it off to compare."""


def unbounded(gen: Any, s: m.LetS) -> bool:
    """Whether the ``let`` ``s`` is a payment whose value is proved within the bound (see the module)."""
    if not PAID_LEFT:
        return False
    found = getattr(gen, "paid_lets", None)
    if found is None:
        found = gen.paid_lets = _payments(gen.model)
    return id(s) in found


def _payments(model: m.Model) -> frozenset[int]:
    """The ids of the ``let`` statements of the model proved within the bound (see the module)."""
    out: set[int] = set()
    for rule in model.rules:
        for opt in _options(rule.body):
            out.update(_paid_in(rule, opt))
    return frozenset(out)


def _options(body: Any) -> list[m.OptionIR]:
    """Every option of every ``choose`` in these statements, nested ones included."""
    out: list[m.OptionIR] = []
    for s in body:
        t = type(s)
        subs: list = []
        if t is m.IfS:
            subs = [b for _c, b in s.branches] + ([s.orelse] if s.orelse else [])
        elif t in (m.WhileS, m.RepeatS, m.ForS):
            subs = [s.body]
        elif t is m.ChooseS:
            out.extend(s.options)
            subs = [o.body for o in s.options]
        for sub in subs:
            out.extend(_options(sub))
    return out


def _paid_in(rule: Any, opt: m.OptionIR) -> list[int]:
    """The payments at the start of an option's body: ``let L = L - C`` after only ``let`` of other locals,
    with ``C <= L`` (or ``L >= C``) one of the leading conjuncts of its condition."""
    if opt.cond is None:
        return []
    tested: set[tuple[int, int]] = set()  # (slot, cost) of the condition's tests cost <= slot
    for p in conjuncts(opt.cond):
        if type(p) is not m.BinOp:
            continue
        if p.op == "<=" and _cost(p.left) is not None and type(p.right) is m.Local:
            tested.add((p.right.slot, _cost(p.left)))
        elif p.op == ">=" and _cost(p.right) is not None and type(p.left) is m.Local:
            tested.add((p.left.slot, _cost(p.right)))
    own = {slot for slot, _it in opt.bindings}
    written: set[int] = set()
    out: list[int] = []
    for s in opt.body:
        if type(s) is not m.LetS:
            break
        v = s.value
        if type(v) is m.BinOp and v.op == "-" and type(v.left) is m.Local and v.left.slot == s.slot \
                and v.left.type == m.INT and _cost(v.right) is not None and (s.slot, _cost(v.right)) in tested \
                and s.slot not in written and s.slot not in own and not spills.binds_but_let(rule.body, s.slot):
            out.append(id(s))
        written.add(s.slot)
    return out


def _cost(e: Any) -> int | None:
    """The whole number 0 or more within the bound that ``e`` writes, or None."""
    if type(e) is m.Const and type(e.value) is int and 0 <= e.value <= MAX_NUMBER:
        return e.value
    return None
