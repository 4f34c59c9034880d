"""Run-time helpers of generated code for piles on components, markers, tallies and places.

Generated code reaches them through the constants table (see piles.py); those that remember between calls
(``owned``) are made afresh for each loaded program.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable
from itertools import compress
from typing import Any

import attrs

from rulelang.compile.runtime import place_of, player_label
from rulelang.errors import RulelangError
from rulelang.numbers import json_number


def fail(message: str, span: Any, hint: str | None) -> None:
    """Stop the game with an error at ``span``: the rules are incomplete there."""
    raise RulelangError(message, span, hint=hint)


def zone_of_class(lists: list, c: int, owners: list[bool], labels: list[str], name: str, cls: str,
                  span: Any) -> list:
    """The pile ``name`` on component ``c`` (one on every component of a class)."""
    if c is None or c < 0 or not owners[c]:
        raise RulelangError(f"{labels[c] if c is not None and c >= 0 else 'nothing'} has no '{name}' pile", span,
                            hint=f"only each {cls} has one")
    return lists[c]


def place_text(places: list[tuple[str, str, int]], labels: list[str], z: int, owner: int) -> str:
    """How a place is named in narration: a zone, a player's zone, or the pile on a component."""
    display, how, base = places[z]
    if how == "player":
        return f"{player_label(owner)}'s {display}"
    if how == "component":
        return f"{display} {labels[base + owner]}"
    return display


def not_in(st: Any, c: int, where: str, labels: list[str], places: list[tuple[str, str, int]], span: Any) -> None:
    """``move c from ZONE ...`` with ``c`` elsewhere: an error naming where it is."""
    z, owner = place_of(st, c)
    raise RulelangError(f"{labels[c]} is not in {where}: it is in {place_text(places, labels, z, owner)}", span,
                        hint="move it from where it is ('move c to ZONE' takes it from anywhere), or test "
                             "'if any(c in ZONE):' first")


def _readable(st: Any, reads: tuple[tuple[int, ...], tuple[int, ...]]) -> tuple:
    """A copy of what a sheet's lines may read of a state (of the zones and counters, those in ``reads``)."""
    zones, counters = st.zones, st.counters
    return (st.players, st.current,
            [list(map(list.copy, zones[i])) if zones[i] and type(zones[i][0]) is list else zones[i][:]
             for i in reads[0]],
            [counters[i][:] if isinstance(counters[i], list) else counters[i] for i in reads[1]],
            st.faces[:], st.answers[:], st.out[:])


@attrs.frozen
class Owned:
    """The helpers of generated code that remember between calls, for one loaded program, with what they remember.

    ``last_seen``: where a marker was last moved to or found, (zone, owner or -1): a guess that ``find`` checks first
    (a component is in one place only: if the guessed pile of this state holds it, it is there).
    ``last_tally``: [the last rows ``tally_rows`` computed: (the sheet's lines, the zones and counters they read,
    what they could read of the state then, the rows)]; the standings at the end of a game take them if nothing
    they read changed (``tallied_rows``).
    """

    last_seen: dict[int, tuple[int, int]]
    last_tally: list[Any]
    find: Callable[[Any, int, tuple[int, ...]], list[int]]
    move_marker: Callable[..., None]
    tally_rows: Callable[..., list[list[Any]]]
    tallied_rows: Callable[[Any, list], list[list[Any]] | None]


