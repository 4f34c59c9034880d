"""Replay: re-run the engine on a trace and say whether every event kept the rules.

Verdicts: ``compliant`` (every action legal when made, every chance outcome possible,
the recorded result matches), ``violation`` (the first event that breaks the rules,
with the rule that forbids it), ``incomplete`` (the trace stops before the game does)
and ``malformed`` (the trace itself is broken: bad JSON, unknown event, ...).

A trace whose header says ``"chance": "seed"`` has every chance outcome checked against the
one its seed's chance stream gives (``Replayer.shadow``); its turn digests say where the
replayed and the recorded games parted (``Verdict.parted``).

A trace is replayed first the fast way (the engine's own loop takes its rolls, draws,
picks, choices and answers, see ``_Feed``), and on any doubt again the careful way, one
event at a time, which finds the first illegal event and says why.
"""

from __future__ import annotations

import functools
import itertools
import json
import operator
import weakref
from pathlib import Path
from typing import Any

import attrs

from rulelang.compile.compiler import player_label
from rulelang.compile.program import CHOOSE, PICK, SHUFFLE
from rulelang.engine.engine import Engine, read_label
from rulelang.engine.position import COUNTED
from rulelang.engine.state import State
from rulelang.errors import ErrorList, RulelangError
from rulelang.game import load_game
from rulelang.rng import SEED_MAX, SEED_MIN, Rng, seed_in_range
from rulelang.safeio import (
    MAX_TRACE_BYTES,
    RULES_SUFFIX,
    InputError,
    decode_text,
    inside,
    json_too_deep,
    long_number_place,
    read_input,
)
from rulelang.syntax.span import Span, register_source
from rulelang.trace.format import CHANCE_FROM_SEED, TRACE_FORMAT
from rulelang.views import redact_chance, redact_counters

CHANCE_KEYS = ("roll", "draw", "shuffle", "first_player", "pick")
EVENT_TYPES = ("chance", "action", "private", "digest", "result", "comment")


class TraceError(RulelangError):
    """A trace that cannot be read as a trace (the rules are not the issue)."""


@attrs.define
class Verdict:
    """The outcome of a replay."""

    status: str  # "compliant", "violation", "incomplete", "malformed"
    message: str
    steps: int = 0
    line: int | None = None
    step: int | None = None
    player: str | None = None
    event: dict[str, Any] | None = None
    reason: str | None = None
    rule: str | None = None
    legal: list[str] | None = None
    legal_total: int | None = None
    pending: str | None = None
    result: dict[str, Any] | None = None
    parted: dict[str, Any] | None = None  # the first turn digest that differs: where the games parted
    warnings: list[str] = attrs.field(factory=list)

    def to_json(self) -> dict[str, Any]:
        """The verdict as one JSON object (fields that do not apply are left out)."""
        data = attrs.asdict(self)
        return {k: v for k, v in data.items() if v is not None and v != []}


@attrs.define
class Trace:
    """A trace read from JSON Lines: its header and its events with their line numbers."""

    path: str
    header: dict[str, Any]
    events: list[tuple[int, dict[str, Any]]]


def read_trace(path: str | Path) -> Trace:
    """Parse a trace file; raise TraceError with the line number on anything malformed."""
    shown = Path(path).as_posix()
    try:
        text = decode_text(read_input(path, "trace file", MAX_TRACE_BYTES, shown), "trace file", shown)
    except InputError as exc:
        raise TraceError(exc.message, exc.span, hint=exc.hint) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    register_source(shown, text)
    header: dict[str, Any] | None = None
    events: list[tuple[int, dict[str, Any]]] = []
    for number, raw in enumerate(text.split("\n"), start=1):
        if not raw.strip() or raw.lstrip().startswith("//"):
            continue
        span = Span(shown, number, 1, number, len(raw) + 1)
        try:
            event = json.loads(raw)
        except RecursionError:
            raise TraceError(f"line {number} nests JSON too deeply", span,
                             hint="each line of a trace is one flat JSON object") from None
        except json.JSONDecodeError as exc:
            raise TraceError(f"line {number} is not valid JSON: {exc.msg}",
                             Span(shown, number, exc.colno, number, exc.colno + 1),
                             hint="each line of a trace is one JSON object") from None
        except ValueError:  # a number of thousands of digits, which Python will not read
            col = long_number_place(raw)[1]
            raise TraceError(f"line {number} holds a number too long to read",
                             Span(shown, number, col, number, col + 1),
                             hint="numbers in a trace are steps, seeds and counts: a few digits each") from None
        if json_too_deep(event):
            raise TraceError(f"line {number} nests JSON too deeply", span,
                             hint="each line of a trace is one flat JSON object") from None
        if not isinstance(event, dict) or not isinstance(event.get("type"), str):
            raise TraceError("each line of a trace must be a JSON object with a \"type\"", span)
        if header is None:
            if event["type"] != "header":
                raise TraceError("a trace starts with a header line", span,
                                 hint='{"type": "header", "format": "' + TRACE_FORMAT + '", "file": ..., "players": N}')
            header = event
            header["_line"] = number
            continue
        if event["type"] not in EVENT_TYPES:
            raise TraceError(f"unknown event type {event['type']!r}", span,
                             hint="event types: " + ", ".join(EVENT_TYPES))
        events.append((number, event))
    if header is None:
        raise TraceError(f"{shown} is empty: a trace starts with a header line")
    fmt = header.get("format")
    if fmt != TRACE_FORMAT:
        raise TraceError(f"unknown trace format {fmt!r}", Span(shown, header["_line"], 1, header["_line"], 2),
                         hint=f"this rulelang reads {TRACE_FORMAT}")
    return Trace(shown, header, events)


def _span(trace: Trace, line: int) -> Span:
    return Span(trace.path, line, 1, line, 2)


def _legal_summary(labels: list[str], limit: int = 12) -> list[str]:
    return labels[:limit]


