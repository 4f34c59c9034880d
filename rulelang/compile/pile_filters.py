"""A count's range filtered by the emptiness of each value's own pile (a part of the generator, for
``CountedEmitter.range_listed``): while no pile of that zone holds a component, every value passes, and the
range's list is the zone's own list, with no loop.

The filter ``(not Z[n][v])`` is written so (no test of the owner) only where ``v`` is sure to index the zone's
table: a seat of a zone kept per player, or a component that owns a pile of a zone kept per kind, numbered from
0 (the count's guard holds, see ``counted_pick``). When ``any(Z[n])`` is false every such pile is empty, so the
test holds for every value and the loop would list the range's values as they are, in order."""

from __future__ import annotations

import re

EMPTY_PILES_PASS = True
"""Whether a count's range over a zone filtered by ``not`` its values' piles of one zone is that zone's list
when no pile of it holds a component (``if not any(Z[n]): lst = Z[m]``), the loop kept for the other case;
the equivalence tests turn it off to compare."""

_ZONE = re.compile(r"Z\[\d+\]|Z_\d+")


def idle_piles(test: str, value: str, source: str) -> str | None:
    """Where the filter ``test`` on ``value`` is exactly ``(not P[value])`` with ``P`` a zone's table and the
    range's ``source`` a zone's list: ``P`` (while none of its piles holds anything, every value passes); else
    None."""
    if not EMPTY_PILES_PASS or _ZONE.fullmatch(source) is None:
        return None
    found = re.fullmatch(rf"\(not (Z\[\d+\]|Z_\d+)\[{re.escape(value)}\]\)", test)
    return None if found is None else found.group(1)
