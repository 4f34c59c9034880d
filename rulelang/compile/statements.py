"""Generated code for statements: assignments, ``let``, ``say``, ``if``, loops, calls of rules (inlined or
as frames) and the dispatch to the emitters of other statement kinds (a part of the generator).
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import chance, control, emit, paid, piles, rounds, runtime, spills, steps, triggers, unasked
from rulelang.compile.analysis import never_negative, reads_slots
from rulelang.compile.emit import END
from rulelang.compile.program import (
    RANDFIRST,
    SHUFFLE,
)
from rulelang.compile.source_text import cannot_fail
from rulelang.numbers import MAX_NUMBER, too_big

LET_LOCALS = True
"""Whether a ``let`` is also kept in a Python variable that the rest of its sequence reads (see ``let_local``);
the equivalence tests turn it off to compare with the code that reads ``loc`` at each use."""

ENUMERATED_LOOPS = True
"""Whether a loop that may pause goes through its list, from the start, as ``for i, v in enumerate(list, 1)``
(the position after each value, which ``loc`` keeps for a pause, counted by ``enumerate``) instead of by
index; the equivalence tests turn it off to compare."""

SEAT_VARIABLES = True
"""Whether a counter of a seat held in a Python variable (sure to be a seat) is written through that variable,
not through a copy of it; the equivalence tests turn it off to compare."""

NARRATED_IFS = True
"""Whether an ``if`` that only narrates is written inside ``if st.log is not None:`` where its test cannot
fail (see ``narrated_if``); the equivalence tests turn it off to compare."""

REPEAT_RANGES = True
"""Whether a ``repeat N times`` whose body cannot pause goes round ``for n in range(N)`` instead of counting
``N`` down in a ``while`` (``N`` is a whole number there: the same iterations); the equivalence tests turn it
off to compare."""

EMITTERS = {**rounds.EMITTERS, **chance.EMITTERS}
"""Statements written by module functions, by IR type."""


class StatementEmitter:
    """Statements, loops and calls (mixed into ``CodeGen``)."""

    def emit_stmt(self, L: list, s: Any, after: tuple, ind: int) -> bool:  # noqa: C901
        """Write one statement; True when it ends its block on every path."""
        t = type(s)
        sp = getattr(s, "span", None)
        if t is m.MoveS:
            if s.query.quantity == "random":
                return self.emit_draw(L, s, after, ind)
            self.emit_move(L, s, ind)
            which = self.move_triggers(s)
            wherever = s.query.one is not None and not s.query.zones  # from any player's zone: check them all
            owners = None if wherever else self.changed_owners(which, [*s.query.zones, s.dest])
            return self.soft(L, which, after, sp, ind, owners) if which else False
        if t is m.AssignS:
            who = self.emit_assign(L, s, ind)
            which = self.comp.trigger_for_counter.get(s.counter, ())
            owners = None
            watched = [self.model.triggers[t] for t in which if self.model.triggers[t].each]
            if who is not None and self.model.counters[s.counter].per_player and watched \
                    and all(triggers.owner_local(trig) for trig in watched):
                owners = [who]
            return self.soft(L, which, after, sp, ind, owners) if which else False
        if t is m.LetS:
            value = self.ex(s.value) if paid.unbounded(self, s) else self.stored(s.value, sp)  # (see paid.py)
            L.append((ind, f"loc[{s.slot + self.off}] = {value}", sp))
            return False
        if t is m.SayS:
            L.append((ind, "if st.log is not None:", sp))
            L.append((ind + 1, f"st.log.append({{'type': 'say', 'text': {self.template(s.text)}}})", sp))
            return False
        if t is m.GiveTurnS:
            L.append((ind, f"st.next_player = {self.seat_ex(s.player, 'a turn to take', sp)}", sp))
            return False
        if t is m.SimpleS:
            if s.what == "end turn":
                L.append((ind, f"end_turn(st, {self.model.turn_rule})", sp))
                L.append((ind, "return left", sp))
                return True
            if s.what == "end game":
                L.append((ind, f"return {END}", sp))
                return True
            if s.what == "end game with no winner":  # the standings follow 'rank'; nobody is a winner
                L.append((ind, "st.result = {'no_winner': True}", sp))
                L.append((ind, f"return {END}", sp))
                return True
            if s.what in ("break", "continue"):
                return control.emit_leave(self, L, s, after, ind)
            if s.what == "another turn":
                L.append((ind, "st.extra_turn = True", sp))
                return False
            if s.what == "pick first player at random":
                pc = self.site_pc(s, 2)
                self.entries.setdefault(pc, (RANDFIRST, None, None, None, sp))
                self.resume(pc + 1, after, sp)
                return self.pause(L, pc, ind)
            return False  # pass
        if t is m.RevealS:
            p, picked = self.var("p"), self.var("pk")
            who = "None" if s.player is None else self.seat_ex(s.player, "eyes to look with", sp)
            L.append((ind, f"{p} = {who}", sp))
            L.append((ind, f"{picked} = {self.selection(s.query)}", sp))
            names = [self.reveal_where(z) for z in s.query.zones]
            if not names:  # one component, wherever it is: the place it is in
                names = [f"place_text({piles.place_table(self)}, LB, *place_of(st, {picked}[0]))"]
            where = names[0] if len(names) == 1 else f"', '.join(({', '.join(names)},))"
            kinds = self.model.kinds
            remembered = self.table([None if self.is_die[c] else kinds[k].name  # a die: its label and face
                                     for c, k in enumerate(self.kind_of)], "rm")
            if REVEAL_NAMED and not any(self.is_die):  # every component remembered by its kind's name
                self.consts["reveal_named"] = runtime.reveal_named
                L.append((ind, f"reveal_named(st, {p}, {picked}, {where}, LB, {remembered})", sp))
                return False
            L.append((ind, f"reveal(st, {p}, {picked}, {where}, LB, {remembered}, FN, FD)", sp))
            return False
        if t is m.RollS:
            return self.emit_roll(L, s, after, ind)
        if t is m.ShuffleS:
            pc = self.site_pc(s, 2)
            if pc not in self.entries:
                zl = self.zone_fn(s.zone)
                which = self.comp.triggers_for({s.zone.zone})
                self.check_fn(which)
                self.entries[pc] = (SHUFFLE, zl, s.zone.zone, which, sp)
            self.resume(pc + 1, after, sp)
            return self.emit_shuffle(L, s, pc, ind)
        if t is m.AskS:
            return self.emit_ask(L, s, after, ind)
        if t is m.ChooseS:
            return self.emit_choose(L, s, after, ind)
        if t in EMITTERS:
            return EMITTERS[t](self, L, s, after, ind)
        if t is m.CallS:
            callee = self.model.rules[s.rule]
            if self.inlines(s):
                # The callee's body runs here, its locals after the caller's: no frame to push or pop.
                self.cov(("rule", s.rule), ind, L)
                saved = (self.off, self.ikey)
                base = self.alloc((id(s), "inline"), callee.nlocals)
                params: dict[int, str] = {}  # arguments the body reads from Python variables (it binds them never)
                if s.args:
                    args = [self.stored(a, sp) for a in s.args]
                    targets = ", ".join(f"loc[{base + i}]" for i in range(len(args)))
                    for i, a in enumerate(args):
                        if not _binds_slot(callee.body, i):
                            params[base + i] = self.var("v")
                            if a in self.cse_ids or (spills.SEAT_ARGS and type(s.args[i]) is m.CurrentPlayer):
                                self.cse_ids.add(params[base + i])
                    names = "".join(f"{params.get(base + i, '_')}, " for i in range(len(args)))
                    named = f"{names}= " if params else ""
                    L.append((ind, f"{named}{targets}, = {', '.join(args)},", sp))
                bind = len(L) - 1
                stays = s.args and len(params) == len(s.args) and not self.can_pause([s])
                self.off = base
                self.ikey = self.ikey + ((id(s), s.rule),)
                self.loop_vars.update(params)
                try:
                    return self.emit_seq(L, callee.body, 0, after, False, ind)
                finally:
                    self.off, self.ikey = saved
                    for slot in params:
                        del self.loop_vars[slot]
                    if stays and all(emit.slot_unread(L[bind + 1:], slot) for slot in params):
                        # a body that never leaves the block reads its arguments from their variables only
                        L[bind] = (ind, f"{names}= {', '.join(args)},", sp)
                    elif spills.LAZY_ARGS and s.args and len(params) == len(s.args):
                        # every argument read from its variable: stored into loc only where the body may leave
                        L[bind:bind + 1] = [(ind, f"{params[base + i]} = {a}", sp) for i, a in enumerate(args)]
                        spills.spill(L, bind + len(args), ind, [f"loc[{slot}] = {v}" for slot, v in params.items()],
                                     set(params))
            self.budget(L, ind, sp)
            new = self.var("n")
            L.append((ind, f"{new} = [None] * NL[{s.rule}]", sp))
            for i, a in enumerate(s.args):
                L.append((ind, f"{new}[{i}] = {self.stored(a, sp)}", sp))
            pc = self.site_pc(s, 1)
            self.resume(pc, after, sp)
            self.frames.append(s.rule)
            L.append((ind, f"fr[1] = {pc}", sp))
            L.append((ind, f"st.stack.append([{s.rule}, 0, {new}])", sp))
            L.append((ind, "return left", sp))
            return True
        if t is m.IfS and unasked.dead_if(self, s):  # every test false: nothing to do
            return False
        if unasked.dead_loop(self, s):  # a loop over seats doing nothing: only its passes counted
            L.append((ind, f"left -= {unasked.passes(self, s.iterable)}", sp))
            L.append((ind, "if left < 0:", sp))
            L.append((ind + 1, "runaway()", sp))
            return False
        if t is m.IfS and self.narrated_if(L, s, after, ind):
            return False
        if t is m.IfS:
            done = True
            for n, (cond, body) in enumerate(s.branches):
                test = self.ex_pre(L, cond, ind) if n == 0 else self.ex(cond)
                L.append((ind, f"{'if' if n == 0 else 'elif'} {test}:", sp))
                done &= self.emit_body(L, body, after, ind + 1, ("branch", id(s), n))
            if s.orelse is not None:
                L.append((ind, "else:", sp))
                done &= self.emit_body(L, s.orelse, after, ind + 1, ("branch", id(s), len(s.branches)))
            else:
                done = False
            return done
        if t in (m.WhileS, m.RepeatS, m.ForS):
            self.emit_loop(L, s, after, ind, init=True)
            return False
        if t in piles.STATEMENTS:
            return piles.emit(self, L, s, after, ind)
        raise AssertionError(f"the generator cannot translate {type(s).__name__}")  # pragma: no cover

    def let_local(self, L: list, seq: tuple, idx: int, ind: int, kept: list[int]) -> bool:
        """Write the ``let`` ``seq[idx]`` into ``loc`` and a Python variable, which the rest of ``seq`` reads
        it from, where nothing in the rest binds its slot again (``kept`` gets the slot, for
        ``forget_lets``); False (nothing written) where it is written as any statement.

        The rest of the sequence runs after the ``let`` in the same function, up to a pause; the code
        that resumes after a pause is written on its own, and what follows the sequence (``emit_ctx``),
        with the lets hidden: both read ``loc``, which holds the same value."""
        s = seq[idx]
        slot = s.slot + self.off
        rest = seq[idx + 1:]
        if not LET_LOCALS or slot in self.loop_vars or not _read_unsaid(rest, {s.slot}) or _binds_slot(rest, s.slot):
            return False
        v = self.var("v")
        L.append((ind, f"{v} = loc[{slot}] = {self.stored(s.value, s.span)}", s.span))
        self.loop_vars[slot] = v
        self.let_slots.add(slot)
        kept.append(slot)
        return True

    def forget_lets(self, kept: list[int]) -> None:
        """The end of a sequence: its lets (``let_local``) are read from ``loc`` again."""
        for slot in kept:
            if self.loop_vars.get(slot) is not None and slot in self.let_slots:
                del self.loop_vars[slot]
                self.let_slots.discard(slot)
        kept.clear()

    def hide_lets(self) -> dict[int, str]:
        """Take the lets read from Python variables out of ``loop_vars`` (given back by ``show_lets``)."""
        hidden = {slot: self.loop_vars.pop(slot) for slot in self.let_slots if slot in self.loop_vars}
        self.let_slots = set()
        return hidden

    def show_lets(self, hidden: dict[int, str]) -> None:
        """Give back the lets ``hide_lets`` took out."""
        self.loop_vars.update(hidden)
        self.let_slots = set(hidden)

    def narrated_if(self, L: list, s: m.IfS, after: tuple, ind: int) -> bool:
        """An ``if`` with no other branch whose body only says something, and whose test reads a table (a
        subscript) and cannot fail: written inside ``if st.log is not None:``, so that the test is not
        worked out where nothing is narrated (computing it or not changes nothing else); False (nothing
        written) for any other ``if``, and in a build that counts coverage (it counts the tests)."""
        if not NARRATED_IFS or self.coverage or len(s.branches) != 1 or s.orelse is not None:
            return False
        cond, body = s.branches[0]
        if not body or any(type(x) is not m.SayS for x in body):
            return False
        mark = len(L)
        test = self.ex_pre(L, cond, ind)
        if len(L) != mark or "[" not in test or not cannot_fail(test):
            del L[mark:]  # (totals added up before the test: written as any 'if')
            return False
        L.append((ind, "if st.log is not None:", s.span))
        L.append((ind + 1, f"if {test}:", s.span))
        self.emit_body(L, body, after, ind + 2, ("branch", id(s), 0))
        return True

    def emit_body(self, L: list, body: tuple, after: tuple, ind: int, construct: Any = None) -> bool:
        n = len(L)
        if construct is not None:
            self.cov(construct, ind, L)
        done = self.emit_seq(L, body, 0, after, False, ind)
        if len(L) == n:
            L.append((ind, "pass", None))
        return done

    def emit_loop(self, L: list, s: Any, after: tuple, ind: int, init: bool) -> None:
        """A loop, from its start (``init``) or resumed in the middle of its iterations."""
        self.py_loops.append(s)  # its body is written inside its Python loop ('break' is Python's)
        try:
            self.write_loop(L, s, after, ind, init)
        finally:
            self.py_loops.pop()

    def write_loop(self, L: list, s: Any, after: tuple, ind: int, init: bool) -> None:
        """The Python loop of ``emit_loop``."""
        sp = s.span
        end = ("loop", s, None, self.off, self.ikey, after)
        paused = self.can_pause(s.body)
        if type(s) is m.WhileS:
            L.append((ind, f"while {self.ex(s.cond)}:", sp))
        elif type(s) is m.RepeatS:
            if paused:
                slot = f"loc[{s.slot + self.off}]"
            else:
                slot = self.var("n")
            if init:
                n = self.ex_pre(L, s.count, ind)
                bound = self.int_bound(s.count)
                if bound is not None and bound <= MAX_NUMBER:  # a whole number within the bound already
                    L.append((ind, f"{slot} = {n}", sp))
                else:
                    L.append((ind, f"{slot} = whole(bounded({n}, {self.const(sp)}), {self.const(sp)}, "
                                   f"{self.const('how many times to repeat')})", sp))
            if REPEAT_RANGES and init and not paused:  # (a whole number: the same iterations, counted in C)
                L.append((ind, f"for {slot} in range({slot}):", sp))
            else:
                L.append((ind, f"while {slot} > 0:", sp))
                L.append((ind + 1, f"{slot} -= 1", sp))
        else:
            var = f"loc[{s.var + self.off}]"
            if paused:
                lst, idx = f"loc[{s.list_slot + self.off}]", f"loc[{s.idx_slot + self.off}]"
                if not _binds_slot(s.body, s.var):  # read from its Python variable until the block pauses
                    # the list (which nothing changes) and the position from Python variables; loc keeps
                    # them, and the value, for a pause
                    seq, i, v = self.var("s"), self.var("i"), self.var("v")
                    if spills.LAZY_LOOPS:
                        self.lazy_loop(L, s, (lst, idx, var), (seq, i, v), end, ind, init)
                        return
                    if init:
                        L.append((ind, f"{seq} = {lst} = {self.iterable(s.iterable)}", sp))
                        L.append((ind, f"{idx} = 0", sp))
                    else:
                        L.append((ind, f"{seq} = {lst}", sp))
                    if init and ENUMERATED_LOOPS:  # each value with its position after it, from the start
                        L.append((ind, f"for {i}, {v} in enumerate({seq}, 1):", sp))
                        L.append((ind + 1, f"{idx} = {i}", sp))
                        L.append((ind + 1, f"{var} = {v}", sp))
                    else:
                        L.append((ind, f"for {i} in range({'0' if init else idx}, len({seq})):", sp))
                        L.append((ind + 1, f"{idx} = {i} + 1", sp))
                        L.append((ind + 1, f"{v} = {var} = {seq}[{i}]", sp))
                    self.body_from_var(L, s, v, end, ind, sp)
                    return
                if init:
                    L.append((ind, f"{lst} = {self.iterable(s.iterable)}", sp))
                    L.append((ind, f"{idx} = 0", sp))
                L.append((ind, f"while {idx} < len({lst}):", sp))
                L.append((ind + 1, f"{var} = {lst}[{idx}]", sp))
                L.append((ind + 1, f"{idx} += 1", sp))
            else:
                v = self.var("v")
                fixed = s.iterable.kind in ("players", "players_in", "others", "others_in", "range")  # no copy
                start = len(L)
                L.append((ind, f"for {v} in {self.iterable(s.iterable, copy=not fixed)}:", sp))
                store = len(L)
                L.append((ind + 1, f"{var} = {v}", sp))
                if not _binds_slot(s.body, s.var):  # the body reads the value from its Python variable
                    slot = self.body_from_var(L, s, v, end, ind, sp)
                    if emit.slot_unread(L[store + 1:], slot):  # nothing reads the value from loc: not stored there
                        del L[store]
                    self.budget_once(L, start, s, ind)
                    if steps.NESTED_BUDGETS:
                        steps.budget_nested(L, start, self.range_bound(s.iterable), ind, self.var("q"))
                    return
                self.budget(L, ind + 1, sp)
                self.emit_seq(L, s.body, 0, end, False, ind + 1)
                self.budget_once(L, start, s, ind)
                if steps.NESTED_BUDGETS:
                    steps.budget_nested(L, start, self.range_bound(s.iterable), ind, self.var("q"))
                return
        self.budget(L, ind + 1, sp)
        self.emit_seq(L, s.body, 0, end, False, ind + 1)

    def lazy_loop(self, L: list, s: m.ForS, slots: tuple, names: tuple, end: Any, ind: int, init: bool) -> None:
        """The paused ``for`` loop of ``write_loop`` (its body reads its value from a Python variable), whose
        list, position and value (``slots``, from the Python variables ``names``) are stored into ``loc`` only
        before the lines of its body that may leave the block (``spills.spill``)."""
        sp = s.span
        (lst, idx, var), (seq, i, v) = slots, names
        if init:
            # a list nothing changes (the players, the others, a range) is gone through as it is, and copied
            # into loc only where the block may leave
            fixed = s.iterable.kind in ("players", "players_in", "others", "range")
            L.append((ind, f"{seq} = {self.iterable(s.iterable, copy=not fixed)}", sp))
            L.append((ind, f"for {i}, {v} in enumerate({seq}, 1):", sp))
            stores = [f"{lst} = list({seq})" if fixed else f"{lst} = {seq}", f"{idx} = {i}", f"{var} = {v}"]
        else:
            L.append((ind, f"{seq} = {lst}", sp))
            L.append((ind, f"for {i} in range({idx}, len({seq})):", sp))
            L.append((ind + 1, f"{v} = {seq}[{i}]", sp))
            stores = [f"{idx} = {i} + 1", f"{var} = {v}"]
        start = len(L)
        self.body_from_var(L, s, v, end, ind, sp)
        spills.spill(L, start, ind + 1, stores, {int(x[4:-1]) for x in (lst, idx, var)})
        if steps.NESTED_BUDGETS:
            steps.budget_nested(L, start - 1 - (not init), self.range_bound(s.iterable), ind, self.var("q"))

    def budget_once(self, L: list, start: int, s: m.ForS, ind: int) -> None:
        """The loop written from ``L[start]`` (at ``ind``), whose body counts each pass in the step budget and
        does nothing else with it (no other budget, no pause, no ``break``): where the budget left is at
        least the most passes it can make, no pass can run out of it, so the loop runs without counting
        and counts its passes once, after; else it runs as written."""
        head, body = L[start], L[start + 1:]
        own = next((j for j, (i, text, _sp) in enumerate(body) if i == ind + 1 and text == "left -= 1"), None)
        if own is None or [text for _i, text, _sp in body[own + 1:own + 3]] != ["if left < 0:", "runaway()"]:
            return
        rest = body[:own] + body[own + 3:]
        if any(type(text) is not str or _USES_BUDGET.search(text) for _i, text, _sp in rest):
            return
        most = self.range_bound(s.iterable)
        if most > runtime.MAX_RANGE:  # (past any budget set in practice: never without counting)
            return
        seq = self.var("q")
        sp = head[2]
        loop = head[1][:-1].split(" in ", 1)
        if all(text == "if st.log is not None:" for i, text, _sp in rest if i == ind + 1):
            # a body that only narrates: gone through only while something is narrated
            fast = [(ind + 1, f"{seq} = {loop[1]}", sp), (ind + 1, "if st.log is not None:", sp),
                    (ind + 2, f"{loop[0]} in {seq}:", sp), *[(i + 2, text, sp2) for i, text, sp2 in rest]]
        elif ANSWER_GATE and s.iterable.kind in _SEAT_RANGES and (answer := _answer_test(rest, ind, loop[0])):
            # a body that only acts on the seats that gave one answer: gone through only if some seat gave it
            fast = [(ind + 1, f"{seq} = {loop[1]}", sp), (ind + 1, f"if {answer} in st.answers:", sp),
                    (ind + 2, f"{loop[0]} in {seq}:", sp), *[(i + 2, text, sp2) for i, text, sp2 in rest]]
        else:
            fast = [(ind + 1, f"{loop[0]} in ({seq} := {loop[1]}):", sp),
                    *[(i + 1, text, sp2) for i, text, sp2 in rest]]
        L[start:] = [
            (ind, f"if left < {most}:", sp),  # (the most passes the loop can make)
            (ind + 1, head[1], sp), *[(i + 1, text, sp2) for i, text, sp2 in body],
            (ind, "else:", sp), *fast,
            (ind + 1, f"left -= len({seq})", sp),
        ]

    def body_from_var(self, L: list, s: m.ForS, v: str, end: Any, ind: int, sp: Any) -> int:
        """The body of the loop ``s`` at ``ind + 1``, reading the loop's value from the Python variable
        ``v``; returns the value's slot."""
        if never_negative(s.iterable):
            self.cse_ids.add(v)
        self.budget(L, ind + 1, sp)
        slot = s.var + self.off
        self.loop_vars[slot] = v
        try:
            self.emit_seq(L, s.body, 0, end, False, ind + 1)
        finally:
            del self.loop_vars[slot]
        return slot

    def emit_assign(self, L: list, s: m.AssignS, ind: int) -> str | None:
        """Write ``set``/``add`` of a counter; the variable holding the seat whose counter changed (or None)."""
        sp = s.span
        i = s.counter
        counter = self.model.counters[i]
        v, old, new = self.var("v"), self.var("o"), self.var("n")
        # ``set`` to a number written there, not narrated: stored as it is (nothing to bound, no old value)
        plain = s.op == "=" and counter.doc is None and type(s.value) is m.Const and (
            type(s.value.value) is int and not too_big(s.value.value) if counter.type == m.INT
            else counter.type != m.STR)
        # ``set`` to a shared whole-number counter, not narrated: its value was bounded when stored
        plain = plain or (s.op == "=" and counter.doc is None and counter.type == m.INT
                          and type(s.value) is m.CounterGet and s.value.owner is None
                          and self.model.counters[s.value.counter].type == m.INT)
        if not plain:
            L.append((ind, f"{v} = {self.ex_pre(L, s.value, ind)}", sp))
        if s.owner is None:
            cell, who = f"C[{i}]", "None"
        else:
            who = self.seat_ex(s.owner, f'a {counter.name!r}', sp)  # (a variable sure to hold a seat: read as it is)
            if not SEAT_VARIABLES or who not in self.cse_ids or not re.fullmatch(r"_[a-z]+\d+", who):
                seat, who = who, self.var("w")
                L.append((ind, f"{who} = {seat}", sp))
            cell = f"C[{i}][{who}]"
        if plain:
            L.append((ind, f"{cell} = {self.ex(s.value)}", sp))
            return None if s.owner is None else who
        L.append((ind, f"{old} = {cell}", sp))
        value = {"+=": f"{old} + {v}", "-=": f"{old} - {v}"}.get(s.op, v)
        if counter.type in (m.INT, m.STR):  # a number kept in the state is bounded
            value = self.bound(value, sp) if counter.type == m.INT else f"bounded_text({value}, {self.const(sp)})"
        L.append((ind, f"{new} = {cell} = {value}", sp))
        if counter.doc is not None:
            secret = self.const(counter.visibility) if counter.visibility != "public" else "None"
            L.append((ind, f"if st.log is not None and {new} != {old}:", sp))
            shown = {m.PLAYER: "True", m.KIND: "KN", m.FACE: "FN", m.STR: "'text'"}.get(counter.type, "False")
            none = ", 'no face'" if counter.type == m.FACE else ""
            L.append((ind + 1, f"log_counter(st.log, {self.const(counter.name)}, {who}, {old}, {new}, "
                               f"{shown}, {secret}{none})", sp))
        return None if s.owner is None else who


