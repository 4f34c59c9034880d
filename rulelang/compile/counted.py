"""Generated code for a choice counted by position (a part of the generator, mixed into ``CodeGen``): the
parts of an option's condition that filter its last range, that range listed (filtered, or the kinds of
a sorted zone found in a loop), the current player's zones read once in the count, and a counted
option's values stored where it is found (see ``DecisionEmitter.pause_pick`` and ``count_options``).
"""

from __future__ import annotations

import re
from typing import Any

from rulelang.check import model as m
from rulelang.compile import masked_kinds, pile_filters, runtime
from rulelang.compile.analysis import conjuncts, never_negative, slots_read
from rulelang.compile.program import ChooseSpec

# A choice counted (counted_pick) also where listing it needs a guard (counted while the guard holds, the
# owners of the piles it reads then known to have them) and where a condition's parts that read a value
# of the option read only its last range's (that range filtered once by them).
COUNTED_FILTERS = True
# A counted option's values stored in ``loc`` and its block named where it is found (pause_pick).
TAKEN_DIRECT = True
# In a choice's count, the kinds of a sorted zone's components with a mask found in the count's own loop.
KINDS_INLINE = True
# ... and the kinds of all of a short sorted zone's components (at most SHORT_ZONE: kinds_in_order's own loop).
SORTED_KINDS_INLINE = True

_KINDS_WHERE = re.compile(r"kinds_in_order_where\(((?:Z\[\d+\]|Z_\d+)(?:\[[\w.]+\])?), KO, (\w+)\)")
_KINDS_ALL = re.compile(r"kinds_in_order\(((?:Z\[\d+\]|Z_\d+)(?:\[[\w.]+\])?), KO, KHI\)")
_CURRENT_ZONE = re.compile(r"\bZ\[\d+\]\[st\.current\]")


def hoist_current_zones(gen: Any, L: list, start: int, ind: int, sp: Any) -> None:
    """In the count of a choice's options (``L[start:]``, written at ``ind``: tests and ranges only, which
    change no zone and not who plays), a zone of the current player read more than once is read once,
    into a variable, before the count."""
    seen: dict[str, int] = {}
    for _i, text, _sp in L[start:]:
        if type(text) is str:
            for found in _CURRENT_ZONE.findall(text):
                seen[found] = seen.get(found, 0) + 1
    names = {zone: gen.var("hz") for zone, n in seen.items() if n > 1}
    if not names:
        return
    pattern = re.compile("|".join(re.escape(zone) for zone in names))
    L[start:] = [(ind, f"{name} = {zone}", sp) for zone, name in names.items()] + [
        (i, pattern.sub(lambda found: names[found.group(0)], text) if type(text) is str else text, s)
        for i, text, s in L[start:]]


