"""Checked model -> Python source: each stretch of a rule between two pause points is one function.

The engine's continuation stays plain data: frames ``[rule, pc, locals]``. Here ``pc``
numbers the *entry points* of a rule: where it starts, where play resumes after a
decision, a call or a trigger, the start of each ``choose`` option and its end. For
every entry point that is not a decision the generator writes one function (a block)
``block(st, loc, fr, left) -> left`` that runs the rule from there to the next pause:
it sets ``fr[1]`` to where play resumes, pushes or pops frames as the rule calls or
returns, and returns the step budget left (negative: stop the driver). A decision's
pc holds the decision itself, an instruction tuple ``(op, spec, b, c, span)`` the
engine reads (see program.py).

Safety: the source is built from the checked model only. User values (texts, numbers
of other types, tables) enter it only as constants: ints, bools and None by ``repr``,
everything else through names of a constants table the compiler chooses
(``k0, k1, ...``). No identifier of a rules file ever becomes a Python name.

What a decision reads (labels, conditions, ranges, zones, draws' filters) is written by the
same expression writer, as small functions of the module (see labels.py).
"""

from __future__ import annotations

import bisect
import collections
import itertools
import linecache
import re
from collections.abc import Callable
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import budget_emit, expansion, label_proof, membership, races, runtime
from rulelang.compile.analysis import MAX_INLINE_DEPTH, Analysis, conjuncts, fold, kind_count_pattern, never_negative
from rulelang.compile.analysis import is_count as _is_count
from rulelang.compile.analysis import reads_slots as _reads_slots
from rulelang.compile.analysis import same as _same
from rulelang.compile.analysis import sheet_total as _sheet_total
from rulelang.compile.analysis import slots_read as _slots_read
from rulelang.compile.analysis import whole_valued as _whole
from rulelang.compile.exprs import ExprWriter
from rulelang.compile.labels import label_parser, resolve
from rulelang.compile.linetable import LineTable
from rulelang.compile.program import (
    ASK,
    BLOCK,
    CHOOSE,
    DRAW,
    RANDFIRST,
    ROLL,
    SHUFFLE,
    AskSpec,
    ChooseSpec,
    Construct,
    DrawSpec,
    Program,
)
from rulelang.compile.source_text import cannot_fail, inline_single_piles, last_n, owned_piles
from rulelang.compile.source_text import prologue as _prologue
from rulelang.errors import RulelangError
from rulelang.numbers import MAX_NUMBER, too_big
from rulelang.rng import Rng

SOFT_LIMIT = 6  # trigger checks run inline in one block before the rest moves to its own block
STOP, END = -1, -2  # what a block returns to stop the driver: paused at a turn, game over
ENGINE_NAMES = ("pick_option", "bad_option", "bad_answer", "BUDGET")  # see load()
CHAIN = 32  # at most this many decisions taken in blocks run one inside the other (see CodeGen.taken)
TAKEN = -3  # what a block returns when it took a decision itself: the driver goes on with a new step budget


@attrs.define
class Generated:
    """The generated module of one game, with what the engine needs to run it."""

    source: str
    filename: str
    lines: LineTable
    constants: dict[str, Any]
    code: list[list[Any]]  # per frame rule, per pc: a decision tuple, or (BLOCK, block name, None, None, span)
    nlocals: list[int]
    checks: dict[tuple[int, ...], str]  # triggers to check -> generated function name
    enums: dict[int, str]  # id of a ChooseSpec -> name of its generated option enumerator
    fallbacks: collections.Counter  # node kind -> sites compiled by a closure builder
    constructs: list[Construct]
    fallback_runs: list[int]  # per fallback kind index (see fallback_kinds): how often it ran
    fallback_kinds: list[str]
    rank_fns: list[str]
    sheet_fns: list[list[str]]
    ncounters: int
    code_object: Any = None
    pickers: dict[int, str] = attrs.field(factory=dict)  # id of a ChooseSpec -> its lazy enumerator (see pick)
    members: dict[int, tuple] = attrs.field(factory=dict)  # id of a ChooseSpec -> its membership tests (see member)
    pay_fn: str | None = None  # the declared payoff of a player (the player in loc[0]), if the game declares one


