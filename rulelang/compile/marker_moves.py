"""A marker's move written where it is made (``SEEN_INLINE``): where the marker was last seen is checked in the
generated code itself, and the marker moved there, without the call of ``move_marker`` and its search.

``move_marker`` (piles_runtime) first looks where the program last saw the marker (``last_seen``, here the
constant ``MS``, given at load as the program's own), believing it only where that pile of this state holds
the marker; it then searches, moves, narrates and remembers where the marker went. Where nothing is narrated
(``st.log is None``) and the move's destination is known as (zone, owner), the generated code does the first
check itself, with the same tests (an owner below 0: the zone itself, which holds the marker only if it is not
a zone of piles; else a pile of that zone that this state has), and where the marker is there it moves it as
``move_marker`` would (destination evaluated first, as when it is an argument; removed from its pile; put at
the end of an ordered destination, in order otherwise; remembered where it went) and takes the zone it came
from. Anywhere else (narrated, not seen there, never seen) it calls ``move_marker`` as before: the same
state, the same narration, the same errors.
"""

from __future__ import annotations

from typing import Any

SEEN_INLINE = True
"""Whether a marker's move with a known destination checks where it was last seen in the generated code (see
the module's docstring); the equivalence tests turn it off to compare."""
# The test that the pile last seen holds the marker, {s} the pile (None: no such pile here), {c} the marker (a
# test breaks it).
HELD = "{s} is not None and {c} in {s}"


def emit(gen: Any, L: list, c: int, dest: str, ordered: bool, at: str, call: str, ind: int, sp: Any) -> str | None:
    """Write the move of marker ``c`` to ``dest`` (source text; ``at``: its (zone, owner), never "None") with
    ``call`` (``move_marker``'s, the way when the marker is not where it was last seen); return the variable
    holding the zone it was taken from (None: SEEN_INLINE off, nothing written)."""
    if not SEEN_INLINE or at == "None":
        return None
    w, z, o, s, d = gen.var("w"), gen.var("z"), gen.var("o"), gen.var("s"), gen.var("d")
    put = f"{d}.append({c})" if ordered else f"insort({d}, {c})"
    L += [
        (ind, f"{w} = MS.get({c})", sp),
        (ind, f"{z} = None", sp),
        (ind, f"if {w} is not None and st.log is None:", sp),
        (ind + 1, f"{z}, {o} = {w}", sp),
        (ind + 1, f"{s} = Z[{z}]", sp),
        (ind + 1, f"if {o} >= 0:", sp),
        (ind + 2, f"{s} = {s}[{o}] if {o} < len({s}) and type({s}[{o}]) is list else None", sp),
        (ind + 1, f"if {HELD.format(s=s, c=c)}:", sp),
        (ind + 2, f"{d} = {dest}", sp),
        (ind + 2, f"{s}.remove({c})", sp),
        (ind + 2, put, sp),
        (ind + 2, f"MS[{c}] = {at}", sp),
        (ind + 1, "else:", sp),
        (ind + 2, f"{z} = None", sp),
        (ind, f"if {z} is None:", sp),
        (ind + 1, f"{z} = {call}", sp),
    ]
    return z