_USES_BUDGET = re.compile(r"\bleft\b|\brunaway\b|\bbreak\b")
# A look in a game without dice through runtime.reveal_named.
REVEAL_NAMED = True
# A loop over seats whose body is one test that the seat's answer is a constant (budget_once).
ANSWER_GATE = True
_SEAT_RANGES = ("players", "others", "players_in", "others_in")
_ANSWER_TEST = re.compile(r"if \(?st\.answers\[(\w+)\] == (k\d+)\)?:")


def _answer_test(rest: list, ind: int, head: str) -> str | None:
    """The constant of a loop body (``rest``, at ``ind + 1``, the loop's ``for v`` in ``head``) that is one
    ``if st.answers[v] == K:`` and nothing else, where K is a constant text: K (then the body does
    nothing unless some seat answered K); else None."""
    tops = [text for i, text, _sp in rest if i == ind + 1]
    if len(tops) != 1 or rest[0][0] != ind + 1:
        return None
    found = _ANSWER_TEST.fullmatch(tops[0])
    if found is None or f"for {found.group(1)}" != head:
        return None
    return found.group(2)
"""What, in the generated lines of a loop's body, counts in the step budget, reads it or leaves the loop early."""

_BINDING_FIELDS = ("slot", "var", "qvar", "list_slot", "idx_slot")