class Replayer:
    """Replays one trace on one engine, event by event."""

    def __init__(self, engine: Engine, trace: Trace, view: int | None = None, redact: bool = False) -> None:
        self.engine = engine
        self.trace = trace
        self.view = view
        self.redact = redact
        self.face_names = {f.name for f in engine.model.faces}
        self.kind_names = {k.name for k in engine.model.kinds}
        self.state: State | None = None
        self.narration: list[dict[str, Any]] = []
        self.redacted: list[dict[str, Any]] = []  # the trace as ``view`` saw it
        self.public: str | None = None  # the last action's label as others saw it
        self.fast = True  # take the trace's choices and rolls inside the engine's loop (see _Feed)
        self.doubted = False  # the fast way met something it does not take, and the careful way replayed it all
        # the fast way took a choice by its membership test where listing would have left other values in the
        # frame's locals: its state is exact only once the game is over (see run)
        self.loc_differs = False
        # a trace whose header says its chance came from the seed: the seed's chance stream, to check
        # every outcome against (see _seeded); None for free chance (a hand-written or table game)
        self.shadow: Rng | None = None
        self.parted: dict[str, Any] | None = None  # the first turn digest that differs (see _turn_digest)
        self.matched: tuple[int, int] | None = None  # (turn, line) of the last turn digest that matched

    def start(self, narrate: bool = False) -> State:
        """The starting state of the trace (normal setup, or its position)."""
        header = self.trace.header
        line = header["_line"]
        players = header.get("players")
        if not isinstance(players, int) or isinstance(players, bool):
            raise TraceError("the header must say how many players: \"players\": N", _span(self.trace, line))
        position = header.get("position")
        if header.get("view") is not None:
            raise TraceError(f"this trace was redacted for {header['view']}: it lacks what that player could not "
                             "see, so it cannot be checked", _span(self.trace, line),
                             hint="replay the full trace it was made from")
        if isinstance(position, dict) and "players" in position and position["players"] != players:
            raise TraceError(f"the header says {players} players but its position says {position['players']}",
                             _span(self.trace, line))
        seed = header.get("seed") or 0
        if not seed_in_range(seed):
            raise TraceError(f"the header's seed must be a whole number from {SEED_MIN} to {SEED_MAX}",
                             _span(self.trace, line))
        chance = header.get("chance")
        if chance is not None and chance != CHANCE_FROM_SEED:
            raise TraceError(f"unknown \"chance\" in the header: {json.dumps(chance)}", _span(self.trace, line),
                             hint=f'"chance": "{CHANCE_FROM_SEED}" says every outcome was drawn from the seed; '
                                  "leave it out for free chance")
        if chance is not None and not isinstance(header.get("seed"), int):
            raise TraceError(f"the header says \"chance\": \"{CHANCE_FROM_SEED}\" but gives no seed",
                             _span(self.trace, line), hint="give the seed, or leave \"chance\" out for free chance")
        try:
            st = self.engine.new_state(players, narrate=narrate, position=position, setup_seed=seed)
        except RulelangError as exc:
            if exc.span is not None and exc.span.file != self.trace.path:
                raise  # the rules fail as play starts: the error's own place in them says where
            raise TraceError(exc.message, _span(self.trace, line), hint=exc.hint) from None
        # play's chance stream starts afresh after setup (a position's setup draws from a stream of its own)
        self.shadow = Rng(seed, stream=0) if chance is not None else None
        return st

    def run(self, narrate: bool = False) -> Verdict:
        """Replay every event; return the verdict (a rules error met on the way is a verdict too, never raised)."""
        self.current_line: int | None = None
        try:
            if not narrate and not self.redact and self.fast:
                try:
                    self.loc_differs = False
                    verdict = self._parting(self._run(narrate, fast=True))
                    st = self.state
                    if self.loc_differs and not (st is not None and st.over and not st.stack):
                        raise _Doubt()  # a game left unfinished: its state as the careful way leaves it
                    return verdict
                except _Doubt:  # something the fast way does not take: replay again, the careful way
                    self.doubted = True
                    self.state = None
                    self.public = None
                    self.current_line = None
            return self._parting(self._run(narrate))
        except RulelangError as exc:
            line = self.current_line
            where = f" at trace line {line}" if line else ""
            return Verdict("malformed", f"the rules fail{where}, so the trace cannot be checked:\n" + exc.format(),
                           line=line, steps=self.state.step if self.state else 0)

    def _run(self, narrate: bool, fast: bool = False) -> Verdict:
        engine = self.engine
        self.current_line = self.trace.header["_line"]  # a rules error while starting is met at the header
        try:
            st = self.start(narrate)
        except TraceError as exc:
            return Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
        self.state = st
        self.parted = None
        self.matched = None
        self.seats = {player_label(p): p for p in range(st.players)}
        self.private_seen: dict[int, int] = {}
        if narrate and st.log:
            self.narration.extend(st.log)
            st.log = []
        recorded_result: tuple[int, dict[str, Any]] | None = None
        events = self.trace.events
        feed = _Feed(self, st) if fast else None
        at = 0
        while at < len(events):
            if feed is not None and not st.over:
                at = feed.forward(at)
                if at >= len(events):
                    break
            line, event = events[at]
            at += 1
            self.current_line = line
            kind = event["type"]
            if kind == "comment":
                continue
            if recorded_result is not None:
                return self._malformed("event after the result line", line)
            if kind == "private":
                verdict = self._private(line, event)
                if verdict is not None:
                    return verdict
                if self.redact:
                    shown = _strip(event)
                    if shown.get("to") != (player_label(self.view) if self.view is not None else None):
                        shown.pop("seen", None)  # that a player looked is public; what she saw is not
                    self.redacted.append(shown)
                continue
            if kind == "result":
                recorded_result = (line, event)
                continue
            if kind == "digest" and "turn" in event:
                verdict = self._turn_digest(line, event)
                if feed is not None and self.parted is not None:
                    raise _Doubt()  # (the careful way says where the games parted)
                if verdict is not None:
                    return verdict
                continue
            if kind == "digest":
                if feed is not None and self.loc_differs:
                    raise _Doubt()  # the state's locals may not be the careful way's: it checks the digest
                want = event.get("digest")
                if want != st.digest():
                    return self._malformed(f"digest checkpoint does not match: trace says {want!r}, "
                                           f"the replayed state is {st.digest()!r}", line)
                continue
            if st.over:
                return self._malformed("event after the end of the game", line)
            step = event.get("step")
            if step is not None and step != st.step + 1:
                return self._malformed(f"step {step} out of order: expected step {st.step + 1}", line)
            if kind == "chance":
                if self.shadow is not None:  # each outcome checked against the seed's (see _chance)
                    seen = engine.chance_seen_by(st, self.view) if self.redact else True
                    verdict = self._chance(line, event)
                    if verdict is None and self.redact:
                        self.redacted.append(redact_chance(_strip(event), seen))
                elif not self.redact:
                    rolls = _recorded_rolls(events, at - 1, st.step)
                    taken = engine.roll_recorded(st, rolls) if rolls else 0
                    if taken:
                        at += taken - 1
                        self.current_line = events[at - 1][0]
                        if narrate and st.log:
                            self.narration.extend(st.log)
                            st.log = []
                        continue
                    draw = event.get("draw")
                    if (isinstance(draw, str) and isinstance(event.get("outcome"), str) and len(event) <= 4
                            and engine.draw_recorded(st, draw, event["outcome"])):
                        if narrate and st.log:
                            self.narration.extend(st.log)
                            st.log = []
                        continue
                    if feed is not None and "shuffle" in event and self._shuffled(event):
                        continue
                    verdict = self._chance(line, event)
                else:
                    seen = engine.chance_seen_by(st, self.view)
                    verdict = self._chance(line, event)
                    if verdict is None:
                        self.redacted.append(redact_chance(_strip(event), seen))
            else:
                self.public = None
                verdict = self._action(line, event)
                if verdict is None and self.redact:
                    shown = _strip(event)
                    if self.public is not None and event.get("player") != (
                            player_label(self.view) if self.view is not None else None):
                        shown["action"] = self.public
                    self.redacted.append(shown)
            if verdict is not None:
                return verdict
            if narrate and st.log:
                self.narration.extend(st.log)
                st.log = []
        if st.over:
            self.redacted.append({"type": "result", "steps": st.step, "turns": st.turn, **(st.result or {})})
        if not st.over and recorded_result is not None:
            line, event = recorded_result
            d = engine.pending(st)
            assert d is not None
            return Verdict("violation", "the trace records a result, but the game is not over", line=line,
                           step=st.step + 1, steps=st.step, event=_strip(event),
                           reason="the rules still wait for " + (
                               f"{player_label(d.player)} to choose" if d.kind == "choice" and d.player is not None
                               else "a chance outcome"),
                           rule=str(d.span) if d.span else None)
        if not st.over:
            d = engine.pending(st)
            assert d is not None
            who = (f"{player_label(d.player)} to choose" if d.kind == "choice" and d.player is not None
                   else "a chance outcome (" + ", ".join(f"{k} {v}" for k, v in d.event.items()) + ")")
            return Verdict("incomplete", f"the trace ends before the game does: waiting for {who}",
                           steps=st.step, pending=who, legal=_legal_summary(d.labels or []) if d.kind == "choice"
                           else None)
        result = st.result
        assert result is not None
        if recorded_result is not None:
            line, event = recorded_result
            actual = {**result, "steps": st.step, "turns": st.turn}
            for key in ("winners", "standings", "steps", "turns", "payoffs", "outcome"):
                if key in event and event[key] != actual.get(key):
                    return Verdict(
                        "violation", f"the recorded {key} differ from the replayed game's", line=line,
                        steps=st.step, reason=f"trace says {json.dumps(event[key])}, the rules give "
                        f"{json.dumps(actual.get(key))}", result=result,
                    )
            if "digest" in event and event["digest"] != st.digest():
                return self._malformed("the result's digest does not match the replayed final state", line)
        return Verdict("compliant", "every event keeps the rules", steps=st.step, result=result)

    def _shuffled(self, event: dict[str, Any]) -> bool:
        """Apply a recorded shuffle if it is exactly the pending one and possible, as ``Engine.apply``
        applies it (the same order, triggers, step), without building the Decision; False (nothing
        changed) otherwise, and ``_chance`` says what is wrong. Only the fast way uses it: a rules
        error on the way is a doubt (the careful way says what it is)."""
        engine = self.engine
        st = self.state
        assert st is not None
        outcome = event.get("outcome")
        tables = _TABLES.get(engine)
        if type(outcome) is not list or not event.keys() <= _SHUFFLE_KEYS or tables is None or not tables.unique_kinds:
            return False
        paused = engine.paused_at(st, SHUFFLE)
        if paused is None:
            return False
        fr, ins = paused
        if engine.model.zones[ins[2]].name != event["shuffle"]:
            return False
        kind_by_name = engine.kind_by_name
        if not all(type(name) is str and name in kind_by_name for name in outcome):
            return False
        src = ins[1](st, fr[2])
        kind_of = engine.program.kind_of
        names = tables.kind_names
        if sorted(outcome) != sorted([names[kind_of[c]] for c in src]):
            return False  # (not an order of the zone's components)
        by_kind: dict[int, list[int]] = {}
        for c in sorted(src):
            by_kind.setdefault(kind_of[c], []).append(c)
        for lst in by_kind.values():
            lst.reverse()
        src[:] = [by_kind[kind_by_name[name]].pop() for name in outcome]
        fr[1] += 1
        try:
            if ins[3]:
                engine.check_triggers(st, ins[3])
            st.step += 1
            st.pending_cache = st.choice_cache = None
            engine.resume(st)
        except Exception:  # (a rules error after the shuffle: the careful way says what it comes to)
            raise _Doubt() from None
        return True

    def _private(self, line: int, event: dict[str, Any]) -> Verdict | None:
        """A recorded private look must be the next one the rules gave that player."""
        st = self.state
        assert st is not None
        to = event.get("to")
        seat = self.seats.get(to) if isinstance(to, str) else None
        if seat is None:
            return self._malformed(f"a private event names no player of this game: {event.get('to')!r}", line)
        done = self.private_seen.get(seat, 0)
        looks = st.seen[seat]
        if done >= len(looks):
            return self._malformed(f"the trace records a private look by {event['to']} that the rules did not "
                                   "give at this point", line)
        look = looks[done]
        if event.get("seen") != look["components"] or ("where" in event and event["where"] != look["where"]):
            return self._malformed(f"the private look recorded for {event['to']} is not what the rules showed: "
                                   f"{look['where']}: {', '.join(look['components']) or 'nothing'}", line)
        self.private_seen[seat] = done + 1
        return None

    def _turn_digest(self, line: int, event: dict[str, Any]) -> Verdict | None:
        """A turn's digest (written by ``run --trace`` as the turn begins): the first one that differs
        from the replayed table is where the games parted (kept, and told with the verdict); malformed
        when it is not a turn and a digest."""
        st = self.state
        assert st is not None
        turn, want = event.get("turn"), event.get("digest")
        if type(turn) is not int or not isinstance(want, str):
            return self._malformed("a turn's digest needs \"turn\" (a whole number) and \"digest\" (a string)",
                                   line, hint='{"type": "digest", "turn": 3, "digest": "5e5bd9412a197c69"}')
        if self.parted is not None:
            return None
        if want == st.table_digest() and turn == st.turn:
            self.matched = (turn, line)
            return None
        since = self.matched
        if since is None:
            where = f"before turn {turn} (by trace line {line})"
        else:
            when = f"turn {since[0]}" if since[0] >= turn - 1 else f"turns {since[0]} to {turn - 1}"
            where = f"in {when} (between trace lines {since[1]} and {line})"
        text = f"the games parted {where}: the table as turn {turn} began is not the recorded one"
        self.parted = {"turn": turn, "line": line, "step": st.step, "matched_line": since[1] if since else None,
                       "text": text}
        return None

    def _parting(self, verdict: Verdict) -> Verdict:
        """``verdict`` told with where the games parted (the first turn digest that differs), if they did:
        a game that otherwise complies is then a violation there."""
        parted = self.parted
        if parted is None or verdict.status == "malformed" and verdict.line is not None \
                and verdict.line < parted["line"]:
            return verdict
        shown = dict(parted)
        if verdict.status in ("compliant", "incomplete"):
            return Verdict("violation", f"the replayed game is not the recorded one: {parted['text']}",
                           steps=verdict.steps, line=parted["line"], reason=parted["text"], result=verdict.result,
                           parted=shown, warnings=verdict.warnings)
        verdict.message = f"{verdict.message}; {parted['text']}"
        verdict.parted = shown
        return verdict

    def _malformed(self, message: str, line: int, hint: str | None = None) -> Verdict:
        err = TraceError(message, _span(self.trace, line), hint=hint)
        return Verdict("malformed", err.format(), line=line, steps=self.state.step if self.state else 0)

    def _violation(self, line: int, event: dict[str, Any], reason: str, rule: Span | None,
                   player: str | None, legal: list[str] | None) -> Verdict:
        st = self.state
        assert st is not None
        total = len(legal) if legal is not None else None
        shown = event.get("action", event.get("outcome"))
        message = f"step {st.step + 1}: {json.dumps(shown)} breaks the rules"
        return Verdict("violation", message, line=line, step=st.step + 1, player=player, event=event,
                       reason=reason, rule=str(rule) if rule else None,
                       legal=_legal_summary(legal) if legal is not None else None, legal_total=total,
                       steps=st.step)

    def _chance(self, line: int, event: dict[str, Any]) -> Verdict | None:
        engine = self.engine
        st = self.state
        assert st is not None
        if "outcome" not in event:
            return self._malformed("a chance event needs an \"outcome\"", line)
        keys = [k for k in CHANCE_KEYS if k in event]
        if len(keys) != 1:
            return self._malformed("a chance event names what happened: one of " + ", ".join(CHANCE_KEYS), line)
        d = engine.pending(st)
        assert d is not None
        if d.kind != "chance":
            return self._violation(line, event, f"the rules wait for {player_label(d.player or 0)} to choose, "
                                   "not for chance", d.span, None, d.labels)
        key = keys[0]
        expected = d.event
        if key not in expected or expected[key] != event[key]:
            want = ", ".join(k if v is True else f"{k} {v}" for k, v in expected.items())
            return self._violation(line, event, f"the rules call for chance: {want}; the trace has "
                                   f"{key} {event[key]}", d.span, None, None)
        outcome = event["outcome"]
        if key == "roll":
            if not isinstance(outcome, str) or outcome not in self.face_names:
                return self._malformed(f"{outcome!r} is not a face of any die in this game", line,
                                       hint="faces: " + ", ".join(f.name for f in engine.model.faces))
        elif key == "first_player":
            players = [player_label(p) for p in range(st.players)]
            if outcome not in players:
                return self._malformed(f"{outcome!r} is not a player of this game", line,
                                       hint="players: " + ", ".join(players))
        elif key == "shuffle":
            if not isinstance(outcome, list) or not all(isinstance(x, str) and x in self.kind_names
                                                        for x in outcome):
                bad = next((x for x in outcome if not isinstance(x, str) or x not in self.kind_names),
                           outcome) if isinstance(outcome, list) else outcome
                return self._malformed(f"a shuffle lists components by kind; {bad!r} is not one", line)
        elif key == "draw":
            if not isinstance(outcome, str) or outcome not in self.kind_names:
                return self._malformed(f"unknown component {outcome!r}", line)
        if self.shadow is not None:
            verdict = self._seeded(line, event, d)
            if verdict is not None:
                return verdict
        try:
            engine.apply(st, outcome)
        except RulelangError:
            reason, rule = engine.explain(st, outcome)
            return self._violation(line, event, reason, rule, None, d.labels)
        return None

    def _seeded(self, line: int, event: dict[str, Any], d: Any) -> Verdict | None:
        """A violation when the recorded outcome of the pending chance ``d`` is possible but not the one
        the trace's seed gives (drawn from the seed's chance stream as play draws it); None otherwise,
        and an impossible outcome is left to ``apply`` and ``explain``."""
        assert self.shadow is not None
        outcome = event["outcome"]
        expected = d.sample(self.shadow)
        if outcome == expected:
            return None
        if d.pool is not None:
            possible = isinstance(outcome, list) and sorted(outcome) == sorted(d.pool)
        else:
            possible = outcome in (d.raw if d.raw is not None else d.labels or [])
        if not possible:
            return None
        what = next(k for k in CHANCE_KEYS if k in event)
        noun = {"roll": "roll", "draw": "draw", "shuffle": "shuffle", "first_player": "first player",
                "pick": "pick"}[what]
        if what == "shuffle":
            at = next(i for i, (a, b) in enumerate(zip(outcome, expected)) if a != b)
            said = (f"recorded {outcome[at]} in place {at + 1} from the bottom, the seed gives {expected[at]} "
                    f"(the seed's order: {', '.join(expected[:at + 3])}{', ...' if len(expected) > at + 3 else ''})")
        else:
            said = f"recorded {outcome}, the seed gives {expected}"
        reason = f"this {noun} does not follow from the trace's seed: {said}"
        return self._violation(line, event, reason, d.span, None, None)

    def _action(self, line: int, event: dict[str, Any]) -> Verdict | None:
        engine = self.engine
        st = self.state
        assert st is not None
        action = event.get("action")
        who = event.get("player")
        if not isinstance(action, str) or not isinstance(who, str):
            return self._malformed("an action event needs \"player\" and \"action\" strings", line)
        seat = self.seats.get(who)
        if seat is None:
            labels = [player_label(p) for p in range(st.players)]
            return self._malformed(f"unknown player {who!r}", line, hint="players: " + ", ".join(labels))
        if not self.redact and engine.apply_label(st, action, seat):
            return None
        d = engine.pending(st)
        assert d is not None
        if d.kind != "choice":
            return self._violation(line, event, "the rules call for chance here (" +
                                   ", ".join(k if v is True else f"{k} {v}" for k, v in d.event.items())
                                   + "), not a player's action",
                                   d.span, who, None)
        if d.players is not None and seat in d.players:
            legal = engine.legal_actions(st, seat)  # an ask: anyone asked may answer, in any order
            if action not in legal:
                return self._violation(line, event, f"{action!r} is not an answer {who} may give here",
                                       d.span, who, legal)
            engine.apply(st, action, player=seat)
            return None
        if d.player != seat:
            reason, rule = engine.explain(st, action, seat)
            return self._violation(line, event, reason, rule, who, d.labels)
        if action not in (d.labels or []):
            reason, rule = engine.explain(st, action, seat)
            return self._violation(line, event, reason, rule, who, d.labels)
        if self.redact:
            self.public = engine.public_label(st, action)
        engine.apply(st, action)
        return None


