"""Replay: re-run the engine on a trace and say whether every event kept the rules.

Verdicts: ``compliant`` (every action legal when made, every chance outcome possible,
the recorded result matches), ``violation`` (the first event that breaks the rules,
with the rule that forbids it), ``incomplete`` (the trace stops before the game does)
and ``malformed`` (the trace itself is broken: bad JSON, unknown event, ...).

A trace whose header says ``"chance": "seed"`` has every chance outcome checked against the
one its seed's chance stream gives (``Replayer.shadow``); its turn digests say where the
replayed and the recorded games parted (``Verdict.parted``).

A trace is replayed first the fast way (the engine's own loop takes its rolls, draws,
picks, choices and answers, see ``rulelang.trace.feed``), and on any doubt again the careful way, one
event at a time, which finds the first illegal event and says why.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.errors import ErrorList, RulelangError
from rulelang.rng import SEED_MAX, SEED_MIN, Rng, seed_in_range
from rulelang.trace.feed import Doubt, Feed, recorded_rolls, seeded_shuffle, shuffled
from rulelang.trace.format import CHANCE_FROM_SEED
from rulelang.trace.header import load_for_trace, redacted_header
from rulelang.trace.reading import CHANCE_KEYS, EVENT_TYPES, Trace, TraceError, line_span, read_trace
from rulelang.trace.verdict import Verdict, Verdicts, legal_summary
from rulelang.views import redact_chance

__all__ = ["CHANCE_KEYS", "EVENT_TYPES", "Replayer", "Trace", "TraceError", "Verdict", "load_for_trace", "read_trace",
           "redacted_header", "replay_file"]


class Replayer(Verdicts):
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
        self.fast = True  # take the trace's choices and rolls inside the engine's loop (see Feed)
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
            raise TraceError("the header must say how many players: \"players\": N", line_span(self.trace, line))
        position = header.get("position")
        if header.get("view") is not None:
            raise TraceError(f"this trace was redacted for {header['view']}: it lacks what that player could not "
                             "see, so it cannot be checked", line_span(self.trace, line),
                             hint="replay the full trace it was made from")
        if isinstance(position, dict) and "players" in position and position["players"] != players:
            raise TraceError(f"the header says {players} players but its position says {position['players']}",
                             line_span(self.trace, line))
        seed = header.get("seed") or 0
        if not seed_in_range(seed):
            raise TraceError(f"the header's seed must be a whole number from {SEED_MIN} to {SEED_MAX}",
                             line_span(self.trace, line))
        chance = header.get("chance")
        if chance is not None and chance != CHANCE_FROM_SEED:
            raise TraceError(f"unknown \"chance\" in the header: {json.dumps(chance)}", line_span(self.trace, line),
                             hint=f'"chance": "{CHANCE_FROM_SEED}" says every outcome was drawn from the seed; '
                                  "leave it out for free chance")
        if chance is not None and not isinstance(header.get("seed"), int):
            raise TraceError(f"the header says \"chance\": \"{CHANCE_FROM_SEED}\" but gives no seed",
                             line_span(self.trace, line), hint="give the seed, or leave \"chance\" out for free chance")
        try:
            st = self.engine.new_state(players, narrate=narrate, position=position, setup_seed=seed)
        except RulelangError as exc:
            if exc.span is not None and exc.span.file != self.trace.path:
                raise  # the rules fail as play starts: the error's own place in them says where
            raise TraceError(exc.message, line_span(self.trace, line), hint=exc.hint) from None
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
                        raise Doubt()  # a game left unfinished: its state as the careful way leaves it
                    return verdict
                except Doubt:  # something the fast way does not take: replay again, the careful way
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
        feed = Feed(self, st) if fast else None
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
                verdict = self.check_private(line, event)
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
                    raise Doubt()  # (the careful way says where the games parted)
                if verdict is not None:
                    return verdict
                continue
            if kind == "digest":
                if feed is not None and self.loc_differs:
                    raise Doubt()  # the state's locals may not be the careful way's: it checks the digest
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
                if feed is not None and self.shadow is not None and "shuffle" in event \
                        and seeded_shuffle(engine, st, event, self.shadow):
                    continue  # (shuffled with the seed's stream, as play did: the same order, or a doubt)
                if self.shadow is not None:  # each outcome checked against the seed's (see _chance)
                    seen = engine.chance_seen_by(st, self.view) if self.redact else True
                    verdict = self._chance(line, event)
                    if verdict is None and self.redact:
                        self.redacted.append(redact_chance(_strip(event), seen))
                elif not self.redact:
                    rolls = recorded_rolls(events, at - 1, st.step)
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
                    if feed is not None and "shuffle" in event and shuffled(engine, st, event):
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
                           steps=st.step, pending=who, legal=legal_summary(d.labels or []) if d.kind == "choice"
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

    def check_private(self, line: int, event: dict[str, Any]) -> Verdict | None:
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


def _strip(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if not k.startswith("_")}


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
