"""A total over the seats of how many components each seat's own zone holds (a part of the generator, for
``QueryWriter.gen`` and ``ExprWriter``): ``total(count(all in Z of q) for q in players)`` read as the lengths
of the zone's per-seat lists, in C, and the test of that total against 0 as whether any of them holds one.

A zone kept per player holds exactly one list per seat (``Engine.new_state``), seat 0 first, so the sum of
their lengths is the total the loop over the seats adds up, and, the lengths never negative, the total is 0
exactly when every list is empty."""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m

SEAT_ZONE_TOTALS = True
"""Whether ``total(count(all in Z of q) for q in players)``, Z kept per player, is ``sum(map(len, Z))`` (and
compared with 0, ``not any(Z)`` / ``any(Z)``) instead of a helper function that loops over the seats; the
equivalence tests turn it off to compare."""


def seat_zone(model: m.Model, e: Any) -> int | None:
    """The zone's index where ``e`` is a total over every seat (``for q in players``, no condition) of the
    number of all components in that seat's own zone of one per-player zone (no kind, filter or count); else
    None."""
    if not SEAT_ZONE_TOTALS or type(e) is not m.Gen or e.func != "total" or e.cond is not None:
        return None
    it = e.iterable
    if type(it) is not m.IterIR or it.kind != "players":
        return None
    agg = e.expr
    if type(agg) is not m.Agg or agg.func != "count" or agg.attr is not None:
        return None
    q = agg.query
    if q.quantity != "all" or q.count is not None or q.count_expr is not None or q.one is not None \
            or q.kinds is not None or q.kind_locals or q.exclude or q.where is not None or len(q.zones) != 1:
        return None
    sel = q.zones[0]
    zone = model.zones[sel.zone]
    if not zone.per_player or zone.per_kind is not None or zone.per_class is not None:
        return None
    if type(sel.owner) is not m.Local or sel.owner.slot != e.var:
        return None
    return sel.zone


def total_source(model: m.Model, e: Any) -> str | None:
    """Source of the total ``e`` where ``seat_zone`` finds its zone, ``sum(map(len, Z[z]))``; else None."""
    z = seat_zone(model, e)
    return None if z is None else f"sum(map(len, Z[{z}]))"


def compared_with_zero(model: m.Model, e: Any) -> str | None:
    """Source of ``e``, a comparison ``T == 0``, ``T != 0`` or ``T > 0`` of such a total ``T`` (see
    ``seat_zone``) with the number 0, as whether no seat's (or some seat's) list holds a component; else
    None."""
    if type(e) is not m.BinOp or e.op not in ("==", "!=", ">") or type(e.right) is not m.Const \
            or type(e.right.value) is not int or e.right.value != 0:
        return None
    z = seat_zone(model, e.left)
    if z is None:
        return None
    return f"(not any(Z[{z}]))" if e.op == "==" else f"any(Z[{z}])"
