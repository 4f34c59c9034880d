"""Generated code for the options of a ``choose``: the enumerators that list them, the ranges they share,
membership tests and where each part of an option's condition is tested (a part of the generator).
"""

from __future__ import annotations

import collections
import re
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import marker_filters, membership, outer_parts, runtime
from rulelang.compile.analysis import (
    conjuncts,
    fold,
    is_count,
    kind_count_pattern,
    never_negative,
    reads_slots,
    same,
    slots_read,
)
from rulelang.compile.emit import loc_writes
from rulelang.compile.program import (
    ChooseSpec,
)
from rulelang.compile.source_text import inline_single_piles, owned_piles


class OptionEmitter:
    """Option enumerators and membership tests of ``choose`` (mixed into ``CodeGen``)."""

    def enumerator(self, s: m.ChooseS, lazy: bool = False, ids: bool = False, only: bool = False,
                   keeping: Any = None) -> str:
        """A function listing the legal options of a ``choose`` as (option index, values of its ``for``s).

        With ``lazy``, the function a picker uses instead: it returns ``(total, ends, parts)``,
        where ``parts[j] = (option index, values of the outer ranges, lists)`` stands for the
        options ``ends[j-1]`` to ``ends[j] - 1`` of the same listing: the outer values followed
        by each combination of the ``lists`` (the innermost ranges that neither a later range
        nor the condition reads), last list fastest. The same ranges are evaluated, in the
        same order, with the same tries counted and the same locals set; only the options of
        those innermost ranges are not written out one by one (see ``pick_option``).

        With ``ids`` (not with ``lazy``), the function an adapter's fixed action space lists with:
        ``(st, loc, tables)``, where ``tables`` holds per option the base of its ids and, per ``for``, a dict
        from each value of its domain to its offset (position times stride; ``ActionSpace.tables``).
        It lists the same options in the same way (a ``runtime.Listed``) and with them ``.ids``, each
        option's action id, summed range by range as it is listed: the base plus each value's offset.
        A value outside its domain raises KeyError (the caller lists again without ids).

        With ``only`` (and ``ids``), the same listing writes the ids alone, a plain list (no option tuples):
        the same ranges, tests, tries, limits and locals; the adapter binds an option from its id when it
        is taken (``ActionSpace.option_of``).

        With ``keeping`` (a ``kept.Plan``, with ``lazy``), the picker's listing of a choice taken again in a loop:
        ``(st, loc, kp)``, returning ``(total, ends, parts, kept)``, where ``kept`` holds per option of
        ``kept.kept`` what its listing added (None where its gate failed), and ``kp`` is such a tuple from the
        decision before, or None: an option found there whose gate holds is added as it was, not listed again
        (``kept.py`` proves where that gives the same options and leaves the same ``loc``).

        All list what ``Engine._options`` lists from the compiler's closures, in the same order,
        with the same errors, trying (and counting against the limit) the same combinations.
        """
        assert not (lazy and ids) and (ids or not only) and (keeping is None or lazy)
        name = f"o{'j' if only else 'i' if ids else 'k' if keeping is not None else ''}{next(self.names)}"
        keeps: list[str] = []  # with keeping: per kept option, the variable holding what it added
        # Ranges too small to ever try more than the limit (known when the code is written): no count kept.
        limited = self.tries_bound(s) > runtime.MAX_OPTIONS
        lines: list = [(1, "out = []", None)]
        table_names: list[list[str]] = []  # with ids: per option, the names of its base and of its offsets
        tables = ""  # with ids: the name of the tables parameter
        listing = "out"  # what the limit counts: the options, or with ``only`` their ids
        if ids:
            self.consts["LISTED"] = runtime.Listed
            id_list = self.var("ids")
            if only:
                listing = id_list
                self.consts["IDSONLY"] = runtime.IdsOnly
            table_names = [[self.var("b")] + [self.var("p") for _b in opt.bindings] for opt in s.options]
            unpacked = ", ".join(f"({', '.join(names)},)" for names in table_names)
            tables = self.var("t")
            lines = [(1, "out = LISTED()", None), (1, f"{id_list} = []", None), (1, f"{unpacked}, = {tables}", None)]
            if only:
                lines[:2] = [(1, f"{id_list} = IDSONLY()", None)]
        if lazy:
            total, ends, parts = self.var("total"), self.var("ends"), self.var("parts")
            lines = [(1, f"{total} = 0", None), (1, f"{ends} = []", None), (1, f"{parts} = []", None)]
        if limited:
            lines.append((1, "tries = 0", None))
        shared = self.shared_ranges(s)
        lines += [(1, f"{name} = None", None) for name in dict.fromkeys(shared.values())]
        where = self.const(s.span)
        for n, opt in enumerate(s.options):
            option_start = len(lines)
            last = len(opt.bindings) - 1
            self.loc_reads = set()
            slots = {slot for slot, _ in opt.bindings}
            # as the engine does: a condition reading none of the option's values is tested first, alone
            hoisted = opt.cond is not None and not reads_slots(opt.cond, slots)
            srcs = [self.iterable(it, copy=False) for _slot, it in opt.bindings]
            guards = {}  # a range listed by several options: computed where first needed, then kept
            for i in range(len(opt.bindings)):
                if (n, i) in shared:
                    guards[shared[n, i]] = srcs[i]
                    srcs[i] = shared[n, i]
            # a range that reads none of the outer variables: listed once, before the outer range
            fixed = [i == 0 or not slots_read([it]) & {s for s, _ in opt.bindings[:i]}
                     for i, (_slot, it) in enumerate(opt.bindings)]
            lowest = max((i for i in range(last + 1) if not fixed[i]), default=-1)
            placed, inner = ({}, []) if hoisted else _place_conjuncts(opt, lowest)
            rnames = {i: self.var("r") for i in range(1, last + 1) if fixed[i]}
            if -1 in placed:
                rnames[0] = self.var("r")
            bulk = unread_suffix(opt, hoisted) if lazy else len(opt.bindings)
            lists: list[str] = []
            ind = 1
            if hoisted:
                lines.append((ind, f"if {self.ex(opt.cond)}:", opt.span))
                ind += 1
            values = []
            sums: list[str] = [table_names[n][0]] if ids else []  # with ids: the id summed so far, per level
            inner_for = None  # the innermost range's loop: (its line, its values, its variable)
            keep_list = None  # lazy: the list the innermost loop keeps its values in (made just before it)
            loop_at: dict[int, tuple[int, int]] = {}  # per range: where its loop starts (line, indentation)
            elses: list[tuple[int, str]] = []  # (indentation, combinations skipped) of each test placed outside
            first = len(lines)
            lines.append((ind, _ResetAt(-1), None))  # where counts kept for the whole option start afresh
            kind_counts: list[tuple[m.Agg, str]] = []  # count(k in Q) of a range 'for k in kinds(Q)': its source
            for i in sorted(rnames):
                if i > 0:
                    lines.append((ind, f"{rnames[i]} = {srcs[i]}", opt.span))
            offsets = None  # with ids: an innermost range listed once, its values' offsets looked up once too
            tested = [opt.cond] if not hoisted and not always_true(opt.cond) else []
            if ids and last > 0 and last in rnames and not inner and opt.bindings[last][0] not in slots_read(tested):
                offsets, x = self.var("q"), self.var("x")
                lines.append((ind, f"{offsets} = [{table_names[n][last + 1]}[{x}] for {x} in {rnames[last]}]",
                              opt.span))
            # lazy: an innermost range listed once whose tests read no outer range's value keeps the same
            # values for every outer value: they are filtered once, where the first outer value needs them
            once = self.var("h") if lazy and not limited and filtered_once(opt, hoisted) else None
            if once is not None:
                lines.append((ind, f"{once} = None", opt.span))
            if -1 in placed:  # what reads none of the ranges' values: tested once, before them
                lines.append((ind, f"{rnames[0]} = {srcs[0]}", opt.span))
                ind = self.placed_test(lines, opt, placed[-1], values, -1, rnames, elses, ind)
            for i, (slot, it) in enumerate(opt.bindings):
                v = self.var("v")
                later = [it2 for _s, it2 in opt.bindings[i + 1:]] + (
                    [opt.cond] if not hoisted and not always_true(opt.cond) else [])
                read = slot in slots_read(later)  # a later range or the condition reads this variable
                values_src = rnames.get(i, srcs[i])
                counted = [src for pattern, src in kind_counts if it.kind == "range" and same(it.high, pattern)]
                if counted:  # 'for n in 1 to count(k in Q)' inside 'for k in kinds(Q)': Q was counted by kind
                    values_src = self.number_range(it, self.ex(it.low), counted[0])
                pattern = kind_count_pattern(it, slot)
                if pattern is not None and i not in rnames and any(
                        it2.kind == "range" and same(it2.high, pattern) for _s, it2 in opt.bindings[i + 1:]):
                    # a later range counts this range's kinds one by one: count them all in one pass
                    cnt, c = self.var("n"), self.var("c")
                    how, test = self.filter(it.query, c)
                    cond = "" if how == "all" else f"{test}[{c}]" if how == "mask" else test
                    lines.append((ind, f"{cnt} = {{}}", opt.span))
                    lines.append((ind, f"for {c} in {self.zone(it.query.zones[0])}:", opt.span))
                    if cond:
                        lines.append((ind + 1, f"if {cond}:", opt.span))
                    lines.append((ind + 1 + bool(cond), f"{cnt}[KO[{c}]] = {cnt}.get(KO[{c}], 0) + 1", opt.span))
                    values_src = f"sorted({cnt})"
                    kind_counts.append((pattern, f"{cnt}[{v}]"))
                if i >= bulk:  # lazy: this range's values are kept as a list, not written out per option
                    lst = self.var("l")
                    lines.append((ind, f"{lst} = {values_src}", opt.span))
                    lines.append((ind, f"if {lst}:", opt.span))
                    ind += 1
                    lists.append(lst)
                    size = " * ".join(f"len({x})" for x in lists)
                    if i < last:  # the combinations this range's loop would have tried
                        if limited:
                            lines.append((ind, f"tries += {size}", opt.span))
                            lines.append((ind, f"if tries > MAXO: too_many_options({where})", opt.span))
                        continue
                    tup = f"({', '.join(values)},)" if values else "()"
                    lines.append((ind, f"{total} += {size}", opt.span))
                    lines.append((ind, f"{ends}.append({total})", opt.span))
                    lines.append((ind, f"{parts}.append(({n}, {tup}, ({', '.join(lists)},)))", opt.span))
                    if limited:
                        lines.append((ind, f"if {total} > MAXO: too_many_options({where})", opt.span))
                    break
                if i == last and not read and not inner:
                    values.append(v)
                    tup = f"({', '.join(values)},)"
                    if ids and offsets is not None and values_src == rnames[i]:
                        if not only:
                            lines.append((ind, f"out += [({n}, {tup}) for {v} in {values_src}]", opt.span))
                        lines.append((ind, f"{id_list} += [{sums[-1]} + {v} for {v} in {offsets}]", opt.span))
                        if i > 0 and limited:
                            lines.append((ind, f"if len({listing}) > MAXO: too_many_options({where})", opt.span))
                        break
                    if ids:  # the values listed once, for the options and for their ids
                        src_var = self.var("s")
                        lines.append((ind, f"{src_var} = {values_src}", opt.span))
                        values_src = src_var
                    if not only:
                        lines.append((ind, f"out += [({n}, {tup}) for {v} in {values_src}]", opt.span))
                    if ids:
                        lines.append((ind, f"{id_list} += [{sums[-1]} + {table_names[n][i + 1]}[{v}] "
                                           f"for {v} in {values_src}]", opt.span))
                    if i > 0 and limited:  # inside other ranges: the list may grow past the limit many times over
                        lines.append((ind, f"if len({listing}) > MAXO: too_many_options({where})", opt.span))
                    break
                loop_at[i] = (len(lines), ind)  # (this range's loop starts here: see row_test)
                if lazy and i == last and once is not None:  # filtered at the first outer value only
                    kept, kept_ind = once, ind
                    lines.append((ind, f"if {once} is None:", opt.span))
                    ind += 1
                    lines.append((ind, f"{once} = []", opt.span))
                    keep_list = once
                elif lazy and i == last:  # the innermost values kept are listed at once, as one list
                    kept, kept_ind = self.var("k"), ind
                    lines.append((ind, f"{kept} = []", opt.span))
                    keep_list = kept
                lines.append((ind, f"for {v} in {values_src}:", opt.span))
                if i == 0:
                    outer_for = (lines[-1], ind, values_src, v, read)
                if i == last:
                    inner_for = (lines[-1], values_src, v)
                if ids:  # the id so far, with this range's value
                    sums.append(self.var("a"))
                    lines.append((ind + 1, f"{sums[-1]} = {sums[-2]} + {table_names[n][i + 1]}[{v}]", opt.span))
                # Every combination tried counts: nested ranges may try far more than they keep.
                if limited:
                    lines.append((ind + 1, "tries += 1", opt.span))
                    lines.append((ind + 1, f"if tries > MAXO: too_many_options({where})", opt.span))
                if read:  # kept only if something reads it through ``loc`` (see below)
                    lines.append((ind + 1, _LocAt(slot, v), opt.span))
                if never_negative(it):
                    self.cse_ids.add(v)
                lines.append((ind + 1, _ResetAt(i), None))
                lines.append((ind + 1, _PilesAt(slot), None))
                values.append(v)
                ind += 1
                if i < last and i in placed:  # what reads this range's value and no inner one: tested here
                    ind = self.placed_test(lines, opt, placed[i], values, i, rnames, elses, ind)
            else:
                if inner:
                    lines.append((ind, f"if {self.row_test(opt, inner, values, once, lines, loop_at)}:",
                                  opt.cond_span or opt.span))
                    ind += 1
                tup = f"({', '.join(values)},)" if values else "()"
                if lazy and values:
                    lines.append((ind, f"{kept}.append({values[-1]})", opt.span))
                    outer = f"({', '.join(values[:-1])},)" if len(values) > 1 else "()"
                    lines.append((kept_ind, f"if {kept}:", opt.span))
                    kept_at = lines[-1]
                    lines.append((kept_ind + 1, f"{total} += len({kept})", opt.span))
                    lines.append((kept_ind + 1, f"{ends}.append({total})", opt.span))
                    lines.append((kept_ind + 1, f"{parts}.append(({n}, {outer}, ({kept},)))", opt.span))
                elif lazy:
                    lines.append((ind, f"{total} += 1", opt.span))
                    lines.append((ind, f"{ends}.append({total})", opt.span))
                    lines.append((ind, f"{parts}.append(({n}, {tup}, ()))", opt.span))
                else:
                    if not only:
                        lines.append((ind, f"out.append(({n}, {tup}))", opt.span))
                    if ids:
                        lines.append((ind, f"{id_list}.append({sums[-1]})", opt.span))
            # a test failed: its combinations were tried all the same (counted only if the limit may be hit)
            for eind, skipped in reversed(elses if limited else []):
                lines.append((eind, "else:", opt.span))
                lines.append((eind + 1, f"tries += {skipped}", opt.span))
                lines.append((eind + 1, f"if tries > MAXO: too_many_options({where})", opt.span))
            for kept_name, src in guards.items():
                at = next((j for j in range(first, len(lines)) if type(lines[j][1]) is str
                           and re.search(rf"\b{kept_name}\b", lines[j][1])), None)
                if at is not None:
                    lines.insert(at, (lines[at][0], f"if {kept_name} is None: {kept_name} = {src}", opt.span))
            boxes = {level: [name for (_k, lv), name in self.once_boxes.items() if lv == level]
                     for level in range(-1, last + 1)}
            self.once_boxes = {}
            piles, self.cse_piles = self.cse_piles, {}
            if once is not None and last == 1 and 0 not in placed and not outer_for[4] and not boxes[0] \
                    and not any(sl == opt.bindings[0][0] for _z, sl in piles):
                self.outer_as_list(lines, outer_for, kept_at, (n, total, ends, parts, once))
            if inner_for is not None:
                # a keeping loop that counts no tries, its one test a marker's absence: see marker_filters
                marker = marker_filters.marker_test(self, inner, opt.bindings[-1][0]) \
                    if keep_list is not None and not limited else None
                self.owned_loop(lines, inner_for, [v for (_z, sl), v in piles.items() if sl == opt.bindings[-1][0]],
                                (keep_list, marker) if marker is not None else None)
            if opt.bindings:  # the piles on the innermost value read once: looked up where read
                innermost = opt.bindings[-1][0]
                texts = [j for j in range(first, len(lines)) if type(lines[j][1]) is str]
                done, kept = inline_single_piles([lines[j][1] for j in texts],
                                                 [v for (_z, sl), v in piles.items() if sl == innermost])
                for j, text in zip(texts, done):
                    lines[j] = (lines[j][0], text, lines[j][2])
                gone = {v[0] for (_z, sl), v in piles.items() if sl == innermost} - {nm for nm, _src in kept}
                piles = {key: v for key, v in piles.items() if v[0] not in gone}
            for at in range(len(lines) - 1, first - 1, -1):
                lind, text, _sp = lines[at]
                if isinstance(text, _ResetAt):
                    lines[at:at + 1] = [(lind, f"{name} = [None]", opt.span) for name in boxes[text.level]]
                elif isinstance(text, _PilesAt):  # the piles on this range's value, looked up once per value
                    lines[at:at + 1] = [(lind, f"{name} = {src}", opt.span)
                                        for (_z, sl), (name, src) in piles.items() if sl == text.slot]
                elif isinstance(text, _LocAt):  # a helper, a later range or a closure reads it from ``loc``
                    keep = text.slot in self.loc_reads or -1 in self.loc_reads
                    lines[at:at + 1] = [(lind, f"loc[{text.slot + self.off}] = {text.var}", opt.span)] if keep else []
            if keeping is not None and n in keeping.kept:
                keeps.append(self.kept_option(lines, option_start, keeping, n, (total, ends, parts), opt.span))
        if lazy:
            if limited:
                lines.append((1, f"if {total} > MAXO: too_many_options({where})", None))
            if keeping is not None:
                lines.append((1, f"return {total}, {ends}, {parts}, ({''.join(k + ', ' for k in keeps)})", None))
                self.helper(name, "st, loc, kp", lines)
                return name
            lines.append((1, f"return {total}, {ends}, {parts}", None))
        else:
            if limited:
                lines.append((1, f"if len({listing}) > MAXO: too_many_options({where})", None))
            if only:
                lines.append((1, f"return {id_list}", None))
            else:
                if ids:
                    lines.append((1, f"out.ids = {id_list}", None))
                lines.append((1, "return out", None))
        self.helper(name, f"st, loc, {tables}" if ids else "st, loc", lines)
        return name

    def kept_option(self, lines: list, start: int, plan: Any, n: int, names: tuple[str, str, str], sp: Any) -> str:
        """Option ``n``'s listing (``lines[start:]``) in a listing that keeps (see ``enumerator``): what the
        decision before kept of it added again where its gate holds, else listed as before and kept where its
        gate holds; returns the variable holding what it added."""
        total, ends, parts = names
        j = plan.kept.index(n)
        g, kj, t0, es, ps, c, d, a, e = (self.var(x) for x in ("g", "kj", "t", "es", "ps", "c", "d", "a", "e"))
        gate = " and ".join(f"({self.ex(p)})" for p in plan.gates[n]) or "True"
        body = [(ind + 1, text, span) for ind, text, span in lines[start:]]
        lines[start:] = [
            (1, f"{g} = {gate}", sp),
            (1, f"if {g} and kp is not None and kp[{j}] is not None:", sp),
            (2, f"{kj} = kp[{j}]", sp),
            (2, f"{t0}, {es}, {ps}, {c} = {kj}", sp),
            (2, f"{d} = {total} - {t0}", sp),
            (2, f"{ends} += [{e} + {d} for {e} in {es}] if {d} else {es}", sp),
            (2, f"{parts} += {ps}", sp),
            (2, f"{total} += {c}", sp),
            (1, "else:", sp),
            (2, f"{a} = len({parts})", sp),
            (2, f"{t0} = {total}", sp),
            *body,
            (2, f"{kj} = ({t0}, {ends}[{a}:], {parts}[{a}:], {total} - {t0}) if {g} else None", sp),
        ]
        return kj

    def outer_as_list(self, lines: list, outer_for: tuple, kept_at: tuple, names: tuple) -> None:
        """A picker's listing of an option of two ranges whose inner values are filtered once (see
        ``filtered_once``), where nothing reads the outer value (no test, no local): its options are every
        outer value with every inner value kept, one part of two lists, instead of a part per outer value
        (the same options in the same order, the filter run where the first outer value would run it)."""
        n, total, ends, parts, kept = names
        line, ind, src, _v, _read = outer_for
        outer = self.var("l")
        sp = line[2]
        at = lines.index(kept_at)  # (found by their text: lines may have been put in before them)
        lines[at:at + 4] = [
            (ind + 1, f"if {kept}:", sp),
            (ind + 2, f"{total} += len({outer}) * len({kept})", sp),
            (ind + 2, f"{ends}.append({total})", sp),
            (ind + 2, f"{parts}.append(({n}, (), ({outer}, {kept})))", sp),
        ]
        at = lines.index(line)
        lines[at:at + 1] = [(ind, f"{outer} = {src}", sp), (ind, f"if {outer}:", sp)]

    def owned_loop(self, lines: list, inner_for: tuple, piles: list[tuple[str, str]],
                   marker: tuple[str, tuple[int, int]] | None = None) -> None:
        """The innermost loop of an option reading piles on its value: written twice, with the piles read
        with no check when every value owns them (as a rule), and as it was otherwise. ``marker``: (the list the
        loop keeps its values in, (component, zone)) where its one test is that marker's absence from the value's
        pile (``marker_filters.marker_test``), else None."""
        line, src, v = inner_for
        at = lines.index(line)
        ind = line[0]
        end = at + 1
        while end < len(lines) and lines[end][0] > ind:
            end += 1
        body = lines[at + 1:end]
        strs = [j for j, (_i, text, _sp) in enumerate(body) if type(text) is str]
        plain = owned_piles([body[j][1] for j in strs], piles, v, self.consts) if piles else None
        if plain is None:
            return
        texts, looked_up, masks = plain
        fast = list(body)
        for j, text in zip(strs, texts):
            fast[j] = (fast[j][0], text, fast[j][2])
        # the innermost value's piles (the only ones looked up in this loop): read with no check
        fast = [new for old in fast for new in ([(old[0], f"{name} = {head}", old[2]) for name, head in looked_up]
                                                if isinstance(old[1], _PilesAt) else [old])]
        values = self.var("vs")
        loop = f"for {v} in {values}:"
        shifted = [(i + 1, text, sp) for i, text, sp in fast]
        fast_loop = None if marker is None else \
            marker_filters.rewrite(self, *marker, v, values, shifted, ind + 1, line[2], self.unwritten)
        if fast_loop is None:  # (else a marker's pile left out as a whole: see marker_filters)
            fast_loop = [(ind + 1, loop, line[2]), *shifted]
        lines[at:end] = [
            (ind, f"{values} = {src}", line[2]),
            (ind, f"if {' and '.join(f'{mk}.issuperset({values})' for mk in masks)}:", line[2]),
            *fast_loop,
            (ind, "else:", line[2]),
            (ind + 1, loop, line[2]), *[(i + 1, text, sp) for i, text, sp in body],
        ]

    def unwritten(self, held: Any) -> bool:
        """Whether a place-holder of an enumerator's loop body writes nothing there: a range's value not read
        through ``loc``, or the start of a range level's kept counts (only the texts of that level read them)."""
        if isinstance(held, _LocAt):
            return held.slot not in self.loc_reads and -1 not in self.loc_reads
        return isinstance(held, _ResetAt)

    def shared_ranges(self, s: m.ChooseS) -> dict[tuple[int, int], str]:
        """The ``kinds(...)`` ranges that several options of a choice list alike (reading no local):
        {(option, range): the variable that keeps the list, computed once per listing}."""
        found: list[tuple[m.IterIR, str]] = []
        out: dict[tuple[int, int], str] = {}
        for n, opt in enumerate(s.options):
            for i, (_slot, it) in enumerate(opt.bindings):
                if it.kind != "kinds" or slots_read([it]):
                    continue
                name = next((nm for other, nm in found if same(other, it)), None)
                if name is None:
                    name = self.var("s")
                    found.append((it, name))
                out[n, i] = name
        counts = collections.Counter(out.values())
        return {key: name for key, name in out.items() if counts[name] > 1}

    def range_bound(self, it: m.IterIR) -> int:
        """The most values a ``for`` range can give, known when the code is written."""
        if it.kind in ("players", "players_in", "others", "others_in", "players_from"):
            return self.model.max_players
        if it.kind in ("kinds", "kinds_where"):
            return len(self.model.kinds)
        if it.kind == "faces":
            return len(it.values)
        if it.kind == "range":
            low, high = it.low, it.high
            if type(low) is m.Const and type(high) is m.Const and type(low.value) is int \
                    and type(high.value) is int:
                return max(0, high.value - low.value + 1)
            if type(low) is m.Const and type(low.value) is int and low.value >= 1 and is_count(high):
                return self.ncomp  # 'N to count(...)'
            return runtime.MAX_RANGE
        assert it.query is not None
        return self.ncomp * len(it.query.zones)  # components: each in one zone

    def tries_bound(self, s: m.ChooseS) -> int:
        """The most combinations of ``for`` values a choice can try, plus its options without ranges: at
        most ``MAX_OPTIONS``, neither the tries nor the options can pass the limit (no need to count)."""
        most = 0
        for opt in s.options:
            size = 1
            for _slot, it in opt.bindings:
                size *= self.range_bound(it)
                most += size
            most += 1
        return most

    def member_tests(self, s: m.ChooseS, spec: ChooseSpec, first: int) -> None:
        """For replay: per option of ``s``, a function ``(st, loc) -> bool`` saying whether the option with
        the ``for`` values bound in ``loc`` is among those the enumerator lists (its ranges hold the
        values, its condition is true), and a guard ``(st, loc) -> bool`` for the whole choice; for an
        option of one ``for``, also a function listing that range's values in order.

        Written only where listing the options cannot fail (see ``membership.listing_guard``), given
        the guard. Per option also whether taking it this way leaves ``loc`` exact: not where the
        enumerator (helpers ``first`` on) or the test stores into slots other than that option's own
        ``for`` values, which listing leaves holding its last values (replay then trusts its state
        only once the game is over).
        """
        written = loc_writes(self.helpers[first:])
        saved = (self.loc_reads, self.cse_vars, self.once_levels, self.once_boxes, self.cse_piles, self.pre)
        tests: list[str | None] = []
        ranges: list[str | None] = []
        exact: list[bool] = []  # per option: taking it leaves the locals as listing the options and taking it does
        prefixes: list[str] = []
        read_back: list[bool] = []
        wholes: list[str | None] = []
        guard = None
        try:
            self.cse_vars = self.once_levels = self.pre = None
            self.loc_reads, self.once_boxes, self.cse_piles = set(), {}, {}
            guards = membership.listing_guard(self, s)
            if guards is None:
                return
            for opt in s.options:
                own = {slot + self.off for slot, _it in opt.bindings}
                self.loc_reads, self.once_boxes, self.cse_piles = set(), {}, {}
                start = len(self.helpers)
                name = f"mt{next(self.names)}"
                slots = {slot for slot, _it in opt.bindings}
                hoisted = opt.cond is not None and not reads_slots(opt.cond, slots)
                lines: list = []
                if hoisted:
                    lines.append((1, f"if not {self.ex(opt.cond)}:", opt.span))
                    lines.append((2, "return False", opt.span))
                for slot, it in opt.bindings:  # each value in its range, the outer values bound
                    lines.append((1, f"if {self.local(slot)} not in {self.iterable(it, copy=False)}:", opt.span))
                    lines.append((2, "return False", opt.span))
                cond = self.ex(opt.cond) if opt.cond is not None and not hoisted else "True"
                lines.append((1, f"return bool({cond})", opt.cond_span or opt.span))
                self.helper(name, "st, loc", lines)
                if len(opt.bindings) == 1:  # its values in the order listed (for a label not read back)
                    values = f"mv{next(self.names)}"
                    self.helper(values, "st, loc", [(1, f"return {self.iterable(opt.bindings[0][1])}", opt.span)])
                    ranges.append(values)
                else:
                    ranges.append(None)
                tests.append(name)
                parts = opt.label.parts
                prefixes.append(parts[0] if parts and isinstance(parts[0], str) else "")  # every label starts so
                wholes.append("".join(parts) if all(isinstance(p, str) for p in parts) else None)  # no holes
                # a label whose every hole shows a 'for' value of a kind or a component: read back through the
                # display -> kind and label -> component tables, it renders as the text it was read from
                holes = [p.expr if isinstance(p, m.SecretPart) else p for p in parts if not isinstance(p, str)]
                read_back.append(bool(holes) and all(type(h) is m.Local and h.slot in slots
                                                      and h.type in (m.KIND, m.COMPONENT) for h in holes))
                exact.append(written <= own and loc_writes(self.helpers[start:]) <= own)
            if guards:
                guard = f"mg{next(self.names)}"
                self.helper(guard, "st, loc", [(1, f"return {' and '.join(guards)}", s.span)])
        finally:
            self.loc_reads, self.cse_vars, self.once_levels, self.once_boxes, self.cse_piles, self.pre = saved
        self.members[id(spec)] = (guard, tests, ranges, exact, prefixes, read_back, wholes)

    def placed_test(self, lines: list, opt: m.OptionIR, parts: list, values: list[str], level: int,
                    rnames: dict[int, str], elses: list, ind: int) -> int:
        """Test ``parts`` once for the values of the ranges 0..``level``, instead of once per combination of
        the inner ranges (all listed once, in ``rnames``): tested only if there is a combination, as the
        engine tests it at the first one; when it fails, the combinations count as tried (see ``elses``)."""
        inner = [f"len({rnames[j]})" for j in range(level + 1, len(opt.bindings))]
        skipped = " + ".join(" * ".join(inner[:d + 1]) for d in range(len(inner)))
        test = self.option_cond(opt, parts, values, level) if level >= 0 else \
            " and ".join(self.ex(x) for x in parts)
        lines.append((ind, f"if {' * '.join(inner)} and {test}:", opt.cond_span or opt.span))
        elses.append((ind, f"({skipped})"))
        return ind + 1

    def row_test(self, opt: m.OptionIR, parts: list, values: list[str], once: str | None, lines: list,
                 loop_at: dict[int, tuple[int, int]]) -> str:
        """Source of the conjuncts ``parts`` of an option's condition tested for each combination, its parts
        that read no innermost value read from tables by kind, or computed into variables set before the loop
        of the range after the last one they read (``loop_at``: where each range's loop starts, its line and
        indentation; see ``outer_parts``)."""
        last = len(opt.bindings) - 1
        if once is not None:  # (filtered once: its tests read no outer value)
            return self.option_cond(opt, parts, values, last)
        outer = {slot: name for (slot, _it), name in zip(opt.bindings[:last], values)}
        kinds = {slot for slot, it in opt.bindings[:last] if it.type == m.KIND}
        found = outer_parts.hoist(self.model, parts, {opt.bindings[last][0]}, kinds, bool(self.no_kind),
                                  self.comp.kind_values, variables=last > 0)
        names = {slot: self.var("o") for slot, _e in found.moved}
        names.update({slot: f"{self.table(by_kind, 'kt')}[{outer[kind]}]" for slot, by_kind, kind in found.tabled})
        order = [slot for slot, _it in opt.bindings]
        placed = []
        for slot, e in found.moved:  # before the loop of the range after the last one it reads
            read = slots_read([e])
            at, ind = loop_at[max((i for i, sl in enumerate(order) if sl in read), default=-1) + 1]
            placed.append((at, (ind, f"{names[slot]} = {self.option_cond(opt, [e], values, last)}",
                                opt.cond_span or opt.span)))
        for at, line in sorted(placed, key=lambda p: -p[0]):  # (the later first: the earlier stay where they are)
            lines.insert(at, line)
        return self.option_cond(opt, found.parts, values, last, names)

    def option_cond(self, opt: m.OptionIR, parts: list, values: list[str], level: int,
                    more: dict[int, str] | None = None) -> str:
        """Source of the conjuncts ``parts`` of an option's condition, tested inside the ranges 0..``level``
        (whose values are in the variables ``values``; ``more``: other slots' variables)."""
        bindings = opt.bindings[:level + 1]
        self.once_levels = [{sl} for sl, _ in bindings]
        self.cse_vars = {sl: name for (sl, _it), name in zip(bindings, values)}
        if more:
            self.cse_vars.update(more)
        try:
            return " and ".join(self.ex(x) for x in parts)
        finally:
            self.once_levels = self.cse_vars = None


