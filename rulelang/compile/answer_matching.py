"""Which answer each seat gave to an ``ask`` (a part of the generator, for ``answer(...)`` expressions): the
function that finds, for every seat that answered, the answer among the ask's and the values it was given for,
and the error when an answer is no longer one the seat could give."""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.errors import RulelangError


def answer_matcher(gen: Any, s: m.AskS) -> str:
    """A function finding, for each seat that answered the ask, which answer it gave and its values."""
    name = f"am{next(gen.names)}"
    gen.consts["answer_gone"] = answer_gone
    var = s.var + gen.off
    sp = s.span
    lines: list = [(1, "out = [None] * st.players", sp), (1, "for p in range(st.players):", sp),
                   (2, "a = st.answers[p]", sp), (2, "if not a:", sp), (3, "continue", sp),
                   (2, f"loc[{var}] = p", sp), (2, "f = None", sp)]
    dynamic = s.dynamic or (None,) * len(s.options)
    for i, ((label, cond, span), dyn) in enumerate(zip(s.options, dynamic)):
        if dyn is None:
            test = f"a == {gen.const(label)}" + ("" if cond is None else f" and {gen.ex(cond)}")
            lines.append((2, f"if f is None and {test}:", span))
            lines.append((3, f"f = [{i}]", span))
            continue
        template, bindings = dyn
        lines.append((2, "if f is None:", span))
        ind, values = 3, []
        for slot, it in bindings:
            v = gen.var("v")
            lines.append((ind, f"for {v} in {gen.iterable(it, copy=False)}:", span))
            lines.append((ind + 1, f"loc[{slot + gen.off}] = {v}", span))
            values.append(v)
            ind += 1
        test = f"{gen.template(template)} == a" + ("" if cond is None else f" and {gen.ex(cond)}")
        lines.append((ind, f"if {test}:", span))
        lines.append((ind + 1, f"f = [{', '.join([str(i), *values])}]", span))
        if bindings:
            lines.append((ind + 1, "break", span))
        for level in range(ind - 1, 3, -1):  # out of the outer ranges too, once found
            lines.append((level, "if f is not None:", span))
            lines.append((level + 1, "break", span))
    lines.append((2, "if f is None:", sp))
    lines.append((3, f"answer_gone(p, a, {gen.const(sp)})", sp))
    lines.append((2, "out[p] = f", sp))
    lines.append((1, "return out", sp))
    gen.helper(name, "st, loc", lines)
    return name


def answer_gone(p: int, answer: str, span: Any) -> None:
    """A player's answer that is no longer among those they could give (something changed them meanwhile)."""
    raise RulelangError(f"P{p + 1}'s answer {answer!r} is no longer one of the answers of this 'ask'", span,
                        hint="an 'after each step' trigger changed what the answers read while the players answered")
