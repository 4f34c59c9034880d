"""Generated code for ``move``: one component, all of a query, the top of a zone, two moves fused in one
pass (a part of the generator).
"""

from __future__ import annotations

import bisect
from typing import Any

from rulelang.check import model as m
from rulelang.compile import control, piles, whole_locals
from rulelang.compile.analysis import same, whole_valued

RUNS_APART = True
"""Whether two moves in a row out of one zone kept sorted, each of a run of ids (every component of some kinds,
numbered kind by kind: ``move all except Robber from box to deck``), are written one after the other, each
cutting its run out of the zone found by bisection, instead of in one pass over the zone testing each
component (``fusible_moves``): the same components taken in the same order, put and narrated in the same
order, the triggers checked after the second as before (the first checks none)."""

DIRECT_PUTS = True
"""Whether a move puts what it takes straight into its destination list, as it takes it, instead of
gathering it in a list of its own first: two fused moves out of one zone ``insort`` each component
into its sorted destination in their pass; a move of everything from one zone or several adds each
source's list to the destination and empties it. The narration (``st.log``) is told the same, from
lists it makes only when it is on; the source and destination tested for being one list only where
they may be (the same zone). Off: the code written before (the equivalence tests compare both)."""

KINDS_LISTED = True
"""Whether ``move k from ...`` in a game with no two components of one kind finds kind ``k``'s component as
``k`` itself (each component numbered as its kind, every kind with one) or from a list by kind, not with
``KC.get(k, -1)``: the same component, or -1 for none (see ``kind_component``); the equivalence tests turn
it off to compare."""


