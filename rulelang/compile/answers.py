"""Generated code for the answers of an ``ask`` taken in a block (a part of the generator, mixed into
``CodeGen``): the players asked answer in turn, from answers listed for each beforehand or listed once
for all, each answer a step; who still waits and the decision caches are written when the loop is left.
"""

from __future__ import annotations

from typing import Any

from rulelang.check import model as m


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
                         "st.pending_cache = st.choice_cache = None")

    def answer_loop(self, L: list, at: int, pc: int, sp: Any, names: tuple[str, ...], var: int, slot: int,
                    each: list[str], n: str, one: str, on_error: str) -> None:
        """The players ``asked`` answering in turn (index ``j``, seat ``who``), ``each`` written before each
        answer (``answer``, with ``n`` and ``one``); left at the step limit with who still waits
        (``loc[slot]``) and the caches cleared, on an error with who still waits and ``on_error``, and when
        done with nobody waiting, to the next entry point."""
        P, A, who, ok, i, j, asked = names
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
        L.append((ind, f"{one} = {n} == 1 and {P}.ones", sp))
        L.append((ind, f"{j} = 0", sp))
        self.answer_loop(L, ind, pc, sp, (P, A, who, ok, i, j, asked), var, slot, [], n, one, "st.pending_cache = None")