class CountedEmitter:
    """The parts of a counted choice's code written apart from ``DecisionEmitter`` (mixed into ``CodeGen``)."""

    def last_range_filter(self, opt: m.OptionIR, slots: list[int]) -> Any:
        """For ``counted_pick``: an option's condition split into its parts that read no value of its ranges
        (returned, joined by ``and``: tested before the ranges, None for none) and those that read only its
        last range's value (kept in ``range_filters``: that range filtered by them, once); False where a part
        reads the value of another range. Listing cannot fail (``counted_pick``), so testing each part once
        per value instead of once per combination, the parts apart, gives the same options in the same order."""
        kept: list[Any] = []
        filters: list[Any] = []
        last = {slots[-1]}
        for part in conjuncts(opt.cond):
            read = slots_read([part]) & set(slots)
            if not read:
                kept.append(part)
            elif read == last:
                filters.append(part)
            else:
                return False
        self.range_filters[id(opt)] = filters
        cond = None
        for part in kept:
            cond = part if cond is None else m.BinOp("and", cond, part, m.BOOL, opt.cond.span)
        return cond

    def range_listed(self, L: list, opt: m.OptionIR, it: m.IterIR, lst: str, at: int,
                     filters: list[Any] | None) -> None:
        """For ``count_options``: the values of one of an option's ranges into ``lst``; with ``filters``
        (its last range's, see ``last_range_filter``) only those for which they hold, in order; the kinds
        of a sorted zone with a mask (``runtime.kinds_in_order_where``) found in a loop here (KINDS_INLINE)."""
        if filters:
            value, slot = self.var("v"), opt.bindings[-1][0] + self.off
            source = self.iterable(it, copy=False)
            self.loop_vars[slot] = value
            if never_negative(it):
                self.cse_ids.add(value)
            try:
                test = " and ".join(self.ex(part) for part in filters)
            finally:
                del self.loop_vars[slot]
            piles = pile_filters.idle_piles(test, value, source)
            if piles is not None:  # no pile holds anything: every value passes
                L.append((at, f"if not any({piles}):", opt.span))
                L.append((at + 1, f"{lst} = {source}", opt.span))
                L.append((at, "else:", opt.span))
                at += 1
            L.append((at, f"{lst} = []", opt.span))
            L.append((at, f"for {value} in {source}:", opt.span))
            L.append((at + 1, f"if {test}:", opt.span))
            L.append((at + 2, f"{lst}.append({value})", opt.span))
            return
        source = self.iterable(it, copy=False)
        found = _KINDS_WHERE.fullmatch(source) if KINDS_INLINE else None
        if found is None:
            whole = _KINDS_ALL.fullmatch(source) if SORTED_KINDS_INLINE else None
            if whole is not None:
                return self.sorted_kinds_inline(L, whole.group(1), lst, at, opt.span)
            L.append((at, f"{lst} = {source}", opt.span))
            return
        c, k, seen = self.var("c"), self.var("k"), self.var("sk")  # the same list, no call
        table = masked_kinds.kind_table(self, found.group(2))
        if table is not None:  # one table read per component (kind where the mask holds, else -1)
            masked_kinds.kinds_loop(L, at, lst, found.group(1), table, c, k, seen, opt.span)
            return
        L.append((at, f"{lst} = []", opt.span))
        L.append((at, f"{seen} = -1", opt.span))
        L.append((at, f"for {c} in {found.group(1)}:", opt.span))
        L.append((at + 1, f"{k} = KO[{c}]", opt.span))
        L.append((at + 1, f"if {k} != {seen} and {found.group(2)}[{c}]:", opt.span))
        L.append((at + 2, f"{lst}.append({k})", opt.span))
        L.append((at + 2, f"{seen} = {k}", opt.span))

    def sorted_kinds_inline(self, L: list, zone: str, lst: str, at: int, sp: Any) -> None:
        """``lst = kinds_in_order(zone, KO, KHI)`` (``SORTED_KINDS_INLINE``): for a zone of at most
        ``runtime.SHORT_ZONE`` components, that function's own loop over them, written here (no call); a longer
        zone, the call. ``zone`` is the source of a zone's list (a table read or a local: read twice, the same)."""
        c, k, seen, z = self.var("c"), self.var("k"), self.var("sk"), self.var("z")
        L.append((at, f"{z} = {zone}", sp))
        L.append((at, f"if len({z}) <= {runtime.SHORT_ZONE}:", sp))
        L.append((at + 1, f"{lst} = []", sp))
        L.append((at + 1, f"{seen} = -1", sp))
        L.append((at + 1, f"for {c} in {z}:", sp))
        L.append((at + 2, f"{k} = KO[{c}]", sp))
        L.append((at + 2, f"if {k} != {seen}:", sp))
        L.append((at + 3, f"{lst}.append({k})", sp))
        L.append((at + 3, f"{seen} = {k}", sp))
        L.append((at, "else:", sp))
        L.append((at + 1, f"{lst} = kinds_in_order({z}, KO, KHI)", sp))

    def option_taken(self, L: list, spec: ChooseSpec, x: str, v: str, R: str, who: str, nxt: str, ind: int,
                     sp: Any) -> None:
        """The option ``x`` of a choice taken with its values ``v`` (empty: bound in ``loc`` already):
        those stored, the option told to a recorder, its block named (``nxt``, where there are several)."""
        k = len(spec.options)
        for j, opt in enumerate(spec.options):
            if k == 1:
                at = ind
            else:
                L.append((ind, ("if" if j == 0 else "elif" if j < k - 1 else "else") +
                          (f" {x} == {j}:" if j < k - 1 else ":"), sp))
                at = ind + 1
            slots = [slot for slot, _fn in opt[1]]
            if slots:
                L.append((at, f"if {v}:", sp))
                L.append((at + 1, "".join(f"loc[{slot}], " for slot in slots) + f"= {v}", sp))
            self.option_tail(L, opt, R, who, nxt, k, at, sp)
            if self.kept_now is not None and j in self.kept_now[0].keep:  # what the next decision may keep
                plan, K, X, _src = self.kept_now
                if plan.keep[j] == plan.kept:
                    L.append((at, f"{X} = {K}", sp))
                else:
                    mask = "".join(f"{K}[{i}], " if n in plan.keep[j] else "None, " for i, n in enumerate(plan.kept))
                    L.append((at, f"{X} = ({mask}) if {K} is not None else None", sp))

    def option_tail(self, L: list, opt: tuple, R: str, who: str, nxt: str, k: int, at: int, sp: Any) -> None:
        """After an option's values are stored: the option told to a recorder, where play goes on."""
        L.append((at, f"if {R} is not None:", sp))  # recording: the option's label, as play() records it
        L.append((at + 1, f"{R}.took(st, {who}, {self.label_call(opt[0])})", sp))
        L.append((at, f"fr[1] = {opt[3]}", sp))
        if k > 1:
            L.append((at, f"{nxt} = r{self.frame}_{opt[3]}", sp))
