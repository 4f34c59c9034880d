"""Generated code for rules cut into blocks: pause points, resume points, the inlining of called rules,
the driver (setup, then turns), the start of a turn and the standings (a part of the generator).
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile import control, expansion, queries, rounds, spills, standings, steps, unasked
from rulelang.compile.analysis import MAX_INLINE_DEPTH
from rulelang.compile.emit import STOP
from rulelang.compile.program import (
    BLOCK,
)
from rulelang.compile.source_text import prologue, seats_once, truth_tests, zone_locals
from rulelang.numbers import MAX_NUMBER, too_big


class BlockEmitter:
    """The pause points and blocks of rules, the driver and the standings (mixed into ``CodeGen``)."""

    @property
    def after_step_triggers(self) -> bool:
        """Whether the game has triggers checked only when play would wait (``after each step``)."""
        return any(t.after_step for t in self.model.triggers)

    def alloc(self, key: Any, n: int) -> int:
        """Local slots of the frame rule for one site (the same on every emission of the site)."""
        key = (self.ikey, key)
        base = self.slots.get(key)
        if base is None:
            base = self.slots[key] = self.nloc
            self.nloc += n
        return base

    def site_pc(self, s: Any, n: int, key: Any = None) -> int:
        """The first of ``n`` consecutive pcs of a pause site (statement ``s``, or ``key``)."""
        key = (self.ikey, id(s) if key is None else key)
        pc = self.pcs.get(key)
        if pc is None:
            pc = self.pcs[key] = self.npc
            self.npc += n
        return pc

    def resume(self, pc: int, ctx: tuple, span: Any, prelude: list | None = None) -> None:
        """Make sure a block is written for entry ``pc``, continuing with ``ctx``."""
        if pc not in self.entries:
            self.entries[pc] = (BLOCK, f"r{self.frame}_{pc}", None, None, span)
            self.todo.append((pc, ctx, prelude or []))

    def inlining(self) -> set[int]:
        return {self.frame} | {r for _site, r in self.ikey}

    def inlines(self, s: m.CallS) -> bool:
        chain = self.inlining()
        return s.rule not in chain and len(chain) < MAX_INLINE_DEPTH

    def can_pause(self, body: Any) -> bool:
        """Whether the code of these statements may leave its block (a pause, a call, a trigger)."""
        for s in body:
            t = type(s)
            if unasked.idle(self, s):  # an ask of nobody, an if or a loop that does nothing: no pause
                continue
            if t is m.MoveS:
                if s.query.quantity == "random" or self.move_triggers(s):
                    return True
            elif t is m.AssignS:
                if self.comp.trigger_for_counter.get(s.counter, ()):
                    return True
            elif t in (m.RollS, m.ShuffleS, m.AskS, m.ChooseS):
                return True
            elif t is m.SimpleS:
                if s.what in ("end turn", "end game", "pick first player at random", "end game with no winner"):
                    return True
            elif t is m.CallS:
                if not self.inlines(s):
                    return True
                saved = self.ikey
                self.ikey = self.ikey + ((id(s), s.rule),)
                try:
                    if self.can_pause(self.model.rules[s.rule].body):
                        return True
                finally:
                    self.ikey = saved
            elif t is m.IfS:
                if any(self.can_pause(b) for _c, b in s.branches) or (s.orelse and self.can_pause(s.orelse)):
                    return True
            elif t in (m.WhileS, m.RepeatS, m.ForS):
                if self.can_pause(s.body):
                    return True
            elif t not in (m.LetS, m.SayS, m.GiveTurnS, m.RevealS, m.DropS):  # (a drop out never leaves)
                return True  # a statement the generator does not know: assume it may
        return False

    def emit_ctx(self, L: list, ctx: tuple, ind: int) -> bool:
        """Write what comes after (a continuation): always ends in a return."""
        if ctx[0] == "ret":
            L.append((ind, "st.stack.pop()", None))
            if steps.TURN_CHAINED and self.frame == self.model.turn_rule:
                steps.turn_chained(self.model, L, ind)
            L.append((ind, "return left", None))
            return True
        saved = (self.off, self.ikey)
        self.off, self.ikey = ctx[3], ctx[4]
        hidden = self.hide_lets()  # what follows a sequence reads its lets from loc
        try:
            if ctx[0] == "seq":
                return self.emit_seq(L, ctx[1], ctx[2], ctx[5], True, ind)
            self.emit_loop(L, ctx[1], ctx[5], ind, init=False)
            return self.emit_ctx(L, ctx[5], ind)
        finally:
            self.off, self.ikey = saved
            self.show_lets(hidden)

    def emit_seq(self, L: list, seq: tuple, j: int, ctx: tuple, tail: bool, ind: int) -> bool:
        fused = -1
        kept: list[int] = []  # the slots of lets read from their Python variables by the rest of the sequence
        try:
            for idx in range(j, len(seq)):
                if idx == fused:  # the second of two moves written as one pass
                    continue
                if idx + 1 < len(seq) and self.fusible_moves(seq[idx], seq[idx + 1]):
                    fused = idx + 1
                    after = ("seq", seq, idx + 2, self.off, self.ikey, ctx)
                    if self.emit_fused_moves(L, seq[idx], seq[idx + 1], after, ind):
                        return True
                    continue
                if type(seq[idx]) is m.LetS and self.let_local(L, seq, idx, ind, kept):
                    continue
                after = ("seq", seq, idx + 1, self.off, self.ikey, ctx)
                if self.emit_stmt(L, seq[idx], after, ind):
                    return True
        finally:
            self.forget_lets(kept)
        if tail:
            return self.emit_ctx(L, ctx, ind)
        return False

    def pause(self, L: list, pc: int, ind: int) -> bool:
        L.append((ind, f"fr[1] = {pc}", None))
        L.append((ind, "return left", None))
        return True

    def stored(self, e: Any, span: Any) -> str:
        """Source of a value kept in the state (a ``let``, a rule's argument): numbers and texts are bounded."""
        x = self.ex(e)
        if e.type == m.INT:
            if type(e) is m.Const and type(e.value) is int and not too_big(e.value):  # a number written there
                return x
            if spills.BOUNDED_PARAMS and type(e) is m.Local and self.bounded_param(e.slot):
                return x
            return self.bound(x, span)
        if e.type == m.STR:
            return f"bounded_text({x}, {self.const(span)})"
        return x

    def bounded_param(self, slot: int) -> bool:
        """Whether local ``slot`` of the rule written here holds a number bounded already: a rule's arguments
        are bounded when it is called (``stored``), a ``let`` bounds what it stores and a range from a number
        to a count has whole numbers within the bound only, so a parameter, or a local bound by these only,
        that nothing else binds in the rule's body is."""
        rule = self.model.rules[self.ikey[-1][1] if self.ikey else self.frame]
        if rule.kind != "rule":
            return False
        if slot < len(rule.params):
            return not spills.binds_but_let(rule.body, slot)
        return spills.binds_but_let(rule.body, slot) and not spills.binds_but_let(rule.body, slot, self.counted_range)

    def counted_range(self, it: m.IterIR) -> bool:
        """Whether a ``for`` (or an option's) ranges over whole numbers sure to be within the bound: from a
        number to a number or a count (each bounded, see ``int_bound``)."""
        if it.kind != "range":
            return False
        low, high = self.int_bound(it.low), self.int_bound(it.high)
        return low is not None and high is not None and max(low, high) <= MAX_NUMBER

    def budget(self, L: list, ind: int, span: Any) -> None:
        L.append((ind, "left -= 1", span))
        L.append((ind, "if left < 0:", span))
        L.append((ind + 1, "runaway()", span))

    def rule_blocks(self, rule: m.Rule) -> tuple[list, int]:
        """Write every block of one rule run as its own frame."""
        self.frame = rule.index
        self.npc = 1
        self.pcs: dict[Any, int] = {}
        self.entries: dict[int, tuple] = {}
        self.todo: list = []
        self.nloc = rule.nlocals
        self.slots: dict[Any, int] = {}
        self.off, self.ikey = 0, ()
        self.kept_plans: dict[int, Any] = {}  # pc of a choice -> its kept.Plan (see kept.py)
        self.kept_entries: dict[int, tuple[int, int]] = {}  # pc of an option's block -> (pc of its choice, option)
        prelude: list = []
        self.cov(("rule", rule.index), 1, prelude)
        self.resume(0, ("seq", rule.body, 0, 0, (), ("ret",)), rule.span, prelude)
        while self.todo:
            pc, ctx, pre = self.todo.pop(0)
            self.nsoft = 0
            lines = list(pre)
            # an option's block of a choice that keeps options: the first listing of that choice in it (the next
            # decision, the way back straight) reads what the decision before kept (``kp``, see kept.py)
            self.kept_block = self.kept_entries.get(pc)
            self.emit_ctx(lines, ctx, 1)
            self.kept_block = None
            args = "st, loc, fr, left, kp=None" if pc in self.kept_entries else "st, loc, fr, left"
            self.function(f"r{rule.index}_{pc}", args, lines)
        return [self.entries[pc] for pc in range(self.npc)], self.nloc

    def function(self, name: str, args: str, lines: list) -> None:
        self.written += len(lines)
        if self.written > expansion.MAX_GENERATED_LINES:  # stop early: the time to write and compile grows with it
            raise expansion.generated_too_much(self.model, self.frame)
        body = [(0, f"def {name}({args}):", None)]
        lines = truth_tests(zone_locals(seats_once(lines), 1))
        body += prologue(lines, 1)
        body += lines
        self.blocks.append(body)

    def driver(self) -> None:
        """The driver: setup once, then turns forever (a turn, then the next player)."""
        model = self.model
        d = len(model.rules)
        self.code.append([(BLOCK, f"r{d}_{pc}", None, None, None) for pc in range(3)])
        self.nlocals.append(0)
        advance = tuple(i for i, t in enumerate(model.triggers) if t.reads_current and not t.after_step)
        after_step = tuple(i for i, t in enumerate(model.triggers) if t.after_step)
        if after_step:
            self.check_fn(after_step)  # the engine checks these whenever play would wait for a decision
        turn = model.rules[model.turn_rule].span if model.rules else None  # a runaway of turns points here
        self.function(f"r{d}_0", "st, loc, fr, left", [
            (1, "left -= 1", None), (1, "if left < 0:", None), (2, "runaway()", None),
            (1, "fr[1] = 1", None),
            (1, f"st.stack.append([{model.setup_rule}, 0, [None] * NL[{model.setup_rule}]])", None),
            (1, "return left", None)])
        start = self.turn_start(model)
        self.function(f"r{d}_1", "st, loc, fr, left", control.first_turn() + start)
        lines = [
            (1, "if st.extra_turn:", None), (2, "st.extra_turn = False", None),
            (1, "elif st.next_player >= 0:", None), (2, "st.current = st.next_player", None),
            (2, "st.next_player = -1", None),
            (1, "else:", None), (2, "st.current = (st.current + 1) % st.players", None),
            *rounds.driver_lines(model),
            (1, "fr[1] = 1", None),
            (1, "left -= 1", None), (1, "if left < 0:", None),
            (2, f"runaway({self.const('turns')}, {self.const(turn)})", turn)]
        if advance:
            chk = f"{self.check_fn(advance)}(st)"
            guard = self.check_guard(advance, None)  # (called only when a condition now differs from its flag)
            lines.append((1, f"if {chk if guard is None else f'{guard} and {chk}'}:", None))
            lines.append((2, "left -= 1", None))
            lines.append((2, "return left", None))  # the trigger's rule runs first
        lines += start  # no pause between one turn's end and the next one's start: one block
        if steps.LEAN_DRIVER:
            lines = steps.lean_driver(model, lines)
        self.function(f"r{d}_2", "st, loc, fr, left", lines)
        alltrig = tuple(range(len(model.triggers)))
        each = self.const(tuple(t.each for t in model.triggers))
        arm = [(1, f"st.armed = [[False] * st.players if each else False for each in {each}]", None)]
        arm.append((1, f"return {self.check_fn(alltrig)}(st)" if alltrig else "return False", None))
        self.helper("arm", "st", arm)

    def turn_start(self, model: m.Model) -> list:
        """The driver's start of a turn: count it, push the turn rule and run its first block at once
        (unless armed triggers fired first: then they run first, from the engine's loop)."""
        t = model.turn_rule
        entry = self.code[t][0] if t < len(self.code) and self.code[t] else None
        lines = [
            (1, "if st.pause_at_turn:", None), (2, "st.pause_at_turn = False", None), (2, f"return {STOP}", None),
            (1, "fr[1] = 2", None), (1, "st.turn += 1", None),
            (1, "if st.log is not None:", None),
            (2, "st.log.append({'type': 'round', 'round': st.turn})" if model.rounds else
             "st.log.append({'type': 'turn', 'turn': st.turn, 'player': PL(st.current)})", None),
            (1, f"_turn0 = [{t}, 0, [None] * {self.nlocals[t] if steps.LEAN_DRIVER else f'NL[{t}]'}]", None),
            (1, "st.stack.append(_turn0)", None),
            (1, "if st.armed is None and arm(st):", None), (2, "left -= 1", None), (2, "return left", None)]
        if entry is not None and entry[0] == BLOCK:  # left >= 0 here: the engine's loop would run it next
            lines.append((1, f"return {entry[1]}(st, _turn0[2], _turn0, left)", None))
        else:
            lines.append((1, "return left", None))
        return lines

    def standings(self) -> None:
        """Ranking keys and score sheet lines, pure defines computed once per arguments in one standings."""
        self.memo = {}
        self.off = 0
        model = self.model
        self.memo_once = standings.evaluated_once(model)
        self.seat_kept, self.helper_counts = standings.seat_kept(model), {}
        self.seat_counts = ("", {}) if self.seat_kept else None  # (the standings function sets its own)
        self.counted_often = queries.counted_zones(
            [e for _d, e in model.ranking.keys] + [e for sheet in model.sheets for _label, e in sheet.lines]
            + ([model.payoff.expr] if model.payoff is not None else []), model.zones)
        self.rank_fns = []
        for k, (_direction, e) in enumerate(model.ranking.keys):
            self.helper(f"rk{k}", "st, loc", [(1, f"return {self.ex(e)}", model.ranking.span)])
            self.rank_fns.append(f"rk{k}")
        self.sheet_fns = []
        for n, sheet in enumerate(model.sheets):
            names = []
            for i, (_label, e) in enumerate(sheet.lines):
                self.helper(f"sh{n}_{i}", "st, loc", [(1, f"return {self.ex(e)}", sheet.span)])
                names.append(f"sh{n}_{i}")
            self.sheet_fns.append(names)
        self.stand_fn = standings.standings_fn(self, model)
        self.pay_fn = None
        if model.payoff is not None:
            self.helper("pay", "st, loc", [(1, f"return {self.ex(model.payoff.expr)}", model.payoff.spec.span)])
            self.pay_fn = "pay"
        # Only the memos filled since the last reset are cleared (a game may have hundreds).
        self.helper("reset_memo", "", [(1, "for memo in DIRTY:", None), (2, "memo.clear()", None),
                                       (1, "DIRTY.clear()", None)])
        self.memo = self.memo_once = self.seat_counts = None
        self.seat_kept, self.helper_counts = False, {}
        for i, counter in enumerate(model.counters):
            self.helper(f"ci{i}", "st, loc", [(1, f"return {self.ex(counter.init)}", counter.span)])

