"""Generated code for triggers: which to check after a statement, the check functions with their guards,
and the players whose watched triggers a change can fire (a part of the generator).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import untouched
from rulelang.compile.emit import SOFT_LIMIT
from rulelang.compile.source_text import cannot_fail


class TriggerEmitter:
    """Trigger checks and their guards (mixed into ``CodeGen``)."""

    def move_triggers(self, s: m.MoveS) -> tuple[int, ...]:
        """The triggers to check after move ``s``: those reading a zone it changes, less those whose condition
        it cannot change (``untouched.UNTOUCHED``, proved from the model)."""
        which = self.comp.triggers_for(self.query_zones(s.query) | {s.dest.zone})
        if which and untouched.UNTOUCHED:
            facts = self.__dict__.get("_absent_facts")
            if facts is None:
                facts = self.__dict__["_absent_facts"] = untouched.absent_facts(self.model)
            known = facts.get(id(s), ())
            which = tuple(t for t in which if not untouched.untouched(self.model, s, self.model.triggers[t], known))
        return which

    def soft(self, L: list, which: tuple[int, ...], after: tuple, span: Any, ind: int,
             owners: list[str] | None = None) -> bool:
        """After a statement that may make a trigger's condition true: check, and leave if one fired.

        With ``owners`` (sources of seats), the statement changed only what those players own
        among what the triggers read: a trigger watched per player whose condition reads only
        that player's zones and counters (besides shared ones) is checked for those players."""
        chk = f"{self.check_fn(which, owners=True)}(st, ({', '.join(owners)},))" if owners else \
            f"{self.check_fn(which)}(st)"
        guard = self.check_guard(which, owners)
        if guard is not None:
            chk = f"{guard} and {chk}"
        pc = self.site_pc(None, 1, ("soft", id(after[1]), after[2]))
        self.resume(pc, after, span)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT:
            L.append((ind, f"if {chk}:", span))
            self.fired(L, ind + 1, span)
            return self.pause(L, pc, ind)
        L.append((ind, f"if {chk}:", span))
        self.fired(L, ind + 1, span)
        self.pause(L, pc, ind + 1)
        return False

    def fired(self, L: list, ind: int, span: Any) -> None:
        """A trigger fired: that counts in the step budget (a trigger firing again and again is a loop)."""
        L.append((ind, "left -= 1", span))
        L.append((ind, "if left < 0:", span))
        L.append((ind + 1, f"runaway({self.const('triggers')})", span))

    def changed_owners(self, which: tuple[int, ...], sels: list[m.ZoneSel]) -> list[str] | None:
        """Sources of the seats whose zones a move changed, when that is all it changed of what the
        per-player triggers among ``which`` read (see ``soft``); None: check every player."""
        owners = []
        for t in which:
            trig = self.model.triggers[t]
            if not trig.each:
                continue
            if not owner_local(trig):
                return None
            for sel in sels:
                if sel.zone not in trig.reads_zones:
                    continue
                zone = self.model.zones[sel.zone]
                if sel.owner is None or zone.per_kind is not None or zone.per_class is not None \
                        or type(sel.owner) not in (m.Local, m.CurrentPlayer):
                    return None
                owners.append(self.ex(sel.owner))
        return list(dict.fromkeys(owners)) or None

    def check_fn(self, which: tuple[int, ...], owners: bool = False) -> str:
        """The generated function that checks these triggers (and fires those that became true).

        With ``owners``, ``chk(st, seats)``: the triggers watched per player whose condition
        reads only that player's own zones and counters are checked for those seats only, in
        seat order (the others' conditions read nothing that changed: their flags stay)."""
        which = tuple(which)
        key = (which, "owners") if owners else which
        name = self.checks.get(key)
        if name is not None:
            return name
        name = self.checks[key] = f"chk{len(self.checks)}"
        lines: list = [(1, "armed = st.armed", None), (1, "if armed is None:", None), (2, "return False", None)]
        if len(which) == 1 and self.check_one(lines, which[0]):
            self.helper(name, "st, _seats0" if owners else "st", lines)
            return name
        lines.append((1, "fired = []", None))
        saved = self.off
        self.off = 0
        try:
            for t in which:
                trig = self.model.triggers[t]
                lines.append((1, f"loc = TL[{t}]", trig.span))
                if trig.each:
                    lines.append((1, f"flags = armed[{t}]", trig.span))
                    sure = True  # every seat of the game: each a seat
                    if owners and owner_local(trig):
                        seats = "(sorted(set(_seats0)) if len(_seats0) > 1 else _seats0)"  # in seat order
                        lines.append((1, f"for p in {seats}:", trig.span))
                        sure = False  # (a seat's variable may hold nobody: left to the condition's own checks)
                    else:
                        lines.append((1, "for p in range(st.players):", trig.span))
                    cond = self.seat_ex_of(trig.cond, "p", sure)
                    if not untouched.CHECK_SEATS or "loc" in cond:  # (what it calls reads the seat from loc)
                        lines.append((2, "loc[0] = p", trig.span))
                    lines.append((2, f"now = bool({cond})", trig.span))
                    lines.append((2, "if now and not flags[p]:", trig.span))
                    lines.append((3, f"fired.append(({t}, p))", trig.span))
                    lines.append((2, "flags[p] = now", trig.span))
                else:
                    lines.append((1, f"now = bool({self.ex(trig.cond)})", trig.span))
                    lines.append((1, f"if now and not armed[{t}]:", trig.span))
                    lines.append((2, f"fired.append(({t}, None))", trig.span))
                    lines.append((1, f"armed[{t}] = now", trig.span))
        finally:
            self.off = saved
        lines.append((1, "if fired:", None))
        lines.append((2, "return fire(st, fired, TR, NL, TT)", None))
        lines.append((1, "return False", None))
        self.helper(name, "st, _seats0" if owners else "st", lines)
        return name

    def seat_ex_of(self, e: Any, p: str, sure: bool) -> str:
        """Source of a per-player trigger's condition in a check's loop over the seats ``p`` (slot 0 holds the
        seat too, for the functions it calls): read from the variable (``untouched.CHECK_SEATS``), and, when
        it is ``sure`` to be a seat, without a check."""
        if not untouched.CHECK_SEATS or 0 in self.loop_vars:
            return self.ex(e)
        self.loop_vars[0] = p
        added = sure and p not in self.cse_ids
        if added:
            self.cse_ids.add(p)
        try:
            return self.ex(e)
        finally:
            del self.loop_vars[0]
            if added:
                self.cse_ids.discard(p)

    def check_guard(self, which: tuple[int, ...], owners: list[str] | None) -> str | None:
        """A test written before a call of the check of ``which`` (see ``soft``): true when a trigger's
        condition now differs from its flag, the only case where the check changes a flag or fires;
        None when some condition cannot be tested here (it may fail, or reads more than the state and
        the seats of ``owners``), and then the check is called every time.

        A watched-once trigger is tested as ``COND != armed[t]``; one watched per player, for each
        seat ``o`` of ``owners``, as ``o < 0 or COND(o) != armed[t][o]`` (a seat that is not one is
        left to the check)."""
        tests = []
        for t in which:
            trig = self.model.triggers[t]
            if not trig.each:
                cond = self.guard_cond(trig, None)
                if cond is None:
                    return None
                tests.append(f"{cond} != st.armed[{t}]")
                continue
            if not owners or not owner_local(trig):
                return None
            for o in owners:
                cond = self.guard_cond(trig, o)
                if cond is None:
                    return None
                sure = o == "st.current" or o in self.cse_ids  # a seat, never < 0
                tests.append(f"{cond} != st.armed[{t}][{o}]" if sure else f"{o} < 0 or {cond} != st.armed[{t}][{o}]")
        if not tests:
            return None
        return f"(st.armed is not None and ({' or '.join(f'({x})' for x in tests)}))"

    def guard_cond(self, trig: m.Trigger, owner: str | None) -> str | None:
        """Source of a trigger's condition as a bool, written where a check is called (``owner``: the
        seat of a trigger watched per player); None unless it reads only the state (and that seat) and
        cannot fail."""
        nhelpers = len(self.helpers)
        saved = self.off
        added = owner is not None and owner not in self.cse_ids
        try:
            with self.own_scope():
                self.off = 0
                if owner is not None:
                    self.loop_vars[0] = owner
                    self.cse_ids.add(owner)  # tested for < 0 first where it is not sure to be a seat
                cond = self.ex(trig.cond)
        except AssertionError:  # a helper function would read the seat's variable
            cond = None
        finally:
            self.off = saved
            if added:
                self.cse_ids.discard(owner)
        if len(self.helpers) != nhelpers:  # the condition needs a helper function: left to the check
            del self.helpers[nhelpers:]
            return None
        # (Python's operators written as words are not calls, whatever follows them)
        if cond is None or not cannot_fail(re.sub(r"\b(and|or|not|in|is|if|else)\b", "+", cond)):
            return None
        if any(ref != owner for ref in re.findall(r"\bloc\[\d+\]", cond)):
            return None
        e = trig.cond
        if not (type(e) is m.BinOp and e.op in ("<", "<=", ">", ">=") and e.left.type == e.right.type == m.INT):
            cond = f"bool({cond})"  # the flag kept in the state is a bool
        return cond

    def check_one(self, lines: list, t: int) -> bool:
        """Write the body of a check of trigger ``t`` alone when it is watched once for the game (not
        per player): the same flag and firing as the general check, without a list of the fired
        ones; False (nothing written) for a trigger watched per player."""
        trig = self.model.triggers[t]
        if trig.each:
            return False
        saved = self.off
        self.off = 0
        try:
            cond = self.ex(trig.cond)
        finally:
            self.off = saved
        if "loc" in cond:
            lines.append((1, f"loc = TL[{t}]", trig.span))
        e = trig.cond
        if not (type(e) is m.BinOp and e.op in ("<", "<=", ">", ">=") and e.left.type == e.right.type == m.INT):
            cond = f"bool({cond})"  # the flag kept in the state is a bool
        lines.append((1, f"now = {cond}", trig.span))
        lines.append((1, f"if now and not armed[{t}]:", trig.span))
        lines.append((2, f"armed[{t}] = True", trig.span))
        lines.append((2, f"return fire(st, [({t}, None)], TR, NL, TT)", trig.span))
        lines.append((1, f"armed[{t}] = now", trig.span))
        lines.append((1, "return False", None))
        return True


