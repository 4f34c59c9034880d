"""Locals proved to hold whole numbers, from the checked model: a local whose every write is a value of a range
(``for n in 1 to 6``, a choice's ``for n in 1 to count(...)``: ranges are of whole numbers), a ``let`` of a
whole number (``analysis.whole_valued``) or of such a local, or a rule's argument that every call passes such
a value (not a rule the engine runs itself: the setup, the turn, a trigger's). Where a move takes such a
number of components, it needs no test that the number is whole (``numbers.whole``, which returns a whole
number as it is): the same count, the same moves.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import whole_valued
from rulelang.compile.unasked import SlotFlow, calls_of

WHOLE_LOCALS = True
"""Whether a move's count read from a local proved whole (see the module's docstring) is written without
``whole(...)`` (off: every count read from a local is tested; the equivalence tests compare the two)."""


def whole_local(gen: Any, e: Any) -> bool:
    """Whether ``e``, an expression of the rule ``gen`` writes now (inlined into the frame's rule or not),
    is a local proved to hold a whole number."""
    if not WHOLE_LOCALS or type(e) is not m.Local or gen.coverage:
        return False
    flow = gen.__dict__.get("_whole_flow")
    if flow is None:
        flow = gen.__dict__["_whole_flow"] = SlotFlow(gen.model, calls_of(gen.model), lambda it: it.kind == "range",
                                                      whole_valued, in_setup=True)
    rule = gen.ikey[-1][1] if gen.ikey else gen.frame
    return flow.holds(rule, e)
