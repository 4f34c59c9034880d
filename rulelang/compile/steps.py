"""Generated code that counts steps and the loop budget less often (a part of the generator): where the number
of decisions a block takes one after the other is known before the first, and nothing can change the step
limit or read the step meanwhile, the limit is tested once for all of them and the step counted once after
(``ANSWERS_COUNTED``); a loop whose budget cannot run out is written without its tests (``NESTED_BUDGETS``,
``PASSES_ONCE``); the driver's block between turns (``LEAN_DRIVER``, ``TURN_CHAINED``) and the loop finding who an
ask asks (``ASKED_LOCAL``) leaner. Each is a module flag: the equivalence tests compile with it off to compare.
"""

from __future__ import annotations

import re
from typing import Any

import attrs

from rulelang.check import model as m
from rulelang.compile import membership
from rulelang.compile.emit import CHAIN, STOP
from rulelang.compile.runtime import MAX_RANGE

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
    L.append((at, f"if st.step + len({asked}) <= {P}.limit and {P}.record is None and {P}.ones:", sp))
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


NESTED_BUDGETS = True
"""A ``for`` loop whose body counts each pass in the loop budget (``left``) and, besides, only holds loops counted
once (``StatementEmitter.budget_once``: ``if left < M:`` counted pass by pass, ``else:`` counted once after) or
leaves the block with the budget (``return left``, or a trigger's pause counted on its way out): where the budget
left is at least the most it can spend, no pass and no inner loop can run out of it, so the loop runs with its own
count kept but without testing it, and the inner loops without counting pass by pass (``budget_nested``)."""

MAX_BODY = 400
"""The most lines of a loop's body that ``budget_nested`` writes twice."""
_OWN = ["left -= 1", "if left < 0:", "runaway()"]
_INNER = re.compile(r"if left < (\d+):")
_COUNTED = re.compile(r"left -= len\(\w+\)")
_LEAVES = re.compile(r"return (left|[\w.]+\(st, loc, fr, left\))")
_BUDGET = re.compile(r"\bleft\b|\brunaway\b")
_BREAK = re.compile(r"\bbreak\b")
_RETURN = re.compile(r"\breturn\b")
_ENUMERATED = re.compile(r"for (\w+), \w+ in enumerate\((\w+), 1\):")

PASSES_ONCE = True
"""In the loop ``budget_nested`` writes without tests, its own passes counted once, after it (see there)."""


