"""How the answers of an ``ask`` are listed (a part of the generator, for ``decisions.ask_enumerator``): the
answers given per value of one binding mapped from a table, and all of them as one list."""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m

LISTED_AT_ONCE = True
"""Whether an ask's answers that are all answers without a condition, each a label or the labels mapped from the
values of one binding (``MAPPED_ANSWERS``), are listed as one list, ``[A, *map(TABLE.__getitem__, VALUES), B]``,
instead of appended one by one: the same texts in the same order."""


def mapped(gen: Any, template: m.TemplateIR, bindings: Any, cond: Any) -> str | None:
    """Where answers given per value of one binding without a condition are each a table's entry for the value
    (the label's text per kind, read at the value itself: a kind, or a component where the kinds are the
    components' ids), the source of their list, ``map(TABLE.__getitem__, VALUES)`` (no value stored in ``loc``:
    nothing here reads it there); else None."""
    if len(bindings) != 1 or cond is not None:
        return None
    by_kind = gen.kind_texts(template)
    slot, it = bindings[0]
    if by_kind is None:
        return None
    hole = by_kind[1]
    if hole != m.Local(slot, m.KIND) and not (gen.kinds_are_ids and type(hole) is m.CompKind
                                              and hole.comp == m.Local(slot, m.COMPONENT)):
        return None
    return f"map({by_kind[0]}.__getitem__, {gen.iterable(it, copy=False)})"