def unread_suffix(opt: Any, hoisted: bool) -> int:
    """Where the innermost ranges of a ``choose`` option that nothing reads begin (their number: none).

    A range's variable is read if a later range or the option's condition (unless the
    condition is tested before the ranges) reads it; an option whose condition is tested
    per combination has no such ranges."""
    if opt.cond is not None and not hoisted and not always_true(opt.cond):
        return len(opt.bindings)
    at = len(opt.bindings)
    while at > 0 and opt.bindings[at - 1][0] not in slots_read([it for _s, it in opt.bindings[at:]]):
        at -= 1
    return at


def picker_lists_less(opt: m.OptionIR) -> bool:
    """Whether a picker's listing (``OptionEmitter.enumerator`` with ``lazy``) writes out fewer of this
    option's values than the full listing: innermost ranges that nothing reads, or innermost values
    filtered once for every outer value."""
    tested_first = opt.cond is not None and not reads_slots(opt.cond, {slot for slot, _ in opt.bindings})
    return unread_suffix(opt, tested_first) < len(opt.bindings) or filtered_once(opt, tested_first)


def filtered_once(opt: m.OptionIR, hoisted: bool) -> bool:
    """Whether an option's innermost range reads no outer range's value and the tests of its condition
    that need the innermost value read no outer one: the innermost values that pass are the same for
    every outer value, and a picker's listing filters them once (see ``OptionEmitter.enumerator``)."""
    last = len(opt.bindings) - 1
    if last < 1 or hoisted or opt.cond is None or always_true(opt.cond):
        return False
    outer = {slot for slot, _it in opt.bindings[:last]}
    fixed = [i == 0 or not slots_read([it]) & {s for s, _ in opt.bindings[:i]}
             for i, (_slot, it) in enumerate(opt.bindings)]
    if not fixed[last]:
        return False
    _placed, inner = _place_conjuncts(opt, max((i for i in range(last + 1) if not fixed[i]), default=-1))
    return bool(inner) and not slots_read(inner) & outer