def budget_nested(L: list, head: int, most: int, ind: int, seq: str | None = None) -> None:
    """The loop written from ``L[head]`` (at ``ind``, at most ``most`` passes), whose body starts counting its pass
    (``left -= 1``, a runaway below 0) and otherwise reads the budget only in loops counted once, outside any loop
    of the body, and where it leaves the block: written as it is where the budget left is below the most the loop
    spends (``most`` passes, each its own and the most passes of every inner loop), else as it is without the
    test of its own count and with the inner loops counted once only (no pass can run out of the budget there, so
    they take that way in the loop as written too). Nothing is changed where the body does anything else with the
    budget, or nothing of the above (no inner loop counted once, no trigger, no way out: ``budget_once``'s); the
    budget is the same wherever the block is left. With ``PASSES_ONCE``, where nothing breaks out of
    the loop, its passes are counted once, after it (as ``len`` of its list: of ``seq``, a name for it, where no
    pass leaves the block; of an ``enumerate(list, 1)``'s list, the passes made so far taken from the budget
    returned where one does)."""
    if type(L[head][1]) is not str or not L[head][1].startswith("for ") or most > MAX_RANGE:
        return
    body = L[head + 1:]
    own = next((j for j, (i, text, _sp) in enumerate(body) if i == ind + 1 and text == "left -= 1"), None)
    if own is None or [text for _i, text, _sp in body[own:own + 3]] != _OWN:
        return
    fast: list = [(i, text, sp) for i, text, sp in body[:own + 1]]
    spent, j, loops = 1, own + 3, []  # (a pass's own count, then each inner loop's most)
    while j < len(body):
        i, text, sp = body[j]
        if type(text) is not str:
            return
        while loops and loops[-1] >= i:
            loops.pop()
        inner = _INNER.fullmatch(text)
        if inner is not None:
            end = j + 1
            while end < len(body) and body[end][0] > i:
                end += 1
            if loops or end >= len(body) or body[end][:2] != (i, "else:"):
                return
            stop = end + 1
            while stop < len(body) and body[stop][0] > i:
                stop += 1
            counted = body[end + 1:stop]
            if not counted or counted[-1][0] != i + 1 or not _COUNTED.fullmatch(counted[-1][1]) \
                    or any(type(t) is not str or _BUDGET.search(t) for _i, t, _s in counted[:-1]):
                return
            fast += [(k - 1, t, s) for k, t, s in counted]
            spent += int(inner.group(1))
            j = stop
            continue
        if text == "left -= 1" and not loops:  # (a trigger's run counted on the way out: once a pass at most)
            if [(k, t) for k, t, _s in body[j + 1:j + 2]] != [(i, "if left < 0:")] or len(body) < j + 3 \
                    or body[j + 2][0] != i + 1 or not str(body[j + 2][1]).startswith("runaway("):
                return
            fast += body[j:j + 3]
            spent += 1
            j += 3
            continue
        if _BUDGET.search(text) and not _LEAVES.fullmatch(text.strip()):
            return
        if text.startswith(("for ", "while ")):
            loops.append(i)
        fast.append((i, text, sp))
        j += 1
    if len(body) > MAX_BODY:  # (written twice: not a long one)
        return
    if spent == 1 and not any(_RETURN.search(t) for _i, t, _s in fast):  # (budget_once's, where it can be)
        return
    sp = L[head][2]
    loop, after = L[head][1], []
    if PASSES_ONCE and not any(_BREAK.search(t) for _i, t, _s in fast):  # every pass counted once, after
        passes = _ENUMERATED.fullmatch(loop)
        if passes is not None:  # where the block is left in the loop, i passes counted so far
            fast = [*fast[:own], *[(i, _counted_so_far(t, passes.group(1)), s) for i, t, s in fast[own + 1:]]]
            after = [(ind + 1, f"left -= len({passes.group(2)})", sp)]
        elif seq is not None and not any(_RETURN.search(t) for _i, t, _s in fast) and " in " in loop:
            head_var, iterable = loop[:-1].split(" in ", 1)
            loop = f"{head_var} in ({seq} := {iterable}):"
            fast = [*fast[:own], *fast[own + 1:]]
            after = [(ind + 1, f"left -= len({seq})", sp)]
    L[head:] = [(ind, f"if left < {most * spent}:", sp), *[(i + 1, t, s) for i, t, s in L[head:]],
                (ind, "else:", sp), (ind + 1, loop, sp), *[(i + 1, t, s) for i, t, s in fast], *after]


LEAN_DRIVER = True
"""The driver's block between two turns (``BlockEmitter.driver``) written for the game: where no rule gives a turn
to a player or another turn, the next player is the next seat (nothing else to test; in a game of rounds, seat 0
only); where no trigger is checked between turns, the frame's entry point is set back (``fr[1] = 1``) only on the
ways out before the turn rule is pushed (a runaway of turns, a pause at the turn), the only places where it can be
read before the turn's start sets it to 2 again, which it is already where this block runs (the engine's loop runs
it at ``fr[1] == 2``, nothing calls it); and the turn rule's frame gets its number of locals as written (``NL``
never changes)."""

_CHOOSE_NEXT = ["if st.extra_turn:", "st.extra_turn = False", "elif st.next_player >= 0:",
                "st.current = st.next_player", "st.next_player = -1", "else:",
                "st.current = (st.current + 1) % st.players"]


def lean_driver(model: m.Model, lines: list) -> list:
    """The driver's lines between two turns (``lines``, as ``BlockEmitter.driver`` writes them), written as
    ``LEAN_DRIVER`` says; unchanged where they are not as expected."""
    out = list(lines)
    if [t for _i, t, _s in out[:7]] == _CHOOSE_NEXT and not _turns_given(model):
        out[:7] = [] if out[7:8] and out[7][:2] == (1, "st.current = 0") else [(1, _CHOOSE_NEXT[6], None)]
    texts = [t for _i, t, _s in out]
    if "fr[1] = 1" not in texts or "fr[1] = 2" not in texts:
        return out
    one, two = texts.index("fr[1] = 1"), texts.index("fr[1] = 2")
    between = out[one + 1:two]
    if [t for _i, t, _s in between if not t.startswith("runaway(")] != \
            ["left -= 1", "if left < 0:", "if st.pause_at_turn:", "st.pause_at_turn = False", f"return {STOP}"]:
        return out
    moved: list = []
    for i, t, sp in between:
        if t.startswith(("runaway(", "return ")):
            moved.append((i, "fr[1] = 1", sp))
        moved.append((i, t, sp))
    return [*out[:one], *moved, *out[two + 1:]]  # (``fr[1]`` is 2 where this block runs: the engine's loop runs it so)