class CodeGen(ExprWriter):
    """Writes the Python module of one checked model: statements, blocks, triggers, standings."""

    # ------------------------------------------------------------------ statements
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

    def move_triggers(self, s: m.MoveS) -> tuple[int, ...]:
        return self.comp.triggers_for({z.zone for z in s.query.zones} | {s.dest.zone})

    def emit_ctx(self, L: list, ctx: tuple, ind: int) -> bool:
        """Write what comes after (a continuation): always ends in a return."""
        if ctx[0] == "ret":
            L.append((ind, "st.stack.pop()", None))
            L.append((ind, "return left", None))
            return True
        saved = (self.off, self.ikey)
        self.off, self.ikey = ctx[3], ctx[4]
        try:
            if ctx[0] == "seq":
                return self.emit_seq(L, ctx[1], ctx[2], ctx[5], True, ind)
            self.emit_loop(L, ctx[1], ctx[5], ind, init=False)
            return self.emit_ctx(L, ctx[5], ind)
        finally:
            self.off, self.ikey = saved

    def emit_seq(self, L: list, seq: tuple, j: int, ctx: tuple, tail: bool, ind: int) -> bool:
        fused = -1
        for idx in range(j, len(seq)):
            if idx == fused:  # the second of two moves written as one pass
                continue
            if idx + 1 < len(seq) and self.fusible_moves(seq[idx], seq[idx + 1]):
                fused = idx + 1
                after = ("seq", seq, idx + 2, self.off, self.ikey, ctx)
                if self.emit_fused_moves(L, seq[idx], seq[idx + 1], after, ind):
                    return True
                continue
            after = ("seq", seq, idx + 1, self.off, self.ikey, ctx)
            if self.emit_stmt(L, seq[idx], after, ind):
                return True
        if tail:
            return self.emit_ctx(L, ctx, ind)
        return False

    def pause(self, L: list, pc: int, ind: int) -> bool:
        L.append((ind, f"fr[1] = {pc}", None))
        L.append((ind, "return left", None))
        return True

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

    def stored(self, e: Any, span: Any) -> str:
        """Source of a value kept in the state (a ``let``, a rule's argument): numbers and texts are bounded."""
        x = self.ex(e)
        if e.type == m.INT:
            if type(e) is m.Const and type(e.value) is int and not too_big(e.value):  # a number written there
                return x
            return f"bounded({x}, {self.const(span)})"
        if e.type == m.STR:
            return f"bounded_text({x}, {self.const(span)})"
        return x

    def budget(self, L: list, ind: int, span: Any) -> None:
        L.append((ind, "left -= 1", span))
        L.append((ind, "if left < 0:", span))
        L.append((ind + 1, "runaway()", span))

    def emit_stmt(self, L: list, s: Any, after: tuple, ind: int) -> bool:  # noqa: C901
        """Write one statement; True when it ends its block on every path."""
        t = type(s)
        sp = getattr(s, "span", None)
        if t is m.MoveS:
            if s.query.quantity == "random":
                return self.emit_draw(L, s, after, ind)
            self.emit_move(L, s, ind)
            which = self.move_triggers(s)
            owners = self.changed_owners(which, [*s.query.zones, s.dest])
            return self.soft(L, which, after, sp, ind, owners) if which else False
        if t is m.AssignS:
            who = self.emit_assign(L, s, ind)
            which = self.comp.trigger_for_counter.get(s.counter, ())
            owners = None
            watched = [self.model.triggers[t] for t in which if self.model.triggers[t].each]
            if who is not None and self.model.counters[s.counter].per_player and watched \
                    and all(_owner_local(trig) for trig in watched):
                owners = [who]
            return self.soft(L, which, after, sp, ind, owners) if which else False
        if t is m.LetS:
            L.append((ind, f"loc[{s.slot + self.off}] = {self.stored(s.value, sp)}", sp))
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
            where = names[0] if len(names) == 1 else f"', '.join(({', '.join(names)},))"
            kinds = self.model.kinds
            remembered = self.table([self.comp.labels[c] if self.is_die[c] else kinds[k].name
                                     for c, k in enumerate(self.kind_of)], "rm")
            L.append((ind, f"reveal(st, {p}, {picked}, {where}, LB, {remembered})", sp))
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
        if t in races.EMITTERS:
            return races.EMITTERS[t](self, L, s, after, ind)
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
                            if a in self.cse_ids:
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
                    if stays and all(races.slot_unread(L[bind + 1:], slot) for slot in params):
                        # a body that never leaves the block reads its arguments from their variables only
                        L[bind] = (ind, f"{names}= {', '.join(args)},", sp)
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
        if t in budget_emit.STATEMENTS:
            return budget_emit.emit(self, L, s, after, ind)
        return self.emit_fallback_stmt(L, s, after, ind)

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
                    if init:
                        L.append((ind, f"{seq} = {lst} = {self.iterable(s.iterable)}", sp))
                        L.append((ind, f"{idx} = 0", sp))
                    else:
                        L.append((ind, f"{seq} = {lst}", sp))
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
                L.append((ind, f"for {v} in {self.iterable(s.iterable, copy=not fixed)}:", sp))
                store = len(L)
                L.append((ind + 1, f"{var} = {v}", sp))
                if not _binds_slot(s.body, s.var):  # the body reads the value from its Python variable
                    slot = self.body_from_var(L, s, v, end, ind, sp)
                    if races.slot_unread(L[store + 1:], slot):  # nothing reads the value from loc: not stored there
                        del L[store]
                    return
        self.budget(L, ind + 1, sp)
        self.emit_seq(L, s.body, 0, end, False, ind + 1)

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

    def emit_fallback_stmt(self, L: list, s: Any, after: tuple, ind: int) -> bool:
        """A statement kind the generator does not know: a compiler bug, never a silent slow path."""
        raise AssertionError(f"the generator cannot translate {type(s).__name__}")  # pragma: no cover

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
            who = self.var("w")
            L.append((ind, f"{who} = {self.seat_ex(s.owner, f'a {counter.name!r}', sp)}", sp))
            cell = f"C[{i}][{who}]"
        if plain:
            L.append((ind, f"{cell} = {self.ex(s.value)}", sp))
            return None if s.owner is None else who
        L.append((ind, f"{old} = {cell}", sp))
        value = {"+=": f"{old} + {v}", "-=": f"{old} - {v}"}.get(s.op, v)
        if counter.type in (m.INT, m.STR):  # a number kept in the state is bounded
            value = f"{'bounded' if counter.type == m.INT else 'bounded_text'}({value}, {self.const(sp)})"
        L.append((ind, f"{new} = {cell} = {value}", sp))
        if counter.doc is not None:
            secret = self.const(counter.visibility) if counter.visibility != "public" else "None"
            L.append((ind, f"if st.log is not None and {new} != {old}:", sp))
            L.append((ind + 1, f"log_counter(st.log, {self.const(counter.name)}, {who}, {old}, {new}, "
                               f"{counter.type == m.PLAYER}, {secret})", sp))
        return None if s.owner is None else who

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
        dz = self.model.zones[s.dest.zone]
        d, mv, lg, came = self.var("d"), self.var("mv"), self.var("lg"), self.var("came")
        c = self.var("c")
        how, src = self.filter(q, c)
        limited = q.quantity == "count" and (q.count is not None or q.count_expr is not None)
        one = None
        if self.unique_kinds and not limited and q.kinds is None and q.where is None and not q.exclude \
                and len(q.kind_locals) == 1:  # 'move k from ...': the one component of kind k, if any
            one = self.var("one")
            if "KC" not in self.consts:
                self.consts["KC"] = {k: i for i, k in enumerate(self.kind_of)}
            L.append((ind, f"{one} = KC.get({self.local(q.kind_locals[0])}, -1)", sp))
        if len(q.zones) == 1:
            return self.emit_move_one(L, s, ind, how, src, c, limited, one)
        L.append((ind, f"{d} = {self.zone(s.dest)}", sp))
        L.append((ind, f"{lg} = st.log", sp))
        L.append((ind, f"if {lg} is not None:", sp))
        L.append((ind + 1, f"{came} = []", sp))
        L.append((ind, f"{mv} = []", sp))
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
                               ind, sp, one, ids=None if self.model.zones[sel.zone].ordered else span)
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
                           ind, sp, one)
        L.append((ind, f"if {mv}:", sp))
        if dz.unrolled:
            L.append((ind + 1, f"for {c} in {mv}:", sp))
            L.append((ind + 2, f"F[{c}] = -1", sp))
        self.put(L, dz, s.place, d, mv, ind + 1, sp)
        L.append((ind + 1, f"if {lg} is not None:", sp))
        L.append((ind + 2, f"log_move({lg}, LB, {mv}, {came}, {self.zone_name(s.dest)})", sp))

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
        return _same(src, b.query.zones[0]) and len({src.zone, a.dest.zone, b.dest.zone}) == 3 \
            and not self.move_triggers(a)

    def emit_fused_moves(self, L: list, a: m.MoveS, b: m.MoveS, after: tuple, ind: int) -> bool:
        """Two moves out of one zone (see ``fusible_moves``) in one pass over it: the first move's
        components, then the second's, put and narrated in that order; the second's trigger checks after."""
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

    def id_span(self, q: m.QueryIR) -> tuple[str, str] | None:
        """Sources of (lowest, highest) id when the components a query's filter passes are exactly a
        run of consecutive ids, whatever their faces (components are numbered kind by kind): the
        kinds of a fixed run, or one kind held in a local; else None."""
        if q.kind_locals:
            if len(q.kind_locals) != 1 or q.kinds is not None or q.where is not None or q.exclude:
                return None
            self.kind_spans()
            kind = self.local(q.kind_locals[0])
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
        span = self.id_span(q) if one and not self.model.zones[q.zones[0].zone].ordered else None
        if span is not None:  # the top one of a run of ids in a zone kept sorted: found by bisection
            i = self.var("i")
            self.consts["bisect_right"] = bisect.bisect_right
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{i} = bisect_right({z}, {span[1]}) - 1", sp))
            L.append((ind + 1, f"{t} = [{z}.pop({i})] if {i} >= 0 and {z}[{i}] >= {span[0]} else []", sp))
            keep = None
        elif one:  # the top one that passes the test: looked for from the top, taken out by value
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
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
                keep = self.take(L, z, d, t, how, test, c, need, ind, sp, sought, ids=sorted_ids)
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

    def move_top_one(self, L: list, s: m.MoveS, d: str, z: str, c: str, ind: int) -> None:
        """``move 1 from ZONE to ZONE``: the top component, popped and put without a list of one
        (as the top ``need`` of every component with ``need`` 1, see ``take`` and ``put``)."""
        sp = s.span
        q = s.query
        dz = self.model.zones[s.dest.zone]
        L.append((ind, f"{z} = {self.zone(q.zones[0])}", sp))  # (the caller found the destination ``d``)
        L.append((ind, f"if {z} and {z} is not {d}:", sp))
        L.append((ind + 1, f"{c} = {z}.pop()", sp))
        if not dz.ordered:
            L.append((ind + 1, f"insort({d}, {c})", sp))
        elif s.place == "bottom":
            L.append((ind + 1, f"{d}.insert(0, {c})", sp))
        else:
            L.append((ind + 1, f"{d}.append({c})", sp))
        L.append((ind + 1, "if st.log is not None:", sp))
        L.append((ind + 2, f"log_move(st.log, LB, [{c}], [{self.zone_name(q.zones[0])}], {self.zone_name(s.dest)})",
                  sp))

    def emit_shuffle(self, L: list, s: m.ShuffleS, pc: int, ind: int) -> bool:
        """Shuffle a zone: while the engine's pickers play with a chance stream and nothing records
        or narrates, at once, as ``Engine._chance`` would (the same draws, the same step and budget);
        else pause at ``pc``. A zone that triggers watch, or triggers after each step, always pause."""
        sp = s.span
        if self.entries[pc][3] or self.after_step_triggers:
            return self.pause(L, pc, ind)
        self.consts["shuffle_zone"] = runtime.shuffle_zone
        src, rng, P = self.var("src"), self.var("rng"), self.var("pk")
        L.append((ind, f"{src} = {self.zone(s.zone)}", sp))
        L.append((ind, f"if len({src}) > 1:", sp))  # fewer than two: nothing to shuffle, no step
        L.append((ind + 1, f"{rng} = st.chance_rng", sp))
        L.append((ind + 1, f"{P} = st.picking", sp))
        L.append((ind + 1, f"if {rng} is None or {P} is None or st.step >= {P}[1] or st.log is not None "
                           "or st.chance_events is not None:", sp))
        self.pause(L, pc, ind + 2)
        if len(set(self.comp.kind_of)) == len(self.comp.kind_of):  # each component a kind of its own
            L.append((ind + 1, f"{rng}.shuffle({src})", sp))  # (what shuffle_zone comes to then)
        else:
            L.append((ind + 1, f"shuffle_zone({rng}, {src}, KO)", sp))
        L.append((ind + 1, "st.step += 1", sp))
        L.append((ind + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((ind + 1, "left = BUDGET", sp))  # a decision was taken: as the engine's loop resets it
        return False

    def emit_roll(self, L: list, s: m.RollS, after: tuple, ind: int) -> bool:
        """Roll dice: while playing with a chance stream, at once (one trace event per die); else pause."""
        sp = s.span
        lst = self.alloc((id(s), "roll"), 2)
        c = self.var("c")
        if all(self.is_die):  # every component is a die: the selection is the dice (a list of their own)
            L.append((ind, f"loc[{lst}] = {self.selection(s.query)}", sp))
        else:
            L.append((ind, f"loc[{lst}] = [{c} for {c} in {self.selection(s.query, copy=False)} if ISDIE[{c}]]", sp))
        L.append((ind, f"loc[{lst + 1}] = 0", sp))
        pc = self.site_pc(s, 2)
        which = self.comp.triggers_for({z.zone for z in s.query.zones})
        self.entries.setdefault(pc, (ROLL, lst, lst + 1, which, sp))
        self.check_fn(which)
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT or self.after_step_triggers:
            # (with triggers ``after each step``, the engine checks them at every chance decision first)
            return self.pause(L, pc, ind)
        rng, die, face, ev = self.var("rng"), self.var("die"), self.var("face"), self.var("ev")
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"{ev} = st.chance_events", sp))
        L.append((ind, "F = st.faces", sp))
        if not which:
            L.append((ind, f"if {ev} is None and st.log is None:", sp))
            L.append((ind + 1, f"{rng}.roll_into(loc[{lst}], DF, F)", sp))  # the draws of rng.below, inlined
            L.append((ind + 1, f"st.step += len(loc[{lst}])", sp))
            L.append((ind + 1, f"loc[{lst + 1}] = len(loc[{lst}])", sp))
            L.append((ind, "else:", sp))
            ind += 1
        L.append((ind, f"for {die} in loc[{lst}]:", sp))
        L.append((ind + 1, f"{face} = DF[{die}]", sp))
        L.append((ind + 1, f"{face} = {face}[{rng}.below(len({face}))]", sp))
        L.append((ind + 1, "st.step += 1", sp))
        L.append((ind + 1, f"if {ev} is not None:", sp))
        L.append((ind + 2, f"{ev}.append({{'type': 'chance', 'step': st.step, 'roll': LB[{die}], "
                           f"'outcome': FN[{face}]}})", sp))
        L.append((ind + 1, f"F[{die}] = {face}", sp))
        L.append((ind + 1, "if st.log is not None:", sp))
        spins = [k.cls != "die" and bool(k.faces) for k in self.model.kinds]
        verb = f", **SPIN[KO[{die}]]" if any(spins) else ""  # a sided component (a coin, a disc) spins
        self.consts["SPIN"] = [{"verb": "spin"} if x else {} for x in spins]
        L.append((ind + 2, f"st.log.append({{'type': 'roll', 'component': LB[{die}], 'face': FD[{face}], "
                           f"'places': [place_of(st, {die})]{verb}}})", sp))
        L.append((ind + 1, f"loc[{lst + 1}] += 1", sp))
        if which:
            L.append((ind + 1, f"if {self.check_fn(which)}(st):", sp))
            L.append((ind + 2, f"fr[1] = {pc} if loc[{lst + 1}] < len(loc[{lst}]) else {pc + 1}", sp))
            L.append((ind + 2, "return left", sp))
        return False

    def move_count(self, q: m.Query) -> str:
        """How many components a ``move N ...`` takes: its number, or its expression made whole and >= 0."""
        if q.count_expr is None:
            return repr(q.count)
        if _whole(q.count_expr):  # a whole number already
            return f"max(0, {self.ex(q.count_expr)})"
        return f"max(0, whole({self.ex(q.count_expr)}, {self.const(q.span)}, {self.const('how many to move')}))"

    def take(self, L: list, z: str, d: str, t: str, how: str, test: str | None, c: str, need: str | None, ind: int,
             sp: Any, one: str | None = None, ids: tuple[str, str] | None = None) -> str | None:
        """Take out of source list ``z`` into a new list ``t``: every component (``how`` "all") or those
        passing ``test`` (about ``c``), or the top ``need`` of them; only when ``z`` has any and is not
        the destination ``d`` (the taking lines are indented under that test). With a ``test`` and no
        ``need``, ``z`` keeps what it held: the caller sets it to the list of the others, whose name
        is returned (one pass over ``z`` sorts its components into both lists). With ``ids`` (sources of
        the lowest and highest id, see ``id_span``) the components passing the test are a run of ids
        and ``z`` is kept sorted: they are cut out of it as one slice.
        With ``one`` (the source of the only component that can pass the test, or -1), that component
        is looked for instead."""
        if need is None and one is not None and how != "all":
            L.append((ind, f"if {one} in {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{z}.remove({one})", sp))
            L.append((ind + 1, f"{t} = [{one}]", sp))
            return None
        if need is None and ids is not None:
            i, j = self.var("i"), self.var("j")
            self.consts["bisect_left"], self.consts["bisect_right"] = bisect.bisect_left, bisect.bisect_right
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{i} = bisect_left({z}, {ids[0]})", sp))
            L.append((ind + 1, f"{j} = bisect_right({z}, {ids[1]}, {i})", sp))
            L.append((ind + 1, f"{t} = {z}[{i}:{j}]", sp))
            L.append((ind + 1, f"del {z}[{i}:{j}]", sp))
            return None
        if need is None:
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
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
        L.append((ind, f"if {need} > 0 and {z} and {z} is not {d}:", sp))
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
                  ids: tuple[str, str] | None = None) -> None:
        """Take the matching components (or the top ``need`` of them) out of one source list ``z``."""
        if how == "all" and need is None:  # everything: the source's list is added, then emptied
            L.append((ind, f"if {z} and {z} is not {d}:", sp))
            L.append((ind + 1, f"{mv} += {z}", sp))
            L.append((ind + 1, f"{z}.clear()", sp))
            L.append((ind + 1, f"if {lg} is not None:", sp))
            L.append((ind + 2, f"{came}.append({name})", sp))
            return
        taken = self.var("t")
        test = f"{src}[{c}]" if how == "mask" else src
        keep = self.take(L, z, d, taken, how, test, c, need, ind, sp, one, ids=ids)
        if need is not None:
            L.append((ind + 1, f"{need} -= len({taken})", sp))
        L.append((ind + 1, f"if {taken}:", sp))
        if keep is not None:
            L.append((ind + 2, f"{z}[:] = {keep}", sp))
        L.append((ind + 2, f"{mv} += {taken}", sp))
        L.append((ind + 2, f"if {lg} is not None:", sp))
        L.append((ind + 3, f"{came}.append({name})", sp))

    def emit_draw(self, L: list, s: m.MoveS, after: tuple, ind: int) -> bool:
        sp = s.span
        q = s.query
        sel = q.zones[0]
        slot = self.alloc((id(s), "draw"), 1)
        qs = self.const(q.span)
        n = repr(q.count or 1) if q.count_expr is None else \
            f"whole(bounded({self.ex(q.count_expr)}, {qs}), {qs}, {self.const('how many to draw')})"
        L.append((ind, f"loc[{slot}] = {n}", sp))
        pc = self.site_pc(s, 2)
        if pc not in self.entries:
            dest_zone = self.model.zones[s.dest.zone]
            spec = DrawSpec(
                source=self.zone_fn(sel), pred=self.predicate_fn(q), dest=self.zone_fn(s.dest),
                dest_zone=dest_zone.index, place=s.place, remaining_slot=slot, source_zone=sel.zone,
                source_owner=self.expr_fn(sel.owner) if sel.owner is not None else None,
                source_name=self.zone_name_fn(sel), dest_name=self.zone_name_fn(s.dest),
            )
            put = self.insert_fn(dest_zone, s.place)
            which = self.comp.triggers_for({sel.zone, s.dest.zone})
            self.check_fn(which)
            self.entries[pc] = (DRAW, spec, put, which, sp)
        which = self.entries[pc][3]
        self.resume(pc + 1, after, sp)
        self.nsoft += 1
        if self.nsoft > SOFT_LIMIT or self.after_step_triggers:
            # (with triggers ``after each step``, the engine checks them at every chance decision first)
            return self.pause(L, pc, ind)
        # While playing with a chance stream: draw at once, as Engine.apply_random would.
        rng, src, kinds, k, c, i, ev = (self.var(x) for x in ("rng", "src", "kinds", "k", "c", "i", "ev"))
        how, test = self.filter(q, c)
        cond = "" if how == "all" else f"{test}[{c}]" if how == "mask" else test
        L.append((ind, f"{rng} = st.chance_rng", sp))
        L.append((ind, f"if {rng} is None:", sp))
        self.pause(L, pc, ind + 1)
        L.append((ind, f"while loc[{slot}] > 0:", sp))
        j = ind + 1
        L.append((j, f"{src} = {self.zone(sel)}", sp))
        if not cond:  # (see draw_any)
            self.draw_any(L, src, rng, k, c, i, j, sp)
        else:
            # The kinds of the components that may be drawn, one entry per component, in kind order: the
            # r-th entry is the kind rng.weighted(counts per kind) would give for below(total) = r.
            L.append((j, f"{kinds} = sorted([KO[{c}] for {c} in {src}{' if ' + cond if cond else ''}])", sp))
            L.append((j, f"if not {kinds}:", sp))
            L.append((j + 1, "break", sp))
            L.append((j, f"{k} = {kinds}[0] if {kinds}[0] == {kinds}[-1] else {rng}.one_of({kinds})", sp))
        L.append((j, "st.step += 1", sp))
        L.append((j, f"{ev} = st.chance_events", sp))
        L.append((j, f"if {ev} is not None:", sp))
        zname = self.const(self.model.zones[sel.zone].name)
        label = zname if sel.owner is None else f"{zname} + ' of ' + PL({self.ex(sel.owner)})"
        L.append((j + 1, f"{ev}.append({{'type': 'chance', 'step': st.step, 'draw': {label}, 'outcome': KN[{k}]}})",
                  sp))
        if not cond:
            L.append((j, f"{c} = {src}.pop(bisect_left({src}, KLO[{k}]))", sp))  # the first of its kind
        else:
            L.append((j, f"for {i}, {c} in enumerate({src}):", sp))
            L.append((j + 1, f"if KO[{c}] == {k}{' and ' + cond if cond else ''}:", sp))
            L.append((j + 2, "break", sp))
            L.append((j, f"{src}.pop({i})", sp))
        if self.model.zones[s.dest.zone].unrolled:
            L.append((j, f"st.faces[{c}] = -1", sp))
        d, one = self.var("d"), self.var("one")
        if not self.model.zones[s.dest.zone].ordered:
            L.append((j, f"insort({self.zone(s.dest)}, {c})", sp))
        else:
            L.append((j, f"{d} = {self.zone(s.dest)}", sp))
            L.append((j, f"{one} = [{c}]", sp))
            self.put(L, self.model.zones[s.dest.zone], s.place, d, one, j, sp)
        L.append((j, "if st.log is not None:", sp))
        fn, tn = self.var("fn"), self.var("tn")
        L.append((j + 1, f"{fn} = {self.zone_name(sel)}", sp))
        L.append((j + 1, f"{tn} = {self.zone_name(s.dest)}", sp))
        L.append((j + 1, f"st.log.append({{'type': 'move', 'components': [LB[{c}]], 'from': {fn}[0], 'to': {tn}[0], "
                         f"'random': True, 'places': [{fn}[1], {tn}[1]]}})", sp))
        L.append((j, f"loc[{slot}] -= 1", sp))
        if which:
            L.append((j, f"if {self.check_fn(which)}(st):", sp))
            self.pause(L, pc, j + 1)
        return False

    def draw_any(self, L: list, src: str, rng: str, k: str, c: str, i: str, j: int, sp: Any) -> None:
        """The kind of a random draw of any component of ``src`` (a zone a draw takes from is unordered,
        so kept sorted: its components' kinds are in kind order, each component an entry): the kind
        of the r-th component for ``pick(len)`` = r, which is what ``one_of`` over the sorted list of
        kinds draws, and no draw at all when the first and the last are of one kind."""
        self.kind_spans()
        self.consts["bisect_left"], self.consts["Rng"] = bisect.bisect_left, Rng
        L.append((j, f"if not {src}:", sp))
        L.append((j + 1, "break", sp))
        L.append((j, f"{k} = KO[{src}[0]]", sp))
        L.append((j, f"if {k} != KO[{src}[-1]]:", sp))
        L.append((j + 1, f"if type({rng}) is Rng:", sp))
        L.append((j + 2, f"{k} = KO[{src}[{rng}.pick(len({src}))]]", sp))
        L.append((j + 1, "else:  # (replay's stream answers the draw by its recorded kind)", sp))
        L.append((j + 2, f"{k} = {rng}.one_of([KO[{c}] for {c} in {src}])", sp))

    def reveal_where(self, sel: m.ZoneSel) -> str:
        """Source of the narration name of a zone a reveal looks at: a zone of each component of a kind
        named inline (its display name, a space, the component's label: as its namer names it),
        others by their namer."""
        zone = self.model.zones[sel.zone]
        if sel.owner is not None and zone.per_kind is not None and zone.per_class is None:
            return f"({self.const(zone.display + ' ')} + LB[{self.ex(sel.owner)}])"
        return f"{self.zone_name(sel)}[0]"

    def emit_ask(self, L: list, s: m.AskS, after: tuple, ind: int) -> bool:
        sp = s.span
        self.ask_in_loop = _in_loop(after)  # see nobody_asked
        var, slot = s.var + self.off, s.list_slot + self.off
        asked, p = self.var("a"), self.var("p")
        L.append((ind, "st.answers = [''] * st.players", sp))
        L.append((ind, f"{asked} = []", sp))
        if not s.dynamic and not self.after_step_triggers and not _reads_answers(s.options):
            self.ask_listed_once(L, s, var, slot, asked, ind)
        # Only gone through, and nothing in the loop changes who plays or the zones: no copy needed.
        L.append((ind, f"for {p} in {self.iterable(s.iterable, copy=False)}:", sp))
        if self.model.eliminates:  # a player who is out is not asked
            L.append((ind + 1, f"if st.out[{p}]:", sp))
            L.append((ind + 2, "continue", sp))
        L.append((ind + 1, f"loc[{var}] = {p}", sp))
        self.loop_vars[var] = p  # the tests written here read the player from its variable
        if never_negative(s.iterable):
            self.cse_ids.add(p)
        try:
            conds = [self.ex(c) if c is not None else "True" for _label, c, _span in s.options]
            cond = self.ex(s.cond) if s.cond is not None else None
        finally:
            del self.loop_vars[var]
        test = "(" + " or ".join(conds) + ")" if conds else "False"
        pc = self.site_pc(s, 2)
        if s.dynamic:  # answers per value: asked when any answer is allowed
            if pc not in self.entries:
                self.entries[pc] = (ASK, AskSpec(var, slot, [(label, None) for label, _c, _sp in s.options]),
                                    None, None, sp)
                with self.own_scope():
                    self.enums[id(self.entries[pc][1])] = races.ask_enumerator(self, s)
            test = f"{self.enums[id(self.entries[pc][1])]}(st, loc)"
            if races.always_answered(self, s):  # some answer, and listing them cannot fail: nothing to test
                test = "True"
        if cond is not None:
            test = f"{cond} and {test}"
        L.append((ind + 1, f"if {test}:", sp))
        L.append((ind + 2, f"{asked}.append({p})", sp))
        L.append((ind, f"loc[{slot}] = {asked}", sp))
        if pc not in self.entries:
            options = [(label, self.expr_fn(c) if c is not None else None) for label, c, _span in s.options]
            spec = AskSpec(var, slot, options)
            self.entries[pc] = (ASK, spec, None, None, sp)
            name = f"a{next(self.names)}"
            lines: list = [(1, "out = []", sp)]
            with self.own_scope():
                for label, c, span in s.options:
                    if c is None:
                        lines.append((1, f"out.append({self.const(label)})", span))
                    else:
                        lines.append((1, f"if {self.ex(c)}:", span))
                        lines.append((2, f"out.append({self.const(label)})", span))
                lines.append((1, "return out", sp))
                self.helper(name, "st, loc", lines)
            self.enums[id(spec)] = name
        self.resume(pc + 1, after, sp)
        if self.after_step_triggers:  # those are checked by the engine before each answer
            return self.pause(L, pc, ind)
        if s.dynamic and not _reads_answers((s.options, s.dynamic)) \
                and not _reads_slots((s.options, s.dynamic), {s.var, s.list_slot}):
            self.same_answers_at.add(pc)  # nothing the answers read changes while the players answer
        return self.pause_answers(L, pc, var, slot, asked, ind, sp)

    def ask_listed_once(self, L: list, s: m.AskS, var: int, slot: int, asked: str, ind: int) -> None:
        """While the engine's pickers pick by position: list each asked player's answers once, where
        the ask finds who is asked, and take the answers at once from those lists (see
        ``pause_answers``). The same players asked, the same answers listed (nothing an answer's
        condition reads changes between: it reads no answer), the same picks and locals."""
        sp = s.span
        pc = self.site_pc(s, 2)
        P, p, ok, lists, j, who, i, A = (self.var(x) for x in ("pk", "p", "ok", "ls", "j", "h", "i", "an"))
        L.append((ind, f"{P} = st.picking", sp))
        L.append((ind, f"if {P} is not None:", sp))  # (replay too: see pause_answers)
        at = ind + 1
        L.append((at, f"{lists} = []", sp))
        L.append((at, f"for {p} in {self.iterable(s.iterable, copy=False)}:", sp))
        if self.model.eliminates:  # a player who is out is not asked
            L.append((at + 1, f"if st.out[{p}]:", sp))
            L.append((at + 2, "continue", sp))
        L.append((at + 1, f"loc[{var}] = {p}", sp))
        self.loop_vars[var] = p  # the tests written here read the player from its variable (as emit_ask's)
        if never_negative(s.iterable):
            self.cse_ids.add(p)
        try:
            if s.cond is not None:
                L.append((at + 1, f"if not ({self.ex(s.cond)}):", sp))
                L.append((at + 2, "continue", sp))
            if not self.answers_by_table(L, s, ok, at + 1):
                L.append((at + 1, f"{ok} = []", sp))
                for label, c, span in s.options:  # as the ask's answer lister (emit_ask) lists them
                    if c is None:
                        L.append((at + 1, f"{ok}.append({self.const(label)})", span))
                    else:
                        L.append((at + 1, f"if {self.ex(c)}:", span))
                        L.append((at + 2, f"{ok}.append({self.const(label)})", span))
        finally:
            del self.loop_vars[var]
        some = any(c is None for _label, c, _span in s.options)  # an answer always allowed: never none
        if not some:
            L.append((at + 1, f"if {ok}:", sp))
        L.append((at + 2 - some, f"{asked}.append({p})", sp))
        L.append((at + 2 - some, f"{lists}.append({ok})", sp))
        L.append((at, f"loc[{slot}] = {asked}", sp))
        L.append((at, f"if not {asked}:", sp))  # no one is asked
        self.nobody_asked(L, pc, at + 1, sp)
        L.append((at, f"fr[1] = {pc}", sp))
        L.append((at, f"{A} = st.answers", sp))
        L.append((at, f"{j} = 0", sp))
        L.append((at, f"if len({P}) != 2:", sp))  # replay: each recorded answer found among those listed
        self.answer_each(L, at + 1, pc, sp, (P, A, who, ok, i), f"loc[{var}] = {asked}[{j}]",
                         [(0, f"{ok} = {lists}[{j}]"), (0, f"st.choice_cache = {ok}")],
                         [f"{j} += 1", f"loc[{slot}] = {asked}[{j}:]"], f"{j} == len({asked})")
        self.answer_listed(L, at, pc, sp, (P, A, who, ok, i, j, lists, asked), var, slot)

    def answer_listed(self, L: list, at: int, pc: int, sp: Any, names: tuple[str, ...], var: int,
                      slot: int) -> None:
        """``answer_each``'s loop for answers listed beforehand (``ask_listed_once``): the same picks,
        steps and state, but who is still waiting (``loc[slot]``) and the cleared decision caches are
        written once, when the loop is left (at the end, at the step limit or on an error), instead
        of after every answer: nothing in the loop reads them."""
        P, A, who, ok, i, j, lists, asked = names
        left_at = [(2, f"loc[{slot}] = {asked}[{j}:]"), (2, "st.pending_cache = st.choice_cache = None")]
        L.append((at, "try:", sp))
        b = at + 1
        L.append((b, "while True:", sp))
        L.append((b + 1, f"if st.step >= {P}[1]:", sp))
        L.append((b + 2, f"if {j}:", sp))
        L.extend((b + 1 + extra, line, sp) for extra, line in left_at)
        L.append((b + 2, "return left", sp))
        L.append((b + 1, f"{who} = loc[{var}] = {asked}[{j}]", sp))
        L.append((b + 1, f"{ok} = {lists}[{j}]", sp))
        L.append((b + 1, f"{i} = {P}[0][{who}](len({ok}))", sp))
        L.append((b + 1, f"if not 0 <= {i} < len({ok}):", sp))
        L.append((b + 2, f"bad_answer({i}, {self.const(sp)})", sp))
        L.append((b + 1, f"{A}[{who}] = {ok}[{i}]", sp))
        L.append((b + 1, f"{j} += 1", sp))
        L.append((b + 1, "st.step += 1", sp))
        L.append((b + 1, f"if {j} == len({asked}):", sp))
        L.append((b + 2, "break", sp))
        L.append((at, "except BaseException:", sp))  # left on an error: the state as after each answer
        L.append((b, f"if {j}:", sp))
        L.extend((b - 1 + extra, line, sp) for extra, line in left_at)
        L.append((b, "raise", sp))
        L.append((at, f"loc[{slot}] = []", sp))
        L.append((at, "st.pending_cache = st.choice_cache = None", sp))
        L.append((at, f"fr[1] = {pc + 1}", sp))
        self.taken(L, f"r{self.frame}_{pc + 1}", at, sp)

    def answers_by_table(self, L: list, s: m.AskS, ok: str, ind: int) -> bool:
        """For ``ask_listed_once``: when at most three answers have a condition, set ``ok`` to the
        answers allowed, as the ask's answer lister lists them, taken from a table of every outcome of
        those conditions (each tested once, in order: the same tests, the same errors), without
        building a list per player; False (nothing written) otherwise."""
        conds = [c for _label, c, _span in s.options if c is not None]
        if len(conds) > 3:
            return False
        outcomes = []
        for bits in range(1 << len(conds)):
            allowed, i = [], 0
            for label, c, _span in s.options:
                if c is None:
                    allowed.append(label)
                else:
                    if bits >> i & 1:
                        allowed.append(label)
                    i += 1
            outcomes.append(tuple(allowed))
        if len(conds) == 1:  # one test: one of two answer lists
            allowed, refused = (self.table(outcome, "at") for outcome in outcomes[::-1])
            L.append((ind, f"{ok} = {allowed} if {self.ex(conds[0])} else {refused}", s.span))
            return True
        table = self.table(outcomes, "at")
        at = " | ".join(f"({1 << i} if {self.ex(c)} else 0)" for i, c in enumerate(conds)) or "0"
        L.append((ind, f"{ok} = {table}[{at}]", s.span))
        return True

    def nobody_asked(self, L: list, pc: int, ind: int, sp: Any) -> None:
        """No one is asked at the ask at ``pc``: play goes on at ``pc + 1``, in its block called from
        here where the ask is in no loop (as the engine's loop would call it next, with nothing in
        between); in a loop, back through the engine (each pass would nest one call more)."""
        L.append((ind, f"fr[1] = {pc + 1}", sp))
        if self.ask_in_loop:
            L.append((ind, "return left", sp))
        else:
            L.append((ind, f"return r{self.frame}_{pc + 1}(st, loc, fr, left)", sp))

    def pause_answers(self, L: list, pc: int, var: int, slot: int, asked: str, ind: int, sp: Any) -> bool:
        """Pause at the ask at ``pc``; but while the engine's pickers pick by position (see
        ``pause_pick``), everyone asked answers here at once, in turn, as ``Engine._run`` takes them."""
        enum = self.enums[id(self.entries[pc][1])]
        P, W, A, who, ok, i = (self.var(x) for x in ("pk", "wt", "an", "h", "ok", "i"))
        L.append((ind, f"if not {asked}:", sp))  # no one is asked
        self.nobody_asked(L, pc, ind + 1, sp)
        L.append((ind, f"fr[1] = {pc}", sp))
        L.append((ind, f"{P} = st.picking", sp))
        L.append((ind, f"if {P} is None:", sp))
        L.append((ind + 1, "return left", sp))
        L.append((ind, f"{W} = {asked}", sp))
        L.append((ind, f"{A} = st.answers", sp))
        once = pc in self.same_answers_at  # listed when the first player answers, the same for the others
        if once:
            L.append((ind, f"{ok} = None", sp))
        fetch = [(0, f"if {ok} is None:"), (1, f"{ok} = {enum}(st, loc)")] if once else [(0, f"{ok} = {enum}(st, loc)")]
        # Replay (pickers by label, ``_Feed.pick``): the same loop, each recorded answer found among the
        # answers listed, which the engine's loop keeps for it in ``st.choice_cache``
        L.append((ind, f"if len({P}) != 2:", sp))
        self.answer_each(L, ind + 1, pc, sp, (P, A, who, ok, i), f"loc[{var}] = {W}[0]",
                         fetch + [(0, f"st.choice_cache = {ok}")], [f"{W} = loc[{slot}] = {W}[1:]"], f"not {W}")
        self.answer_each(L, ind, pc, sp, (P, A, who, ok, i), f"loc[{var}] = {W}[0]", fetch,
                         [f"{W} = loc[{slot}] = {W}[1:]"], f"not {W}")
        return True

    def answer_each(self, L: list, at: int, pc: int, sp: Any, names: tuple[str, str, str, str, str], who_is: str,
                    fetch: list[tuple[int, str]], advance: list[str], done: str) -> None:
        """The loop in which the asked players answer in turn while pickers pick by position (see
        ``pause_answers``): ``who_is`` finds the next player, ``fetch`` (lines, with their extra indent)
        sets the answers they may give, ``advance`` moves past them, ``done`` says nobody is left; each
        answer is a step, and the block goes on (``taken``) once all have answered."""
        P, A, who, ok, i = names
        L.append((at, "while True:", sp))
        L.append((at + 1, f"if st.step >= {P}[1]:", sp))
        L.append((at + 2, "return left", sp))
        L.append((at + 1, f"{who} = {who_is}", sp))
        L.extend((at + 1 + extra, line, sp) for extra, line in fetch)
        L.append((at + 1, f"{i} = {P}[0][{who}](len({ok}))", sp))
        L.append((at + 1, f"if not 0 <= {i} < len({ok}):", sp))
        L.append((at + 2, f"bad_answer({i}, {self.const(sp)})", sp))
        L.append((at + 1, f"{A}[{who}] = {ok}[{i}]", sp))
        L.extend((at + 1, line, sp) for line in advance)
        L.append((at + 1, "st.step += 1", sp))
        L.append((at + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((at + 1, f"if {done}:", sp))
        L.append((at + 2, "break", sp))
        L.append((at, f"fr[1] = {pc + 1}", sp))
        self.taken(L, f"r{self.frame}_{pc + 1}", at, sp)

    def emit_choose(self, L: list, s: m.ChooseS, after: tuple, ind: int) -> bool:
        sp = s.span
        k = len(s.options)
        pc = self.site_pc(s, k + 2)
        if pc not in self.entries:
            chooser = self.seat_fn(s.player, "a choice to make", sp) if s.player is not None else None
            spec = ChooseSpec(chooser, [], pc + k + 1)
            spec.distinct = label_proof.labels_distinct(self.model, self.comp.labels, s)
            for n, opt in enumerate(s.options):
                spec.options.append((
                    self.template_fn(opt.label),
                    tuple((slot + self.off, self.iterable_fn(it)) for slot, it in opt.bindings),
                    self.expr_fn(opt.cond) if opt.cond is not None else None,
                    pc + 1 + n,
                    self.public_template_fn(opt.label),
                    label_parser(self.model, self.comp.labels, opt),
                    opt.cond is not None and not _reads_slots(opt.cond, {slot for slot, _ in opt.bindings}),
                ))
                spec.spans.append((opt.span, opt.cond_span))
                spec.shown.append(tuple((name, self.value_text_fn(it.type)) for name, (_slot, it)
                                        in zip(opt.names, opt.bindings)))
            self.entries[pc] = (CHOOSE, spec, None, None, sp)
            with self.own_scope():  # functions of their own: no variables of this block
                first = len(self.helpers)
                self.enums[id(spec)] = self.enumerator(s)
                written = _loc_writes(self.helpers[first:])  # what listing leaves in ``loc`` (see counted_pick)
                self.member_tests(s, spec, first)
                if any(_unread_suffix(opt, opt.cond is not None and not _reads_slots(
                        opt.cond, {slot for slot, _ in opt.bindings})) < len(opt.bindings) for opt in s.options):
                    start = len(self.helpers)
                    self.pickers[id(spec)] = self.enumerator(s, lazy=True)  # what a picker lists instead
                    written |= _loc_writes(self.helpers[start:])
                self.listing_writes[id(spec)] = written
            for n, opt in enumerate(s.options):
                prelude: list = []
                self.cov(("option", id(s), n), 1, prelude)
                self.resume(pc + 1 + n, ("seq", opt.body, 0, self.off, self.ikey, after), opt.span, prelude)
            self.resume(pc + k + 1, after, sp)
        who = None
        if self.model.eliminates and s.player is not None:  # a player who is out takes no decisions
            who = self.var("w")
            self.consts["out_error"] = races.out_error
            L.append((ind, f"{who} = {self.seat_ex(s.player, 'a choice to make', sp)}", sp))
            L.append((ind, f"if st.out[{who}]:", sp))
            L.append((ind + 1, f"raise out_error({who}, {self.const(sp)})", sp))
        if self.after_step_triggers:  # those are checked by the engine before each decision
            return self.pause(L, pc, ind)
        return self.pause_pick(L, s, pc, ind, who)

    def pause_pick(self, L: list, s: m.ChooseS, pc: int, ind: int, who: str | None) -> bool:
        """Pause at the choice at ``pc``; but while the engine's pickers pick by position
        (``State.picking`` of two items, see ``Engine._run``), pick here at once: the same options
        listed (or only counted, see ``counted_pick``), the same pick, the same locals bound and the
        same state as the engine's loop would leave, then return ``TAKEN`` (the engine runs the option's block next)."""
        sp = s.span
        spec = self.entries[pc][1]
        L.append((ind, f"fr[1] = {pc}", sp))
        P, n, i, x, v = self.var("pk"), self.var("n"), self.var("i"), self.var("x"), self.var("v")
        L.append((ind, f"{P} = st.picking", sp))
        if id(spec) in self.members:  # replay takes the recorded option here too (see replay_take)
            L.append((ind, f"if {P} is None or st.step >= {P}[1]:", sp))
            L.append((ind + 1, "return left", sp))
            L.append((ind, f"if len({P}) != 2:", sp))
            self.replay_take(L, spec, P, ind + 1, sp)
        else:
            L.append((ind, f"if {P} is None or st.step >= {P}[1] or len({P}) != 2:", sp))
            L.append((ind + 1, "return left", sp))
        if who is None:
            who = "st.current" if s.player is None else self.seat_ex(s.player, "a choice to make", sp)
        plans = self.counted_pick(s, spec)
        listed = True  # whether the options may have to be listed (as the engine lists them)
        out = ind
        if plans is not None:  # counted, the picked one found from its position
            total, counts = self.count_options(L, plans, ind, sp)
            listed = all(c != "1" for c, _l, _z in counts)  # else an option always offered: never none
            out = ind + listed
            if listed:  # none to count: listed below, as the engine lists them (and skipped)
                L.append((ind, f"if {total}:", sp))
            L.append((out, f"{i} = {P}[0][{who}]({total})", sp))
            L.append((out, f"if not 0 <= {i} < {total}:", sp))
            L.append((out + 1, f"bad_option({i}, {self.const(sp)})", sp))
            self.counted_option(L, plans, counts, i, x, v, out, sp)
            if listed:
                L.append((ind, "else:", sp))
        if listed:
            self.listed_pick(L, spec, P, n, i, x, v, who, out, sp)
        k = len(spec.options)
        nxt = self.var("nx")
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
            L.append((at, f"fr[1] = {opt[3]}", sp))
            if k > 1:
                L.append((at, f"{nxt} = r{self.frame}_{opt[3]}", sp))
        L.append((ind, "st.step += 1", sp))
        L.append((ind, "st.pending_cache = st.choice_cache = None", sp))
        self.taken(L, nxt if k > 1 else f"r{self.frame}_{spec.options[0][3]}", ind, sp)
        return True

    def listed_pick(self, L: list, spec: ChooseSpec, P: str, n: str, i: str, x: str, v: str, who: str, ind: int,
                    sp: Any) -> None:
        """The pick of ``pause_pick`` from the options listed (lazily where a picker lists them so): the
        choice skipped where there are none, else option ``i`` into ``x`` (its index) and ``v`` (its values)."""
        picker = self.pickers.get(id(spec))
        if picker is not None:
            E, Q = self.var("ends"), self.var("opts")
            L.append((ind, f"{n}, {E}, {Q} = {picker}(st, loc)", sp))
        else:
            Q = self.var("opts")
            L.append((ind, f"{Q} = {self.enums[id(spec)]}(st, loc)", sp))
            L.append((ind, f"{n} = len({Q})", sp))
        L.append((ind, f"if not {Q}:", sp))  # nothing to choose: the choice is skipped
        L.append((ind + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((ind + 1, f"fr[1] = {spec.end}", sp))
        L.append((ind + 1, "return left", sp))
        L.append((ind, f"{i} = {P}[0][{who}]({n})", sp))
        L.append((ind, f"if not 0 <= {i} < {n}:", sp))
        L.append((ind + 1, f"bad_option({i}, {self.const(sp)})", sp))
        if picker is not None:
            self.pick_combination(L, E, Q, i, x, v, ind, sp)
        else:
            L.append((ind, f"{x}, {v} = {Q}[{i}]", sp))

    def replay_take(self, L: list, spec: ChooseSpec, P: str, ind: int, sp: Any) -> None:
        """Replay's counterpart of ``pause_pick`` (``State.picking`` of three items, see
        ``_Feed.take`` in rulelang/trace/replay.py): the trace's recorded option, found by the
        choice's membership tests, taken here with the same locals, step and state as the engine's
        loop leaves when it takes it (``Engine._run``, CHOOSE), then the option's block at once; when
        replay cannot take it so (None), the engine's loop lists the options as usual."""
        o, nxt = self.var("o"), self.var("nx")
        L.append((ind, f"{o} = {P}[2](st, {self.const(spec)}, loc) if len({P}) == 3 else None", sp))
        L.append((ind, f"if {o} is None:", sp))
        L.append((ind + 1, "return left", sp))
        L.append((ind, f"fr[1] = {nxt} = {o}[3]", sp))
        L.append((ind, "st.step += 1", sp))
        L.append((ind, "st.pending_cache = st.choice_cache = None", sp))
        k = len(spec.options)
        for j, opt in enumerate(spec.options):
            if k > 1:
                L.append((ind, ("if" if j == 0 else "elif" if j < k - 1 else "else") +
                          (f" {nxt} == {opt[3]}:" if j < k - 1 else ":"), sp))
                L.append((ind + 1, f"{nxt} = r{self.frame}_{opt[3]}", sp))
        self.taken(L, nxt if k > 1 else f"r{self.frame}_{spec.options[0][3]}", ind, sp)

    def pick_combination(self, L: list, E: str, Q: str, i: str, x: str, v: str, ind: int, sp: Any) -> None:
        """Option ``i`` of a lazily listed choice into ``x`` (its index) and ``v`` (its values), as
        ``pick_option`` gives it: up to three innermost lists written out here, the last one fastest."""
        j, lists, at, t, r1, r2 = (self.var(n) for n in ("j", "l", "at", "t", "r", "r"))
        L.append((ind, f"{j} = bisect_right({E}, {i})", sp))
        L.append((ind, f"{x}, {v}, {lists} = {Q}[{j}]", sp))
        L.append((ind, f"if {lists}:", sp))
        L.append((ind + 1, f"{at} = {i} - {E}[{j} - 1] if {j} else {i}", sp))
        L.append((ind + 1, f"if len({lists}) == 1:", sp))
        L.append((ind + 2, f"{v} = (*{v}, {lists}[0][{at}])", sp))
        L.append((ind + 1, f"elif len({lists}) == 2:", sp))
        L.append((ind + 2, f"{t} = len({lists}[1])", sp))
        L.append((ind + 2, f"{v} = (*{v}, {lists}[0][{at} // {t} % len({lists}[0])], {lists}[1][{at} % {t}])", sp))
        L.append((ind + 1, f"elif len({lists}) == 3:", sp))
        L.append((ind + 2, f"{t} = len({lists}[2])", sp))
        L.append((ind + 2, f"{r2} = {at} % {t}", sp))
        L.append((ind + 2, f"{at} //= {t}", sp))
        L.append((ind + 2, f"{t} = len({lists}[1])", sp))
        L.append((ind + 2, f"{r1} = {at} % {t}", sp))
        L.append((ind + 2, f"{at} //= {t}", sp))
        L.append((ind + 2, f"{v} = (*{v}, {lists}[0][{at} % len({lists}[0])], {lists}[1][{r1}], {lists}[2][{r2}])", sp))
        L.append((ind + 1, "else:", sp))
        L.append((ind + 2, f"{x}, {v} = pick_option({E}, {Q}, {i})", sp))

    def counted_pick(self, s: m.ChooseS, spec: ChooseSpec) -> list[tuple[Any, str, m.OptionIR]] | None:
        """Per option of ``s``, how a picker by position may count its options without listing them and
        find the picked one from its position (see ``count_options``, ``counted_option``): (its condition
        tested before its ranges or None, its form, the option); None where that is not sure to give
        the same options in the same order, or to leave the same state, as listing them.

        Forms: ``"one"`` (no ranges: one option), ``"ranges"`` (no range reads a value of the option's
        earlier ranges: their sizes multiplied, the last range fastest) and ``"kinds"`` (``for k in
        kinds(all in Z) for n in 1 to count(k in Z)`` first, then ranges as ``"ranges"``: in a zone
        kept sorted by id, with components numbered kind by kind in kind order, the pairs (k, n) are
        listed in the order of Z's components, one pair per component). Only where listing cannot
        fail (no error, never more tries than the options limit, no guard needed), no condition reads
        an option's values, and what listing leaves in ``loc`` is what taking the option stores
        there (one option whose values those are) or nothing."""
        mem = self.members.get(id(spec))
        if mem is None or mem[0] is not None or self.tries_bound(s) > runtime.MAX_OPTIONS or len(s.options) > 4:
            return None
        written = self.listing_writes.get(id(spec), set())
        if written and (len(s.options) != 1 or not written <= {slot for slot, _fn in spec.options[0][1]}):
            return None
        plans: list[tuple[Any, str, m.OptionIR]] = []
        for opt in s.options:
            slots = [slot for slot, _it in opt.bindings]
            cond = opt.cond
            if cond is not None and _reads_slots(cond, set(slots)):
                if not _always_true(cond):
                    return None
                cond = None
            form = "one" if not opt.bindings else "kinds" if self.kinds_counted(opt) else "ranges"
            for i in range(2 if form == "kinds" else 1, len(opt.bindings)):
                if _slots_read([opt.bindings[i][1]]) & set(slots[:i]):
                    return None
            plans.append((cond, form, opt))
        return plans

    def kinds_counted(self, opt: m.OptionIR) -> bool:
        """Whether an option's ranges start ``for k in kinds(all in Z) for n in 1 to count(k in Z)``, Z one
        zone kept sorted by id, the components numbered kind by kind in kind order (see counted_pick)."""
        if len(opt.bindings) < 2 or self.kind_of != sorted(self.kind_of):
            return False
        (slot, it), (_slot, it2) = opt.bindings[:2]
        pattern = kind_count_pattern(it, slot)
        if pattern is None or it.query is None or it.query.where is not None \
                or self.model.zones[it.query.zones[0].zone].ordered:
            return False
        return it2.kind == "range" and type(it2.low) is m.Const and type(it2.low.value) is int \
            and it2.low.value == 1 and _same(it2.high, pattern)

    def count_options(self, L: list, plans: list, ind: int, sp: Any) -> tuple[str, list]:
        """Write the count of the options of a choice planned by ``counted_pick``: returns the source of
        the total and, per option, (its count's source, the sources of its lists and of their sizes,
        the zone of a ``"kinds"`` form or None)."""
        counts = []
        for cond, form, opt in plans:
            at = ind
            if cond is not None:
                L.append((ind, f"if {self.ex(cond)}:", opt.span))
                at = ind + 1
            zone = None
            sizes: list[str] = []
            lists: list[tuple[str, str]] = []
            its = [it for _slot, it in opt.bindings]
            if form == "kinds":
                assert its[0].query is not None
                zone = self.var("z")
                L.append((at, f"{zone} = {self.zone(its[0].query.zones[0])}", opt.span))
                sizes.append(f"len({zone})")
                its = its[2:]
            for it in its:
                lst, size = self.var("l"), self.var("t")
                L.append((at, f"{lst} = {self.iterable(it, copy=False)}", opt.span))
                L.append((at, f"{size} = len({lst})", opt.span))
                lists.append((lst, size))
                sizes.append(size)
            if cond is None and not sizes:
                counts.append(("1", lists, zone))
                continue
            c = self.var("c")
            L.append((at, f"{c} = {' * '.join(sizes) or '1'}", opt.span))
            if cond is not None:
                L.append((ind, "else:", opt.span))
                L.append((ind + 1, f"{c} = 0", opt.span))
            counts.append((c, lists, zone))
        if all(c == "1" for c, _l, _z in counts):  # options without ranges or conditions: as many as written
            return str(len(counts)), counts
        if len(counts) == 1:
            return counts[0][0], counts
        total = self.var("n")
        L.append((ind, f"{total} = {' + '.join(c for c, _l, _z in counts)}", sp))
        return total, counts

    def counted_option(self, L: list, plans: list, counts: list, i: str, x: str, v: str, ind: int, sp: Any) -> None:
        """Option ``i`` of a choice counted by ``count_options`` into ``x`` (its index) and ``v`` (its
        values), as listing the options and taking the ``i``-th gives them."""
        if all(c == "1" for c, _l, _z in counts):  # options without ranges or conditions: the i-th
            if len(plans) > 1:
                L.append((ind, f"{x} = {i}", sp))
            L.append((ind, f"{v} = ()", sp))
            return
        at = self.var("at")
        L.append((ind, f"{at} = {i}", sp))
        for j, ((_cond, _form, opt), (c, lists, zone)) in enumerate(zip(plans, counts)):
            last = j == len(plans) - 1
            body = ind
            if not last:
                L.append((ind, f"if {at} < {c}:", opt.span))
                body = ind + 1
            if len(plans) > 1:
                L.append((body, f"{x} = {j}", opt.span))
            values: list[str] = []
            for lst, size in reversed(lists[1:] if zone is None else lists):  # the last range fastest
                e = self.var("e")
                L.append((body, f"{e} = {lst}[{at} % {size}]", opt.span))
                L.append((body, f"{at} //= {size}", opt.span))
                values.insert(0, e)
            if zone is not None:  # the component at that position: its kind, and its place among its kind's
                self.kind_spans()
                self.consts["bisect_left"] = bisect.bisect_left
                k = self.var("k")
                L.append((body, f"{k} = KO[{zone}[{at}]]", opt.span))
                values[:0] = [k, f"{at} - bisect_left({zone}, KLO[{k}]) + 1"]
            elif lists:
                values.insert(0, f"{lists[0][0]}[{at}]")
            L.append((body, f"{v} = ({''.join(f'{e}, ' for e in values)})", opt.span))
            if not last:
                L.append((ind, "else:", opt.span))
                if any(ls or zn for _c, ls, zn in counts[j + 1:]):  # a later option reads its position
                    L.append((ind + 1, f"{at} -= {c}", opt.span))
                ind += 1

    def taken(self, L: list, block: str, ind: int, sp: Any) -> None:
        """After a decision taken in a block: run the next block (where ``fr[1]`` now points) at once,
        with a new step budget, as the engine's loop would; but every CHAIN-th step return ``TAKEN``
        to that loop instead, so that decisions taken one after the other never nest deeper."""
        L.append((ind, f"if st.step % {CHAIN}:", sp))
        L.append((ind + 1, f"return {block}(st, loc, fr, BUDGET)", sp))
        L.append((ind, f"return {TAKEN}", sp))

    def enumerator(self, s: m.ChooseS, lazy: bool = False) -> str:
        """A function listing the legal options of a ``choose`` as (option index, values of its ``for``s).

        With ``lazy``, the function a picker uses instead: it returns ``(total, ends, parts)``,
        where ``parts[j] = (option index, values of the outer ranges, lists)`` stands for the
        options ``ends[j-1]`` to ``ends[j] - 1`` of the same listing: the outer values followed
        by each combination of the ``lists`` (the innermost ranges that neither a later range
        nor the condition reads), last list fastest. The same ranges are evaluated, in the
        same order, with the same tries counted and the same locals set; only the options of
        those innermost ranges are not written out one by one (see ``pick_option``).

        Both list what ``Engine._options`` lists from the compiler's closures, in the same order,
        with the same errors, trying (and counting against the limit) the same combinations.
        """
        name = f"o{next(self.names)}"
        # Ranges too small to ever try more than the limit (known when the code is written): no count kept.
        limited = self.tries_bound(s) > runtime.MAX_OPTIONS
        lines: list = [(1, "out = []", None)]
        if lazy:
            total, ends, parts = self.var("total"), self.var("ends"), self.var("parts")
            lines = [(1, f"{total} = 0", None), (1, f"{ends} = []", None), (1, f"{parts} = []", None)]
        if limited:
            lines.append((1, "tries = 0", None))
        shared = self.shared_ranges(s)
        lines += [(1, f"{name} = None", None) for name in dict.fromkeys(shared.values())]
        where = self.const(s.span)
        for n, opt in enumerate(s.options):
            last = len(opt.bindings) - 1
            self.loc_reads = set()
            slots = {slot for slot, _ in opt.bindings}
            # as the engine does: a condition reading none of the option's values is tested first, alone
            hoisted = opt.cond is not None and not _reads_slots(opt.cond, slots)
            srcs = [self.iterable(it, copy=False) for _slot, it in opt.bindings]
            guards = {}  # a range listed by several options: computed where first needed, then kept
            for i in range(len(opt.bindings)):
                if (n, i) in shared:
                    guards[shared[n, i]] = srcs[i]
                    srcs[i] = shared[n, i]
            # a range that reads none of the outer variables: listed once, before the outer range
            fixed = [i == 0 or not _slots_read([it]) & {s for s, _ in opt.bindings[:i]}
                     for i, (_slot, it) in enumerate(opt.bindings)]
            lowest = max((i for i in range(last + 1) if not fixed[i]), default=-1)
            placed, inner = ({}, []) if hoisted else _place_conjuncts(opt, lowest)
            rnames = {i: self.var("r") for i in range(1, last + 1) if fixed[i]}
            if -1 in placed:
                rnames[0] = self.var("r")
            bulk = _unread_suffix(opt, hoisted) if lazy else len(opt.bindings)
            lists: list[str] = []
            ind = 1
            if hoisted:
                lines.append((ind, f"if {self.ex(opt.cond)}:", opt.span))
                ind += 1
            values = []
            inner_for = None  # the innermost range's loop: (its line, its values, its variable)
            elses: list[tuple[int, str]] = []  # (indentation, combinations skipped) of each test placed outside
            first = len(lines)
            lines.append((ind, _ResetAt(-1), None))  # where counts kept for the whole option start afresh
            kind_counts: list[tuple[m.Agg, str]] = []  # count(k in Q) of a range 'for k in kinds(Q)': its source
            for i in sorted(rnames):
                if i > 0:
                    lines.append((ind, f"{rnames[i]} = {srcs[i]}", opt.span))
            if -1 in placed:  # what reads none of the ranges' values: tested once, before them
                lines.append((ind, f"{rnames[0]} = {srcs[0]}", opt.span))
                ind = self.placed_test(lines, opt, placed[-1], values, -1, rnames, elses, ind)
            for i, (slot, it) in enumerate(opt.bindings):
                v = self.var("v")
                later = [it2 for _s, it2 in opt.bindings[i + 1:]] + (
                    [opt.cond] if not hoisted and not _always_true(opt.cond) else [])
                read = slot in _slots_read(later)  # a later range or the condition reads this variable
                values_src = rnames.get(i, srcs[i])
                counted = [src for pattern, src in kind_counts if it.kind == "range" and _same(it.high, pattern)]
                if counted:  # 'for n in 1 to count(k in Q)' inside 'for k in kinds(Q)': Q was counted by kind
                    values_src = self.number_range(it, self.ex(it.low), counted[0])
                pattern = kind_count_pattern(it, slot)
                if pattern is not None and i not in rnames and any(
                        it2.kind == "range" and _same(it2.high, pattern) for _s, it2 in opt.bindings[i + 1:]):
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
                    lines.append((ind, f"out += [({n}, {tup}) for {v} in {values_src}]", opt.span))
                    if i > 0 and limited:  # inside other ranges: the list may grow past the limit many times over
                        lines.append((ind, f"if len(out) > MAXO: too_many_options({where})", opt.span))
                    break
                if lazy and i == last:  # the innermost values kept are listed at once, as one list
                    kept, kept_ind = self.var("k"), ind
                    lines.append((ind, f"{kept} = []", opt.span))
                lines.append((ind, f"for {v} in {values_src}:", opt.span))
                if i == last:
                    inner_for = (lines[-1], values_src, v)
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
                    lines.append((ind, f"if {self.option_cond(opt, inner, values, last)}:", opt.cond_span or opt.span))
                    ind += 1
                tup = f"({', '.join(values)},)" if values else "()"
                if lazy and values:
                    lines.append((ind, f"{kept}.append({values[-1]})", opt.span))
                    outer = f"({', '.join(values[:-1])},)" if len(values) > 1 else "()"
                    lines.append((kept_ind, f"if {kept}:", opt.span))
                    lines.append((kept_ind + 1, f"{total} += len({kept})", opt.span))
                    lines.append((kept_ind + 1, f"{ends}.append({total})", opt.span))
                    lines.append((kept_ind + 1, f"{parts}.append(({n}, {outer}, ({kept},)))", opt.span))
                elif lazy:
                    lines.append((ind, f"{total} += 1", opt.span))
                    lines.append((ind, f"{ends}.append({total})", opt.span))
                    lines.append((ind, f"{parts}.append(({n}, {tup}, ()))", opt.span))
                else:
                    lines.append((ind, f"out.append(({n}, {tup}))", opt.span))
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
            if inner_for is not None:
                self.owned_loop(lines, inner_for, [v for (_z, sl), v in piles.items() if sl == opt.bindings[-1][0]])
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
        if lazy:
            if limited:
                lines.append((1, f"if {total} > MAXO: too_many_options({where})", None))
            lines.append((1, f"return {total}, {ends}, {parts}", None))
        else:
            if limited:
                lines.append((1, f"if len(out) > MAXO: too_many_options({where})", None))
            lines.append((1, "return out", None))
        self.helper(name, "st, loc", lines)
        return name

    def owned_loop(self, lines: list, inner_for: tuple, piles: list[tuple[str, str]]) -> None:
        """The innermost loop of an option reading piles on its value: written twice, with the piles read
        with no check when every value owns them (as a rule), and as it was otherwise."""
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
        lines[at:end] = [
            (ind, f"{values} = {src}", line[2]),
            (ind, f"if {' and '.join(f'{mk}.issuperset({values})' for mk in masks)}:", line[2]),
            (ind + 1, loop, line[2]), *[(i + 1, text, sp) for i, text, sp in fast],
            (ind, "else:", line[2]),
            (ind + 1, loop, line[2]), *[(i + 1, text, sp) for i, text, sp in body],
        ]

    def shared_ranges(self, s: m.ChooseS) -> dict[tuple[int, int], str]:
        """The ``kinds(...)`` ranges that several options of a choice list alike (reading no local):
        {(option, range): the variable that keeps the list, computed once per listing}."""
        found: list[tuple[m.IterIR, str]] = []
        out: dict[tuple[int, int], str] = {}
        for n, opt in enumerate(s.options):
            for i, (_slot, it) in enumerate(opt.bindings):
                if it.kind != "kinds" or _slots_read([it]):
                    continue
                name = next((nm for other, nm in found if _same(other, it)), None)
                if name is None:
                    name = self.var("s")
                    found.append((it, name))
                out[n, i] = name
        counts = collections.Counter(out.values())
        return {key: name for key, name in out.items() if counts[name] > 1}

    def range_bound(self, it: m.IterIR) -> int:
        """The most values a ``for`` range can give, known when the code is written."""
        if it.kind in ("players", "players_in", "others", "others_in"):
            return self.model.max_players
        if it.kind in ("kinds", "kinds_where"):
            return len(self.model.kinds)
        if it.kind == "range":
            low, high = it.low, it.high
            if type(low) is m.Const and type(high) is m.Const and type(low.value) is int \
                    and type(high.value) is int:
                return max(0, high.value - low.value + 1)
            if type(low) is m.Const and type(low.value) is int and low.value >= 1 and _is_count(high):
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
        written = _loc_writes(self.helpers[first:])
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
                hoisted = opt.cond is not None and not _reads_slots(opt.cond, slots)
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
                exact.append(written <= own and _loc_writes(self.helpers[start:]) <= own)
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

    def option_cond(self, opt: m.OptionIR, parts: list, values: list[str], level: int) -> str:
        """Source of the conjuncts ``parts`` of an option's condition, tested inside the ranges 0..``level``
        (whose values are in the variables ``values``)."""
        bindings = opt.bindings[:level + 1]
        self.once_levels = [{sl} for sl, _ in bindings]
        self.cse_vars = {sl: name for (sl, _it), name in zip(bindings, values)}
        try:
            return " and ".join(self.ex(x) for x in parts)
        finally:
            self.once_levels = self.cse_vars = None

    # ------------------------------------------------------------------ triggers
    def changed_owners(self, which: tuple[int, ...], sels: list[m.ZoneSel]) -> list[str] | None:
        """Sources of the seats whose zones a move changed, when that is all it changed of what the
        per-player triggers among ``which`` read (see ``soft``); None: check every player."""
        owners = []
        for t in which:
            trig = self.model.triggers[t]
            if not trig.each:
                continue
            if not _owner_local(trig):
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
                    if owners and _owner_local(trig):
                        seats = "(sorted(set(_seats0)) if len(_seats0) > 1 else _seats0)"  # in seat order
                        lines.append((1, f"for p in {seats}:", trig.span))
                    else:
                        lines.append((1, "for p in range(st.players):", trig.span))
                    lines.append((2, "loc[0] = p", trig.span))
                    lines.append((2, f"now = bool({self.ex(trig.cond)})", trig.span))
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
            if not owners or not _owner_local(trig):
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

    # ------------------------------------------------------------------ rules and the module
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
        prelude: list = []
        self.cov(("rule", rule.index), 1, prelude)
        self.resume(0, ("seq", rule.body, 0, 0, (), ("ret",)), rule.span, prelude)
        while self.todo:
            pc, ctx, pre = self.todo.pop(0)
            self.nsoft = 0
            lines = list(pre)
            self.emit_ctx(lines, ctx, 1)
            self.function(f"r{rule.index}_{pc}", "st, loc, fr, left", lines)
        return [self.entries[pc] for pc in range(self.npc)], self.nloc

    def function(self, name: str, args: str, lines: list) -> None:
        self.written += len(lines)
        if self.written > expansion.MAX_GENERATED_LINES:  # stop early: the time to write and compile grows with it
            raise expansion.generated_too_much(self.model, self.frame)
        body = [(0, f"def {name}({args}):", None)]
        body += _prologue(lines, 1)
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
        self.function(f"r{d}_1", "st, loc, fr, left", start)
        lines = [
            (1, "if st.extra_turn:", None), (2, "st.extra_turn = False", None),
            (1, "elif st.next_player >= 0:", None), (2, "st.current = st.next_player", None),
            (2, "st.next_player = -1", None),
            (1, "else:", None), (2, "st.current = (st.current + 1) % st.players", None),
            *races.driver_lines(model),
            (1, "fr[1] = 1", None),
            (1, "left -= 1", None), (1, "if left < 0:", None),
            (2, f"runaway({self.const('turns')}, {self.const(turn)})", turn)]
        if advance:
            lines.append((1, f"if {self.check_fn(advance)}(st):", None))
            lines.append((2, "left -= 1", None))
            lines.append((2, "return left", None))  # the trigger's rule runs first
        lines += start  # no pause between one turn's end and the next one's start: one block
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
            (1, f"_turn0 = [{t}, 0, [None] * NL[{t}]]", None),
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
        self.pay_fn = None
        if model.payoff is not None:
            self.helper("pay", "st, loc", [(1, f"return {self.ex(model.payoff.expr)}", model.payoff.spec.span)])
            self.pay_fn = "pay"
        # Only the memos filled since the last reset are cleared (a game may have hundreds).
        self.helper("reset_memo", "", [(1, "for memo in DIRTY:", None), (2, "memo.clear()", None),
                                       (1, "DIRTY.clear()", None)])
        self.memo = None
        for i, counter in enumerate(model.counters):
            self.helper(f"ci{i}", "st, loc", [(1, f"return {self.ex(counter.init)}", counter.span)])

    def generate(self) -> Generated:
        """Write the whole module."""
        self.code: list[list[Any]] = []
        self.written = 0  # lines written so far (see expansion.MAX_GENERATED_LINES)
        self.frame = -1
        self.nlocals: list[int] = []
        self.listing_writes: dict[int, set[int]] = {}  # id of a ChooseSpec -> loc slots its listing stores into
        self.blocks: list[list] = []
        model = self.model
        self.frames = [model.setup_rule, model.turn_rule] + [t.rule for t in model.triggers]
        done: dict[int, tuple[list, int]] = {}
        while self.frames:
            r = self.frames.pop(0)
            if r not in done:
                done[r] = self.rule_blocks(model.rules[r])
        for rule in model.rules:  # rules that only ever run inlined have no entry points of their own
            code, nloc = done.get(rule.index, ([], rule.nlocals))
            self.code.append(code)
            self.nlocals.append(nloc)
        self.driver()
        self.standings()
        model = self.model
        self.consts["NL"] = self.nlocals
        self.consts["TR"] = [t.rule for t in model.triggers]
        self.consts["TT"] = [model.rules[t.rule].title or model.rules[t.rule].name for t in model.triggers]
        self.consts["TL"] = [[None] * max(1, self.nlocals[t.rule]) for t in model.triggers]
        self.consts["fire"] = runtime.fire
        self.consts["bisect_right"] = bisect.bisect_right
        for name in ENGINE_NAMES:  # the engine's helpers where a block takes a decision: given at load
            self.consts[name] = None
        self.consts["last_n"] = last_n
        out = self.out
        out.add(0, "# Generated by rulelang from a checked model (see rulelang/compile/codegen.py).", None)
        for fn in self.helpers + self.blocks:
            out.add(0, "", None)
            for ind, text, span in fn:
                out.add(ind, text, span)
        return Generated(
            source=out.text(), filename=self.filename, lines=LineTable(self.filename, out.spans),
            constants=self.consts, code=self.code, nlocals=self.nlocals, checks=self.checks, enums=self.enums,
            fallbacks=self.fallbacks, constructs=self.constructs, fallback_runs=self.fallback_runs,
            fallback_kinds=self.fallback_kinds, rank_fns=self.rank_fns, sheet_fns=self.sheet_fns,
            ncounters=len(model.counters), pickers=self.pickers, members=self.members, pay_fn=self.pay_fn,
        )


_OWNER_LOCAL_NODES = (m.Const, m.BinOp, m.UnOp, m.IfElseIR, m.KindAttr, m.ElemAttr, m.ElemIsKind, m.Agg, m.QueryIR,
                      m.ZoneSel, m.CounterGet, m.Local)


def _reads_answers(e: Any) -> bool:
    """Whether IR (an expression, or a tuple or list of them) reads what a player answered."""
    if isinstance(e, m.AnswerGet):
        return True
    if isinstance(e, (tuple, list)):
        return any(_reads_answers(x) for x in e)
    if attrs.has(type(e)):
        return any(_reads_answers(getattr(e, f.name)) for f in attrs.fields(type(e)))
    return False


_BINDING_FIELDS = ("slot", "var", "qvar", "list_slot", "idx_slot")


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


def _pops_top(q: m.QueryIR, how: str, dest: m.Zone) -> bool:
    """Whether a move from one zone takes its top component, whatever it is (``move 1 from ZONE``),
    to a zone whose components are not laid out on a board (see ``CodeGen.move_top_one``)."""
    return q.quantity == "count" and q.count == 1 and q.count_expr is None and how == "all" and not dest.unrolled


def _in_loop(ctx: tuple) -> bool:
    """Whether a continuation goes back into a loop (``while``, ``repeat``, ``for``) of the frame's rule."""
    while ctx[0] != "ret":
        if ctx[0] == "loop":
            return True
        ctx = ctx[5]
    return False


def _owner_local(trig: m.Trigger) -> bool:
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


_LOC_WRITE = re.compile(r"\bloc\[(\d+)\] = ")


def _loc_writes(helpers: list) -> set[int]:
    """The ``loc`` slots generated functions store into (by their text)."""
    return {int(x) for fn in helpers for _ind, text, _sp in fn for x in _LOC_WRITE.findall(text)}


def _unread_suffix(opt: Any, hoisted: bool) -> int:
    """Where the innermost ranges of a ``choose`` option that nothing reads begin (their number: none).

    A range's variable is read if a later range or the option's condition (unless the
    condition is tested before the ranges) reads it; an option whose condition is tested
    per combination has no such ranges."""
    if opt.cond is not None and not hoisted and not _always_true(opt.cond):
        return len(opt.bindings)
    at = len(opt.bindings)
    while at > 0 and opt.bindings[at - 1][0] not in _slots_read([it for _s, it in opt.bindings[at:]]):
        at -= 1
    return at


def _always_true(cond: Any) -> bool:
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
            read = _slots_read([part])
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


# ---------------------------------------------------------------------- building and loading


@attrs.define
class Loaded:
    """A generated module run into a namespace: the functions the engine calls."""

    code: list[list[tuple]]  # as Generated.code, with the block functions in place of their names
    checks: dict[tuple[int, ...], Callable[..., bool]]
    arm: Callable[..., bool]
    rank_fns: list[Callable[..., Any]]
    sheet_fns: list[list[Callable[..., Any]]]
    reset_memo: Callable[[], None]
    counter_inits: list[Callable[..., Any]]
    lines: LineTable
    fallback_runs: list[int]
    fallback_kinds: list[str]
    pay_fn: Callable[..., Any] | None = None  # (st, loc with the player in loc[0]) -> the declared payoff


_MODULES = itertools.count(1)


def generate(model: m.Model, coverage: bool = False) -> Generated:
    """Write and compile the Python module of a checked model (with coverage counting, or without)."""
    filename = f"<rulelang-generated-{next(_MODULES)}>"
    expansion.check_expansion(model)
    gen = CodeGen(model, Analysis(model), coverage, filename).generate()
    try:
        gen.code_object = compile(gen.source, filename, "exec")
    except (SyntaxError, RecursionError, MemoryError) as exc:
        # Python's own limits on nesting (e.g. 20 nested loops): said at the rules' place.
        line = getattr(exc, "lineno", None)
        span = gen.lines.span_at(line) if line else None
        raise RulelangError(
            "the rules nest too deeply here to be compiled (Python allows at most 20 loops inside one another)",
            span,
            hint="use fewer loops inside one another (the loops of a rule called inside a loop count too)",
        ) from None
    linecache.cache[filename] = (len(gen.source), None, gen.source.splitlines(True), filename)
    return gen


def load(gen: Generated, coverage: list[int] | None = None, engine_names: dict[str, Any] | None = None) -> Loaded:
    """Run a generated module (``coverage``: the list its counting variant adds to) and resolve its names.

    ``engine_names``: the engine's helpers the generated code calls where it takes a decision
    itself (``pick_option``, ``bad_option``, ``bad_answer``, and the step budget ``BUDGET``)."""
    ns: dict[str, Any] = dict(gen.constants)
    ns["COV"] = coverage
    if engine_names:
        ns.update(engine_names)
    exec(gen.code_object, ns)  # the module only defines functions
    code = [[(ins[0], ns[ins[1]], *ins[2:]) if ins[0] == BLOCK else resolve(ins, ns) for ins in rule]
            for rule in gen.code]  # (a decision's functions are the module's: see labels.resolve)
    for rule in code:
        for ins in rule:
            if ins[0] in (CHOOSE, ASK) and ins[1].enum is None:
                ins[1].enum = ns[gen.enums[id(ins[1])]]
            if ins[0] == CHOOSE and ins[1].pick is None and id(ins[1]) in gen.pickers:
                ins[1].pick = ns[gen.pickers[id(ins[1])]]
            if ins[0] == CHOOSE and ins[1].member is None and id(ins[1]) in gen.members:
                guard, tests, ranges, exact, prefixes, read_back, wholes = gen.members[id(ins[1])]
                ins[1].member = (ns[guard] if guard else None, tuple(zip(
                    prefixes, wholes, (ns[t] for t in tests), (ns[r] if r else None for r in ranges), exact,
                    read_back, ins[1].options)))
    return Loaded(
        code=code, checks={which: ns[name] for which, name in gen.checks.items()}, arm=ns["arm"],
        rank_fns=[ns[n] for n in gen.rank_fns], sheet_fns=[[ns[n] for n in names] for names in gen.sheet_fns],
        reset_memo=ns["reset_memo"], counter_inits=[ns[f"ci{i}"] for i in range(gen.ncounters)],
        lines=gen.lines, fallback_runs=gen.fallback_runs, fallback_kinds=gen.fallback_kinds,
        pay_fn=ns[gen.pay_fn] if gen.pay_fn else None,
    )


def compile_program(model: m.Model) -> Program:
    """Compile a checked model into a Program whose rules run as generated Python."""
    comp = Analysis(model)
    gen = generate(model)
    face_labels, face_weights, face_index = [], [], []
    for kind in model.kinds:
        names: list[str] = []
        weights: list[int] = []
        index: dict[str, int] = {}
        for f in kind.faces:
            name = model.faces[f].name
            if name in index:
                weights[names.index(name)] += 1
            else:
                index[name] = f
                names.append(name)
                weights.append(1)
        face_labels.append(names)
        face_weights.append(weights)
        face_index.append(index)
    rank_sheets = [next((i for i, sh in enumerate(model.sheets) if _same(e, _sheet_total(sh))), None)
                   for _d, e in model.ranking.keys]
    return Program(
        model=model, code=gen.code, driver=len(model.rules), kind_of=comp.kind_of, component_labels=comp.labels,
        component_count=len(comp.kind_of), trigger_rules=[t.rule for t in model.triggers],
        rank_keys=[(d, None) for d, _e in model.ranking.keys], rank_nlocals=model.ranking.nlocals,
        nlocals=gen.nlocals, face_labels=face_labels, face_weights=face_weights, face_index=face_index,
        trigger_each=[t.each for t in model.triggers],
        sheets=[(sh.name, [(label, None) for label, _e in sh.lines], sh.nlocals) for sh in model.sheets],
        rank_sheets=rank_sheets, generated=gen, constructs=gen.constructs, fallbacks=dict(gen.fallbacks),
    )


def listing(program: Program) -> str:
    """The generated module of a program, for reading: its source, then its constants table.

    Each block says which rule it belongs to; each constant is shown by ``repr`` (cut short
    when long), in a comment.
    """
    gen: Generated = program.generated
    model = program.model
    out = [gen.source.rstrip("\n"), "", "", "# ---- entry points: rule, pc -> block or decision"]
    names = {BLOCK: "block", CHOOSE: "choose", ASK: "ask", ROLL: "roll", DRAW: "draw", SHUFFLE: "shuffle",
             RANDFIRST: "first player"}
    for r, entries in enumerate(gen.code):
        rule = model.rules[r].name if r < len(model.rules) else "(driver: setup, then turns)"
        for pc, ins in enumerate(entries):
            what = ins[1] if ins[0] == BLOCK else names.get(ins[0], str(ins[0]))
            out.append(f"#   {r} {rule!r} pc {pc}: {what}" + (f"  ({ins[4]})" if ins[4] is not None else ""))
    out += ["", "# ---- constants (the only way user values enter the module)"]
    for name, value in gen.constants.items():
        if callable(value):
            text = f"<{getattr(value, '__qualname__', type(value).__name__)}>"
        elif attrs.has(type(value)):  # a compiled spec (its repr shows closures by their addresses)
            text = f"<{type(value).__name__}>"
        else:
            text = repr(value)
        if len(text) > 100:
            text = text[:97] + "..."
        out.append(f"#   {name} = {text}")
    fallbacks = ", ".join(f"{k} x{n}" for k, n in sorted(gen.fallbacks.items())) or "none"
    out.append(f"# fallbacks to compiler closures: {fallbacks}")
    return "\n".join(out) + "\n"
