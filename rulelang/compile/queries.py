"""Queries of the checked model as Python source: zones, filters, selections, aggregates, ranges
and generators (the query half of ``ExprWriter``, mixed into it; see exprs.py)."""

from __future__ import annotations

import re
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import control, piles, runtime, seat_totals
from rulelang.compile.analysis import (
    NotStatic,
    added_as_they_come,
    answer_counted,
    is_count,
    never_negative,
    plain_value,
    reads_no_component,
    reads_slots,
)
from rulelang.compile.source_text import (
    SEATS_IN_NOW,
    cannot_fail,
    inline_single_piles,
    masked_zone,
    owned_piles,
    same_by_face,
)
from rulelang.errors import RulelangError
from rulelang.syntax.span import Span

# "other players" read from the OTHERS table alone (no test of st.players against the game's most).
OTHERS_ONLY = True
# A pile of a kind whose first component is 0 indexed by its owner's id as it is (no "- 0").
ZERO_BASE = True
# A read of a name, its items (by names and numbers) and attributes: no call, no operator.
TABLE_MAPS = True
"""Whether a zone's components passing a mask are selected as ``[*filter(MASK.__getitem__, Z)]`` and the total
of an attribute (no face changes it) over every component of a zone is ``sum(map(VALUES.__getitem__, Z))``
(the tables read in C), instead of a list comprehension that tests or reads the same tables in the same order;
the equivalence tests turn it off to compare."""

NESTED_TOTALS = True
"""Whether a generator whose values are running totals (or counts) of a generator of their own adds each up in
its own loop, instead of calling the inner total's helper once per value (see ``nested_total``); the
equivalence tests turn it off to compare."""

KIND_SETS_ONCE = True
"""Whether a generator's helper whose test or value reads ``any/count(k in Z)``, ``k`` a kind held by a local the
generator does not bind, looks the components of ``k`` up once (``_s = KI[k]``, before its loop) instead of once
per value (a game whose kinds may be 'no kind' excepted: that look-up checks the kind); the equivalence tests
turn it off to compare."""

_HELPER_CALL = re.compile(r"(g\d+)\(st, loc\)")

PLAIN_READ = re.compile(r"^[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*|\[[A-Za-z_0-9.]+\])*$")