_OWNER_LOCAL_NODES = (m.Const, m.BinOp, m.UnOp, m.IfElseIR, m.KindAttr, m.ElemAttr, m.ElemIsKind, m.Agg, m.QueryIR,
                      m.ZoneSel, m.CounterGet, m.Local)


def owner_local(trig: m.Trigger) -> bool:
    """Whether a trigger watched per player reads, of what players own, only its player's (local
    slot 0): zones and counters of that player, shared zones and counters, the components'
    kinds and attributes, and arithmetic on those; nothing else of the state (not the
    current player, answers, who is out, dice faces)."""
    if not trig.each:
        return False

    def ok(e: Any) -> bool:
        if e is None or isinstance(e, (int, str, bool, frozenset)):
            return True
        if isinstance(e, tuple):
            return all(ok(x) for x in e)
        if type(e) is m.Builtin:
            return e.func in ("players", "min", "max", "abs") and ok(e.args)
        if type(e) not in _OWNER_LOCAL_NODES:
            return False
        if type(e) is m.Local:
            return e.slot == 0
        if type(e) is m.QueryIR:
            return not e.kind_locals and e.count_expr is None and ok(e.zones) and ok(e.where) and ok(e.kinds)
        if type(e) in (m.ZoneSel, m.CounterGet):
            return e.owner is None or (type(e.owner) is m.Local and e.owner.slot == 0)
        if type(e) is m.ElemAttr:
            return True
        return all(ok(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name not in ("span", "type"))

    return ok(trig.cond)
