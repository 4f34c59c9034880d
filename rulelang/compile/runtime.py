"""Small helpers that generated code calls: arithmetic, 'nobody' checks, narration.

They are shared by every game; generated code reaches them by the compiler's own names
(see codegen.py). Where the language's semantics may change (arithmetic, what ``nobody``
may own), the change is made here once.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from typing import Any

from rulelang.errors import RulelangError
from rulelang.numbers import MAX_NUMBER, bounded, divide, json_number, whole


class Runaway(Exception):
    """The rules ran past the engine's step budget without a decision (the engine words the error).

    ``kind``: "loop" (a loop or calls), "turns" (the loop of turns), "triggers" (triggers firing).
    """

    def __init__(self, kind: str = "loop", span: Any = None) -> None:
        super().__init__(kind)
        self.kind = kind
        self.span = span


def runaway(kind: str = "loop", span: Any = None) -> None:
    """Stop a loop (or the turns, or triggers) that ran past the step budget."""
    raise Runaway(kind, span)


def player_label(p: int) -> str:
    """The label of seat ``p`` (0-based): P1, P2, ...; -1 is "nobody"."""
    return f"P{p + 1}" if p >= 0 else "nobody"


def seats_in() -> tuple[dict[tuple[int, ...], tuple[int, ...]], Callable[[list[int]], tuple[int, ...]]]:
    """A fresh cache of one loaded program, the seats still in by the values of a state's ``out`` list (at most
    4096), and the ``players_in`` that fills it (generated code reads the cache first)."""
    kept: dict[tuple[int, ...], tuple[int, ...]] = {}

    def players_in(out: list[int]) -> tuple[int, ...]:
        key = tuple(out)
        seats = tuple(p for p, when in enumerate(key) if not when)
        if len(kept) < 4096:
            kept[key] = seats
        return seats

    return kept, players_in


MAX_RANGE = 100_000
"""The most numbers ``a to b`` may give (each is a value in a list, an option or a step)."""


def number_range(low: Any, high: Any, span: Any) -> range:
    """The numbers ``low to high`` of the language (whole, bounded, at most MAX_RANGE of them)."""
    if type(low) is int and type(high) is int and -MAX_NUMBER <= low and high <= MAX_NUMBER \
            and high - low < MAX_RANGE:  # the common case, at once
        return range(low, high + 1)
    low = whole(bounded(low, span), span, "a range's start")
    high = whole(bounded(high, span), span, "a range's end")
    if high - low >= MAX_RANGE:
        raise RulelangError(f"a range of more than {MAX_RANGE} numbers ({low} to {high})", span,
                            hint="a 'for' or a choice ranges over at most that many numbers")
    return range(low, high + 1)


MAX_OPTIONS = 100_000
"""The most options one choice may offer (or combinations of its ``for`` values it may try)."""


def keep(box: list, value: Any) -> Any:
    """Store ``value`` in the one-element ``box`` and return it."""
    box[0] = value
    return value


class Listed(list):
    """A choice's legal options, as its enumerator lists them, with ``ids``: each option's action id in an
    adapter's fixed action space (listed by the enumerator written with ``ids``, see
    ``OptionEmitter.enumerator``)."""

    __slots__ = ("ids",)

    ids: list[int]


class IdsOnly(list):
    """A choice's legal options as their action ids alone, in the order its enumerator lists them (listed by
    the enumerator written with ``ids`` and ``only``): what an adapter's state keeps in ``State.choice_cache``
    where its tables ask for the ids alone (``engine.choices.IdTables``); the engine lists the options
    themselves again from the same state wherever it needs them."""

    __slots__ = ()


def too_many_options(span: Any) -> None:
    """Stop a choice that offers (or tries) more than MAX_OPTIONS options."""
    raise RulelangError(f"a choice of more than {MAX_OPTIONS} options (or tries of its 'for' values)", span,
                        hint="narrow the choice's 'for' ranges or split it into several choices")


def div(a: Any, b: Any, span: Any) -> Any:
    """``a / b`` of the language: whole-number division of whole numbers, exact with a fraction."""
    if type(a) is int and type(b) is int and b:  # the common case, at once
        return a // b
    return divide(a, b, "/", span)


def mod(a: Any, b: Any, span: Any) -> Any:
    """``a % b`` of the language; by zero is an error."""
    if type(a) is int and type(b) is int and b:  # the common case, at once
        return a % b
    return divide(a, b, "%", span)


def no_seat(what: str, span: Any) -> RulelangError:
    """The error for ``nobody`` used where a seat is needed."""
    return RulelangError(f"nobody has {what}", span, hint="check for 'nobody' first: if p != nobody: ...")


def nobody_has(name: str, span: Any = None) -> Any:
    """Reading a counter or zone of ``nobody`` is an error."""
    raise no_seat(f"a '{name}'", span)


def seat(p: int, what: str, span: Any) -> int:
    """``p`` where a seat is needed: ``nobody`` is an error at ``span``."""
    if p < 0:
        raise no_seat(what, span)
    return p


def lasted(st: Any, p: int) -> int:
    """``lasted(p)``: the turns (or rounds) player ``p`` played through while in the game: those before the one
    she dropped out in, else every one so far, this one included (so the last still in ranks above the others)."""
    out = st.out[p]
    return out - 1 if out else st.turn


def seat_in_game(p: int, players: int, span: Any) -> int:
    """A seat literal ``P3``: an error if the game has fewer players."""
    if p >= players:
        raise RulelangError(f"{player_label(p)} is not in this game: P1 to P{players} play it",
                            span, hint="check how many play first: if players >= ...")
    return p


def counter_of(values: list, p: int, name: str, span: Any = None) -> Any:
    """A per-player counter's value for player ``p``."""
    if p < 0:
        nobody_has(name, span)
    return values[p]