def owned() -> Owned:
    """Fresh helpers for one loaded program, remembering nothing yet (closures: as fast as module globals)."""
    last_seen: dict[int, tuple[int, int]] = {}
    last_tally: list[Any] = [None]

    def find(st: Any, c: int, first: tuple[int, ...]) -> list[int]:
        """Where component ``c`` is, [zone, owner or -1]: where it was last seen, else the zones ``first``
        are searched first."""
        zones = st.zones
        seen = last_seen.get(c)
        if seen is not None and seen[0] < len(zones):
            z, owner = seen
            content = zones[z]
            if owner < 0:
                if c in content:  # a zone of piles holds lists, never a component
                    return [z, -1]
            elif owner < len(content) and type(content[owner]) is list and c in content[owner]:
                return [z, owner]
        for z in first:
            content = zones[z]
            if content and isinstance(content[0], list):
                for i in compress(range(len(content)), content):  # the non-empty piles only
                    if c in content[i]:
                        last_seen[c] = (z, i)
                        return [z, i]
            elif c in content:
                last_seen[c] = (z, -1)
                return [z, -1]
        return place_of(st, c)

    def move_marker(st: Any, c: int, dest: list, ordered: bool, to: tuple[str, list[int]] | None, labels: list[str],
                    places: list[tuple[str, str, int]], first: tuple[int, ...] = (),
                    at: tuple[int, int] | None = None) -> int:
        """Move the one component ``c`` from wherever it is to ``dest`` (narrated as a move to ``to``, which
        is None only when nothing is narrated); ``at``: where ``dest`` is, (zone, owner or -1), if known.
        Returns the zone it was taken from (its index)."""
        z, owner = find(st, c, first)
        source = st.zones[z] if owner < 0 else st.zones[z][owner]
        source.remove(c)
        if ordered:
            dest.append(c)
        else:
            insort(dest, c)
        if at is not None:
            last_seen[c] = at
        if st.log is not None and to is not None:
            st.log.append({"type": "move", "components": [labels[c]], "from": place_text(places, labels, z, owner),
                           "to": to[0], "places": [[z, owner], to[1]]})
        return z

    def tally_rows(st: Any, lines: tuple, nlocals: int, reset: Any,
                   reads: tuple[tuple[int, ...], tuple[int, ...]] | None = None) -> list[list[Any]]:
        """Every player's values of a sheet's lines, computed now (``reads``: the zones and the counters the lines
        read; None: the rows are not kept for the standings)."""
        reset()
        rows = []
        for p in range(st.players):
            loc: list[Any] = [None] * max(1, nlocals)
            loc[0] = p
            rows.append([line(st, loc) for line in lines])
        reset()
        last_tally[0] = None if reads is None else (lines, reads, _readable(st, reads), rows)
        return rows

    def tallied_rows(st: Any, lines: list) -> list[list[Any]] | None:
        """The rows the last tally computed for these sheet lines, if the state still holds what they read (the
        lines are pure: they would give the same values again); None otherwise."""
        last = last_tally[0]
        if last is None or len(last[0]) != len(lines) or any(a is not b for a, b in zip(last[0], lines)):
            return None
        players, current, zones, counters, faces, answers, out = last[2]
        if st.players != players or st.current != current or st.faces != faces or st.answers != answers \
                or st.out != out or [st.zones[i] for i in last[1][0]] != zones \
                or [st.counters[i] for i in last[1][1]] != counters:
            return None
        return last[3]

    return Owned(last_seen, last_tally, find, move_marker, tally_rows, tallied_rows)


def log_tally(st: Any, title: str, labels: list[str], rows: list[list[Any]]) -> None:
    """Narrate a tally: the sheet as a table, one row per player."""
    if st.log is not None:
        st.log.append({"type": "sheet", "sheet": title, "labels": list(labels),
                       "rows": {player_label(p): [json_number(v) for v in row] for p, row in enumerate(rows)}})


def places_points(points: tuple, entries: list[tuple[Any, Any]], me: Any, highest: bool, share: bool) -> Any:
    """The points of ``me`` when ``entries`` (value, key) are ranked; places pay ``points``, then 0."""
    mine = [k for v, k in entries if v == me]
    if not mine:
        return 0
    key = mine[0]
    better = [k for _v, k in entries if (k > key if highest else k < key)]
    if share:
        tied = sum(1 for _v, k in entries if k == key)
        start = len(better)
        return sum(points[start:start + tied]) // tied
    place = len(set(better))
    return points[place] if place < len(points) else 0