def _read_unsaid(node: Any, slots: set[int]) -> bool:
    """Whether statements (or expressions) may read any of these local slots other than in what they narrate
    (``say``: written only while narrating, so read from a Python variable it would cost a store in plain
    play and save nothing)."""
    if type(node) is m.SayS:
        return False
    if isinstance(node, (tuple, list)):
        return any(_read_unsaid(x, slots) for x in node)
    if not attrs.has(type(node)) or isinstance(node, (m.Local, m.QueryIR)):
        return reads_slots(node, slots)
    return any(_read_unsaid(getattr(node, f.name), slots) for f in attrs.fields(type(node)) if f.name != "span")


def _binds_slot(node: Any, slot: int) -> bool:
    """Whether statements (or expressions) may write local ``slot``: a ``let`` of it, or any construct that
    binds it (the ``for``, ``pick``, ``ask``, ``choose`` and ``repeat`` variables; reads are not writes)."""
    if isinstance(node, (tuple, list)):
        return any(_binds_slot(x, slot) for x in node)
    if type(node) is m.Local or not attrs.has(type(node)):
        return False
    for f in attrs.fields(type(node)):
        value = getattr(node, f.name)
        if f.name in _BINDING_FIELDS and value == slot:
            return True
        if f.name == "bindings" and any(b[0] == slot for b in value):
            return True
        if f.name != "span" and _binds_slot(value, slot):
            return True
    return False
