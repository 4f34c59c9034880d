"""An option's values kept where a marker is not on their pile, listed without testing each (``NOT_ON``).

A listing of ``for c in ... if not any(M in Z of c)`` with ``M`` a marker (one component) and ``Z`` a zone
of piles on components is written as a loop testing each value's pile (``Options.owned_loop``, its branch
for values that all own such a pile). The marker is in one place only: where the program last saw it
(``MS``, see marker_moves.py) is a pile of ``Z`` that holds it, the values kept are all but that pile's owner,
in their order; so they are the values copied, that owner taken out. Where the guess is not such a pile
(never seen, stale, elsewhere), the loop runs as before. The values are the same, and no test could fail in
that branch (every value owns its pile), so no error is lost.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

NOT_ON = True
"""Whether such a listing takes its values as they are, but the marker's pile (see the module's docstring);
the equivalence tests turn it off to compare."""

# The test that the pile last seen ({w}: zone, owner) is one of zone {z}'s ({p}) and holds marker {c}, its owner
# then {q} (a test breaks it).
_HELD = "{w}[0] == {z} and 0 <= ({q} := {w}[1]) < len({p}) and {c} in {p}[{q}]"
_TEST = re.compile(r"if \(not \((\d+) in (?:Z\[(\d+)\]|Z_(\d+))\[(\w+)\]\)\):")
_KEEP = re.compile(r"(\w+)\.append\((\w+)\)")


def rewrite(gen: Any, before: Any, v: str, values: str, fast: list, ind: int, sp: Any,
            unwritten: Callable[[Any], bool]) -> list | None:
    """The lines of the loop ``for v in values:`` over ``fast`` (its body, every value owning its piles),
    at indent ``ind``, written as the module says where they keep the values whose pile does not hold a
    marker into a list made empty just ``before`` (None: not this shape, or NOT_ON off). ``unwritten``: whether
    a place-holder of the body writes nothing (the loop may then be left out)."""
    if not NOT_ON:
        return None
    texts = [x for x in fast if type(x[1]) is str]
    if len(texts) != 2 or not all(type(x[1]) is str or unwritten(x[1]) for x in fast):
        return None
    test, keep = _TEST.fullmatch(texts[0][1]), _KEEP.fullmatch(texts[1][1])
    if test is None or keep is None or test.group(4) != v or keep.group(2) != v or texts[1][0] != texts[0][0] + 1:
        return None
    kept = keep.group(1)
    if type(before[1]) is not str or before[1] != f"{kept} = []":
        return None
    c, z = int(test.group(1)), int(test.group(2) or test.group(3))
    model = gen.model
    if not 0 <= c < len(gen.kind_of) or model.kinds[gen.kind_of[c]].cls != "marker" \
            or sum(1 for k in gen.kind_of if k == gen.kind_of[c]) != 1:
        return None
    zone = model.zones[z]
    if zone.per_class is None and zone.per_kind is None:
        return None
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