def zone_of(lists: list, p: int, name: str, span: Any) -> list:
    """A per-player zone's list for player ``p``."""
    if p < 0:
        raise no_seat(f"a '{name}'", span)
    return lists[p]


def zone_of_kind(lists: list, c: int, base: int, kind: int, kind_of: list[int], labels: list[str], name: str,
                 kind_name: str, span: Any) -> list:
    """The zone ``name`` of component ``c`` (one for each component of ``kind``)."""
    if kind_of[c] != kind:
        raise RulelangError(f"{labels[c]} has no '{name}' zone", span, hint=f"only each {kind_name} has one")
    return lists[c - base]


def row_at(rows: list, faces: list[int], c: int) -> Any:
    """An attribute of component ``c`` from its row by face + 1 (its face's value, else its kind's)."""
    return rows[c][faces[c] + 1]


def place_name(display: str, z: int, p: int) -> tuple[str, list[int]]:
    """How a player's zone is named in narration, and its place."""
    return f"{player_label(p)}'s {display}", [z, p]


def log_move(log: list, labels: list[str], moved: list[int], came_from: list, to: tuple[str, list[int]]) -> None:
    """Narrate a move: the components, the zones they came from, where they went."""
    log.append({"type": "move", "components": [labels[c] for c in moved],
                "from": ", ".join(t for t, _ in came_from), "to": to[0],
                "places": [p for _, p in came_from] + [to[1]]})


def log_counter(log: list, name: str, who: int | None, old: Any, new: Any, players: Any = False,
                visible: str | None = None, none: str = "no kind") -> None:
    """Narrate a counter's change (values of a player counter by label, fractions as text; ``players`` a
    list of kind (or face) names: a kind counter's values by name, ``none`` (``"no kind"``) for -1;
    ``"text"``: a text counter)."""
    if type(players) is list:
        event = {"type": "counter", "counter": name, "player": player_label(who) if who is not None else None,
                 "old": players[old] if old >= 0 else none, "new": players[new] if new >= 0 else none}
    else:
        shown = player_label if players is True else json_number
        event = {"type": "counter", "counter": name, "player": player_label(who) if who is not None else None,
                 "old": shown(old), "new": shown(new)}
        if players == "text":
            event["text"] = True  # the narration quotes the values (a text "3" is no number)
    if visible is not None:
        event["visible"] = visible  # views hide the values from those who may not see
    log.append(event)


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


def reveal(st: Any, p: int | None, picked: list[int], where: str, labels: list[str], remembered: list[str | None],
           face_names: list[str] | None = None, face_shown: list[str] | None = None) -> None:
    """A look at components: ``p`` (None: every player) remembers the kinds, the narration names them.

    A die (``remembered`` None) is remembered by its label and the face it shows (``Die#26=Two``, as an
    observation shows dice), and narrated with it (``Die#26 2``)."""
    faces = st.faces if face_names is not None else None
    seen = [r if (r := remembered[c]) is not None else
            f"{labels[c]}={face_names[faces[c]]}" if face_names is not None and faces[c] >= 0 else labels[c]
            for c in picked]
    if p is not None:  # one player: the list just made is hers
        st.seen[p].append({"turn": st.turn, "where": where, "components": seen})
        st.looks += 1
    else:
        for who in range(st.players):
            st.seen[who].append({"turn": st.turn, "where": where, "components": list(seen)})
        st.looks += st.players
    if st.log is not None:
        event = {"type": "reveal", "to": player_label(p) if p is not None else "all", "where": where,
                 "components": [labels[c] for c in picked]}
        if face_shown is not None and faces is not None and any(remembered[c] is None and faces[c] >= 0
                                                                for c in picked):
            event["faces"] = [face_shown[faces[c]] if remembered[c] is None and faces[c] >= 0 else None
                              for c in picked]
        st.log.append(event)


