"""A count's range filtered by the emptiness of each value's own pile (a part of the generator, for
``CountedEmitter.range_listed``): while no pile of that zone holds a component, every value passes, and the
range's list is the zone's own list, with no loop.

Decided from the checked model (``idle_piles``): the range is all of one shared zone, unfiltered, and its one
filter is ``not any(all in Z of v)`` (``v`` the range's own local, nothing asked of the pile's components),
``Z`` a zone of piles on components whose index is their owner: kept per class, or per kind numbered from 0.
Every value then indexes the zone's table where the count's guard holds (``CodeGen.owners_proven``, see
``counted_pick``), which is the only place it is asked. When ``any(Z[n])`` is false every such pile is empty,
so the test holds for every value and the loop would list the range's values as they are, in order."""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile.analysis import fold

EMPTY_PILES_PASS = True
"""Whether a count's range over a zone filtered by ``not`` its values' piles of one zone is that zone's list
when no pile of it holds a component (``if not any(Z[n]): lst = Z[m]``), the loop kept for the other case;
the equivalence tests turn it off to compare."""


def _plain(q: m.QueryIR) -> bool:
    """Whether a query is every component of its zones: no kinds, test, count or single component asked for."""
    return q.kinds is None and q.where is None and not q.kind_locals and not q.exclude and q.count is None \
        and q.count_expr is None and q.one is None and q.quantity in ("all", "default") and len(q.zones) == 1


def idle_piles(gen: Any, filters: list[Any], slot: int, it: m.IterIR) -> int | None:
    """Where the ``filters`` of a count's last range ``it`` (binding the local ``slot``) are exactly
    ``not any(all in Z of v)`` and the range is a shared zone's components, the piles' owners proven
    (see the module's docstring): ``Z``'s index (while none of its piles holds anything, every value passes);
    else None (or EMPTY_PILES_PASS off)."""
    if not EMPTY_PILES_PASS or not gen.owners_proven or len(filters) != 1:
        return None
    if it.kind != "query" or it.query is None or not _plain(it.query) or it.query.zones[0].owner is not None:
        return None
    source = gen.model.zones[it.query.zones[0].zone]
    if source.per_player or source.per_kind is not None or source.per_class is not None:
        return None
    e = fold(filters[0])
    if type(e) is not m.UnOp or e.op != "not" or type(e.operand) is not m.Agg:
        return None
    agg = e.operand
    if agg.func != "any" or agg.attr is not None or not _plain(agg.query):
        return None
    sel = agg.query.zones[0]
    if type(sel.owner) is not m.Local or sel.owner.slot != slot:
        return None
    zone = gen.model.zones[sel.zone]
    if zone.per_class is None and (zone.per_kind is None or gen.comp.first_of_kind.get(zone.per_kind, 0) != 0):
        return None
    return sel.zone
