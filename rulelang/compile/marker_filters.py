"""An option's values kept where a marker is not on their pile, listed without testing each (``NOT_ON``).

A listing of ``for c in ... if not any(M in Z of c)`` with ``M`` a marker (one component) and ``Z`` a zone
of piles on components is written as a loop testing each value's pile (``Options.owned_loop``, its branch
for values that all own such a pile). The marker is in one place only: where the program last saw it
(``MS``, see marker_moves.py) is a pile of ``Z`` that holds it, the values kept are all but that pile's owner,
in their order; so they are the values copied, that owner taken out. Where the guess is not such a pile
(never seen, stale, elsewhere), the loop runs as before. The values are the same, and no test could fail in
that branch (every value owns its pile), so no error is lost.

Whether a listing has that shape is decided from the checked model (``marker_test``): the option's test of
its innermost value is that one conjunct, ``not any`` of a query of one marker component in the pile of
that value (the range's own local) of a ``per CLASS`` zone, or of a ``per KIND`` zone whose piles are
numbered by component id (the kind's first component is 0: a pile's index is its owner). The enumerator
(``OptionEmitter.enumerator``) asks it where it writes the loop that keeps an innermost range's values in a
list and counts no tries, and hands the answer and the list's name to ``rewrite``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import fold

NOT_ON = True
"""Whether such a listing takes its values as they are, but the marker's pile (see the module's docstring);
the equivalence tests turn it off to compare."""

# The test that the pile last seen ({w}: zone, owner) is one of zone {z}'s ({p}) and holds marker {c}, its owner
# then {q} (a test breaks it).
_HELD = "{w}[0] == {z} and 0 <= ({q} := {w}[1]) < len({p}) and {c} in {p}[{q}]"


def marker_test(gen: Any, parts: list[Any], slot: int) -> tuple[int, int] | None:
    """Where the conjuncts ``parts`` of an option's test of its innermost value (in local ``slot``) are exactly
    ``not any(M in Z of v)``, ``M`` a kind of one component of the marker class and ``Z`` a zone of piles whose
    index is their owner (see the module's docstring): (that component, that zone); else None (or NOT_ON off)."""
    if not NOT_ON or len(parts) != 1:
        return None
    e = fold(parts[0])
    if type(e) is not m.UnOp or e.op != "not" or type(e.operand) is not m.Agg:
        return None
    agg = e.operand
    q = agg.query
    if agg.func != "any" or agg.attr is not None or q.kinds is None or q.exclude or q.where is not None \
            or q.kind_locals or q.count is not None or q.count_expr is not None or q.one is not None \
            or q.quantity not in ("default", "all") or len(q.zones) != 1:
        return None
    sel = q.zones[0]
    if type(sel.owner) is not m.Local or sel.owner.slot != slot:
        return None
    ids = [c for c, k in enumerate(gen.kind_of) if k in q.kinds]
    if len(ids) != 1 or gen.model.kinds[gen.kind_of[ids[0]]].cls != "marker":
        return None
    zone = gen.model.zones[sel.zone]
    if zone.per_class is None and (zone.per_kind is None or gen.comp.first_of_kind.get(zone.per_kind, 0) != 0):
        return None
    return ids[0], sel.zone


def rewrite(gen: Any, kept: str, marker: tuple[int, int], v: str, values: str, fast: list, ind: int, sp: Any,
            unwritten: Callable[[Any], bool]) -> list | None:
    """The lines of the loop ``for v in values:`` over ``fast`` (its body, every value owning its piles), at
    indent ``ind``, that keeps the values whose pile does not hold the marker into the list ``kept`` (made empty
    just before it), ``marker`` (component, zone) as ``marker_test`` found it, written as the module says (None:
    the body writes more than the test and the keep, NOT_ON off). ``unwritten``: whether a place-holder of the
    body writes nothing (the loop may then be left out)."""
    if not NOT_ON:
        return None
    # (the enumerator writes the test and the keep there; anything else it may write, the loop keeps)
    if sum(1 for x in fast if type(x[1]) is str) != 2 or not all(type(x[1]) is str or unwritten(x[1]) for x in fast):
        return None
    c, z = marker
    w, q, p, x = gen.var("w"), gen.var("q"), gen.var("p"), gen.var("x")
    loop = [(ind, f"for {v} in {values}:", sp), *[(i, text, s) for i, text, s in fast]]
    return [
        (ind, f"{w} = MS.get({c})", sp),
        (ind, f"{p} = Z[{z}]", sp),
        (ind, f"if {w} is not None and {_HELD.format(w=w, z=z, q=q, p=p, c=c)}:", sp),
        (ind + 1, f"{kept}.extend({values})", sp),  # (the marker is on {q}'s pile, on no other)
        (ind + 1, f"if {q} in {kept}:", sp),
        (ind + 2, f"{kept}.remove({q})", sp),
        (ind + 2, f"if {q} in {kept}:", sp),
        (ind + 3, f"{kept}[:] = [{x} for {x} in {values} if {x} != {q}]", sp),
        (ind, "else:", sp),
        *[(i + 1, text, s) for i, text, s in loop],
    ]