def reveal_named(st: Any, p: int | None, picked: list[int], where: str, labels: list[str],
                 remembered: list[str]) -> None:
    """``reveal`` in a game without dice (every component remembered by its kind's name): the same look
    remembered and narrated, the names found in C."""
    seen = list(map(remembered.__getitem__, picked))
    if p is not None:  # one player: the list just made is hers
        st.seen[p].append({"turn": st.turn, "where": where, "components": seen})
        st.looks += 1
    else:
        for who in range(st.players):
            st.seen[who].append({"turn": st.turn, "where": where, "components": list(seen)})
        st.looks += st.players
    if st.log is not None:
        st.log.append({"type": "reveal", "to": player_label(p) if p is not None else "all", "where": where,
                       "components": [labels[c] for c in picked]})


def the_one(ids: list[int], what: str, span: Any) -> int:
    """The one component of a selection (``the card in turnup``); an error unless there is exactly one."""
    if len(ids) == 1:
        return ids[0]
    raise RulelangError(f"'{what}' selects {'no component' if not ids else f'{len(ids)} components'}, not one",
                        span, hint="'the ...' names the only component of its kind there; test "
                                   "'if count(...) == 1:' first, or range over them: 'for c in ...'")


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


SHORT_ZONE = 16
"""The most components of a zone whose kinds ``kinds_in_order`` finds by one look at each (a longer zone: a
search per kind)."""


def kinds_in_order(z: list[int], kind_of: list[int], last: list[int]) -> list[int]:
    """The kinds of the components of ``z``, each once, in kind order, for a zone kept sorted
    (components are numbered kind by kind; ``last[k]`` is kind k's last id): the kind of the first
    component, then of the first one after that kind's last id, and so on."""
    out = []
    i, n = 0, len(z)
    if n <= SHORT_ZONE:  # a short zone: one look at each component beats a search per kind
        seen = -1
        for c in z:
            k = kind_of[c]
            if k != seen:
                out.append(k)
                seen = k
        return out
    while i < n:
        k = kind_of[z[i]]
        out.append(k)
        i = bisect_right(z, last[k], i)
    return out


def kinds_in_order_where(z: list[int], kind_of: list[int], mask: list[bool]) -> list[int]:
    """The kinds of the components ``c`` of ``z`` with ``mask[c]``, each once, in kind order, for a zone
    kept sorted (components are numbered kind by kind, so one kind's components are side by side)."""
    out = []
    seen = -1
    for c in z:
        k = kind_of[c]
        if k != seen and mask[c]:
            out.append(k)
            seen = k
    return out


def shuffle_zone(rng: Any, src: list[int], kind_of: list[int]) -> None:
    """Shuffle the zone ``src`` in place as ``Engine.apply_random`` shuffles it: the kinds' order
    drawn by ``rng.shuffle`` (the same draws), the components of one kind in the places of their
    kind in increasing id order."""
    rng.shuffle(src)  # the same permutation as of their kinds, listed in the same order
    kinds = list(map(kind_of.__getitem__, src))
    if len(set(kinds)) == len(kinds):  # one component of each kind: each stays where it was drawn
        return
    # The places sorted by kind (stably: in order within a kind) take the components sorted by
    # kind, then id: each kind's ids, smallest first, go to its places in order.
    by_kind = sorted(sorted(src), key=kind_of.__getitem__)
    for i, c in zip(sorted(range(len(kinds)), key=kinds.__getitem__), by_kind):
        src[i] = c


def kinds_differ(class_of: list[int], kinds: list[int]) -> bool:
    """Whether ``kinds``, the kinds one ``for`` of a choice's option lists (every one of them offered
    there), hold no two kinds of one display class (``class_of``, see ``label_proof.kinds_alike``):
    then the labels they give that option's place all differ, as ``kinds_apart`` would find."""
    seen: dict[int, int] = {}
    for kind in kinds:
        group = class_of[kind]
        if group >= 0 and seen.setdefault(group, kind) != kind:
            return False
    return True


_KINDS_DIFFER: dict[tuple[tuple[int, ...], tuple[int, ...]], bool] = {}  # (classes, kinds) -> kinds_differ's answer


def kinds_differ_kept(class_of: tuple[int, ...], kinds: list[int]) -> bool:
    """``kinds_differ(class_of, kinds)``, kept by the classes' table and the kinds listed once found (a test a
    recording makes at each such choice, of few kinds listed in few ways): the same answer."""
    key = (class_of, tuple(kinds))
    found = _KINDS_DIFFER.get(key)
    if found is None:
        if len(_KINDS_DIFFER) >= 4096:
            _KINDS_DIFFER.clear()
        found = _KINDS_DIFFER[key] = kinds_differ(class_of, kinds)  # type: ignore[arg-type]
    return found


def kinds_apart(alike: tuple, options: list[tuple[int, tuple]]) -> bool:
    """Whether the listed ``options`` of a choice whose labels differ unless kinds that share a display
    are listed in one place (``ChooseSpec.alike``: see ``label_proof.kinds_alike``) list no two such
    kinds in one place: then their labels all differ (False: they may not)."""
    where, class_of = alike
    first: dict[tuple[int, int, int], int] = {}
    for index, values in options:
        for j in where.get(index, ()):
            kind = values[j]
            group = class_of[kind]
            if group >= 0 and first.setdefault((index, j, group), kind) != kind:
                return False
    return True