def _turns_given(node: Any) -> bool:
    """Whether a model (or part of one) gives a turn to a player or another turn anywhere."""
    if isinstance(node, (tuple, list)):
        return any(_turns_given(x) for x in node)
    if type(node) is m.GiveTurnS or (type(node) is m.SimpleS and node.what == "another turn"):
        return True
    if not attrs.has(type(node)):
        return False
    return any(_turns_given(getattr(node, f.name)) for f in attrs.fields(type(node)) if f.name != "span")


def _counted_so_far(text: str, passes: str) -> str:
    """A line of a loop's body, where it leaves the block with the budget (``return left``, or the budget handed
    to the next block), leaving it with ``passes`` (the passes made so far) taken from it; any other as it is."""
    if not _LEAVES.fullmatch(text):
        return text
    return f"{text} - {passes}" if text == "return left" else f"{text[:-1]} - {passes})"


TURN_CHAINED = False
"""The end of the turn rule's frame (``BlockEmitter.emit_ctx``) runs the driver's block between turns at once, as the
engine's loop would run it next (the frame below is the driver's, at its entry point 2); but every ``CHAIN``-th turn
returns to that loop instead, so that turns run one after the other never nest deeper. Off: it saves ~18 opcodes a
turn, but the deeper Python stack made whole games slower in wall time (two shipped games compiled with it on
against off in one process, interleaved: 1.19 to 1.27 times the time, stepfast's section of benchmarks/README.md)."""


def turn_chained(model: m.Model, L: list, ind: int) -> None:
    """Where the turn rule's frame has just been taken off the stack (``L``, at ``ind``): the driver's block between
    turns called at once, with the budget left, except every ``CHAIN``-th turn (see ``TURN_CHAINED``); nothing where
    the turn rule may run as another frame (a trigger's rule, setup's)."""
    turn = model.turn_rule
    if turn == model.setup_rule or any(t.rule == turn for t in model.triggers):
        return
    L.append((ind, f"if st.turn % {CHAIN}:", None))
    L.append((ind + 1, "fr = st.stack[-1]", None))
    L.append((ind + 1, f"return r{len(model.rules)}_2(st, fr[2], fr, left)", None))


ASKED_LOCAL = True
"""The loop that finds who an ``ask`` asks (``DecisionEmitter.emit_ask``, ``ask_listed_once``) keeps the player in
its Python variable and stores it into the ask's local once, after the loop, where nothing in the loop reads the
local and nothing there can fail (``asked_local``)."""

_LOC = re.compile(r"\bloc\b")


def asked_local(gen: Any, L: list, head: int, ind: int, var: int, p: str, exprs: list, seat: int, it: m.IterIR,
                sp: Any) -> None:
    """The loop from ``L[head]`` (at ``ind``, over the players ``p`` of the range ``it``), whose body starts storing
    each into the ask's local (``loc[var]``): the store made once, after the loop, from ``p`` (which holds what the
    local held before the loop where the range may be empty and it makes no pass), where no other line of the loop
    reads ``loc`` (no helper is handed it) and no test of the ask (``exprs``, None for none, reading the player as
    the slot ``seat``) can fail; the local is then what it was after the last pass, the same as the loop leaves
    it."""
    store = f"loc[{var}] = {p}"
    body = L[head + 1:]
    if L[head][:2] != (ind, L[head][1]) or not body or body[0][:2] != (ind + 1, store) \
            or any(type(t) is not str or _LOC.search(t) for _i, t, _s in body[1:]) \
            or any(i <= ind for i, _t, _s in body) \
            or not membership.never_fails(gen, [e for e in exprs if e is not None], {seat}):
        return
    # (a range never empty makes a pass: the player is bound after it, nothing to hold before)
    before = [] if it.kind == "players" or (it.kind == "others" and gen.model.min_players >= 2) \
        else [(ind, f"{p} = loc[{var}]", sp)]
    L[head:] = [*before, L[head], *body[1:], (ind, store, sp)]
