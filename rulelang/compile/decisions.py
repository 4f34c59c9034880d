"""Generated code for decisions: ``ask`` and ``choose`` (their pauses, answers and picks taken in blocks,
replayed picks, counted picks) and the listing of an ask's answers (a part of the generator).
"""

from __future__ import annotations

import bisect
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import (
    answers,
    ask_lists,
    counted,
    kept,
    label_proof,
    membership,
    rounds,
    runtime,
    steps,
    unasked,
)
from rulelang.compile.analysis import kind_count_pattern, never_negative, reads_slots, same, slots_read
from rulelang.compile.answer_matching import answer_matcher
from rulelang.compile.emit import CHAIN, TAKEN, loc_writes
from rulelang.compile.labels import label_parser
from rulelang.compile.options import always_true, picker_lists_less
from rulelang.compile.program import (
    ASK,
    CHOOSE,
    AskSpec,
    ChooseSpec,
)
from rulelang.errors import RulelangError

# A recording's test that the kinds a counted choice's range lists read apart in its labels (``runtime.kinds_differ``,
# where the labels' proof needs it) answered from the answers kept by classes and kinds (``runtime.kinds_differ_kept``).
KINDS_DIFFER_KEPT = True


class DecisionEmitter:
    """``ask`` and ``choose`` (mixed into ``CodeGen``)."""

    def emit_ask(self, L: list, s: m.AskS, after: tuple, ind: int) -> bool:
        sp = s.span
        self.ask_in_loop = _in_loop(after)  # see nobody_asked
        var, slot = s.var + self.off, s.list_slot + self.off
        asked, p = self.var("a"), self.var("p")
        if unasked.asks_nobody(self, s) and not self.after_step_triggers:
            # no pause, play goes on here; the answers cleared (unless nobody ever answers), the ask's player
            # and list as the loop below would leave them (unless nothing reads them: no answer blocks)
            quiet = unasked.facts(self).quiet
            if not quiet:
                L.append((ind, "st.answers = [''] * st.players", sp))
                L.append((ind, f"loc[{var}] = {self.iterable(s.iterable, copy=False)}[-1]", sp))
                L.append((ind, f"loc[{slot}] = []", sp))
            return False
        L.append((ind, "st.answers = [''] * st.players", sp))
        L.append((ind, f"{asked} = []", sp))
        if not s.dynamic and not self.after_step_triggers and not _reads_answers(s.options):
            self.ask_listed_once(L, s, var, slot, asked, ind)
        # Only gone through, and nothing in the loop changes who plays or the zones: no copy needed.
        head = len(L)
        L.append((ind, f"for {p} in {self.iterable(s.iterable, copy=False)}:", sp))
        if self.model.eliminates and s.iterable.kind not in IN_ONLY:  # a player who is out is not asked
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
                    self.enums[id(self.entries[pc][1])] = ask_enumerator(self, s)
            test = f"{self.enums[id(self.entries[pc][1])]}(st, loc)"
            if always_answered(self, s):  # some answer, and listing them cannot fail: nothing to test
                test = "True"
        if cond is not None:
            test = cond if test == "True" else f"{cond} and {test}"
        L.append((ind + 1, f"if {test}:", sp))
        L.append((ind + 2, f"{asked}.append({p})", sp))
        if steps.ASKED_LOCAL:
            steps.asked_local(self, L, head, ind, var, p, [s.cond, *(c for _l, c, _sp in s.options)], s.var,
                              s.iterable, sp)
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
        counting = self.coverage and pc + 1 not in self.entries
        self.resume(pc + 1, after, sp, self.count_answers(s, var) if counting else None)
        if self.after_step_triggers:  # those are checked by the engine before each answer
            return self.pause(L, pc, ind)
        if s.dynamic and not _reads_answers((s.options, s.dynamic)) \
                and not reads_slots((s.options, s.dynamic), {s.var, s.list_slot}):
            self.same_answers_at.add(pc)  # nothing the answers read changes while the players answer
        return self.pause_answers(L, pc, var, slot, asked, ind, sp)

    def answer_match(self, e: m.AnswerMatch) -> str:
        """Source of the list an ``ask``'s answer blocks read (``check/values.py``): for each seat, None
        (not asked) or the index of the answer it gave and that answer's ``for`` values, found right after
        the ask, before any block runs, by listing that player's answers again (the same state as when
        they answered) and taking the one whose label is the answer."""
        made = self.__dict__.setdefault("answer_matchers", {})  # (id of the ask, offset) -> its function
        key = (id(e.ask), self.off)
        if key not in made:
            with self.own_scope():
                made[key] = answer_matcher(self, e.ask)
        return f"{made[key]}(st, loc)"

    def count_answers(self, s: m.AskS, var: int) -> list:
        """(Coverage) The lines that start the block after an ask: for each answer given, the count of the
        answer line it came from, found by listing each player's answers again (the state is as they
        were listed: nothing has run since the last answer); the frame's locals are left as they were."""
        sp = s.span
        with self.own_scope():
            lister = ask_enumerator(self, s, counted=True)
        saved, p, a, label, n = (self.var(x) for x in ("sv", "p", "a", "lb", "n"))
        return [(1, f"{saved} = loc[:]", sp),
                (1, f"for {p}, {a} in enumerate(st.answers):", sp),
                (2, f"if {a}:", sp),
                (3, f"loc[{var}] = {p}", sp),
                (3, f"for {label}, {n} in {lister}(st, loc):", sp),
                (4, f"if {label} == {a}:", sp),
                (5, f"COV[{n}] += 1", sp),
                (5, "break", sp),
                (1, f"loc[:] = {saved}", sp)]

    def ask_listed_once(self, L: list, s: m.AskS, var: int, slot: int, asked: str, ind: int) -> None:
        """While the engine's pickers pick by position: list each asked player's answers once, where
        the ask finds who is asked, and take the answers at once from those lists (see
        ``pause_answers``). The same players asked, the same answers listed (nothing an answer's
        condition reads changes between: it reads no answer), the same picks and locals."""
        sp = s.span
        pc = self.site_pc(s, 2)
        P, p, ok, lists, j, who, i, A = (self.var(x) for x in ("pk", "p", "ok", "ls", "j", "h", "i", "an"))
        asking = self.iterable(s.iterable, copy=False)
        conds = [c for _label, c, _span in s.options if c is not None]
        if answers.ANSWERS_AT_ONCE and s.cond is None and len(conds) < len(s.options) and len(conds) <= 3 \
                and s.iterable.kind in SEATS and membership.never_fails(self, conds, {s.var}):
            made = L.pop() if L[-1][1] == f"{asked} = []" else None  # (the list of who is asked: not needed there)
            L.append((ind, f"{P} = st.picking", sp))
            it, count = self.var("it"), self.var("nq")
            L.append((ind, f"{it} = {asking}", sp))
            L.append((ind, f"{count} = len({it})", sp))
            asking = it
            self.answers_at_once(L, s, var, slot, it, count, (P, p, A), pc, ind)
            if made is not None:
                L.append(made)
        else:
            L.append((ind, f"{P} = st.picking", sp))
        L.append((ind, f"if {P} is not None:", sp))  # (replay too: see pause_answers)
        at = ind + 1
        L.append((at, f"{lists} = []", sp))
        head = len(L)
        L.append((at, f"for {p} in {asking}:", sp))
        if self.model.eliminates and s.iterable.kind not in IN_ONLY:  # a player who is out is not asked
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
        if steps.ASKED_LOCAL:
            steps.asked_local(self, L, head, at, var, p, [s.cond, *(c for _l, c, _sp in s.options)], s.var,
                              s.iterable, sp)
        L.append((at, f"loc[{slot}] = {asked}", sp))
        L.append((at, f"if not {asked}:", sp))  # no one is asked
        self.nobody_asked(L, pc, at + 1, sp)
        L.append((at, f"fr[1] = {pc}", sp))
        L.append((at, f"{A} = st.answers", sp))
        L.append((at, f"{j} = 0", sp))
        self.answer_listed(L, at, pc, sp, (P, A, who, ok, i, j, lists, asked), var, slot)

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
        L.append((ind, f"{A} = st.answers", sp))
        once = pc in self.same_answers_at  # listed when the first player answers, the same for the others
        if once:
            self.answer_same(L, pc, var, slot, enum, (P, A, who, ok, i, asked), ind, sp)
            return True
        L.append((ind, f"{W} = {asked}", sp))
        # everyone asked answers in turn, each answer a step; the block goes on (``taken``) once all have
        L.append((ind, "while True:", sp))
        L.append((ind + 1, f"if st.step >= {P}.limit:", sp))
        L.append((ind + 2, "return left", sp))
        L.append((ind + 1, f"{who} = loc[{var}] = {W}[0]", sp))
        L.append((ind + 1, f"{ok} = {enum}(st, loc)", sp))
        self.answer(L, ind + 1, sp, P, A, who, ok, i)
        L.append((ind + 1, f"{W} = loc[{slot}] = {W}[1:]", sp))
        L.append((ind + 1, "st.step += 1", sp))
        L.append((ind + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((ind + 1, f"if not {W}:", sp))
        L.append((ind + 2, "break", sp))
        L.append((ind, f"fr[1] = {pc + 1}", sp))
        self.taken(L, f"r{self.frame}_{pc + 1}", ind, sp)
        return True

    def emit_choose(self, L: list, s: m.ChooseS, after: tuple, ind: int) -> bool:
        sp = s.span
        k = len(s.options)
        pc = self.site_pc(s, k + 2)
        if pc not in self.entries:
            chooser = self.seat_fn(s.player, "a choice to make", sp) if s.player is not None else None
            spec = ChooseSpec(chooser, [], pc + k + 1)
            spec.distinct = label_proof.labels_distinct(self.model, self.comp.labels, s)
            if not spec.distinct:
                spec.alike = label_proof.kinds_alike(self.model, self.comp.labels, s)
            for n, opt in enumerate(s.options):
                spec.options.append((
                    self.template_fn(opt.label),
                    tuple((slot + self.off, self.iterable_fn(it)) for slot, it in opt.bindings),
                    self.expr_fn(opt.cond) if opt.cond is not None else None,
                    pc + 1 + n,
                    self.public_template_fn(opt.label),
                    label_parser(self.model, self.comp.labels, opt),
                    opt.cond is not None and not reads_slots(opt.cond, {slot for slot, _ in opt.bindings}),
                ))
                spec.spans.append((opt.span, opt.cond_span))
                spec.shown.append(tuple((name, self.value_text_fn(it.type)) for name, (_slot, it)
                                        in zip(opt.names, opt.bindings)))
            self.entries[pc] = (CHOOSE, spec, None, None, sp)
            with self.own_scope():  # functions of their own: no variables of this block
                first = len(self.helpers)
                self.enums[id(spec)] = self.enumerator(s)
                written = loc_writes(self.helpers[first:])  # what listing leaves in ``loc`` (see counted_pick)
                self.member_tests(s, spec, first)
                if any(map(picker_lists_less, s.options)):
                    start = len(self.helpers)
                    self.pickers[id(spec)] = self.enumerator(s, lazy=True)  # what a picker lists instead
                    written |= loc_writes(self.helpers[start:])
                if any(opt.bindings for opt in s.options):  # (without 'for's a kept list of ids is found cheaper)
                    start = len(self.helpers)
                    self.id_listers[id(spec)] = self.enumerator(s, ids=True)  # what an adapter lists with
                    self.id_listers[-id(spec)] = self.enumerator(s, ids=True, only=True)  # ... the ids alone
                    written |= loc_writes(self.helpers[start:])
                self.listing_writes[id(spec)] = written
                kept.planned(self, s, spec, pc)  # options the next decision of this choice may keep
            for n, opt in enumerate(s.options):
                prelude: list = []
                self.cov(("option", id(s), n), 1, prelude)
                self.resume(pc + 1 + n, ("seq", opt.body, 0, self.off, self.ikey, after), opt.span, prelude)
            self.resume(pc + k + 1, after, sp)
        who = None
        if self.model.eliminates and s.player is not None:  # a player who is out takes no decisions
            who = self.var("w")
            self.consts["out_error"] = rounds.out_error
            L.append((ind, f"{who} = {self.seat_ex(s.player, 'a choice to make', sp)}", sp))
            L.append((ind, f"if st.out[{who}]:", sp))
            L.append((ind + 1, f"raise out_error({who}, {self.const(sp)})", sp))
        if self.after_step_triggers:  # those are checked by the engine before each decision
            return self.pause(L, pc, ind)
        return self.pause_pick(L, s, pc, ind, who)

    def pause_pick(self, L: list, s: m.ChooseS, pc: int, ind: int, who: str | None) -> bool:
        """Pause at the choice at ``pc``; but while the engine's pickers pick by position
        (``State.picking`` not ``listed``, see ``Engine._run``), pick here at once: the same options
        listed (or only counted, see ``counted_pick``), the same pick, the same locals bound and the
        same state as the engine's loop would leave, then return ``TAKEN`` (the engine runs the option's block next)."""
        sp = s.span
        spec = self.entries[pc][1]
        L.append((ind, f"fr[1] = {pc}", sp))
        P, n, i, x, v = self.var("pk"), self.var("n"), self.var("i"), self.var("x"), self.var("v")
        L.append((ind, f"{P} = st.picking", sp))
        R, body = self.var("rec"), ind
        if who is None:
            who = "st.current" if s.player is None else self.seat_ex(s.player, "a choice to make", sp)
        nxt = self.var("nx")
        plans = self.counted_pick(s, spec)
        kept.decision(self, L, spec, pc, plans is None, ind, sp)  # what it keeps, if it keeps (kept.py)
        # (TAKEN_DIRECT) where counted with replay's membership tests: each option's values stored and its block
        # named where it is found, not through its index and a tuple of its values
        direct = counted.TAKEN_DIRECT and plans is not None and id(spec) in self.members
        if id(spec) in self.members:  # replay takes the recorded option here (Feed.take), found by its membership tests
            L.append((ind, f"if {P} is None or st.step >= {P}.limit:", sp))
            L.append((ind + 1, "return left", sp))
            L.append((ind, f"{R} = {P}.record", sp))
            o, body = self.var("o"), ind + 1
            L.append((ind, f"if {P}.listed:", sp))  # (its values bound in loc; None: listed in the engine's loop)
            L.append((body, f"{o} = {P}.take(st, {self.const(spec)}, loc) if {P}.take is not None else None", sp))
            L.append((body, f"if {o} is None:", sp))
            L.append((body + 1, "return left", sp))
            L.append((body, f"{x}, {v} = {o}[3] - {pc + 1}, ()", sp))  # (option n resumes at pc + 1 + n)
            if direct:
                self.option_taken(L, spec, x, v, R, who, nxt, body, sp)
            L.append((ind, "else:", sp))
        else:  # pickers by label (replay's) pick among the options listed, in the engine's loop
            L.append((ind, f"if {P} is None or st.step >= {P}.limit or {P}.listed:", sp))
            L.append((ind + 1, "return left", sp))
            L.append((ind, f"{R} = {P}.record", sp))
        apart = None  # (the recorder, the kinds' classes, where): kinds told apart as each range is counted
        if not spec.distinct:  # a recorded label must name one option: the engine's loop renders them all
            if spec.alike is not None and plans is not None and self.apart_as_counted(spec, plans):
                apart = (R, self.const(tuple(spec.alike[1])), spec.alike[0])
            else:
                self.labels_told_apart(L, spec, R, body, sp)

        def stored(j: int, values: list[str], at: int) -> None:
            opt = spec.options[j]
            for (slot, _fn), value in zip(opt[1], values):
                L.append((at, f"loc[{slot}] = {value}", sp))
            self.option_tail(L, opt, R, who, nxt, len(spec.options), at, sp)

        listed = True  # whether the options may have to be listed (as the engine lists them)
        out = body
        if plans is not None:  # counted, the picked one found from its position
            guard = self.members[id(spec)][0]
            at = body
            if guard is not None:  # counted only while listing cannot fail: else listed below
                g = self.var("g")
                L.append((body, f"{g} = 0", sp))
                # (the guard's own source where it can be written here: the same test, without a call)
                tests = membership.listing_guard(self, s) if counted.COUNTED_FILTERS else None
                L.append((body, f"if {' and '.join(tests) if tests else f'{guard}(st, loc)'}:", sp))
                at = body + 1
            self.owners_proven = counted.COUNTED_FILTERS  # (only where counted_pick proves it, see there)
            start = len(L)
            try:
                total, counts = self.count_options(L, plans, at, sp, apart)
            finally:
                self.owners_proven = False
            if counted.COUNTED_FILTERS:
                counted.hoist_current_zones(self, L, start, at, sp)
            if guard is not None:
                L.append((at, f"{g} = {total}", sp))
                total = g
            # else an option always offered: never none
            listed = guard is not None or all(c != "1" for c, _l, _z in counts)
            out = body + listed
            if listed:  # none to count: listed below, as the engine lists them (and skipped)
                L.append((body, f"if {total}:", sp))
            L.append((out, f"{i} = {P}.picks[{who}]({total})", sp))
            L.append((out, f"if not 0 <= {i} < {total}:", sp))
            L.append((out + 1, f"bad_option({i}, {self.const(sp)})", sp))
            if not self.counted_option(L, plans, counts, i, x, v, out, sp, stored if direct else None) and direct:
                self.option_taken(L, spec, x, v, R, who, nxt, out, sp)
            if listed:
                L.append((body, "else:", sp))
        if listed:
            if apart is not None:  # (none counted: any listed are told apart as before)
                self.labels_told_apart(L, spec, R, out, sp)
            self.listed_pick(L, spec, P, n, i, x, v, who, out, sp)
            if direct:
                self.option_taken(L, spec, x, v, R, who, nxt, out, sp)
        if not direct:
            self.option_taken(L, spec, x, v, R, who, nxt, ind, sp)
        k = len(spec.options)
        L.append((ind, "st.step += 1", sp))
        L.append((ind, "st.pending_cache = st.choice_cache = None", sp))
        self.taken(L, nxt if k > 1 else f"r{self.frame}_{spec.options[0][3]}", ind, sp)
        self.kept_now = None
        return True

    def labels_told_apart(self, L: list, spec: ChooseSpec, R: str, ind: int, sp: Any) -> None:
        """While recording (``R``, the picker's recorder), leave a choice whose labels are not proved
        distinct to the engine's loop, which renders them all (a recorded label must name one option);
        unless the kinds listed tell them apart (``label_proof.kinds_alike``), tested on its options listed."""
        if spec.alike is not None:
            listing = f"{self.enums[id(spec)]}(st, loc)"
            L.append((ind, f"if {R} is not None and not kinds_apart({self.const(spec.alike)}, {listing}):", sp))
        else:
            L.append((ind, f"if {R} is not None:", sp))
        L.append((ind + 1, "return left", sp))

    @staticmethod
    def apart_as_counted(spec: ChooseSpec, plans: list) -> bool:
        """Whether every ``for`` over kinds that ``spec.alike`` tests is one of the ranges
        ``count_options`` lists (not the kinds of a ``"kinds"`` form's zone), so that its kinds can be
        told apart there, range by range (``runtime.kinds_differ``) instead of by listing the options."""
        where = spec.alike[0]
        return all(min(where.get(j, (2,))) >= 2 for j, (_cond, form, _opt) in enumerate(plans) if form == "kinds")

    def listed_pick(self, L: list, spec: ChooseSpec, P: str, n: str, i: str, x: str, v: str, who: str, ind: int,
                    sp: Any) -> None:
        """The pick of ``pause_pick`` from the options listed (lazily where a picker lists them so): the
        choice skipped where there are none, else option ``i`` into ``x`` (its index) and ``v`` (its values)."""
        picker = self.pickers.get(id(spec))
        if picker is not None:
            E, Q, kn = self.var("ends"), self.var("opts"), self.kept_now  # (kn: a listing that keeps, kept.py)
            call = f"{picker}(st, loc)" if kn is None else f"{self.kept_listers[id(spec)]}(st, loc, {kn[3]})"
            L.append((ind, f"{n}, {E}, {Q}{'' if kn is None else ', ' + kn[1]} = {call}", sp))
        else:
            Q = self.var("opts")
            L.append((ind, f"{Q} = {self.enums[id(spec)]}(st, loc)", sp))
            L.append((ind, f"{n} = len({Q})", sp))
        L.append((ind, f"if not {Q}:", sp))  # nothing to choose: the choice is skipped
        L.append((ind + 1, "st.pending_cache = st.choice_cache = None", sp))
        L.append((ind + 1, f"fr[1] = {spec.end}", sp))
        L.append((ind + 1, "return left", sp))
        L.append((ind, f"{i} = {P}.picks[{who}]({n})", sp))
        L.append((ind, f"if not 0 <= {i} < {n}:", sp))
        L.append((ind + 1, f"bad_option({i}, {self.const(sp)})", sp))
        if picker is not None:
            self.pick_combination(L, E, Q, i, x, v, ind, sp)
        else:
            L.append((ind, f"{x}, {v} = {Q}[{i}]", sp))

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
        if mem is None or (mem[0] is not None and not counted.COUNTED_FILTERS) \
                or self.tries_bound(s) > runtime.MAX_OPTIONS or len(s.options) > 4:
            return None
        written = self.listing_writes.get(id(spec), set())
        if written and (len(s.options) != 1 or not written <= {slot for slot, _fn in spec.options[0][1]}):
            return None
        plans: list[tuple[Any, str, m.OptionIR]] = []
        for opt in s.options:
            slots = [slot for slot, _it in opt.bindings]
            cond = opt.cond
            form = "one" if not opt.bindings else "kinds" if self.kinds_counted(opt) else "ranges"
            self.range_filters.pop(id(opt), None)
            if cond is not None and reads_slots(cond, set(slots)):
                if always_true(cond):
                    cond = None
                elif counted.COUNTED_FILTERS and form == "ranges":
                    cond = self.last_range_filter(opt, slots)
                    if cond is False:
                        return None
                else:
                    return None
            for i in range(2 if form == "kinds" else 1, len(opt.bindings)):
                if slots_read([opt.bindings[i][1]]) & set(slots[:i]):
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
            and it2.low.value == 1 and same(it2.high, pattern)

    def count_options(self, L: list, plans: list, ind: int, sp: Any,
                      apart: tuple[str, str, dict] | None = None) -> tuple[str, list]:
        """Write the count of the options of a choice planned by ``counted_pick``: returns the source of
        the total and, per option, (its count's source, the sources of its lists and of their sizes,
        the zone of a ``"kinds"`` form or None). With ``apart`` (see ``pause_pick``), while recording,
        a range of kinds whose labels may read alike leaves the choice to the engine's loop (``return left``)."""
        counts = []
        for index, (cond, form, opt) in enumerate(plans):
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
            tested = () if apart is None else apart[2].get(index, ())
            filters = self.range_filters.get(id(opt)) if form == "ranges" else None
            for position, it in enumerate(its, 2 if form == "kinds" else 0):
                lst, size = self.var("l"), self.var("t")
                self.range_listed(L, opt, it, lst, at, filters if position == len(its) - 1 else None)
                L.append((at, f"{size} = len({lst})", opt.span))
                if position in tested:
                    assert apart is not None
                    test = "kinds_differ_kept" if KINDS_DIFFER_KEPT else "kinds_differ"
                    L.append((at, f"if {apart[0]} is not None and not {test}({apart[1]}, {lst}):", opt.span))
                    L.append((at + 1, "return left", opt.span))
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

    def counted_option(self, L: list, plans: list, counts: list, i: str, x: str, v: str, ind: int, sp: Any,
                       stored: Any = None) -> bool:
        """Option ``i`` of a choice counted by ``count_options`` into ``x`` (its index) and ``v`` (its
        values), as listing the options and taking the ``i``-th gives them; or, with ``stored``, handed to
        it (its index, the sources of its values, the indent) where it is found (True: so written)."""
        if all(c == "1" for c, _l, _z in counts):  # options without ranges or conditions: the i-th
            if len(plans) > 1:
                L.append((ind, f"{x} = {i}", sp))
            L.append((ind, f"{v} = ()", sp))
            return False
        at = self.var("at")
        L.append((ind, f"{at} = {i}", sp))
        for j, ((_cond, _form, opt), (c, lists, zone)) in enumerate(zip(plans, counts)):
            last = j == len(plans) - 1
            body = ind
            if not last:
                L.append((ind, f"if {at} < {c}:", opt.span))
                body = ind + 1
            if len(plans) > 1 and stored is None:
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
            if stored is not None:
                stored(j, values, body)
            else:
                L.append((body, f"{v} = ({''.join(f'{e}, ' for e in values)})", opt.span))
            if not last:
                L.append((ind, "else:", opt.span))
                # a later option tests or reads its position among its own
                if j + 2 < len(plans) or any(ls or zn for _c, ls, zn in counts[j + 1:]):
                    L.append((ind + 1, f"{at} -= {c}", opt.span))
                ind += 1
        return stored is not None

    def taken(self, L: list, block: str, ind: int, sp: Any) -> None:
        """After a decision taken in a block: run the next block (where ``fr[1]`` now points) at once,
        with a new step budget, as the engine's loop would; but every CHAIN-th step return ``TAKEN``
        to that loop instead, so that decisions taken one after the other never nest deeper."""
        L.append((ind, f"if st.step % {CHAIN}:", sp))
        passed = f", {self.kept_now[2]}" if self.kept_now is not None else ""  # what the next decision keeps
        L.append((ind + 1, f"return {block}(st, loc, fr, BUDGET{passed})", sp))
        L.append((ind, f"return {TAKEN}", sp))


def _reads_answers(e: Any) -> bool:
    """Whether IR (an expression, or a tuple or list of them) reads what a player answered."""
    if isinstance(e, m.AnswerGet):
        return True
    if isinstance(e, (tuple, list)):
        return any(_reads_answers(x) for x in e)
    if attrs.has(type(e)):
        return any(_reads_answers(getattr(e, f.name)) for f in attrs.fields(type(e)))
    return False


def _in_loop(ctx: tuple) -> bool:
    """Whether a continuation goes back into a loop (``while``, ``repeat``, ``for``) of the frame's rule."""
    while ctx[0] != "ret":
        if ctx[0] == "loop":
            return True
        ctx = ctx[5]
    return False


IN_ONLY = ("players_in", "others_in")
"""The ranges of players that hold only players still in (an ask over one tests no one's ``out`` again)."""
SEATS = ("players", "others", "players_in", "others_in", "players_from")  # ranges of seats only

MAPPED_ANSWERS = True
"""Whether the answers given per value of one binding, each a table's entry for the value, are listed as
``out += map(TABLE.__getitem__, VALUES)`` (``ask_lists.mapped``); the equivalence tests turn it off."""

def ask_enumerator(gen: Any, s: m.AskS, counted: bool = False) -> str:
    """A function listing the answers allowed to the player in the ask's variable, some given per value
    (``counted``: each with the index of its answer line's coverage construct, for ``count_answers``)."""
    name = f"a{next(gen.names)}"
    gen.consts["same_answers"] = same_answers
    lines: list = [(1, "out = []", s.span)]
    shown: list[str] | None = [] if ask_lists.LISTED_AT_ONCE and not counted else None  # the items of one list
    for n, (label, cond, span) in enumerate(s.options):
        dyn = s.dynamic[n] if s.dynamic else None
        tag = f", {gen.construct_of[('answer', id(s), n)]}" if counted else ""
        if dyn is None:
            if cond is None:
                lines.append((1, f"out.append(({gen.const(label)}{tag}))", span))
                if shown is not None:
                    shown.append(gen.const(label))
            else:
                lines.append((1, f"if {gen.ex(cond)}:", span))
                lines.append((2, f"out.append(({gen.const(label)}{tag}))", span))
                shown = None
            continue
        template, bindings = dyn
        mapped = ask_lists.mapped(gen, template, bindings, cond) if MAPPED_ANSWERS and not counted else None
        if mapped is not None:
            lines.append((1, f"out += {mapped}", span))
            if shown is not None:
                shown.append(f"*{mapped}")
            continue
        shown = None
        ind = 1
        bound = []
        try:
            for slot, it in bindings:
                v = gen.var("v")
                lines.append((ind, f"for {v} in {gen.iterable(it, copy=False)}:", span))
                lines.append((ind + 1, f"loc[{slot + gen.off}] = {v}", span))
                if never_negative(it):
                    gen.cse_ids.add(v)
                gen.loop_vars[slot + gen.off] = v  # read from its Python variable in this function
                bound.append(slot + gen.off)
                ind += 1
            if cond is not None:
                lines.append((ind, f"if {gen.ex(cond)}:", span))
                ind += 1
            lines.append((ind, f"out.append(({gen.template(template)}{tag}))", span))
        finally:
            for slot in bound:
                del gen.loop_vars[slot]
    if shown is not None:
        lines = [(1, f"out = [{', '.join(shown)}]", s.span)]
    if not counted and not _distinct_answers(gen, s):
        lines.append((1, "if len(set(out)) != len(out):", s.span))
        lines.append((2, f"same_answers(out, {gen.const(s.span)})", s.span))
    lines.append((1, "return out", s.span))
    if shown is not None and len(lines) == 2:  # nothing between: returned as it is made
        lines = [(1, f"return [{', '.join(shown)}]", s.span)]
    gen.helper(name, "st, loc", lines)
    return name


def always_answered(gen: Any, s: m.AskS) -> bool:
    """Whether listing an ask's answers always gives some and never fails: an answer offered without a
    condition, no other conditions, answers per component of zones found without a check, read apart."""
    if any(cond is not None for _label, cond, _span in s.options):
        return False
    if not any(dyn is None for dyn in s.dynamic) or not _distinct_answers(gen, s):
        return False
    for dyn in s.dynamic:
        if dyn is not None:
            if len(dyn[1]) != 1:  # holes without a range, or several ranges
                return False
            q = dyn[1][0][1].query
            if q.count is not None or q.count_expr is not None or q.quantity == "random" \
                    or not all(gen.plain_zone(sel) for sel in q.zones) \
                    or (q.where is not None and gen.comp.pred_table(q) is None):
                return False
    return True


def _distinct_answers(gen: Any, s: m.AskS) -> bool:
    """Whether an ask's answers can never read alike: fixed labels that differ, and one answer per component
    of zones whose label shows the component's kind, where no two components share a kind."""
    fixed = [label for (label, _c, _sp), dyn in zip(s.options, s.dynamic) if dyn is None]
    dynamic = [dyn for dyn in s.dynamic if dyn is not None]
    if len(dynamic) != 1 or len(set(fixed)) != len(fixed) or not gen.unique_kinds:
        return len(dynamic) == 0 and len(set(fixed)) == len(fixed)
    template, bindings = dynamic[0]
    if len(bindings) != 1:
        return False
    slot, it = bindings[0]
    if it.type != m.COMPONENT or it.query is None or it.kind == "kinds":
        return False
    if len({sel.zone for sel in it.query.zones}) != len(it.query.zones):  # a zone named twice lists its own twice
        return False
    holes = [part.expr if isinstance(part, m.SecretPart) else part for part in template.parts
             if not isinstance(part, str)]
    if len(holes) != 1 or type(holes[0]) is not m.CompKind or holes[0].comp != m.Local(slot, m.COMPONENT):
        return False
    texts = ["".join(kind.display if not isinstance(part, str) else part for part in template.parts)
             for kind in gen.model.kinds]
    return len(set(texts)) == len(texts) and not set(texts) & set(fixed)


def same_answers(out: list[str], span: Any) -> None:
    """Two answers of one ``ask`` that read alike: an error at the ``ask``."""
    seen: set[str] = set()
    for label in out:
        if label in seen:
            raise RulelangError(f"two answers are both labelled {label!r}", span,
                                hint="make every answer's label show what differs between them")
        seen.add(label)