class _Doubt(Exception):
    """The fast way of replay met something it does not take, or that may break the rules."""


class _Tables:
    """What the fast way of replay looks up, per engine: the place of each (die, face) on the die, zones by name."""

    def __init__(self, engine: Engine) -> None:
        program = engine.program
        self.places: dict[tuple[str, str], int] = {}  # (die label, face name) -> the face's place on the die
        for label, k in zip(program.component_labels, program.kind_of):
            faces = engine.die_faces[k]
            for f in reversed(faces):
                self.places[label, engine.model.faces[f].name] = faces.index(f)
        self.zones = {z.name: z for z in engine.model.zones}
        face_names = [f.name for f in engine.model.faces]  # (die label) -> its faces' names in order
        self.faces = {label: [face_names[f] for f in engine.die_faces[k]]
                      for label, k in zip(program.component_labels, program.kind_of)}
        # a chance pick asks the stream too (for its place among the players it picks from)
        self.picks = any(ins[0] == PICK for block in engine.code for ins in block if ins)
        self.kind_names = [k.name for k in engine.model.kinds]
        self.unique_kinds = len(set(self.kind_names)) == len(self.kind_names)  # (a shuffle's kinds by name)
        self.read: dict[tuple[int, str], tuple] = {}  # (choice, label) -> what the label reads as (see _rows_for)


