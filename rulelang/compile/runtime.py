"""Small helpers that generated code calls: arithmetic, 'nobody' checks, narration.

They are shared by every game; generated code reaches them by the compiler's own names
(see codegen.py). Where the language's semantics may change (arithmetic, what ``nobody``
may own), the change is made here once.
"""

from __future__ import annotations

from typing import Any

from rulelang.errors import RulelangError


class Runaway(Exception):
    """The rules ran past the engine's step budget without a decision (the engine words the error)."""


def runaway() -> None:
    """Stop a loop that ran past the step budget."""
    raise Runaway


def player_label(p: int) -> str:
    """The label of seat ``p`` (0-based): P1, P2, ...; -1 is "nobody"."""
    return f"P{p + 1}" if p >= 0 else "nobody"


def div(a: Any, b: Any, span: Any) -> Any:
    """``a / b`` of the language: whole-number division; division by zero is an error."""
    if b == 0:
        raise RulelangError("division by zero", span, hint="guard it with 'if ... > 0'")
    return a // b


def mod(a: Any, b: Any, span: Any) -> Any:
    """``a % b`` of the language; by zero is an error."""
    if b == 0:
        raise RulelangError("division by zero", span, hint="guard it with 'if ... > 0'")
    return a % b


def nobody_has(name: str) -> Any:
    """Reading a counter or zone of ``nobody`` is an error."""
    raise RulelangError(f"nobody has a '{name}'", None, hint="check for 'nobody' first")


def counter_of(values: list, p: int, name: str) -> Any:
    """A per-player counter's value for player ``p``."""
    if p < 0:
        nobody_has(name)
    return values[p]


def zone_of(lists: list, p: int, name: str, span: Any) -> list:
    """A per-player zone's list for player ``p``."""
    if p < 0:
        raise RulelangError(f"nobody has a '{name}'", span, hint="check for 'nobody' first")
    return lists[p]


def zone_of_kind(lists: list, c: int, base: int, kind: int, kind_of: list[int], labels: list[str], name: str,
                 kind_name: str, span: Any) -> list:
    """The zone ``name`` of component ``c`` (one for each component of ``kind``)."""
    if kind_of[c] != kind:
        raise RulelangError(f"{labels[c]} has no '{name}' zone", span, hint=f"only each {kind_name} has one")
    return lists[c - base]


def place_name(display: str, z: int, p: int) -> tuple[str, list[int]]:
    """How a player's zone is named in narration, and its place."""
    return f"{player_label(p)}'s {display}", [z, p]


def log_move(log: list, labels: list[str], moved: list[int], came_from: list, to: tuple[str, list[int]]) -> None:
    """Narrate a move: the components, the zones they came from, where they went."""
    log.append({"type": "move", "components": [labels[c] for c in moved],
                "from": ", ".join(t for t, _ in came_from), "to": to[0],
                "places": [p for _, p in came_from] + [to[1]]})


def log_counter(log: list, name: str, who: int | None, old: Any, new: Any) -> None:
    """Narrate a counter's change."""
    log.append({"type": "counter", "counter": name,
                "player": player_label(who) if who is not None else None, "old": old, "new": new})


def end_turn(st: Any, turn_rule: int) -> None:
    """Unwind the continuation to the driver, past the turn rule's frame."""
    stack = st.stack
    while stack and stack[-1][0] != turn_rule:
        stack.pop()
    stack.pop()


def fire(st: Any, fired: list[tuple[int, int | None]], rules: list[int], nlocals: list[int],
         titles: list[str]) -> bool:
    """Push the rules of triggers that just fired (the first to fire runs first); narrate them."""
    stack = st.stack
    for t, p in reversed(fired):
        rule = rules[t]
        loc = [None] * max(1, nlocals[rule])
        if p is not None:
            loc[0] = p
        stack.append([rule, 0, loc])
    if st.log is not None:
        for t, p in fired:
            who = f" ({player_label(p)})" if p is not None else ""
            st.log.append({"type": "trigger", "rule": titles[t] + who})
    return True


def reveal(st: Any, p: int, picked: list[int], where: str, labels: list[str], remembered: list[str]) -> None:
    """A private look: ``p`` remembers the kinds, the narration names the components."""
    st.seen[p].append({"turn": st.turn, "where": where, "components": [remembered[c] for c in picked]})
    if st.log is not None:
        st.log.append({"type": "reveal", "to": player_label(p), "where": where,
                       "components": [labels[c] for c in picked]})


def place_of(st: Any, c: int) -> list[int]:
    """Where component ``c`` is: [zone index, owner seat or -1]."""
    for z, content in enumerate(st.zones):
        if content and isinstance(content[0], list):
            for p, lst in enumerate(content):
                if c in lst:
                    return [z, p]
        elif c in content:
            return [z, -1]
    raise AssertionError(f"component {c} is nowhere")  # pragma: no cover
