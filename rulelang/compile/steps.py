"""Generated code that counts the steps of a run of decisions once (a part of the generator): where the number
of decisions a block takes one after the other is known before the first, and nothing can change the step
limit or read the step meanwhile, the limit is tested once for all of them and the step counted once after.
"""

from __future__ import annotations

from typing import Any

ANSWERS_COUNTED = True
"""The answers of an ``ask`` taken in a block (``AnswerEmitter.answer_loop``): while the pickers are all
``Rng.pick`` (``Picking.ones``: they read nothing and change nothing, not the limit either) and nothing records,
where the step limit leaves room for every player asked, everyone answers in one loop that only picks and
gives, and the step, who still waits, the player's local and the caches are written once after."""


def answers_counted(gen: Any, L: list, at: int, pc: int, sp: Any, names: tuple[str, ...], var: int, slot: int,
                    lists: str | None, n: str) -> None:
    """Before the answer loop of ``answer_loop`` (at ``at``): the run of answers of the players ``asked`` taken
    at once where ``Picking.ones``, nothing records and ``st.step + len(asked) <= limit`` (the loop would pass
    its limit test for each of them); each from ``lists`` (per player asked, ``answer_listed``) or, without
    ``lists``, from ``ok`` of ``n`` answers (``answer_same``). The same picks, in the same order (a forced
    answer, one allowed, given without a pick as the loop gives it then), the same answers, and the state the
    loop leaves when done: the local ``loc[var]`` the last player asked, nobody waiting, the caches cleared, the
    step counted for each answer; then the next block, as the loop goes on."""
    P, A, who, ok, _i, _j, asked = names
    pks, x = gen.var("pks"), gen.var("x")
    L.append((at, f"if {P}.ones and {P}.record is None and st.step + len({asked}) <= {P}.limit:", sp))
    b = at + 1
    L.append((b, f"{pks} = {P}.picks", sp))
    if lists is None:
        L.append((b, f"if {n} == 1:", sp))
        L.append((b + 1, f"{x} = {ok}[0]", sp))
        L.append((b + 1, f"for {who} in {asked}:", sp))
        L.append((b + 2, f"{A}[{who}] = {x}", sp))
        L.append((b, "else:", sp))
        L.append((b + 1, f"for {who} in {asked}:", sp))
        L.append((b + 2, f"{A}[{who}] = {ok}[{pks}[{who}]({n})]", sp))
    else:
        L.append((b, f"for {who}, {ok} in zip({asked}, {lists}):", sp))
        L.append((b + 1, f"{A}[{who}] = {ok}[0] if ({n} := len({ok})) == 1 else {ok}[{pks}[{who}]({n})]", sp))
    L.append((b, f"loc[{var}] = {who}", sp))
    L.append((b, f"loc[{slot}] = []", sp))
    L.append((b, f"st.step += len({asked})", sp))
    L.append((b, "st.pending_cache = st.choice_cache = None", sp))
    L.append((b, f"fr[1] = {pc + 1}", sp))
    gen.taken(L, f"r{gen.frame}_{pc + 1}", b, sp)
