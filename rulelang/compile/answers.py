"""Generated code for the answers of an ``ask`` taken in a block (a part of the generator, mixed into
``CodeGen``): the players asked answer in turn, from answers listed for each beforehand or listed once
for all, each answer a step; who still waits and the decision caches are written when the loop is left.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m
from rulelang.compile import steps
from rulelang.compile.analysis import never_negative

# The answers of an ask listed and picked in one loop while the pickers read nothing (answers_at_once).
ANSWERS_AT_ONCE = True
# ...and so while play records, each answer told to the recorder as the one-at-a-time loop tells it.
ANSWERS_RECORDED = True
# ...and so with blind pickers (``Picking.blind``: a search's rollout), called for the forced answers too.
ANSWERS_BLIND = True
# The ranges of players that hold only players still in (as decisions.IN_ONLY).
_IN_ONLY = ("players_in", "others_in")


class AnswerEmitter:
    """The loops in which the players asked by an ``ask`` answer (mixed into ``CodeGen``)."""

    def answer_listed(self, L: list, at: int, pc: int, sp: Any, names: tuple[str, ...], var: int,
                      slot: int) -> None:
        """The loop in which the players asked answer in turn from their answers listed beforehand
        (``ask_listed_once``), in every mode (see ``answer``); who still waits (``loc[slot]``) and the
        decision caches are written once, when the loop is left (done, step limit, error)."""
        P, A, who, ok, i, j, lists, asked = names
        n = self.var("n")
        each = [f"{ok} = {lists}[{j}]", f"{n} = len({ok})"]
        self.answer_loop(L, at, pc, sp, (P, A, who, ok, i, j, asked), var, slot, each, n, f"{n} == 1 and {P}.ones",
                         "st.pending_cache = st.choice_cache = None", lists)

    def answer_loop(self, L: list, at: int, pc: int, sp: Any, names: tuple[str, ...], var: int, slot: int,
                    each: list[str], n: str, one: str, on_error: str, lists: str | None = None,
                    slow: list[str] | tuple = ()) -> None:
        """The players ``asked`` answering in turn (index ``j``, seat ``who``), ``each`` written before each
        answer (``answer``, with ``n`` and ``one``); left at the step limit with who still waits
        (``loc[slot]``) and the caches cleared, on an error with who still waits and ``on_error``, and when
        done with nobody waiting, to the next entry point. (``steps.ANSWERS_COUNTED``: taken at once before,
        where they can be, each from ``lists`` if given, else from ``ok``; the lines ``slow`` written after,
        before the loop.)"""
        P, A, who, ok, i, j, asked = names
        if steps.ANSWERS_COUNTED:
            steps.answers_counted(self, L, at, pc, sp, names, var, slot, lists, n)
        L.extend((at, line, sp) for line in slow)
        waiting = f"loc[{slot}] = {asked}[{j}:]"
        L.append((at, "try:", sp))
        b = at + 1
        L.append((b, f"for {j}, {who} in enumerate({asked}):", sp))
        L.append((b + 1, f"if st.step >= {P}.limit:", sp))
        L.append((b + 2, f"if {j}:", sp))
        L.append((b + 3, waiting, sp))
        L.append((b + 3, "st.pending_cache = st.choice_cache = None", sp))
        L.append((b + 2, "return left", sp))
        L.append((b + 1, f"loc[{var}] = {who}", sp))
        L.extend((b + 1, line, sp) for line in each)
        self.answer(L, b + 1, sp, P, A, who, ok, i, n, one)
        L.append((b + 1, "st.step += 1", sp))
        L.append((at, "except BaseException:", sp))  # left on an error: the state as after each answer
        L.append((b, f"if {j}:", sp))
        L.append((b + 1, waiting, sp))
        L.append((b + 1, on_error, sp))
        L.append((b, "raise", sp))
        L.append((at, f"loc[{slot}] = []", sp))
        L.append((at, "st.pending_cache = st.choice_cache = None", sp))
        L.append((at, f"fr[1] = {pc + 1}", sp))
        self.taken(L, f"r{self.frame}_{pc + 1}", at, sp)

    def answer(self, L: list, at: int, sp: Any, P: str, A: str, who: str, ok: str, i: str, n: str | None = None,
               one: str | None = None) -> None:
        """One answer taken in a block in every mode of ``State.picking``: the answers allowed kept where
        pickers by label (replay's) read them, the answer picked, told to a recorder, and given. With
        ``n`` (a local holding ``len(ok)``) and ``one`` (the source of a test that ``ok`` holds one answer
        and the pickers give 0 then without doing anything else, ``Picking.ones``): that answer is taken
        without calling the picker."""
        size = n if n is not None else f"len({ok})"
        L.append((at, f"st.choice_cache = {ok}", sp))
        pick = at
        if one is not None:
            L.append((at, f"if {one}:", sp))
            L.append((at + 1, f"{i} = 0", sp))
            L.append((at, "else:", sp))
            pick = at + 1
        L.append((pick, f"{i} = {P}.picks[{who}]({size})", sp))
        L.append((pick, f"if not 0 <= {i} < {size}:", sp))
        L.append((pick + 1, f"bad_answer({i}, {self.const(sp)})", sp))
        L.append((at, f"if {P}.record is not None:", sp))
        L.append((at + 1, f"{P}.record.took(st, {who}, {ok}[{i}])", sp))
        L.append((at, f"{A}[{who}] = {ok}[{i}]", sp))

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

    def answer_same(self, L: list, pc: int, var: int, slot: int, enum: str, names: tuple[str, ...], ind: int,
                    sp: Any) -> None:
        """For ``pause_answers``, where every player asked has the same answers (nothing they read changes
        while the players answer): those listed once, for the first player asked, once the step limit lets
        them answer; then everyone answers in turn from that list. Who still waits (``loc[slot]``) and
        the decision caches are written when the loop is left (done, step limit, error), as the engine's
        loop leaves them after each answer."""
        P, A, who, ok, i, asked = names
        n, j, one = self.var("n"), self.var("j"), self.var("one")
        L.append((ind, f"if st.step >= {P}.limit:", sp))
        L.append((ind + 1, "return left", sp))
        L.append((ind, f"loc[{var}] = {asked}[0]", sp))
        L.append((ind, f"{ok} = {enum}(st, loc)", sp))
        L.append((ind, f"{n} = len({ok})", sp))
        slow = [f"{one} = {n} == 1 and {P}.ones", f"{j} = 0"]  # (for the loop only: after steps.answers_counted's)
        if not steps.ANSWERS_COUNTED:
            L.extend((ind, line, sp) for line in slow)
            slow = []
        self.answer_loop(L, ind, pc, sp, (P, A, who, ok, i, j, asked), var, slot, [], n, one, "st.pending_cache = None",
                         slow=slow)

    def answers_at_once(self, L: list, s: m.AskS, var: int, slot: int, it: str, size: str, names: tuple[str, ...],
                        pc: int, ind: int) -> None:
        """For ``ask_listed_once`` (an ask over seats with an answer always allowed, conditions that can never
        fail, ``membership.never_fails``, and no test of who is asked):
        while the pickers read nothing of the state (``Picking.ones``: all ``Rng.pick``; or
        ``Picking.blind``, a rollout's, with ``ANSWERS_BLIND``) and the step limit leaves room for everyone
        in ``it`` (``size`` of them) to answer, each player's answers are listed and picked in one loop, the
        forced ones (one allowed) given without a pick where ``ones`` holds, and the state written once
        after: the same picks in the same order, the same answers, locals, step and caches as the two loops
        leave. While play records (``Picking.record``, with ``ANSWERS_RECORDED``), the same loop tells the
        recorder each answer just before it is given, the step counted per answer (as the one-at-a-time
        loop counts it: the same events, the same digests)."""
        sp = s.span
        P, p, A = names
        pks, k, last = self.var("pks"), self.var("k"), self.var("q")
        conds = [c for _label, c, _span in s.options if c is not None]
        out = self.model.eliminates and s.iterable.kind not in _IN_ONLY
        outcomes = []
        for bits in range(1 << len(conds)):
            allowed, n = [], 0
            for label, c, _span in s.options:
                if c is None or bits >> n & 1:
                    allowed.append(label)
                n += c is not None
            outcomes.append(tuple(allowed))
        count = k if out else size
        loop = (p, A, pks, k, last, it)
        room = f"st.step + {size} <= {P}.limit"
        L.append((ind, f"if {P} is not None and {P}.ones and {P}.record is None and {room}:", sp))
        at = ind + 1
        L.append((at, f"{pks} = {P}.picks", sp))
        L.append((at, f"{A} = st.answers", sp))
        self.at_once_loop(L, s, var, at, loop, outcomes, out, None)
        L.append((at, f"st.step += {count}", sp))
        self.at_once_left(L, s, var, slot, pc, at, last if out else p, count)
        if not (ANSWERS_RECORDED or ANSWERS_BLIND):
            return
        # While play records, or with blind pickers: each answer made, told and counted in turn
        rc, a, one = self.var("rc"), self.var("a"), self.var("one")
        mode = f"({P}.ones or {P}.blind)" if ANSWERS_RECORDED and ANSWERS_BLIND else f"{P}.ones" if ANSWERS_RECORDED \
            else f"{P}.blind and {P}.record is None"
        L.append((ind, f"if {P} is not None and {mode} and {room}:", sp))
        L.append((at, f"{pks} = {P}.picks", sp))
        L.append((at, f"{A} = st.answers", sp))
        if ANSWERS_RECORDED:
            L.append((at, f"{rc} = {P}.record", sp))
        if ANSWERS_BLIND:
            L.append((at, f"{one} = {P}.ones", sp))
        self.at_once_loop(L, s, var, at, loop, outcomes, out,
                          (rc if ANSWERS_RECORDED else None, a, one if ANSWERS_BLIND else None))
        self.at_once_left(L, s, var, slot, pc, at, last if out else p, count)

    def at_once_left(self, L: list, s: m.AskS, var: int, slot: int, pc: int, at: int, last: str, count: str) -> None:
        """(answers_at_once) After the loop: no one asked (``count`` none), or the ask left as the two loops
        leave it (``last``: the last player asked), to the next entry point."""
        sp = s.span
        L.append((at, f"if not {count}:", sp))  # no one is asked
        L.append((at + 1, f"loc[{slot}] = []", sp))
        self.nobody_asked(L, pc, at + 1, sp)
        L.append((at, f"loc[{var}] = {last}", sp))
        L.append((at, f"loc[{slot}] = []", sp))
        L.append((at, "st.pending_cache = st.choice_cache = None", sp))
        L.append((at, f"fr[1] = {pc + 1}", sp))
        self.taken(L, f"r{self.frame}_{pc + 1}", at, sp)

    def at_once_loop(self, L: list, s: m.AskS, var: int, at: int, names: tuple[str, ...], outcomes: list[tuple],
                     out: bool, each: tuple[str | None, str, str | None] | None) -> None:
        """(answers_at_once) The loop over the players asked (``p`` in ``it``) giving each an answer (``A[p]``)
        among those ``outcomes`` (one per outcome of the conditions, in bits), skipping the players out where
        ``out`` (counting those asked in ``k``, the last in ``last``). With ``each`` (``rc``, ``a``, ``one``:
        locals), the answer first made in ``a``, the recorder ``rc`` told of it (where ``rc`` is not None)
        and the step counted, per answer; where ``one`` (the local of ``Picking.ones``) is false, the
        picker called for a forced answer too (a blind picker counts its calls)."""
        sp = s.span
        p, A, pks, k, last, it = names
        rc, a, one = each if each is not None else (None, None, None)
        conds = [c for _label, c, _span in s.options if c is not None]
        if out:
            L.append((at, f"{k} = 0", sp))
        L.append((at, f"for {p} in {it}:", sp))
        if out:  # a player who is out is not asked
            L.append((at + 1, f"if st.out[{p}]:", sp))
            L.append((at + 2, "continue", sp))
            L.append((at + 1, f"{k} += 1", sp))
            L.append((at + 1, f"{last} = {p}", sp))
        self.loop_vars[var] = p  # the tests written here read the player from its variable (as emit_ask's)
        if never_negative(s.iterable):
            self.cse_ids.add(p)
        target = f"{A}[{p}]" if a is None else a

        def given(at: int, allowed: tuple) -> None:
            if len(allowed) == 1:
                if one is not None:
                    L.append((at, f"if not {one}:", sp))
                    L.append((at + 1, f"{pks}[{p}](1)", sp))
                L.append((at, f"{target} = {self.const(allowed[0])}", sp))
            else:
                L.append((at, f"{target} = {self.table(allowed, 'at')}[{pks}[{p}]({len(allowed)})]", sp))

        try:
            if not conds:
                given(at + 1, outcomes[0])
            elif len(conds) == 1:
                L.append((at + 1, f"if {self.ex(conds[0])}:", sp))
                given(at + 2, outcomes[1])
                L.append((at + 1, "else:", sp))
                given(at + 2, outcomes[0])
            else:
                ok, n = self.var("ok"), self.var("n")
                bits = " | ".join(f"({1 << b} if {self.ex(c)} else 0)" for b, c in enumerate(conds))
                L.append((at + 1, f"{ok} = {self.table(outcomes, 'at')}[{bits}]", sp))
                L.append((at + 1, f"{n} = len({ok})", sp))
                forced = f"{n} == 1 and {one}" if one is not None else f"{n} == 1"
                L.append((at + 1, f"{target} = {ok}[0] if {forced} else {ok}[{pks}[{p}]({n})]", sp))
        finally:
            del self.loop_vars[var]
        if a is not None:
            if rc is not None:
                L.append((at + 1, f"if {rc} is not None:", sp))
                L.append((at + 2, f"{rc}.took(st, {p}, {a})", sp))
            L.append((at + 1, f"{A}[{p}] = {a}", sp))
            L.append((at + 1, "st.step += 1", sp))