_TABLES: weakref.WeakKeyDictionary[Engine, _Tables] = weakref.WeakKeyDictionary()
_ROLL = operator.methodcaller("get", "roll")
_ROLLED = operator.itemgetter("roll", "outcome")
_EVENT = operator.itemgetter(1)


class _Chance:
    """The recorded outcomes as a chance stream: ``below(n)`` gives the next recorded roll's (or pick's)
    place among ``n``, ``weighted`` the next draw's place among the kinds it may draw."""

    __slots__ = ("below", "weighted", "one_of")


class _Feed:
    """The recorded trace as the engine's chance stream, trace-event list and pickers.

    While attached to the state, the engine's own loop (``Engine._run`` with ``State.picking``)
    rolls, draws and picks with the recorded outcomes and takes the recorded choices and
    answers, instead of pausing at each one for replay to apply it. The chance events the
    engine makes on the way are kept as play keeps them (``State.chance_events``) and must
    be, event for event, the ones the trace records before the next action; every choice is
    found among the legal options by its label (``Engine.find_label``), every answer among
    the allowed ones, and every private look is checked at the point replay checks it.
    Anything else (an event out of place or not made here, a rules error, a wrong die)
    raises :class:`_Doubt`, and the trace is replayed again the careful way, which says
    what is wrong.
    """

    def __init__(self, replayer: Replayer, st: State) -> None:
        engine = replayer.engine
        tables = _TABLES.get(engine)
        if tables is None:
            tables = _TABLES[engine] = _Tables(engine)
        self.tables = tables
        self.replayer = replayer
        self.engine = engine
        self.code = engine.code
        self.st = st
        self.lines = replayer.trace.events
        self.evs = list(map(_EVENT, self.lines))
        self.n = len(self.evs)
        self.at = 0
        self.labels = [player_label(p) for p in range(st.players)]
        self.pickers = [functools.partial(self.pick, p) for p in range(st.players)]
        # the engine takes no decision past the trace's last step: it stops there, and replay says what is missing
        self.limit = st.step + self.n
        for event in reversed(self.evs):
            if event.get("type") in ("chance", "action"):
                if type(event.get("step")) is int:
                    self.limit = event["step"]
                break
        self.made: list[dict[str, Any]] = []  # the chance events the engine made since the last action
        self.chance = _Chance()
        self.chance.weighted = self.weighted
        self.chance.one_of = self.one_of
        self.shadow = replayer.shadow  # the seed's chance stream, for a trace whose header says it drew from it
        self.asked: Any = iter(())

    def forward(self, at: int) -> int:
        """Let the engine play on from the trace's event ``at``; the index of the first event it did not take."""
        st = self.st
        self.at = at
        ahead = map(self.evs.__getitem__, range(at, self.n))  # (not islice: that would step over the first ``at``)
        if self.shadow is not None:  # each roll and pick checked against the seed's chance stream
            self.asked = filter(_chance_asked, ahead)
            self.chance.below = self.seeded_below
        elif self.tables.picks:
            places = map(self._place, filter(_chance_asked, ahead))
            self.chance.below = functools.partial(next, places)
        else:  # only rolls ask the stream: look their places up without a Python call each
            places = map(self.tables.places.get, map(_ROLLED, filter(_ROLL, ahead)), itertools.repeat(0))
            self.chance.below = functools.partial(next, places)  # (a die's place past its faces: an IndexError)
        made = self.made
        made.clear()
        st.chance_rng = self.chance
        st.chance_events = made
        # pickers by label (they read the listed options), and the recorded choice taken without listing them
        st.picking = (self.pickers, self.limit, self.take)
        try:
            self.engine.resume(st)
            self._catch_up(None)
        except _Doubt:
            raise
        except Exception as exc:  # a rules error (or a wrong die rolled): the careful way tells which
            raise _Doubt() from exc
        finally:
            st.chance_rng = None
            st.chance_events = None
            st.picking = None
        return self.at

    def seeded_below(self, n: int) -> int:
        """The place of the next recorded roll's face on its die (or of a pick's outcome among the
        ``n`` players picked from), once checked against the seed's chance stream: a doubt when the
        seed gives another face (or player), and the careful way says which."""
        event = next(self.asked)
        r = self.shadow.pick(n)  # type: ignore[union-attr]  # (below(n), the same draw)
        outcome = event["outcome"]
        if "roll" in event:
            faces = self.tables.faces.get(event["roll"])
            if faces is None or len(faces) != n or faces[r] != outcome:
                raise _Doubt()
            return r
        among = event.get("among")
        if type(among) is not list or len(among) != n or among[r] != outcome:
            raise _Doubt()
        return r

    def _place(self, event: dict[str, Any]) -> int:
        """The place of a recorded roll's face on its die, or of a pick's outcome among the players picked from."""
        outcome = event.get("outcome")
        if "roll" in event:
            return self.tables.places.get((event["roll"], outcome), 0) if type(outcome) is str else 0
        among = event.get("among")
        return among.index(outcome) if type(among) is list and outcome in among else 0

    def _catch_up(self, upto: int | None) -> None:
        """Match the chance events the engine made with the trace's next ones (up to the action at
        ``upto``, or as far as they go), checking private looks on the way."""
        evs = self.evs
        made = self.made
        at = self.at
        k = 0
        while upto is not None and at < upto or upto is None and k < len(made):
            if at >= self.n:
                raise _Doubt()  # the engine made chance events the trace does not have
            event = evs[at]
            kind = event["type"]
            if kind == "chance":
                if k >= len(made) or made[k] != event:
                    raise _Doubt()
                k += 1
            elif kind == "private":
                if k < len(made):
                    raise _Doubt()  # a look recorded before a roll made here: checked then, the careful way
                self.at = at
                if self.replayer._private(self.lines[at][0], event) is not None:
                    raise _Doubt()
            elif kind == "digest":  # a turn's digest: the table now, as play wrote it (the careful way tells more)
                if k < len(made) or type(event.get("turn")) is not int or event.get("digest") != self.st.table_digest():
                    raise _Doubt()
                if self.replayer.parted is None:
                    self.replayer.matched = (event["turn"], self.lines[at][0])
            elif kind != "comment":
                raise _Doubt()
            at += 1
        if k != len(made):
            raise _Doubt()
        made.clear()
        self.at = at

    def _next_chance(self) -> dict[str, Any]:
        """The trace's chance event the engine draws now (the events it made since the last action come first)."""
        evs = self.evs
        at = self.at
        skip = len(self.made)  # the chance events made before this one
        while True:
            if at >= self.n:
                raise _Doubt()
            event = evs[at]
            if event["type"] == "chance":
                if not skip:
                    break
                skip -= 1
            at += 1
        return event

    def one_of(self, kinds: list[int]) -> int:
        """The recorded outcome of the random draw the engine makes now, among ``kinds`` (the kind of
        each component it may draw)."""
        event = self._next_chance()
        outcome = event.get("outcome")
        kind = self.engine.kind_by_name.get(outcome) if "draw" in event and type(outcome) is str else None
        if kind is None or kind not in kinds or self.shadow is not None and self.shadow.one_of(kinds) != kind:
            raise _Doubt()  # (not a kind to draw, or not the seed's)
        return kind

    def weighted(self, weights: list[int]) -> int:
        """The recorded outcome of the random draw the engine makes now, as its place among the kinds
        it may draw (in kind order, each as many times as ``weights`` says)."""
        event = self._next_chance()
        name, _, owner = event["draw"].partition(" of ")
        zone = self.tables.zones[name]
        held = self.st.zones[zone.index]
        if owner:
            held = held[self.replayer.seats[owner]] if zone.per_player else None
        kind_of = self.engine.program.kind_of
        counts: dict[int, int] = {}
        for c in held:
            counts[kind_of[c]] = counts.get(kind_of[c], 0) + 1
        kinds = sorted(counts)
        if [counts[k] for k in kinds] != weights:
            raise _Doubt()  # a draw of only some of the zone's components
        i = kinds.index(self.engine.kind_by_name[event["outcome"]])
        if self.shadow is not None and self.shadow.weighted(weights) != i:
            raise _Doubt()  # not the seed's draw
        return i

    def pick(self, seat: int, n: int) -> int:
        """The place among the ``n`` legal options (or answers) of ``seat``'s recorded action now."""
        at = self.at
        made = self.made
        evs = self.evs
        if made:  # the chance events made since the last action must be the trace's next ones
            j = at + len(made)
            if evs[at:j] != made or j >= self.n or evs[j]["type"] != "action":
                j = self._action_after(at)  # (a look or a digest after them: caught up from ``at``)
            else:
                made.clear()
        else:
            j = at
        event = evs[j] if j < self.n else None
        if event is None or event["type"] != "action":
            j = self._action_after(at)
            event = evs[j]
        st = self.st
        action = event["action"]
        if event["player"] != self.labels[seat] or event["step"] != st.step + 1 or len(event) != 4 \
                or type(action) is not str:
            raise _Doubt()
        fr = st.stack[-1]
        ins = self.code[fr[0]][fr[1]]
        if ins[0] == CHOOSE:
            options = st.choice_cache
            if n == 1:  # one legal option: it is the recorded one if its label reads as recorded
                loc = fr[2]
                index, values = options[0]
                opt = ins[1].options[index]
                for (slot, _values), value in zip(opt[1], values):
                    loc[slot] = value
                if opt[0](st, loc) != action:
                    raise _Doubt()
                i = 0
            else:
                i = self.engine.find_label(st, ins[1], fr[2], options, action)
                if i is None:
                    raise _Doubt()
        else:  # an ask: answered in seat order, as play records it (the engine listed the answers allowed)
            i = st.choice_cache.index(action)
        self.at = j + 1
        return i

    def take(self, st: State, spec: Any, loc: list) -> tuple | None:
        """The recorded action, if it is the next event, is an option of the pending choice ``spec`` and
        its chooser's: that option (its ``for`` values bound in ``loc``), found without listing the
        options (``ChooseSpec.member``); None (nothing changed) when it cannot tell, and the options are
        listed as usual."""
        if spec.member is None:  # (a generated block asks whether its choice has membership tests now)
            return None
        at = self.at
        made = self.made
        j = at + len(made)
        if j >= self.n:
            return None
        event = self.evs[j]
        if event["type"] != "action" or made and self.evs[at:j] != made:
            # a private look (or a chance event not made) on the way: matched and checked as ``pick`` does
            j = self._action_after(at)
            event = self.evs[j]
        if event.keys() != _ACTION_KEYS:  # (every event has a type)
            return None
        action = event["action"]
        seat = spec.player(st, loc) if spec.player is not None else st.current
        if event["player"] != self.labels[seat] or event["step"] != st.step + 1 or type(action) is not str:
            return None
        found = _member(st, spec, loc, action, self.tables.read)
        if found is None:
            return None
        opt, exact = found
        if not exact:
            self.replayer.loc_differs = True
        made.clear()
        self.at = j + 1
        return opt

    def _action_after(self, at: int) -> int:
        """The index of the trace's next action from ``at`` on, once the chance events the engine made
        since the last action are matched with the trace's (and private looks on the way checked)."""
        evs = self.evs
        j = at
        while j < self.n and evs[j]["type"] != "action":
            j += 1
        if j >= self.n:
            raise _Doubt()
        self._catch_up(j)
        return j


