"""Playing a whole game: chance from a seeded stream, choices from agents, events out."""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Callable
from typing import Any

from rulelang.agents.base import Agent
from rulelang.compile.runtime import player_label
from rulelang.engine import state as state_module
from rulelang.engine.determinize import World
from rulelang.engine.engine import Engine
from rulelang.engine.state import (
    Picking,
    State,
    faces_kept,
    faces_kept_digest,
    faces_kept_digest3,
    ones_free,
)
from rulelang.errors import RulelangError
from rulelang.rng import Rng
from rulelang.trace.format import digest_line, written_scheme

_DUMPS = marshal.dumps  # (the lean recorder's digests look them up once, as engine/state.py's do)
_SHA256 = hashlib.sha256

EventSink = Callable[[dict[str, Any], list[dict[str, Any]]], None]

# The recorders' work at each action and turn written lean: a list recorder's test of a step under way
# once, its events added through the list's own method, a turn's digest made without a call of its own
# (the same events: ``_PlainListRecorder`` and ``trace.format.digest_line`` are the writing before).
RECORDER_LEAN = True
# ...and a recorder's turn digests with the faces' bytes kept while they hold the same numbers, where the faces
# hold ints when play begins (``engine.state.faces_kept_digest``).
FACES_KEPT = True
# ...and a list recorder's test of a new turn or private look made at every action and at every step's end,
# without keeping whether a step is under way (``ListRecorder``; a step ends where the next begins, and the
# state does not change between them, so the test finds nothing new there: the same events).
LIST_UNTRACKED = True
# ...and a list recorder's digest of scheme 3 at a new turn without a new look written in its own test
# (``_LeanListRecorder._looks_and_digest``): the bytes and the hash ``faces_kept_digest3`` makes there, without its
# call and the recorder's other tests.
DIGEST_LEAN = True
# ...and those digests' sha256 made as play ends, one after the other (the bytes written at each turn as it begins,
# the digest's place in the list kept by its event, filled in then): the same events once ``play`` returns.
DIGEST_BATCHED = True


def play(
    engine: Engine,
    state: State,
    agents: list[Agent],
    seed: int,
    max_steps: int = 100_000,
    on_event: EventSink | None = None,
    narrate: bool = False,
    digests: bool = False,
    events: list[dict[str, Any]] | None = None,
) -> State:
    """Play ``state`` to the end; call ``on_event(trace_event, narration)`` after each step, or
    (without narration) append every trace event to the list ``events``, in the same order.

    Dice are rolled as soon as the rules roll them (with the chance stream of ``seed``);
    every die still gives its own trace event, in order. With ``digests`` (and ``on_event`` or
    ``events``), a step after which a new turn (or round) has begun is followed by a digest event of
    the table (``digest_line``), as ``rulelang run --trace`` records.
    """
    if events is not None and (on_event is not None or narrate):
        raise ValueError("play: events are kept in a list or handed to on_event with their narration, not both")
    chance = Rng(seed, stream=0)
    if narrate:
        state.log = []
    wants_view = [getattr(agent, "needs_observation", True) for agent in agents]
    by_index = [hasattr(agent, "choose_index") and not wants_view[i] for i, agent in enumerate(agents)]
    searching = [getattr(agent, "searches", False) for agent in agents]
    is_chance = engine.is_chance
    rec = Recorder(on_event, digests, state) if on_event is not None else \
        (_recorder_class())(events, digests, state) if events is not None else None
    state.chance_rng = chance
    state.chance_events = (events if events is not None else []) if rec is not None else None
    if state.log is None and all(by_index):
        # Nobody looks at anything: the engine takes every choice and ask itself, by index (and tells
        # the recorder each one it takes, so that the trace's events are made where they happen).
        picks = [agent.choose_index for agent in agents]  # type: ignore[attr-defined]
        state.picking = Picking(picks, max_steps, record=rec, ones=ones_free(picks))
    try:
        while not state.over:
            if state.step >= max_steps:
                raise RulelangError(
                    f"the game did not end within {max_steps} steps", engine.where_span(state),
                    hint="raise --max-steps, or check the rules' end condition",
                )
            size = engine.choice_size(state)
            if size is not None and by_index[size[0]]:
                # A plain choice for an agent that picks by position: no labels, no Decision.
                seat, i = size[0], agents[size[0]].choose_index(size[1])  # type: ignore[attr-defined]
                if rec is not None and engine.labels_distinct(state):  # (no two options can read alike)
                    rec.took(state, seat, engine.option_label(state, i))
                elif rec is not None:  # a recorded label must name one option: two that read alike are an error now
                    labels = engine.pending(state).labels  # type: ignore[union-attr]
                    labels.check_unique()  # type: ignore[union-attr]
                    rec.took(state, seat, labels[i])  # type: ignore[index]
                engine.apply_index(state, i)
            elif size is None and (asked := engine.ask_answers(state)) is not None and by_index[asked[0]]:
                # An ask answered by an agent that picks by position: no Decision, no observation.
                seat = asked[0]
                i = agents[seat].choose_index(len(asked[1]))  # type: ignore[attr-defined]
                if rec is not None and 0 <= i < len(asked[1]):
                    rec.took(state, seat, asked[1][i])
                engine.answer(state, asked, i)
            elif is_chance(state):
                if rec is not None:
                    rec.begin(state)  # (apply_random keeps its events in state.chance_events)
                engine.apply_random(state, chance, events=rec is not None)
            else:
                d = engine.pending(state)
                assert d is not None
                seat = d.player if d.player is not None else state.current
                seen = engine.observe(state, seat) if wants_view[seat] else {}
                if rec is not None and d.labels is not None and hasattr(d.labels, "check_unique") \
                        and not engine.labels_distinct(state):
                    d.labels.check_unique()
                if searching[seat]:  # a search agent also gets determinizations of its own seat's view
                    action = agents[seat].choose(seen, list(d.labels or []), World(engine, state, seat))  # type: ignore[call-arg]
                else:
                    action = agents[seat].choose(seen, d.labels or [])
                if rec is not None:
                    rec.took(state, seat, action)
                engine.apply(state, action, player=seat)
            if rec is not None:
                rec.end(state)
            if state.log is not None:
                state.log = []
    finally:
        state.chance_rng = None
        state.chance_events = None
        state.picking = None
        if rec is not None:
            rec.finish()
    return state