def always_true(cond: Any) -> bool:
    """Whether a condition is true whatever the values (decided by the game's options when written)."""
    cond = fold(cond)
    return type(cond) is m.Const and cond.value is True


def _place_conjuncts(opt: m.OptionIR, lowest: int) -> tuple[dict[int, list], list]:
    """Where each conjunct of an option's condition is tested: {range level: conjuncts} for those that
    read no inner range's value (-1: none), in their order, and the rest, tested for each combination.

    A conjunct moves out only as far as the conjuncts before it allow (the order of evaluation, and so
    of any error, stays as written), and no further out than ``lowest``, the level below which every
    range is listed once (so that the combinations a failed test skips can be counted as tried); one
    that must stay with the innermost value keeps the rest inside."""
    if opt.cond is None:
        return {}, []
    order = [slot for slot, _it in opt.bindings]
    last = len(order) - 1
    placed: dict[int, list] = {}
    inner: list = []
    at = -1
    for part in conjuncts(fold(opt.cond)):
        if type(part) is m.Const and part.value is True:  # 'True and X' is X
            continue
        if not inner:
            read = slots_read([part])
            level = max((i for i, slot in enumerate(order) if slot in read), default=-1)
            if max(at, level, lowest) < last:
                at = max(at, level, lowest)
                placed.setdefault(at, []).append(part)
                continue
        inner.append(part)
    return placed, inner


@attrs.frozen
class _ResetAt:
    """A place in an enumerator where the kept counts of one range level start afresh (-1: the option's)."""

    level: int


@attrs.frozen
class _LocAt:
    """A place in an enumerator where a range's value may be stored in its local slot."""

    slot: int
    var: str


@attrs.frozen
class _PilesAt:
    """A place in an enumerator where the piles on one range's value (local ``slot``) are looked up."""

    slot: int