_READ_MAX = 100_000  # labels read back kept per engine (see _rows_for); a trace's own labels past that are read again
_WHOLE, _RANGE, _READ, _KNOWN = 0, 1, 2, 3  # how _member tries an option: no values, its range's values in order,
# values read, its range's values in order with whether each one's label reads as the action kept (``_known``)


def _rows_for(spec: Any, action: str, read: dict[tuple[int, str], tuple]) -> tuple:
    """The options of ``spec`` whose labels may read as ``action``, in the order ``_member`` tries them,
    each as (how it is tried, its test, its label or None where the label need not be rendered to
    compare, the slots of its ``for`` values, the values its label reads as (for ``_KNOWN``: a table of
    whether each value's label is ``action``, filled as values come), whether taking it leaves
    the locals exact, the option, its range's values); a row ``None`` where ``_member`` gives up. What
    only the label tells (its prefix, its whole text, what it reads back), worked out once per choice
    and label and kept in ``read``."""
    key = (id(spec), action)
    rows = read.get(key)
    if rows is not None:
        return rows
    out: list = []
    for prefix, whole, test, values, exact, read_back, opt in spec.member[1]:
        if whole is not None:
            if action != whole:
                continue  # (a label without holes: every label of this option is that text)
        elif not action.startswith(prefix):
            continue  # (the text its labels start with)
        label, bindings, parser = opt[0], opt[1], opt[5]
        slots = tuple(slot for slot, _values in bindings)
        if not bindings:
            out.append((_WHOLE, test, None if whole is not None else label, slots, (), exact, opt, values))
        elif parser is None:  # a label not read back: this option's values in the order listed, rendered
            if values is None:
                out.append(None)
                break
            if read_back:  # (its label shows only its value, a kind or a component: one text per value)
                out.append((_KNOWN, test, label, slots, {}, exact, opt, values))
            else:
                out.append((_RANGE, test, label, slots, (), exact, opt, values))
        else:
            parsed = read_label(parser, action, len(bindings))
            if parsed is not None:
                # (a label read back through tables renders as read: see CodeGen.member_tests)
                out.append((_READ, test, None if read_back else label, slots, tuple(parsed), exact, opt, values))
    rows = tuple(out)
    if len(read) < _READ_MAX:
        read[key] = rows
    return rows