class QueryWriter:
    """Zones, filters, selections, aggregates, ranges and generators, as Python source."""

    # what ExprWriter defines, which these methods use
    model: m.Model
    comp: Any
    kind_of: list[int]
    consts: dict[str, Any]

    # ------------------------------------------------------------------ queries
    def zone(self, sel: m.ZoneSel) -> str:
        """Source of the component list of a zone."""
        z = sel.zone
        zone = self.model.zones[z]
        if sel.owner is None:
            return f"Z[{z}]"
        if zone.per_class is not None:
            return piles.class_zone(self, sel)
        if zone.per_kind is not None:
            base = self.comp.first_of_kind.get(zone.per_kind, 0)  # no components of the kind: no zone
            o = self.ex(sel.owner)
            slow = f"zone_of_kind(Z[{z}], {o}, {base}, {zone.per_kind}, KO, LB, {self.const(zone.name)}, " \
                   f"{self.const(self.model.kinds[zone.per_kind].name)}, {self.const(zone.span)})"
            if isinstance(sel.owner, m.Local):
                index = f"{o} - {base}" if base or not ZERO_BASE else o
                if self.owners_proven:  # (see CodeGen.owners_proven)
                    return f"Z[{z}][{index}]"
                return f"(Z[{z}][{index}] if KO[{o}] == {zone.per_kind} else {slow})"
            return slow
        if isinstance(sel.owner, m.CurrentPlayer):
            return f"Z[{z}][st.current]"
        if isinstance(sel.owner, m.After):  # a seat by its construction: no check
            return f"Z[{z}][{self.ex(sel.owner)}]"
        o = self.ex(sel.owner)
        if isinstance(sel.owner, m.Local):
            if o in self.cse_ids or (o == "loc[0]" and self.seat_kept and self.memo is not None):
                return f"Z[{z}][{o}]"  # (a seat: a range's, or the standings' seat, see ``seat_kept``)
            return f"(Z[{z}][{o}] if {o} >= 0 else zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(sel.span)}))"  # noqa: E501
        return f"zone_of(Z[{z}], {o}, {self.const(zone.name)}, {self.const(sel.span)})"

    def direct_zone(self, sel: m.ZoneSel) -> bool:
        """Whether ``zone(sel)`` reads the zone's table with no test: no owner, the current player's (a zone
        kept per player), or one indexed by a value held in a variable of the code being written (``local``
        without ``loc``) that is sure to index it (a range's seat, or a pile's owner proven, numbered from 0)."""
        zone, o = self.model.zones[sel.zone], sel.owner
        if o is None or (isinstance(o, m.CurrentPlayer) and zone.per_kind is None and zone.per_class is None):
            return True
        if not isinstance(o, m.Local) or not ((self.cse_vars is not None and o.slot in self.cse_vars) or (
                self.loop_vars and o.slot + self.off in self.loop_vars)):
            return False
        if zone.per_class is not None:
            return self.owners_proven
        if zone.per_kind is not None:
            return self.owners_proven and ZERO_BASE and not self.comp.first_of_kind.get(zone.per_kind, 0)
        return self.local(o.slot) in self.cse_ids

    def zone_name(self, sel: m.ZoneSel) -> str:
        """Source of (narration name, place) of a zone."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return self.const((zone.display, [sel.zone, -1]))
        if zone.per_kind is not None or zone.per_class is not None:  # named by the component that owns it
            o = self.ex(sel.owner)
            base = 0 if zone.per_class is not None else self.comp.first_of_kind.get(zone.per_kind, 0)
            index = f"{o} - {base}" if base else o
            return f"({self.const(zone.display + ' ')} + LB[{o}], [{sel.zone}, {index}])"
        return f"place_name({self.const(zone.display)}, {sel.zone}, {self.ex(sel.owner)})"

    def filter(self, q: m.QueryIR, c: str) -> tuple[str, str | None]:
        """(how, source) of a query's filter on component ``c``: ("all", None), ("mask", name) (a list
        by component), or ("pred", source)."""
        if q.kinds is None and q.where is None and not q.kind_locals:
            return "all", None
        tbl = self.comp.pred_table(q)
        if tbl is not None:
            return self._table_filter(tbl, c)
        parts = []
        if q.kind_locals:
            slots = [control.kind_index(self, m.Local(s, m.KIND), self.local(s)) for s in q.kind_locals]
            if q.kinds is None and len(slots) == 1:
                parts.append(f"(KO[{c}] {'!=' if q.exclude else '=='} {slots[0]})")
            else:
                static = self.const(frozenset(q.kinds or ()))
                test = f"(KO[{c}] in {static} or KO[{c}] in ({', '.join(slots)},))"
                parts.append(f"(not {test})" if q.exclude else test)
            if q.where is not None:
                wt = self.comp.table(q.where, None)
                if wt is not None:
                    how, src = self._table_filter(wt, c)
                    parts.append(f"{src}[{c}]" if how == "mask" else src)
                else:
                    parts.append(self.ex(q.where, c))
        else:
            if q.kinds is not None:
                parts.append(f"(KO[{c}] {'not in' if q.exclude else 'in'} {self.const(frozenset(q.kinds))})")
            parts.append(self.ex(q.where, c))
        return "pred", " and ".join(parts)

    def _table_filter(self, tbl: list[list[Any]], c: str) -> tuple[str, str]:
        rows = [[bool(v) for v in tbl[k]] for k in self.kind_of]
        faces = self.model.kinds
        if all(len({row[0]} | {row[f + 1] for f in faces[k].faces}) == 1 for row, k in zip(rows, self.kind_of)):
            return "mask", self.table([row[0] for row in rows], "mk")
        by_face = same_by_face(rows)
        if by_face is not None:
            return "pred", f"{self.table(by_face, 'mf')}[F[{c}]]"
        return "pred", f"{self.table(rows, 'mr')}[{c}][F[{c}] + 1]"

    def query_zones(self, q: m.QueryIR) -> set[int]:
        """The zones a query reads (a query of one component wherever it is: any zone)."""
        if q.one is not None and not q.zones:
            return set(range(len(self.model.zones)))
        return {sel.zone for sel in q.zones}

    def selection(self, q: m.QueryIR, copy: bool = True) -> str:
        """Source of the list of ids a (non-random) query selects, in zone order (without ``copy``,
        possibly a zone's own list)."""
        if q.one is not None and not q.zones:  # one component, wherever it is
            return f"[{self.ex(q.one)}]"
        c = self.var("c")
        how, src = self.filter(q, c)
        parts = []
        for sel in q.zones:
            z = self.zone(sel)
            if how == "all":
                parts.append(f"{z}[:]" if len(q.zones) == 1 and copy else z)
            elif how == "mask":
                parts.append(f"[*filter({src}.__getitem__, {z})]" if TABLE_MAPS
                             else f"[{c} for {c} in {z} if {src}[{c}]]")
            else:
                parts.append(f"[{c} for {c} in {z} if {src}]")
        out = parts[0] if len(parts) == 1 else f"[*{', *'.join(parts)}]"
        if q.quantity == "count" and (q.count is not None or q.count_expr is not None):
            n = repr(q.count) if q.count_expr is None else \
                f"whole({self.ex(q.count_expr)}, {self.const(q.span)}, {self.const('how many')})"
            return f"last_n({out}, {n})"
        return out

    def sum_rows(self, attr: str) -> list[list[Any]]:
        """Per component, every value an attribute can have (by face, and unrolled)."""
        kv, fv = self.comp.kind_values[attr], self.comp.face_values[attr]
        return [[kv[k]] + [v for v in fv if v is not None] for k in self.kind_of]

    def plain_zone(self, sel: m.ZoneSel) -> bool:
        """Whether a zone's list is found without a check that may fail (no owner, or a seat sure to be one)."""
        zone = self.model.zones[sel.zone]
        if sel.owner is None:
            return True
        if zone.per_class is not None or zone.per_kind is not None:
            return False
        o = sel.owner
        if type(o) is m.After:
            o = o.player
        return o is None or type(o) is m.CurrentPlayer

    def hoisted_sum(self, e: m.Agg) -> str | None:
        """A total over zones added up in loops before the statement (see ``ex_pre``); None: not here."""
        q = e.query
        pre = self.pre
        if pre is None or e.func != "sum" or e.attr is None or not all(self.plain_zone(z) for z in q.zones):
            return None
        if q.where is not None and self.comp.pred_table(q) is None:
            return None  # a test that might fail is left where it was (errors come in the same order)
        c, total = self.var("c"), self.var("tot")
        how, src = self.filter(q, c)
        if self.face_dependent(e.attr):
            value = self.face_value(e.attr, c)
        else:
            value = f"{self.attr_values(e.attr)}[{c}]"
        ind = self.pre_ind
        pre.append((ind, f"{total} = 0", q.span))
        for sel in q.zones:
            pre.append((ind, f"for {c} in {self.zone(sel)}:", q.span))
            if how == "all":
                pre.append((ind + 1, f"{total} += {value}", q.span))
            else:
                pre.append((ind + 1, f"if {src if how == 'pred' else f'{src}[{c}]'}:", q.span))
                pre.append((ind + 2, f"{total} += {value}", q.span))
        return total

    def aggregate(self, e: m.Agg) -> str:
        hoisted = self.hoisted_sum(e)
        if hoisted is not None:
            return hoisted
        if self.memo is not None:
            by_kind = self.counted_by_kind(e)
            if by_kind is not None:
                return by_kind
        q = e.query
        c = self.var("c")
        if e.func in ("count", "any") and q.kinds is not None and not q.exclude and q.where is None \
                and not q.kind_locals:
            ids = [i for i, k in enumerate(self.kind_of) if k in q.kinds]
            if len(ids) == 1:  # a kind of one component (a marker): look for it
                each = [f"({ids[0]} in {self.zone(sel)})" if e.func == "any" else f"{self.zone(sel)}.count({ids[0]})"
                        for sel in q.zones]
                return each[0] if len(each) == 1 else "(" + (" or " if e.func == "any" else " + ").join(each) + ")"
        if e.func == "any" and q.count is None and q.count_expr is None and q.quantity != "random" \
                and all(self.plain_zone(sel) for sel in q.zones):
            few = self.few_passing(q)
            if few is not None:  # a test by face that few components can pass: look for those
                terms = [f"({test}{x} in {self.zone(sel)})" for x, test in few for sel in q.zones]
                return "False" if not terms else terms[0] if len(terms) == 1 else "(" + " or ".join(terms) + ")"
        if e.func == "any" and q.where is not None and q.kinds is None and not q.kind_locals and not q.exclude \
                and self.comp.pred_table(q) is None:
            sought = self.attr_equals(q.where)
            if sought is not None:  # any(Z where attr == x), x the same for every component: x among the values
                attr, x = sought
                values = self.attr_values(attr)
                each = [f"({x} in map({values}.__getitem__, {self.zone(sel)}))" for sel in q.zones]
                return each[0] if len(each) == 1 else "(" + " or ".join(each) + ")"
        if e.func == "count" and q.kinds is None and not q.kind_locals and not q.exclude \
                and q.count is None and q.count_expr is None and q.quantity != "random":
            counted = self.count_where_equal(q)
            if counted is not None:
                return counted
        how, src = self.filter(q, c)
        zones = [self.zone(sel) for sel in q.zones]
        if e.func in ("count", "any"):
            is_any = e.func == "any"
            if how == "all":
                each = [f"bool({z})" if is_any else f"len({z})" for z in zones]
            elif how == "mask":
                ids = self.const(frozenset(i for i, v in enumerate(self.consts[src]) if v))
                if is_any:  # the components the mask takes, as a set: any of them in the zone?
                    each = [f"(not {ids}.isdisjoint({z}))" for z in zones]
                else:  # how many of them are in the zone (a component is in one place, once)
                    each = [f"len({ids}.intersection({z}))" for z in zones]
            elif len(q.kind_locals) == 1 and q.kinds is None and q.where is None and not q.exclude:
                if "KI" not in self.consts:  # the components of each kind
                    self.consts["KI"] = [frozenset(i for i, k in enumerate(self.kind_of) if k == j)
                                         for j in range(len(self.model.kinds))]
                ks = self.kind_sets.get(q.kind_locals[0])  # (looked up once, before a generator's loop)
                if ks is not None:
                    ks[1] = True
                    kset = ks[0]
                else:
                    kind = self.local(q.kind_locals[0])  # any/count(k in Z), k a local: Z against the components of k
                    kset = f"KI[{control.kind_index(self, m.Local(q.kind_locals[0], m.KIND), kind)}]"
                # (a component is in one place, once: how many of k's are in Z is the size of the intersection)
                each = [f"(not {kset}.isdisjoint({z}))" if is_any else f"len({kset}.intersection({z}))"
                        for z in zones]
            else:
                each = [f"any([{src} for {c} in {z}])" if is_any else f"len([{c} for {c} in {z} if {src}])"
                        for z in zones]
            return each[0] if len(each) == 1 else "(" + (" or " if is_any else " + ").join(each) + ")"
        assert e.attr is not None
        if how == "mask" and not self.face_dependent(e.attr):
            kv = self.comp.kind_values[e.attr]
            mask = self.consts[src]
            taken = [kv[k] if v else 0 for k, v in zip(self.kind_of, mask)]
            if all(type(v) is int for v in taken):  # whole numbers: 0 for the components the mask leaves out
                vals = self.table(taken, "am")
                each = [f"sum(map({vals}.__getitem__, {z}))" for z in zones]
                return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"
        values = None if self.face_dependent(e.attr) else self.attr_values(e.attr)
        value = self.face_value(e.attr, c) if values is None else f"{values}[{c}]"
        if how == "all" and TABLE_MAPS and values is not None:  # each component's value read from the table in C
            each = [f"sum(map({values}.__getitem__, {z}))" for z in zones]
        elif how == "all":
            each = [f"sum([{value} for {c} in {z}])" for z in zones]
        elif how == "mask":
            each = [f"sum([{value} for {c} in {z} if {src}[{c}]])" for z in zones]
        else:
            each = [f"sum([{value} for {c} in {z} if {src}])" for z in zones]
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    def counted_by_kind(self, e: m.Agg) -> str | None:
        """Within a standings computation (the table does not change), a count or a total of a per-kind
        attribute over zones, by kind: from each zone's counts per kind (``kind_counts``), worked out once per
        zone while the standings last (kept with the memos, cleared by ``reset_memo``); None: not here.

        ``count(k in Z)``, ``count(K in Z)`` (or a filter that only one kind passes) and ``sum(A of
        K in Z)`` (a whole-number attribute that no face changes) are the same numbers read from the
        counts: the zones are written as before, in the same order (the same errors). Several kinds are
        counted as before: one pass over the zone in C costs less than adding up a list of every kind."""
        q = e.query
        if e.func not in ("count", "sum") or not q.zones or q.one is not None or q.count is not None \
                or q.count_expr is not None or q.quantity == "random":
            return None
        if any(sel.zone not in self.counted_often for sel in q.zones):  # a zone counted once: as before
            return None
        kinds = len(self.model.kinds)
        if e.func == "sum":
            assert e.attr is not None
            if self.face_dependent(e.attr):
                return None
            kv = self.comp.kind_values[e.attr]
            if not all(type(kv[k]) is int for k in range(kinds)):
                return None
            weight = [kv[k] for k in range(kinds)]
        else:
            weight = [1] * kinds
        # (a zone read by name and items alone is written twice: a count kept already is read at once)
        zones = [self.seat_counted(sel) or (f"(KH[id({z})][1] if id({z}) in KH else kind_counts({z}))"
                                           if PLAIN_READ.match(z) else f"kind_counts({z})")
                 for sel, z in ((sel, self.zone(sel)) for sel in q.zones)]
        if q.kind_locals:
            if len(q.kind_locals) != 1 or q.kinds is not None or q.where is not None or q.exclude:
                return None
            kind = control.kind_index(self, m.Local(q.kind_locals[0], m.KIND), self.local(q.kind_locals[0]))
            w = "" if e.func == "count" else f"{self.table(weight, 'kw')}[{kind}] * "
            self._kind_counts_helper()
            each = [f"{w}{h}[{kind}]" for h in zones]
            return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"
        c = self.var("c")
        how, src = self.filter(q, c)
        if how == "all":
            if e.func == "count":
                return None  # len(Z) already
            taken = list(range(kinds))
        elif how == "mask":
            mask = self.consts[src]
            taken = sorted({k for k, v in zip(self.kind_of, mask) if v})
        else:
            return None
        if len(taken) != 1:  # several kinds: one pass over the zone in C (a list of every kind is no cheaper)
            return None
        self._kind_counts_helper()
        k = taken[0]
        w = "" if weight[k] == 1 else f"{weight[k]} * "
        each = [f"{w}{h}[{k}]" for h in zones]
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    counted_often: frozenset[int] = frozenset()  # the zones the standings count by kind (see ``counted_zones``)
    # While the standings function writes one seat's values (compile/standings.py): the seat's variable, and per
    # zone of the seat counted by kind, the variable its counts are read into once, at the start of the seat.
    seat_counts: tuple[str, dict[int, str]] | None = None

    def seat_counted(self, sel: m.ZoneSel) -> str | None:
        """The variable holding the counts by kind of a zone of the seat the standings function writes (the
        owner is that seat's local, slot 0, never nobody: its zone is read without a check, its counts cannot
        fail to be computed); None: another zone, or not there."""
        if self.seat_counts is None or type(sel.owner) is not m.Local or sel.owner.slot + self.off != 0 \
                or self.memo is None:
            return None
        zone = self.model.zones[sel.zone]
        if not zone.per_player or zone.per_kind is not None or zone.per_class is not None:
            return None
        seat = self.local(0)
        if seat == "loc[0]" and self.seat_kept:  # in a function of its own: its counts read at its start
            read = self.helper_counts
        elif seat == self.seat_counts[0]:
            read = self.seat_counts[1]
        else:
            return None
        self._kind_counts_helper()
        name = read.get(sel.zone)
        if name is None:
            name = read[sel.zone] = self.var("kc")
        return name

    # While the standings are written (compile/standings.py): whether no range of theirs binds the seat's slot
    # (slot 0 then holds the seat in every function they call), and per zone of the seat counted by kind in a
    # function of its own, the variable its counts are read into at the start of each function that reads them.
    seat_kept: bool = False
    helper_counts: dict[int, str] = {}  # noqa: RUF012 -- (replaced by a dict of its own while in use)

    def _kind_counts_helper(self) -> None:
        """The generated ``kind_counts(zone)``: how many of the zone's components are of each kind, kept
        (with the zone itself, so that its id names no other list) until the next ``reset_memo``."""
        if "KH" in self.consts:
            return
        self.consts["KH"] = {}
        self.helper("kind_counts", "_z0", [
            (1, "_h0 = KH.get(id(_z0))", None),
            (1, "if _h0 is None or _h0[0] is not _z0:", None),
            (2, "if not KH:", None),
            (3, "DIRTY.append(KH)", None),
            (2, f"_n0 = [0] * {len(self.model.kinds)}", None),
            (2, "for _c0 in _z0:", None),
            (3, "_n0[KO[_c0]] += 1", None),
            (2, "_h0 = KH[id(_z0)] = (_z0, _n0)", None),
            (1, "return _h0[1]", None),
        ])

    def few_passing(self, q: m.QueryIR) -> list[tuple[int, str]] | None:
        """For a filter that depends on the faces and nothing else (a table), which at most 4 components can
        pass: each with the source of its face test (followed by ``and``; empty if every face passes).
        None: another filter, or more components."""
        tbl = self.comp.pred_table(q)
        if tbl is None:
            return None
        kinds = self.model.kinds
        if all(len({tbl[k][0]} | {tbl[k][f + 1] for f in kinds[k].faces}) == 1 for k in self.kind_of):
            return None  # the same whatever the face: a mask (see ``filter``)
        few = []
        for x, k in enumerate(self.kind_of):
            faces = [-1, *kinds[k].faces]
            passing = [f for f in faces if tbl[k][f + 1]]
            if not passing:
                continue
            if len(few) == 4:
                return None
            if len(passing) == len(faces):
                few.append((x, ""))
            elif len(passing) == 1:
                few.append((x, f"F[{x}] == {passing[0]} and "))
            else:
                few.append((x, f"F[{x}] in {self.const(frozenset(passing))} and "))
        return few

    def count_where_equal(self, q: m.QueryIR) -> str | None:
        """``count(Z where A and attr == x)``, ``A`` a test of the component alone (the same on every face)
        and ``x`` reading no component: 0 when no component of Z passes ``A``, else how many of Z's
        values of ``attr`` equal ``x`` (a component ``A`` refuses has the value None, which equals no
        value), counted at C speed. ``x`` is computed once, and only when some component passes ``A``:
        where the filter computes it (None: not this form)."""
        w = q.where
        if type(w) is not m.BinOp or w.op != "and" or type(w.right) is not m.BinOp or w.right.op != "==":
            return None
        eq = w.right
        for elem, x in ((eq.left, eq.right), (eq.right, eq.left)):
            if type(elem) is m.ElemAttr and not self.face_dependent(elem.attr) and reads_no_component(x):
                break
        else:
            return None
        tbl = self.comp.table(w.left, None)
        if tbl is None:
            return None
        how, mask = self._table_filter(tbl, "c")
        if how != "mask":
            return None
        kv = self.comp.kind_values[elem.attr]
        passing = self.consts[mask]
        values = [kv[k] if ok else None for k, ok in zip(self.kind_of, passing)]
        if not all(type(v) in (int, str, bool) for v, ok in zip(values, passing) if ok):
            return None
        ids = self.const(frozenset(i for i, ok in enumerate(passing) if ok))
        tables = self.__dict__.setdefault("_equal_tables", {})  # one table per attribute and mask
        vals = tables.get((elem.attr, tuple(passing)))
        if vals is None:
            vals = tables[(elem.attr, tuple(passing))] = self.table(values, "ae")
        x_src = self.ex(x)
        each = []
        for sel in q.zones:
            z = self.zone(sel)
            each.append(f"(0 if {ids}.isdisjoint({z}) else list(map({vals}.__getitem__, {z})).count({x_src}))")
        return each[0] if len(each) == 1 else "(" + " + ".join(each) + ")"

    def attr_equals(self, where: Any) -> tuple[str, str] | None:
        """For a filter ``attr == x`` (either way round): the attribute (the same on every face) and the
        source of ``x``, when ``x`` reads no component and nothing in it can fail (None: not this form)."""
        if type(where) is not m.BinOp or where.op != "==":
            return None
        for elem, other in ((where.left, where.right), (where.right, where.left)):
            if type(elem) is m.ElemAttr and not self.face_dependent(elem.attr) and plain_value(other):
                return elem.attr, self.ex(other)
        return None

    def kind_spans(self) -> None:
        """Constants KLO and KHI: per kind, its first and last component id (components are numbered
        kind by kind; a kind of none has KHI = KLO - 1)."""
        counts = [0] * len(self.model.kinds)
        for k in self.kind_of:
            counts[k] += 1
        first = [self.comp.first_of_kind.get(k, 0) for k in range(len(counts))]
        self.consts["KLO"] = first
        self.consts["KHI"] = [f + n - 1 for f, n in zip(first, counts)]

    def iterable(self, it: m.IterIR, copy: bool = True) -> str:
        """Source of the list of values a ``for`` ranges over (without ``copy``, possibly a zone's own
        list: only where nothing can change it while it is gone through)."""
        if it.kind == "players":
            return "list(range(st.players))" if copy else "range(st.players)"
        if it.kind == "players_in":
            seats = SEATS_IN_NOW  # a tuple kept by the values of st.out
            return seats if not copy else f"[*{seats}]"
        if it.kind == "others_in":
            i = self.var("i")
            return f"[(st.current + {i}) % st.players for {i} in range(1, st.players) " \
                   f"if not st.out[(st.current + {i}) % st.players]]"
        if it.kind == "players_from":  # seat order from the player named (whoever holds the turn)
            i = self.var("i")
            first = self.seat_ex(it.low, "a seat to start from", it.span)
            return f"[({first} + {i}) % st.players for {i} in range(st.players)]"
        if it.kind == "others":
            i = self.var("i")
            listed = f"[(st.current + {i}) % st.players for {i} in range(1, st.players)]"
            # the table of the others of each seat, for each number of players the game takes (a copy of
            # its row where the list is kept and may be changed)
            most = self.model.max_players
            if "OTHERS" not in self.consts:
                self.consts["OTHERS"] = [[[(c + j) % n for j in range(1, n)] for c in range(n)]
                                         for n in range(most + 1)]
            row = "OTHERS[st.players][st.current]" + ("[:]" if copy else "")
            if OTHERS_ONLY:  # new_state takes no more players than the game's most: the table has every row
                return row
            return f"({row} if st.players <= {most} else {listed})"
        if it.kind == "kinds_where":
            try:
                chosen = [k.index for k in self.model.kinds if self.comp.static_value(it.cond, k.index, -1)]
            except NotStatic:
                raise RulelangError("'kinds where' may only test the kinds' own attributes and names",
                                    None) from None
            return f"list({self.const(tuple(chosen))})" if copy else self.const(tuple(chosen))
        if it.kind == "faces":
            return f"list({self.const(it.values)})" if copy else self.const(it.values)
        if it.kind == "range":
            rng = self.number_range(it, self.ex(it.low), self.ex(it.high))
            return f"list({rng})" if copy else rng
        assert it.query is not None
        q = it.query
        if zone_kinds_range(it):
            return self.zone_kinds(it)[0]
        sel = self.selection(q)
        if it.kind == "kinds":
            c = self.var("c")
            return f"sorted({{KO[{c}] for {c} in {sel}}})"
        if not copy and sel.endswith("[:]"):
            return sel[:-3]
        return sel

    def zone_kinds(self, it: m.IterIR) -> tuple[str, tuple[str, str | None] | None]:
        """For the kinds of one zone's components (``zone_kinds_range``): (the source of their list, and
        where the zone is kept sorted and the kinds are listed by ``kinds_in_order`` or ``kinds_in_order_where``
        (every component, or a mask's): (the zone's source, the mask's name or None), else None)."""
        q = it.query
        assert q is not None
        c = self.var("c")
        how, src = self.filter(q, c)
        z = self.zone(q.zones[0])
        test = "" if how == "all" else f" if {src}[{c}]" if how == "mask" else f" if {src}"
        if self.kinds_are_ids:  # each component is its kind: the zone's list, copied (or filtered)
            listed = f"{z}[:]" if not test else f"[{c} for {c} in {z}{test}]"
            return (f"sorted({listed})" if self.model.zones[q.zones[0].zone].ordered else listed), None
        if self.unique_kinds:  # no two components of one kind: the kinds are distinct already
            if self.model.zones[q.zones[0].zone].ordered:
                return f"sorted([KO[{c}] for {c} in {z}{test}])", None
            return f"[KO[{c}] for {c} in {z}{test}]", None  # the zone's order (by id) is its kinds' order
        if how == "all" and not self.model.zones[q.zones[0].zone].ordered:  # a zone kept sorted
            self.kind_spans()
            self.consts["kinds_in_order"] = runtime.kinds_in_order
            return f"kinds_in_order({z}, KO, KHI)", (z, None)
        if how == "mask" and not self.model.zones[q.zones[0].zone].ordered:  # a zone kept sorted, a mask
            assert src is not None
            self.consts["kinds_in_order_where"] = runtime.kinds_in_order_where
            return f"kinds_in_order_where({z}, KO, {src})", (z, src)
        return f"sorted({{KO[{c}] for {c} in {z}{test}}})", None

    def number_range(self, it: m.IterIR, low: str, high: str) -> str:
        """Source of the numbers ``low to high`` of a range (given the sources of both ends)."""
        if type(it.low) is m.Const and type(it.low.value) is int and it.low.value >= 1 and is_count(it.high):
            # 'N to count(...)': a count is a whole number of at most MAX_COMPONENTS (< MAX_RANGE + N)
            return f"range({it.low.value}, {high} + 1)"
        return f"number_range({low}, {high}, {self.const(it.span)})"

    def gen(self, e: m.Gen) -> str:
        """A max/min/total over values: a module-level function (its variable lives in ``loc`` when
        something reads it there)."""
        name = f"g{next(self.names)}"
        lines: list[tuple[int, str, Span | None]] = []
        var = e.var + self.off
        v = self.var("v")
        # total(N for ...) with N a number written there: a running sum instead of a list
        exists = e.func == "exists"  # total(N for ...) > 0, N > 0: whether any value passes the test
        count = e.func in ("total", "exists") and type(e.expr) is m.Const and type(e.expr.value) is int
        if count and not exists and e.cond is None \
                and e.iterable.kind in ("players", "players_in", "others", "others_in"):
            seats = f"len({self.iterable(e.iterable, copy=False)})"  # N times the number of players in it
            return seats if e.expr.value == 1 else f"({e.expr.value} * {seats})"
        lengths = seat_totals.total_source(self.model, e)
        if lengths is not None:  # how many components the seats' own lists of one zone hold
            return lengths
        total = self.var("n")
        outer_reads, self.loc_reads = self.loc_reads, set()
        with self.own_scope():
            summed = added_as_they_come(e, count)
            lines.append((1, f"{total} = 0" if count or summed else "out = []", None))
            source = self.iterable(e.iterable, copy=False)
            self.cse_vars = {e.var: v}  # the value read from its variable, its piles looked up once
            if KIND_SETS_ONCE and not self.no_kind:  # the components of a kind it does not bind: looked up once
                self.kind_sets = {slot: [self.var("ks"), False] for slot in kind_locals_read([e.expr, e.cond])
                                  if slot != e.var}
            if never_negative(e.iterable):
                self.cse_ids.add(v)
            value = self.ex(e.expr)
            inner = self.nested_total(e, value, var, v)
            if e.func.startswith("best"):  # (key, value) pairs: best_of picks
                value = f"({value}, {v})"
            cond = self.ex(e.cond) if e.cond is not None else None
            all_piles = list(self.cse_piles.values())
            for slot, (ks, used) in self.kind_sets.items():
                if used:
                    lines.append((1, f"{ks} = KI[{self.local(slot)}]", None))
        reads, self.loc_reads = self.loc_reads, outer_reads | self.loc_reads
        keep_var = e.var in reads or -1 in reads  # a helper, a memo's key or a closure reads it from ``loc``
        if inner is not None and not all_piles and -1 not in reads:
            self.helpers.pop()  # the inner total's helper: its loop is written in this one's, reading ``v``
            value, keep_var = inner[0], False
        else:
            inner = None
        answered = answer_counted(e) if count and not exists and not keep_var else None
        if answered is not None:  # how many players gave one answer (st.answers has one per player)
            n = f"st.answers.count({self.const(answered)})"
            return n if e.expr.value == 1 else f"({e.expr.value} * {n})"

        def body(texts: list[str], piles: list[tuple[str, str]], ind: int) -> None:
            texts, piles = inline_single_piles(texts, piles)
            if inner is not None:  # the inner total added up here, its lines one level in
                if summed:  # (each value added to the outer total as it comes: the same whole numbers or fractions)
                    lines.extend((ind + i - 1, re.sub(rf"\b{inner[0]} \+= ", f"{total} += ", text), sp)
                                 for i, text, sp in inner[1][1:])
                    return
                lines.extend((ind + i - 1, text, sp) for i, text, sp in inner[1])
            add = f"{total} += {texts[0]}" if count or summed else f"out.append({texts[0]})"
            if exists and not keep_var and all(map(cannot_fail, texts)):
                add = "return True"  # nothing the other values would compute can fail: no need to go on
            if keep_var:
                lines.append((ind, f"loc[{var}] = {v}", None))
            lines.extend((ind, f"{name} = {src}", None) for name, src in piles)
            if e.cond is not None:
                lines.append((ind, f"if {texts[1]}:", None))
                lines.append((ind + 1, add, None))
            else:
                lines.append((ind, add, None))

        plain = owned_piles([value, cond or ""], all_piles, v, self.consts)
        masked = masked_zone(source) if count and not keep_var and plain is None else None
        if masked is not None:  # a count over a zone's components passing a mask: tested in the loop
            zone, mask = masked
            lines.append((1, f"for {v} in {zone}:", None))
            lines.append((2, f"if {mask}[{v}]:", None))
            body([value, cond or ""], all_piles, 3)
        elif plain is None:
            lines.append((1, f"for {v} in {source}:", None))
            body([value, cond or ""], all_piles, 2)
        else:  # when every value owns its piles (as a rule), they are read with no check
            texts, piles, masks = plain
            values = self.var("vs")
            lines.append((1, f"{values} = {source}", None))
            lines.append((1, f"if {' and '.join(f'{mk}.issuperset({values})' for mk in masks)}:", None))
            lines.append((2, f"for {v} in {values}:", None))
            body(texts, piles, 3)
            lines.append((1, "else:", None))
            lines.append((2, f"for {v} in {values}:", None))
            body([value, cond or ""], all_piles, 3)
        if count or summed:
            lines.append((1, f"return {total} > 0" if exists else f"return {total}", None))
            if not exists and not keep_var:
                self.running_totals[name] = (total, lines)
        elif e.func.startswith("best"):
            lines.append((1, control.best_return(self, e), None))
        else:
            func = {"max": "max", "min": "min", "total": "sum"}[e.func]
            lines.append((1, f"return {func}(out) if out else 0", None))
        self.helper(name, "st, loc", lines)
        return f"{name}(st, loc)"

    def nested_total(self, e: m.Gen, value: str, var: int, v: str) -> tuple[str, list] | None:
        """Where the value of the generator ``e`` (variable ``v``, slot ``var``) is a running total (or count)
        of its own, written just now as a helper that reads nothing of ``loc`` but ``e``'s value: (its
        total's name, its lines but the last, reading ``v`` instead of ``loc``), for ``gen`` to write in its
        own loop instead of calling the helper once per value (the same loops, in the same order); else None."""
        found = _HELPER_CALL.fullmatch(value)
        if not NESTED_TOTALS or found is None or e.cond is not None or e.func.startswith("best") \
                or found.group(1) not in self.running_totals or not self.helpers \
                or self.helpers[-1][0][1] != f"def {found.group(1)}(st, loc):":
            return None
        total, lines = self.running_totals[found.group(1)]
        if lines[0] != (1, f"{total} = 0", None) or lines[-1] != (1, f"return {total}", None):
            return None
        slot = re.compile(rf"\bloc\[{var}\]")
        if any(type(text) is not str or re.search(r"\bloc\b", slot.sub("", text)) for _i, text, _sp in lines):
            return None  # (it reads another slot, or hands ``loc`` on)
        out = [(i, slot.sub(v, text), sp) for i, text, sp in lines[:-1]]
        if v in self.cse_ids:  # a seat: its zone read with no check
            sure = re.compile(rf"\((Z\[\d+\])\[{v}\] if {v} >= 0 else zone_of\(\1, {v}, k\d+, k\d+\)\)")
            out = [(i, sure.sub(lambda found: f"{found.group(1)}[{v}]", text), sp) for i, text, sp in out]
        if any(re.search(rf"\b{total}\b", text) and not re.match(rf"{total} (\+)?= ", text.strip())
               for _i, text, _sp in out):
            return None  # (its total is only set and added to: no other use)
        return total, out



def zone_kinds_range(it: m.IterIR) -> bool:
    """Whether a range is the kinds of one zone's components (not a counted few of them): see
    ``QueryWriter.zone_kinds``."""
    q = it.query
    return it.kind == "kinds" and q is not None and len(q.zones) == 1 and not (q.quantity == "count" and (
        q.count is not None or q.count_expr is not None))


def counted_zones(exprs: list[Any], zones: list[Any]) -> frozenset[int]:
    """The zones that the expressions (a game's standings: ranking keys, score sheet lines, payoff) count
    or add up one kind of in at least 5 places, a place inside a generator whose variable the zone's owner does not
    read counting 3 (the same zone read once per value): worth counting by kind once
    (``QueryWriter.counted_by_kind``); a zone counted fewer times is counted as before, and so is a pile on
    a component (``per`` a kind or class of components: piles that hold a few, where counting each kind of
    them first costs more than a few looks in C)."""
    reads: dict[int, int] = {}

    def walk(e: Any, gens: tuple[int, ...]) -> None:
        if isinstance(e, (list, tuple)):
            for x in e:
                walk(x, gens)
            return
        if not attrs.has(type(e)):
            return
        q = e.query if type(e) is m.Agg else None
        if q is not None and e.func in ("count", "sum") and q.where is None and not q.exclude and (
                (len(q.kind_locals) == 1 and q.kinds is None) or (not q.kind_locals and len(q.kinds or ()) == 1)):
            for sel in q.zones:  # (a count or total of one kind, as counted_by_kind reads it)
                again = sum(1 for var in gens if sel.owner is None or not reads_slots(sel.owner, {var}))
                reads[sel.zone] = reads.get(sel.zone, 0) + 3 ** again
        inner = (*gens, e.var) if type(e) is m.Gen else gens
        for f in attrs.fields(type(e)):
            if f.name != "span":
                walk(getattr(e, f.name), inner)

    walk(exprs, ())
    return frozenset(z for z, n in reads.items()
                     if n >= 5 and zones[z].per_kind is None and zones[z].per_class is None)


def kind_locals_read(exprs: list[Any]) -> set[int]:
    """The local slots holding kinds that the queries of ``any``/``count`` in ``exprs`` read (``k in Z``), outside
    the generators in them (whose helpers have their own scope)."""
    out: set[int] = set()
    for e in exprs:
        if isinstance(e, m.Gen):
            continue
        if isinstance(e, m.Agg) and len(e.query.kind_locals) == 1:
            out.add(e.query.kind_locals[0])
        if isinstance(e, (tuple, list)):
            out |= kind_locals_read(list(e))
        elif attrs.has(type(e)):
            out |= kind_locals_read([getattr(e, f.name) for f in attrs.fields(type(e))])
    return out