class MoveEmitter:
    """Moves of components between zones (mixed into ``CodeGen``)."""

    def kind_component(self, k: str) -> str:
        """Source of the one component of the kind that ``k`` (the source of a kind: a kind's index, or -1 for no
        kind) holds, or -1 where it has none, in a game where no two components are of one kind: with
        ``KINDS_LISTED``, ``k`` itself where each kind's one component has the kind's number, else a list read
        by kind (its last entry -1, read at -1); without, ``KC.get(k, -1)``, the map from kinds to components."""
        if not KINDS_LISTED:
            if "KC" not in self.consts:
                self.consts["KC"] = {kind: c for c, kind in enumerate(self.kind_of)}
            return f"KC.get({k}, -1)"
        if self.kinds_are_ids and self.ncomp == len(self.model.kinds):
            return k
        if "KCL" not in self.consts:
            of_kind = {kind: c for c, kind in enumerate(self.kind_of)}
            self.consts["KCL"] = [of_kind.get(kind, -1) for kind in range(len(self.model.kinds))] + [-1]
        return f"KCL[{k}]"

    def put(self, L: list, zone: m.Zone, place: str | None, d: str, mv: str, ind: int, sp: Any) -> None:
        if not zone.ordered:
            L.append((ind, f"if len({mv}) == 1:", sp))
            L.append((ind + 1, f"insort({d}, {mv}[0])", sp))
            L.append((ind, "else:", sp))
            L.append((ind + 1, f"{d} += {mv}", sp))
            L.append((ind + 1, f"{d}.sort()", sp))
        elif place == "bottom":
            L.append((ind, f"{d}[0:0] = {mv}", sp))
        else:
            L.append((ind, f"{d} += {mv}", sp))

    def emit_move(self, L: list, s: m.MoveS, ind: int) -> None:
        """A move of every matching component (or the top N of them) from zones to a zone."""
        sp = s.span
        q = s.query
        if q.one is not None:
            return self.emit_move_comp(L, s, ind)
        dz = self.model.zones[s.dest.zone]
        d, mv, lg, came = self.var("d"), self.var("mv"), self.var("lg"), self.var("came")
        c = self.var("c")
        how, src = self.filter(q, c)
        limited = q.quantity == "count" and (q.count is not None or q.count_expr is not None)
        one = None
        if self.unique_kinds and not limited and q.kinds is None and q.where is None and not q.exclude \
                and len(q.kind_locals) == 1:  # 'move k from ...': the one component of kind k, if any
            one = self.var("one")
            L.append((ind, f"{one} = {self.kind_component(self.local(q.kind_locals[0]))}", sp))
            if self.from_first_holding(q):
                return self.move_kind_one(L, s, one, ind)
        if len(q.zones) == 1:
            return self.emit_move_one(L, s, ind, how, src, c, limited, one)
        if DIRECT_PUTS and how == "all" and not limited and one is None and s.place != "bottom" \
                and all(self.plain_zone(sel) for sel in q.zones):
            return self.move_all_direct(L, s, ind)
        # (DIRECT_PUTS) each source's components put as they are taken: a list of them all only narrated
        direct = DIRECT_PUTS and not limited and one is None and s.place != "bottom" \
            and all(self.plain_zone(sel) for sel in q.zones)
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        L.append((ind, f"{lg} = st.log", sp))
        L.append((ind, f"if {lg} is not None:", sp))
        L.append((ind + 1, f"{came} = []", sp))
        L.append((ind + direct, f"{mv} = []", sp))
        need = self.var("need")
        if limited:
            L.append((ind, f"{need} = {self.move_count(q)}", sp))
        names = self.var("names")
        if len(q.zones) > 1 and all(self.plain_zone(sel) for sel in q.zones):
            # Zones found without a check that may fail: one after the other, with no tuple to go through.
            span = None if limited else self.id_span(q)
            for sel in q.zones:
                z = self.var("s")
                L.append((ind, f"{z} = {self.zone(sel)}", sp))
                self.move_from(L, z, d, mv, lg, came, self.zone_name(sel), how, src, c, need if limited else None,
                               ind, sp, one, ids=None if self.model.zones[sel.zone].ordered else span,
                               other=self.apart(z, d, sel, s.dest), put=dz if direct else None)
            if direct:
                if not dz.ordered:
                    L.append((ind, f"{d}.sort()", sp))
                L.append((ind, f"if {lg} is not None and {mv}:", sp))
                L.append((ind + 1, f"log_move({lg}, LB, {mv}, {came}, {self.zone_name(s.dest)})", sp))
                return
        elif len(q.zones) > 1:
            L.append((ind, f"if {lg} is not None:", sp))
            L.append((ind + 1, f"{names} = ({', '.join(self.zone_name(sel) for sel in q.zones)},)", sp))
            i, z = self.var("i"), self.var("s")
            L.append((ind, f"for {i}, {z} in enumerate(({', '.join(self.zone(sel) for sel in q.zones)},)):", sp))
            self.move_from(L, z, d, mv, lg, came, f"{names}[{i}]", how, src, c, need if limited else None, ind + 1, sp,
                           one)
        else:
            z = self.var("s")
            L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))
            self.move_from(L, z, d, mv, lg, came, self.zone_name(q.zones[0]), how, src, c, need if limited else None,
                           ind, sp, one, other=self.apart(z, d, q.zones[0], s.dest))
        L.append((ind, f"if {mv}:", sp))
        if dz.unrolled:
            L.append((ind + 1, f"for {c} in {mv}:", sp))
            L.append((ind + 2, f"F[{c}] = -1", sp))
        self.put(L, dz, s.place, d, mv, ind + 1, sp)
        L.append((ind + 1, f"if {lg} is not None:", sp))
        L.append((ind + 2, f"log_move({lg}, LB, {mv}, {came}, {self.zone_name(s.dest)})", sp))

    def apart(self, z: str, d: str, sel: m.ZoneSel, dest: m.ZoneSel) -> str:
        """The test that source list ``z`` is not the destination list ``d`` (`` and z is not d``), or
        nothing when they are lists of two zones (with ``DIRECT_PUTS``): a zone's lists are its own."""
        return "" if DIRECT_PUTS and sel.zone != dest.zone else f" and {z} is not {d}"

    def put_direct(self, L: list, zone: m.Zone, place: str | None, d: str, z: str, ind: int, sp: Any,
                   sorted_source: bool = False) -> None:
        """Add the components of list ``z`` to destination list ``d`` (as ``put`` puts a list taken):
        into a zone kept sorted, added and sorted (not sorted again if ``d`` was empty and ``z`` is a zone
        kept sorted, ``sorted_source``); else on top or at the bottom."""
        if zone.unrolled:
            c = self.var("c")
            L.append((ind, f"for {c} in {z}:", sp))
            L.append((ind + 1, f"F[{c}] = -1", sp))
        if not zone.ordered and sorted_source:
            L.append((ind, f"if {d}:", sp))
            L.append((ind + 1, f"{d} += {z}", sp))
            L.append((ind + 1, f"{d}.sort()", sp))
            L.append((ind, "else:", sp))
            L.append((ind + 1, f"{d} += {z}", sp))
        elif not zone.ordered:
            L.append((ind, f"{d} += {z}", sp))
            L.append((ind, f"{d}.sort()", sp))
        elif place == "bottom":
            L.append((ind, f"{d}[0:0] = {z}", sp))
        else:
            L.append((ind, f"{d} += {z}", sp))

    def move_all_direct(self, L: list, s: m.MoveS, ind: int) -> None:
        """``move all from Z, Y to D`` (each source found without a check that may fail; not to a pile's
        bottom) with ``DIRECT_PUTS``: each source's list added to the destination and emptied in turn, a
        zone kept sorted sorted once after; the narration's list of what moved and whence made only
        when it is on."""
        sp = s.span
        dz = self.model.zones[s.dest.zone]
        d, lg, came, mv = self.var("d"), self.var("lg"), self.var("came"), self.var("mv")
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        L.append((ind, f"{lg} = st.log", sp))
        L.append((ind, f"if {lg} is not None:", sp))
        L.append((ind + 1, f"{came} = []", sp))
        L.append((ind + 1, f"{mv} = []", sp))
        for sel in s.query.zones:
            z = self.var("s")
            L.append((ind, f"{z} = {self.zone(sel)}", sp))
            L.append((ind, f"if {z}{self.apart(z, d, sel, s.dest)}:", sp))
            L.append((ind + 1, f"if {lg} is not None:", sp))
            L.append((ind + 2, f"{mv} += {z}", sp))
            L.append((ind + 2, f"{came}.append({self.zone_name(sel)})", sp))
            if dz.unrolled:
                c = self.var("c")
                L.append((ind + 1, f"for {c} in {z}:", sp))
                L.append((ind + 2, f"F[{c}] = -1", sp))
            L.append((ind + 1, f"{d} += {z}", sp))
            L.append((ind + 1, f"{z}.clear()", sp))
        if not dz.ordered:
            L.append((ind, f"{d}.sort()", sp))
        L.append((ind, f"if {lg} is not None and {mv}:", sp))
        L.append((ind + 1, f"log_move({lg}, LB, {mv}, {came}, {self.zone_name(s.dest)})", sp))

    def from_first_holding(self, q: m.QueryIR) -> bool:
        """Whether ``move k from ...`` (every kind one component) may look for the component zone by zone
        and stop at the first holding it: one zone, or zones all found without a check that may fail (so
        that leaving the others unlooked at leaves no error unraised)."""
        return len(q.zones) == 1 or all(self.plain_zone(sel) for sel in q.zones)

    def move_kind_one(self, L: list, s: m.MoveS, one: str, ind: int) -> None:
        """``move k from Z, Y to D`` where every kind has one component (``one``: its id, or -1): it is in
        one zone at most, so the first source holding it is the only one, and the move is that of a list of
        one, with no list (every source zone is found without a check that may fail, or there is one)."""
        sp = s.span
        q = s.query
        d = self.var("d")
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        for n, sel in enumerate(q.zones):  # (one 'elif' after another: no nesting, however many zones)
            z = self.var("s")
            other = "" if sel.zone != s.dest.zone else f" and {z} is not {d}"  # (another zone: another list)
            L.append((ind, f"{'elif' if n else 'if'} {one} in ({z} := {self.zone(sel)}){other}:", sp))
            L.append((ind + 1, f"{z}.remove({one})", sp))
            self.put_in(L, s, d, one, ind + 1)
            L.append((ind + 1, "if st.log is not None:", sp))
            L.append((ind + 2, f"log_move(st.log, LB, [{one}], [{self.zone_name(sel)}], {self.zone_name(s.dest)})",
                      sp))

    def emit_move_comp(self, L: list, s: m.MoveS, ind: int) -> None:
        """``move c from Z, Y to D``: the one component ``c`` out of the first of those zones it is in (an error
        naming where it is if it is in none); with no zone (``move c to D``), from wherever it is. A zone that
        is the destination itself is left alone."""
        sp = s.span
        q = s.query
        x, d, z, at = self.var("x"), self.var("d"), self.var("s"), self.var("at")
        L.append((ind, f"{x} = {self.ex(q.one)}", sp))
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        if not q.zones:
            places = piles.place_table(self)
            L.append((ind, f"{at} = place_of(st, {x})", sp))
            L.append((ind, f"{z} = Z[{at}[0]] if {at}[1] < 0 else Z[{at}[0]][{at}[1]]", sp))
            L.append((ind, f"if {z} is not {d}:", sp))
            self.move_comp_out(L, s, x, z, d, f"(place_text({places}, LB, *{at}), {at})", ind + 1)
            return
        for n, sel in enumerate(q.zones):
            L.append((ind + n, f"{z} = {self.zone(sel)}", sp))
            L.append((ind + n, f"if {x} in {z}:", sp))
            L.append((ind + n + 1, f"if {z} is not {d}:", sp))
            self.move_comp_out(L, s, x, z, d, self.zone_name(sel), ind + n + 2)
            L.append((ind + n, "else:", sp))
        names = [f"{self.zone_name(sel)}[0]" for sel in q.zones]
        where = names[0] if len(names) == 1 else f"' or '.join(({', '.join(names)},))"
        L.append((ind + len(q.zones), f"not_in(st, {x}, {where}, LB, {piles.place_table(self)}, {self.const(sp)})",
                  sp))

    def move_comp_out(self, L: list, s: m.MoveS, x: str, z: str, d: str, came: str, ind: int) -> None:
        """Take component ``x`` out of the list ``z`` it is in, put it in the destination list ``d``, narrate it
        (``came``: the source of where it came from, (name, place))."""
        sp = s.span
        L.append((ind, f"{z}.remove({x})", sp))
        self.put_in(L, s, d, x, ind)
        L.append((ind, "if st.log is not None:", sp))
        L.append((ind + 1, f"log_move(st.log, LB, [{x}], [{came}], {self.zone_name(s.dest)})", sp))

    def put_in(self, L: list, s: m.MoveS, d: str, x: str, ind: int) -> None:
        """Put the one component ``x`` into the destination list ``d`` of move ``s``: its face cleared in a
        zone of unrolled dice, in id order in an unordered zone, else at the top or the bottom."""
        sp = s.span
        dz = self.model.zones[s.dest.zone]
        if dz.unrolled:
            L.append((ind, f"F[{x}] = -1", sp))
        if not dz.ordered:
            L.append((ind, f"insort({d}, {x})", sp))
        elif s.place == "bottom":
            L.append((ind, f"{d}.insert(0, {x})", sp))
        else:
            L.append((ind, f"{d}.append({x})", sp))

    def fusible_moves(self, a: Any, b: Any) -> bool:
        """Whether two moves in a row can sort one zone's components in one pass: each takes every
        component of the same zone passing a test of the component alone (its kind and face) to a
        zone of its own, the three zones are distinct and found without a check, and no trigger is
        checked between them (a component both tests pass goes where the first move takes it)."""
        if type(a) is not m.MoveS or type(b) is not m.MoveS:
            return False
        for s in (a, b):
            q = s.query
            if q.quantity in ("random", "count") or len(q.zones) != 1 or self.comp.pred_table(q) is None \
                    or not self.plain_zone(q.zones[0]) or not self.plain_zone(s.dest):
                return False
        src = a.query.zones[0]
        if RUNS_APART and not self.model.zones[src.zone].ordered \
                and all(self.id_span(s.query) is not None for s in (a, b)):
            return False  # each move cuts its run of ids out of the sorted zone (emit_move_one): no pass over it
        return same(src, b.query.zones[0]) and len({src.zone, a.dest.zone, b.dest.zone}) == 3 \
            and not self.move_triggers(a)

    def emit_fused_moves(self, L: list, a: m.MoveS, b: m.MoveS, after: tuple, ind: int) -> bool:
        """Two moves out of one zone (see ``fusible_moves``) in one pass over it: the first move's
        components, then the second's, put and narrated in that order; the second's trigger checks after."""
        if DIRECT_PUTS and all(not self.model.zones[s.dest.zone].ordered and not self.model.zones[s.dest.zone].unrolled
                               for s in (a, b)):
            return self.emit_fused_puts(L, a, b, after, ind)
        c, z, k = self.var("c"), self.var("s"), self.var("k")
        sp = a.span
        taken = []
        for s in (a, b):
            how, src = self.filter(s.query, c)
            d, t = self.var("d"), self.var("t")
            L.append((ind, f"{d} = {self.zone(s.dest)}", s.span))
            taken.append((s, f"{src}[{c}]" if how == "mask" else src, d, t))
        L.append((ind, f"{z} = {self.zone(a.query.zones[0])}", sp))
        L.append((ind, f"if {z}:", sp))
        for _s, _test, _d, t in taken:
            L.append((ind + 1, f"{t} = []", sp))
        L.append((ind + 1, f"{k} = []", sp))
        L.append((ind + 1, f"for {c} in {z}:", sp))
        for n, (s, test, _d, t) in enumerate(taken):
            L.append((ind + 2, f"{'if' if n == 0 else 'elif'} {test}:", s.span))
            L.append((ind + 3, f"{t}.append({c})", s.span))
        L.append((ind + 2, "else:", sp))
        L.append((ind + 3, f"{k}.append({c})", sp))
        L.append((ind + 1, f"if len({k}) != len({z}):", sp))
        L.append((ind + 2, f"{z}[:] = {k}", sp))
        for s, _test, d, t in taken:
            dz = self.model.zones[s.dest.zone]
            L.append((ind + 1, f"if {t}:", s.span))
            if dz.unrolled:
                L.append((ind + 2, f"for {c} in {t}:", s.span))
                L.append((ind + 3, f"F[{c}] = -1", s.span))
            self.put(L, dz, s.place, d, t, ind + 2, s.span)
            L.append((ind + 2, "if st.log is not None:", s.span))
            L.append((ind + 3, f"log_move(st.log, LB, {t}, [{self.zone_name(s.query.zones[0])}], "
                               f"{self.zone_name(s.dest)})", s.span))
        which = self.move_triggers(b)
        owners = self.changed_owners(which, [*b.query.zones, b.dest])
        return self.soft(L, which, after, b.span, ind, owners) if which else False

    def emit_fused_puts(self, L: list, a: m.MoveS, b: m.MoveS, after: tuple, ind: int) -> bool:
        """``emit_fused_moves`` when both destinations are kept sorted and show faces (``DIRECT_PUTS``):
        each component ``insort``-ed into its destination in the one pass, the source left with the
        others; the narration lists what each move took from the source before it is cut down to them
        (the tests read the component's kind and face alone, which the pass does not change)."""
        c, z, k = self.var("c"), self.var("s"), self.var("k")
        sp = a.span
        taken = []
        for s in (a, b):
            how, src = self.filter(s.query, c)
            d = self.var("d")
            L.append((ind, f"{d} = {self.zone(s.dest)}", s.span))
            taken.append((s, f"{src}[{c}]" if how == "mask" else src, d))
        L.append((ind, f"{z} = {self.zone(a.query.zones[0])}", sp))
        L.append((ind, f"if {z}:", sp))
        L.append((ind + 1, f"{k} = []", sp))
        L.append((ind + 1, f"for {c} in {z}:", sp))
        for n, (s, test, d) in enumerate(taken):
            L.append((ind + 2, f"{'if' if n == 0 else 'elif'} {test}:", s.span))
            L.append((ind + 3, f"insort({d}, {c})", s.span))
        L.append((ind + 2, "else:", sp))
        L.append((ind + 3, f"{k}.append({c})", sp))
        L.append((ind + 1, f"if len({k}) != len({z}):", sp))
        L.append((ind + 2, "if st.log is not None:", sp))
        told = [self.var("t") for _ in taken]  # (loops, not comprehensions: no cell for what the tests read)
        for t in told:
            L.append((ind + 3, f"{t} = []", sp))
        L.append((ind + 3, f"for {c} in {z}:", sp))
        for n, ((s, test, _d), t) in enumerate(zip(taken, told)):
            L.append((ind + 4, f"{'if' if n == 0 else 'elif'} {test}:", s.span))
            L.append((ind + 5, f"{t}.append({c})", s.span))
        for (s, _test, _d), t in zip(taken, told):
            L.append((ind + 3, f"if {t}:", s.span))
            L.append((ind + 4, f"log_move(st.log, LB, {t}, [{self.zone_name(s.query.zones[0])}], "
                               f"{self.zone_name(s.dest)})", s.span))
        L.append((ind + 2, f"{z}[:] = {k}", sp))
        which = self.move_triggers(b)
        owners = self.changed_owners(which, [*b.query.zones, b.dest])
        return self.soft(L, which, after, b.span, ind, owners) if which else False

    def id_span(self, q: m.QueryIR) -> tuple[str, str] | None:
        """Sources of (lowest, highest) id when the components a query's filter passes are exactly a
        run of consecutive ids, whatever their faces (components are numbered kind by kind): the
        kinds of a fixed run, or one kind held in a local; else None."""
        if q.kind_locals:
            if len(q.kind_locals) != 1 or q.kinds is not None or q.where is not None or q.exclude:
                return None
            self.kind_spans()
            kind = control.kind_index(self, m.Local(q.kind_locals[0], m.KIND), self.local(q.kind_locals[0]))
            return f"KLO[{kind}]", f"KHI[{kind}]"
        tbl = self.comp.pred_table(q)
        if tbl is None:
            return None
        kinds = self.model.kinds
        ids = []
        for c, k in enumerate(self.kind_of):
            tests = {bool(tbl[k][0])} | {bool(tbl[k][f + 1]) for f in kinds[k].faces}
            if len(tests) > 1:  # passes or not by its face
                return None
            if True in tests:
                ids.append(c)
        if not ids or ids != list(range(ids[0], ids[-1] + 1)):
            return None
        return repr(ids[0]), repr(ids[-1])

    def emit_move_one(self, L: list, s: m.MoveS, ind: int, how: str, src: str | None, c: str, limited: bool,
                      sought: str | None = None) -> None:
        """A move from one zone: the components taken are the components moved."""
        sp = s.span
        q = s.query
        dz = self.model.zones[s.dest.zone]
        d, z, t = self.var("d"), self.var("s"), self.var("t")
        test = f"{src}[{c}]" if how == "mask" else src
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        need = None
        one = limited and q.count_expr is None and q.count == 1 and how != "all"
        if _pops_top(q, how, dz):
            self.move_top_one(L, s, d, z, c, ind)
            return
        if limited and not one:
            need = self.var("need")
            L.append((ind, f"{need} = {self.move_count(q)}", sp))
        L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))
        if DIRECT_PUTS and how == "all" and not limited:  # everything: the source's list is put, then emptied
            L.append((ind, f"if {z}{self.apart(z, d, q.zones[0], s.dest)}:", sp))
            L.append((ind + 1, "if st.log is not None:", sp))
            L.append((ind + 2, f"log_move(st.log, LB, {z}, [{self.zone_name(q.zones[0])}], {self.zone_name(s.dest)})",
                      sp))
            sorted_source = not self.model.zones[q.zones[0].zone].ordered
            self.put_direct(L, dz, s.place, d, z, ind + 1, sp, sorted_source=sorted_source)
            L.append((ind + 1, f"{z}.clear()", sp))
            return
        span = self.id_span(q) if one and not self.model.zones[q.zones[0].zone].ordered else None
        if span is not None:  # the top one of a run of ids in a zone kept sorted: found by bisection
            i = self.var("i")
            self.consts["bisect_right"] = bisect.bisect_right
            L.append((ind, f"if {z}{self.apart(z, d, q.zones[0], s.dest)}:", sp))
            L.append((ind + 1, f"{i} = bisect_right({z}, {span[1]}) - 1", sp))
            L.append((ind + 1, f"if {i} >= 0 and {z}[{i}] >= {span[0]}:", sp))
            self.put_one(L, s, d, z, f"{z}.pop({i})", c, ind + 2)
            return
        elif one:  # the top one that passes the test: looked for from the top, taken out by value
            L.append((ind, f"if {z}{self.apart(z, d, q.zones[0], s.dest)}:", sp))
            L.append((ind + 1, f"{t} = []", sp))
            L.append((ind + 1, f"for {c} in reversed({z}):", sp))
            L.append((ind + 2, f"if {test}:", sp))
            L.append((ind + 3, f"{z}.remove({c})", sp))  # a component is in a zone once
            L.append((ind + 3, f"{t}.append({c})", sp))
            L.append((ind + 3, "break", sp))
            keep = None
        else:
            ordered = self.model.zones[q.zones[0].zone].ordered
            run = self.id_span(q) if need is not None and how != "all" and not ordered else None
            if run is not None:
                self.take_top_of_run(L, z, d, t, need, run, ind, sp)
                keep = None
            else:
                sorted_ids = None if limited or ordered else self.id_span(q)
                keep = self.take(L, z, d, t, how, test, c, need, ind, sp, sought, ids=sorted_ids,
                                 other=self.apart(z, d, q.zones[0], s.dest))
        L.append((ind + 1, f"if {t}:", sp))
        if keep is not None:
            L.append((ind + 2, f"{z}[:] = {keep}", sp))
        if dz.unrolled:
            L.append((ind + 2, f"for {c} in {t}:", sp))
            L.append((ind + 3, f"F[{c}] = -1", sp))
        self.put(L, dz, s.place, d, t, ind + 2, sp)
        L.append((ind + 2, "if st.log is not None:", sp))
        L.append((ind + 3, f"log_move(st.log, LB, {t}, [{self.zone_name(q.zones[0])}], {self.zone_name(s.dest)})", sp))

    def take_top_of_run(self, L: list, z: str, d: str, t: str, need: str, ids: tuple[str, str], ind: int,
                        sp: Any) -> None:
        """Take the top ``need`` components passing a filter out of the sorted list ``z`` into ``t``, when
        those the filter passes are a run of ids (sources of the lowest and highest, see ``id_span``):
        the top of their slice, cut out by bisection, listed from the top down (as ``take`` finds them
        walking down from the top)."""
        i, j = self.var("i"), self.var("j")
        self.consts["bisect_left"], self.consts["bisect_right"] = bisect.bisect_left, bisect.bisect_right
        L.append((ind, f"if {need} > 0 and {z} and {z} is not {d}:", sp))
        L.append((ind + 1, f"{j} = bisect_right({z}, {ids[1]})", sp))
        L.append((ind + 1, f"{i} = max(bisect_left({z}, {ids[0]}, 0, {j}), {j} - {need})", sp))
        L.append((ind + 1, f"{t} = {z}[{i}:{j}]", sp))
        L.append((ind + 1, f"del {z}[{i}:{j}]", sp))
        L.append((ind + 1, f"{t}.reverse()", sp))

    def put_one(self, L: list, s: m.MoveS, d: str, z: str, taken: str, c: str, ind: int) -> None:
        """Put the one component ``taken`` (the source that takes it out of ``z``) into ``d``, as ``put`` puts
        a list of one, without the list: its face cleared in a zone of unrolled dice, the move logged."""
        sp = s.span
        L.append((ind, f"{c} = {taken}", sp))
        self.put_in(L, s, d, c, ind)
        L.append((ind, "if st.log is not None:", sp))
        L.append((ind + 1, f"log_move(st.log, LB, [{c}], [{self.zone_name(s.query.zones[0])}], "
                           f"{self.zone_name(s.dest)})", sp))

    def move_top_one(self, L: list, s: m.MoveS, d: str, z: str, c: str, ind: int) -> None:
        """``move 1 from ZONE to ZONE``: the top component, popped and put without a list of one
        (as the top ``need`` of every component with ``need`` 1, see ``take`` and ``put``)."""
        sp = s.span
        q = s.query
        L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))  # (the caller found the destination ``d``)
        L.append((ind, f"if {z}{self.apart(z, d, q.zones[0], s.dest)}:", sp))
        self.put_one(L, s, d, z, f"{z}.pop()", c, ind + 1)  # (not into unrolled dice: see _pops_top)

    def move_count(self, q: m.Query) -> str:
        """How many components a ``move N ...`` takes: its number, or its expression made whole and >= 0."""
        if q.count_expr is None:
            return repr(q.count)
        if whole_valued(q.count_expr) or whole_locals.whole_local(self, q.count_expr):  # a whole number already
            return f"max(0, {self.ex(q.count_expr)})"
        return f"max(0, whole({self.ex(q.count_expr)}, {self.const(q.span)}, {self.const('how many to move')}))"

    def take(self, L: list, z: str, d: str, t: str, how: str, test: str | None, c: str, need: str | None, ind: int,
             sp: Any, one: str | None = None, ids: tuple[str, str] | None = None,
             other: str | None = None) -> str | None:
        """Take out of source list ``z`` into a new list ``t``: every component (``how`` "all") or those
        passing ``test`` (about ``c``), or the top ``need`` of them; only when ``z`` has any and is not
        the destination ``d`` (the taking lines are indented under that test). With a ``test`` and no
        ``need``, ``z`` keeps what it held: the caller sets it to the list of the others, whose name
        is returned (one pass over ``z`` sorts its components into both lists). With ``ids`` (sources of
        the lowest and highest id, see ``id_span``) the components passing the test are a run of ids
        and ``z`` is kept sorted: they are cut out of it as one slice.
        With ``one`` (the source of the only component that can pass the test, or -1), that component
        is looked for instead. ``other``: the test that ``z`` is not ``d`` (see ``apart``), by default
        `` and z is not d``."""
        other = f" and {z} is not {d}" if other is None else other
        if need is None and one is not None and how != "all":
            L.append((ind, f"if {one} in {z}{other}:", sp))
            L.append((ind + 1, f"{z}.remove({one})", sp))
            L.append((ind + 1, f"{t} = [{one}]", sp))
            return None
        if need is None and ids is not None:
            i, j = self.var("i"), self.var("j")
            self.consts["bisect_left"], self.consts["bisect_right"] = bisect.bisect_left, bisect.bisect_right
            L.append((ind, f"if {z}{other}:", sp))
            # the run's end that is the first or last id of all is the list's own end: no bisection for it
            low = "" if ids[0] == "0" else i
            high = "" if ids[1] == repr(len(self.kind_of) - 1) else j
            if low:
                L.append((ind + 1, f"{i} = bisect_left({z}, {ids[0]})", sp))
            if high:
                L.append((ind + 1, f"{j} = bisect_right({z}, {ids[1]}{f', {i}' if low else ''})", sp))
            L.append((ind + 1, f"{t} = {z}[{low}:{high}]", sp))
            L.append((ind + 1, f"del {z}[{low}:{high}]", sp))
            return None
        if need is None:
            L.append((ind, f"if {z}{other}:", sp))
            if how == "all":
                L.append((ind + 1, f"{t} = {z}[:]", sp))
                L.append((ind + 1, f"{z}.clear()", sp))
                return None
            keep = self.var("k")
            L.append((ind + 1, f"{t} = []", sp))
            L.append((ind + 1, f"{keep} = []", sp))
            L.append((ind + 1, f"for {c} in {z}:", sp))
            L.append((ind + 2, f"if {test}:", sp))
            L.append((ind + 3, f"{t}.append({c})", sp))
            L.append((ind + 2, "else:", sp))
            L.append((ind + 3, f"{keep}.append({c})", sp))
            return keep
        L.append((ind, f"if {need} > 0 and {z}{other}:", sp))
        if how == "all":
            L.append((ind + 1, f"{t} = {z}[-{need}:]", sp))
            L.append((ind + 1, f"del {z}[-{need}:]", sp))
            L.append((ind + 1, f"{t}.reverse()", sp))
        else:
            j = self.var("j")
            L.append((ind + 1, f"{t} = []", sp))
            L.append((ind + 1, f"{j} = len({z}) - 1", sp))
            L.append((ind + 1, f"while {j} >= 0 and len({t}) < {need}:", sp))
            L.append((ind + 2, f"{c} = {z}[{j}]", sp))
            L.append((ind + 2, f"if {test}:", sp))
            L.append((ind + 3, f"{t}.append({z}.pop({j}))", sp))
            L.append((ind + 2, f"{j} -= 1", sp))
        return None

    def move_from(self, L: list, z: str, d: str, mv: str, lg: str, came: str, name: str, how: str, src: str | None,
                  c: str, need: str | None, ind: int, sp: Any, one: str | None = None,
                  ids: tuple[str, str] | None = None, other: str | None = None, put: m.Zone | None = None) -> None:
        """Take the matching components (or the top ``need`` of them) out of one source list ``z``; with
        ``put`` (the destination zone, not a pile's bottom), put them into ``d`` at once (a zone kept sorted
        is sorted after the last source), listed in ``mv`` only for the narration."""
        other = f" and {z} is not {d}" if other is None else other
        if how == "all" and need is None:  # everything: the source's list is added, then emptied
            L.append((ind, f"if {z}{other}:", sp))
            L.append((ind + 1, f"{mv} += {z}", sp))
            L.append((ind + 1, f"{z}.clear()", sp))
            L.append((ind + 1, f"if {lg} is not None:", sp))
            L.append((ind + 2, f"{came}.append({name})", sp))
            return
        taken = self.var("t")
        test = f"{src}[{c}]" if how == "mask" else src
        keep = self.take(L, z, d, taken, how, test, c, need, ind, sp, one, ids=ids, other=other)
        if need is not None:
            L.append((ind + 1, f"{need} -= len({taken})", sp))
        L.append((ind + 1, f"if {taken}:", sp))
        if keep is not None:
            L.append((ind + 2, f"{z}[:] = {keep}", sp))
        if put is not None:
            L.append((ind + 2, f"if {lg} is not None:", sp))
            L.append((ind + 3, f"{mv} += {taken}", sp))
            L.append((ind + 3, f"{came}.append({name})", sp))
            if put.unrolled:
                L.append((ind + 2, f"for {c} in {taken}:", sp))
                L.append((ind + 3, f"F[{c}] = -1", sp))
            L.append((ind + 2, f"{d} += {taken}", sp))
            return
        L.append((ind + 2, f"{mv} += {taken}", sp))
        L.append((ind + 2, f"if {lg} is not None:", sp))
        L.append((ind + 3, f"{came}.append({name})", sp))


def _pops_top(q: m.QueryIR, how: str, dest: m.Zone) -> bool:
    """Whether a move from one zone takes its top component, whatever it is (``move 1 from ZONE``),
    to a zone whose components are not laid out on a board (see ``CodeGen.move_top_one``)."""
    return q.quantity == "count" and q.count == 1 and q.count_expr is None and how == "all" and not dest.unrolled