def _member(st: State, spec: Any, loc: list, action: str,
            read: dict[tuple[int, str], tuple] | None = None) -> tuple[tuple, bool] | None:
    """The option of the pending choice ``spec`` whose label is ``action``, as ``Engine.find_label`` finds
    it among the listed options (the same option, tried in the same order), but testing only that
    option's values with the generated membership test: (the option, whether the locals are now what
    listing and taking it leave); None when none is, or when it cannot tell (or listing might fail
    here). On a match ``loc`` holds the option's values, otherwise it is left as it was. ``read``: the
    labels already read back (see ``_rows_for``)."""
    guard = spec.member[0]
    if read is None:
        read = {}
    rows = read.get((id(spec), action))
    for row in rows if rows is not None else _rows_for(spec, action, read):
        if row is None:
            return None
        how, test, label, slots, parsed, exact, opt, values = row
        if how == _WHOLE:
            if test(st, loc) and (label is None or label(st, loc) == action):
                if guard is not None and not guard(st, loc):
                    return None  # listing might fail here: let it
                return opt, exact
            continue
        if how == _RANGE:  # a label not read back: this option's values in the order listed, rendered
            slot = slots[0]
            saved = loc[slot]
            for value in values(st, loc):
                loc[slot] = value
                if test(st, loc) and label(st, loc) == action:
                    if guard is not None and not guard(st, loc):
                        loc[slot] = saved
                        return None
                    return opt, exact
            loc[slot] = saved
            continue
        if how == _KNOWN:  # as _RANGE, each value's label rendered once per choice and action
            slot = slots[0]
            saved = loc[slot]
            for value in values(st, loc):
                loc[slot] = value
                same = parsed.get(value)
                if same is None:
                    same = parsed[value] = label(st, loc) == action
                if same and test(st, loc):
                    if guard is not None and not guard(st, loc):
                        loc[slot] = saved
                        return None
                    return opt, exact
            loc[slot] = saved
            continue
        if len(slots) == 1:
            slot = slots[0]
            saved1 = loc[slot]
            loc[slot] = parsed[0]
            if test(st, loc) and (label is None or label(st, loc) == action):
                if guard is None or guard(st, loc):
                    return opt, exact
                loc[slot] = saved1
                return None  # listing might fail here: let it
            loc[slot] = saved1
            continue
        saved = [loc[slot] for slot in slots]
        for slot, value in zip(slots, parsed):
            loc[slot] = value
        if test(st, loc) and (label is None or label(st, loc) == action):
            if guard is None or guard(st, loc):
                return opt, exact
            for slot, value in zip(slots, saved):
                loc[slot] = value
            return None  # listing might fail here: let it
        for slot, value in zip(slots, saved):
            loc[slot] = value
    return None