class Recorder:
    """The trace events of a game being played, step by step, made where each decision is taken: by
    ``play``'s loop, by the engine's loop or inside a generated block (``Picking.record``).

    A step is a decision and what play does until the next: its own event (an action, or the chance
    events of a chance decision), the chance events play made on the way (``State.chance_events``),
    the private looks the rules gave meanwhile, and a digest of the table when a new turn began.
    """

    __slots__ = ("on_event", "digests", "open", "first", "turn", "looks", "looked", "labels", "faces", "scheme")

    def __init__(self, on_event: EventSink, digests: bool, st: State) -> None:
        self.on_event = on_event
        self.digests = digests
        self.open = False  # whether a step is under way
        self.first: dict[str, Any] | None = None  # its own event (an action), None for a chance step
        self.turn = st.turn  # the turn when the step under way began
        self.looked = list(map(len, st.seen))  # how many private looks each player had then
        self.looks = st.looks  # ...and all together (looks are only ever added during play)
        self.labels = [player_label(p) for p in range(st.players)]
        # the faces' bytes kept for the digests (faces_kept_digest), where the faces hold ints and nothing else
        self.faces = [None, None] if FACES_KEPT and digests and faces_kept(st) is not None else None
        self.scheme = written_scheme()  # (the digests' scheme: that of the trace's header, written as play begins)

    def finish(self) -> None:
        """Play is over (or stopped): every event made is complete from now on (see ``_LeanListRecorder``)."""

    def begin(self, st: State) -> None:
        """A chance step begins at the pending decision of ``st``: its events are the chance events
        it makes (the turn and the private looks it begins with are those the step before ended
        with: see ``end``)."""
        self.open = True
        self.first = None

    def took(self, st: State, seat: int, action: str) -> None:
        """``seat`` takes ``action`` (a choice's label or an answer) now, before the step is counted:
        the step before ends, and this one begins with its action event."""
        if self.open:
            self.end(st)
        self.open = True
        self.first = {"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action}

    def end(self, st: State) -> None:
        """The step under way is over: report its events, with the narration logged meanwhile."""
        if not self.open:
            return
        self.open = False
        first = self.first
        made = st.chance_events
        on_event = self.on_event
        if st.turn == self.turn and st.looks == self.looks:  # (no look given, no turn begun)
            if first is not None:
                on_event(first, st.log or [])
                if made:
                    for event in made:  # dice rolled on the way to the next decision
                        on_event(event, [])
                    made.clear()
            elif made:
                on_event(made[0], st.log or [])
                for event in made[1:]:
                    on_event(event, [])
                made.clear()
            return
        events: list[dict[str, Any]] = [first] if first is not None else []
        if made:
            events += made
            made.clear()
        self._looks_and_digest(st, events)
        if events:
            on_event(events[0], st.log or [])
            for event in events[1:]:
                on_event(event, [])

    def _looks_and_digest(self, st: State, events: list[dict[str, Any]]) -> None:
        """Add to a step's ``events`` the private looks the rules gave during it, then the digest of
        the table when a new turn has begun (neither is a step of its own)."""
        if st.looks != self.looks:
            looked = list(map(len, st.seen))
            for p, before in enumerate(self.looked):
                for look in st.seen[p][before:]:
                    events.append({"type": "private", "to": self.labels[p],
                                   "where": look["where"], "seen": look["components"]})
            self.looked = looked
            self.looks = st.looks
        if st.turn != self.turn:
            if self.digests and not st.over:
                if not RECORDER_LEAN:
                    events.append(digest_line(st))
                elif self.scheme == 3:
                    kept = self.faces
                    digest = st.table_digest(3) if kept is None else faces_kept_digest3(st, kept)
                    events.append({"type": "digest", "turn": st.turn, "digest": digest})
                else:
                    kept = self.faces
                    if kept is None:
                        digest = st.table_digest()
                    elif st.faces != kept[0]:  # (changed since the last digest, a die rolled: kept for the next)
                        kept[0], kept[1] = st.faces[:], None
                        digest = st.table_digest()
                    else:
                        digest = faces_kept_digest(st, kept)
                    events.append({"type": "digest", "turn": st.turn, "digest": digest})
            self.turn = st.turn


class ListRecorder(Recorder):
    """A recorder that appends every trace event to one list, in order, and narrates nothing: the
    events are made straight into it (``State.chance_events`` is that list), so a step that gives no
    private look and begins no turn costs nothing at its end.

    Its test of a new turn or look is made at every action and at every step's end (``LIST_UNTRACKED``),
    whether or not a step is under way: where none is, the state is as the last test left it (play's loop
    ends a step at the decision the next one begins with), so the test finds nothing there."""

    __slots__ = ("events", "add", "lean")

    def __init__(self, events: list[dict[str, Any]], digests: bool, st: State) -> None:
        super().__init__(_no_sink, digests, st)
        self.events = events
        self.add = events.append
        # whether its digests are of scheme 3 with the faces kept (DIGEST_LEAN: the kept hash read here)
        self.lean = DIGEST_LEAN and RECORDER_LEAN and self.faces is not None and self.scheme == 3 \
            and state_module.NATIVE

    def took(self, st: State, seat: int, action: str) -> None:
        """``seat`` takes ``action`` now: what the step before gave, then this step's action event."""
        if st.turn != self.turn or st.looks != self.looks:
            self._looks_and_digest(st, self.events)
        self.add({"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action})

    def end(self, st: State) -> None:
        """The step under way is over: add the private looks it gave, and a digest if a turn began."""
        if st.turn != self.turn or st.looks != self.looks:
            self._looks_and_digest(st, self.events)


class _LeanListRecorder(ListRecorder):
    """(``DIGEST_LEAN``) The untracked list recorder whose digests of scheme 3 at a new turn without a new look
    are made in its own test, where its faces are kept (``lean``); with ``DIGEST_BATCHED`` the bytes are written
    there and hashed when play ends (``finish``), each into its own event."""

    __slots__ = ("unhashed",)

    def __init__(self, events: list[dict[str, Any]], digests: bool, st: State) -> None:
        super().__init__(events, digests, st)
        # the digest events made and not yet filled in, each with the hash to go on from (or None) and the bytes
        self.unhashed: list[tuple[dict[str, Any], Any, bytes]] | None = [] if DIGEST_BATCHED else None

    def _looks_and_digest(self, st: State, events: list[dict[str, Any]]) -> None:
        """As ``Recorder._looks_and_digest``, written here (``DIGEST_LEAN``): the new looks of the players whose
        looks grew, then a new turn's digest as ``faces_kept_digest3`` makes it: faces changed since the last
        digest copied and written with the rest of the table in one ``marshal`` call, faces unchanged whose hash
        is kept hashed on from it."""
        if st.looks != self.looks:  # (looks are only ever added: a player's list grown holds the new ones at its end)
            seen, looked, labels = st.seen, self.looked, self.labels
            for p, before in enumerate(looked):
                mine = seen[p]
                if len(mine) != before:
                    for look in mine[before:]:
                        events.append({"type": "private", "to": labels[p], "where": look["where"],
                                       "seen": look["components"]})
                    looked[p] = len(mine)
            self.looks = st.looks
        if st.turn == self.turn:
            return
        if st.over or not self.digests:  # (no digest)
            self.turn = st.turn
            return
        if not self.lean:
            Recorder._looks_and_digest(self, st, events)  # (the looks told: the turn's digest, as it is made there)
            return
        kept = self.faces
        faces = st.faces
        h = kept[1]  # type: ignore[index]
        later = self.unhashed
        try:
            if faces != kept[0] and state_module.DIGEST3_ONE_CALL:  # type: ignore[index]
                kept[0], kept[1] = faces[:], None  # type: ignore[index]
                data = _DUMPS([faces, [st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters]], 2)[5:]
                if later is not None:
                    event = {"type": "digest", "turn": st.turn, "digest": None}
                    later.append((event, None, data))
                    events.append(event)
                    self.turn = st.turn
                    return
                digest = _SHA256(data).digest()[:8].hex()
            elif h is not None and faces == kept[0]:  # type: ignore[index]
                data = _DUMPS([st.players, st.current, st.turn, st.step, st.zones, st.out, st.counters], 2)
                if later is not None:
                    event = {"type": "digest", "turn": st.turn, "digest": None}
                    later.append((event, h, data))
                    events.append(event)
                    self.turn = st.turn
                    return
                h = h.copy()
                h.update(data)
                digest = h.digest()[:8].hex()
            else:  # (their hash made now, or the one-call digest off)
                digest = faces_kept_digest3(st, kept)  # type: ignore[arg-type]
        except ValueError:  # (a fraction: written the careful way)
            digest = st.table_digest(3)
        events.append({"type": "digest", "turn": st.turn, "digest": digest})
        self.turn = st.turn

    def finish(self) -> None:
        """The digests whose bytes were written at their turns hashed now, each into its event (``DIGEST_BATCHED``:
        the sha256 of the same bytes, or the kept hash of the faces gone on with them)."""
        later = self.unhashed
        if not later:
            return
        sha = _SHA256
        for event, h, data in later:
            if h is None:
                event["digest"] = sha(data).digest()[:8].hex()
            else:
                h = h.copy()
                h.update(data)
                event["digest"] = h.digest()[:8].hex()
        later.clear()


class _TrackedListRecorder(ListRecorder):
    """(``LIST_UNTRACKED`` off) The list recorder that keeps whether a step is under way and tests for a new
    turn or look only within one, as it was written before: the comparison of the untracked one."""

    __slots__ = ()

    def took(self, st: State, seat: int, action: str) -> None:
        """``seat`` takes ``action`` now: the step before ends, and this one begins with its action
        event."""
        if self.open:  # (the common case: a step under way, which this one ends; nothing to write then)
            if st.turn != self.turn or st.looks != self.looks:
                self._looks_and_digest(st, self.events)
        else:
            self.open = True
        self.add({"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action})

    def end(self, st: State) -> None:
        """The step under way is over: add the private looks it gave, and a digest if a turn began."""
        if self.open:
            self.open = False
            if st.turn != self.turn or st.looks != self.looks:
                self._looks_and_digest(st, self.events)


class _PlainListRecorder(_TrackedListRecorder):
    """(``RECORDER_LEAN`` off) A list recorder as it was written before: the comparison of the lean one."""

    __slots__ = ()

    def took(self, st: State, seat: int, action: str) -> None:
        """``seat`` takes ``action`` now: the step before ends, and this one begins with its action
        event."""
        if self.open and (st.turn != self.turn or st.looks != self.looks):
            self._looks_and_digest(st, self.events)
        self.open = True
        self.events.append({"type": "action", "step": st.step + 1, "player": self.labels[seat], "action": action})


def _recorder_class() -> type[ListRecorder]:
    """The list recorder of the flags set: ``_LeanListRecorder`` (``DIGEST_LEAN``), ``ListRecorder``
    (``LIST_UNTRACKED``), ``_TrackedListRecorder`` (``RECORDER_LEAN``) or ``_PlainListRecorder``."""
    if not RECORDER_LEAN:
        return _PlainListRecorder
    if not LIST_UNTRACKED:
        return _TrackedListRecorder
    return _LeanListRecorder if DIGEST_LEAN else ListRecorder


def _no_sink(_event: dict[str, Any], _narration: list[dict[str, Any]]) -> None:
    """(A list recorder hands nothing on.)"""