def _chance_asked(event: dict[str, Any]) -> bool:
    """Whether a trace event is a roll or a pick (the chance outcomes the engine asks the stream for by place)."""
    return event.get("type") == "chance" and ("roll" in event or "pick" in event)


_ACTION_KEYS = frozenset(("type", "step", "player", "action"))
_SHUFFLE_KEYS = frozenset(("type", "step", "shuffle", "outcome"))
_ROLL_KEYS = (frozenset(("type", "step", "roll", "outcome")), frozenset(("type", "roll", "outcome")))


def _recorded_rolls(events: list[tuple[int, dict[str, Any]]], start: int, step: int) -> list[tuple[str, str]]:
    """(die, face) of the plain roll events from ``start`` on, each at the step after the one before."""
    rolls = []
    with_step, without_step = _ROLL_KEYS
    for k in range(start, len(events)):
        event = events[k][1]
        step += 1
        keys = event.keys()
        if keys == with_step:
            if event["step"] != step:
                break
        elif keys != without_step:
            break
        roll = event["roll"]
        outcome = event["outcome"]
        if event["type"] != "chance" or type(roll) is not str or type(outcome) is not str:
            break
        rolls.append((roll, outcome))
    return rolls


def _strip(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if not k.startswith("_")}


def _count_items(items: Any) -> int:
    """How many components a position's list names ("2 Star" counts 2)."""
    if not isinstance(items, list):
        return 0
    total = 0
    for item in items:
        m = COUNTED.match(item) if isinstance(item, str) else None
        digits = m.group(1) if m else "1"
        total += int(digits) if len(digits) <= 18 else 10**18  # never thousands of digits (Python refuses them)
    return total


def _seat_of(label: str) -> int:
    """The seat of ``P<n>`` (0-based), -1 for anything else (a seat number of thousands of digits too)."""
    digits = label[1:]
    seat = label.startswith("P") and digits.isascii() and digits.isdecimal() and len(digits) < 6  # "P١" is no seat
    return int(digits) - 1 if seat else -1


def redacted_header(engine: Engine, header: dict[str, Any], view: int | None) -> dict[str, Any]:
    """The header as ``view`` may see it: no seed (it would reveal every hidden draw), nor that chance came from it."""
    out = {k: v for k, v in header.items() if not k.startswith("_") and k not in ("seed", "chance")}
    out["view"] = player_label(view) if view is not None else "spectator"
    position = header.get("position")
    if isinstance(position, dict) and isinstance(position.get("zones"), dict):
        zones = {}
        for key, items in position["zones"].items():
            name, _, owner = str(key).partition(" of ")
            zone = next((z for z in engine.model.zones if z.name == name.strip()), None)
            seat = _seat_of(owner.strip())
            visible = zone is not None and engine.sees([zone.index, seat], view)
            zones[key] = items if visible else {"hidden": _count_items(items)}
        out["position"] = {**position, "zones": zones}
    if isinstance(position, dict) and "counters" in position:
        counters = redact_counters(engine, position["counters"], view)
        out["position"] = {**out.get("position", position), "counters": counters}
    if isinstance(position, dict) and isinstance(position.get("faces"), dict):
        out.setdefault("position", dict(position))["faces"] = _visible_faces(engine, header, position, view)
    return out


def _visible_faces(engine: Engine, header: dict[str, Any], position: dict[str, Any],
                   view: int | None) -> dict[str, Any]:
    """A position's die faces as ``view`` sees them at the start: a die in a zone she cannot see shows "hidden"."""
    faces: dict[str, Any] = position["faces"]
    hidden = {label: "hidden" for label in faces}
    try:
        seed = header.get("seed") or 0
        st = engine.new_state(header.get("players"), position=position, setup_seed=seed if seed_in_range(seed) else 0)
    except (RulelangError, TypeError, ValueError):
        return hidden  # the position does not lay out: show nothing of it
    by_label = {label: c for c, label in enumerate(engine.program.component_labels)}
    return {label: face if label in by_label and engine.sees(engine.place_of(st, by_label[label]), view)
            else "hidden" for label, face in faces.items()}


def _named_rules_file(trace: Trace, path: str) -> str:
    """The rules file a trace's header names, found in the current directory or the trace's, never outside them."""
    span = _span(trace, trace.header["_line"])
    hint = "run from the directory the trace was recorded in, or give the file with --rules"
    named = Path(path)
    if not path or "\x00" in path or not path.endswith(RULES_SUFFIX):
        raise TraceError("the header's \"file\" must name a .rules file", span, hint="give the rules file with --rules")
    if named.is_absolute():  # as recorded by `run /abs/game.rules --trace`: a symbolic link must not lead out
        if not inside(named.parent, named):
            raise TraceError(f"the game file named in the trace leads outside its directory: {path}", span,
                             hint="give the rules file with --rules")
        return path
    for base in (Path("."), Path(trace.path).parent):
        candidate = base / named
        try:
            found = candidate.is_file()
        except (OSError, ValueError):
            found = False
        if found and inside(base, candidate):
            return candidate.as_posix()
    from rulelang.shipped import find_shipped

    shipped = find_shipped(path)  # "games/NAME.rules": a game that ships with rulelang
    if shipped is not None:
        return shipped.as_posix()
    raise TraceError(f"the game file named in the trace does not exist here: {path}", span, hint=hint)


def load_for_trace(trace: Trace, rules: str | None) -> tuple[Engine, list[str]]:
    """Load the game a trace names (or ``rules``); return it and any warnings."""
    header = trace.header
    warnings: list[str] = []
    line = header["_line"]
    path = rules or header.get("file")
    if not isinstance(path, str):
        raise TraceError("the header does not name the game file (\"file\"); give it with --rules",
                         _span(trace, line))
    if rules is None:
        path = _named_rules_file(trace, path)
    options = header.get("options") or {}
    if not isinstance(options, dict):
        raise TraceError("the header's options must be an object", _span(trace, line))
    engine = load_game(path, {k: json.dumps(v) if not isinstance(v, str) else v for k, v in options.items()})
    want = header.get("sha256")
    if isinstance(want, str):
        have = engine.model.files[-1][1]
        if have != want:
            warnings.append(f"{path} has changed since the trace was recorded (sha256 differs)")
    return engine, warnings


def replay_file(path: str | Path, rules: str | None = None) -> Verdict:
    """Read and replay a trace file; every problem becomes a verdict, never an exception."""
    try:
        trace = read_trace(path)
    except TraceError as exc:
        return Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
    try:
        engine, warnings = load_for_trace(trace, rules)
    except TraceError as exc:
        return Verdict("malformed", exc.format(), line=exc.span.line if exc.span else None)
    except (RulelangError, ErrorList) as exc:
        return Verdict("malformed", "the game file does not load:\n" + exc.format())
    verdict = Replayer(engine, trace).run()
    verdict.warnings = warnings + verdict.warnings
    return verdict
