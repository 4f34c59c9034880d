"""Tampered traces: hundreds of deterministic mutations of seeded traces, each replayed.

Each mutation changes a trace at one place (its line ``L``, the first line that differs
from the original): an action changed to another label, a die face changed to another
face the die has / a face of another die / a name that is no face, a Seed Bag draw
changed, the first player changed, an action given to another player or to a player who
does not exist, an event dropped / swapped with the next / duplicated (keeping the
recorded step numbers, or renumbering them as a careful forger would), or the trace cut
short.

For every mutation the verdict must be one of:

* reported where it happens: a change that is illegal *there* (checked independently with
  the engine on the original prefix) is a violation, or malformed for a name the game does
  not have, at line ``L`` exactly;
* reported later: a change that is legal there is found at a line after ``L`` (or the trace
  turns out incomplete); nothing is ever reported before ``L``, whose prefix is an untouched
  compliant trace;
* compliant: the mutation happens to be legal all the way; then a fresh replay with the
  engine confirms every event applies and the game ends with the verdict's result.

On top of these bounds, every verdict's status, line and step must equal those of a
small independent replay written here (``oracle``).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from test_replay import CHICKEN, EGGSPANSION, engine_for, make_trace, trace_text

from rulelang.cli import main
from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine
from rulelang.rng import Rng
from rulelang.trace.replay import CHANCE_KEYS, Replayer, Verdict, read_trace

SOURCES = [(CHICKEN, 2, 11), (CHICKEN, 4, 12), (EGGSPANSION, 3, 13), (EGGSPANSION, 5, 14)]
PICKS = 5  # mutations of each kind per source trace

Event = dict[str, Any]


pytestmark = pytest.mark.usefixtures("at_root")  # games/... paths are relative to the repository root


def free_chance(head: Event) -> Event:
    """The header without ``"chance"``: these traces are judged with free chance (as hand-written ones), so
    a die face changed to another it has may stay legal; a seeded trace's own check is in test_replay_seeded."""
    return {k: v for k, v in head.items() if k != "chance"}


# ------------------------------------------------------------------ an independent replay


def _die_faces(engine: Engine, label: str) -> list[str]:
    program = engine.program
    return list(program.face_labels[program.kind_of[program.component_labels.index(label)]])


def _fits(engine: Engine, st: Any, event: Event) -> tuple[str, str] | None:
    """Why ``event`` cannot be played on ``st`` now (status, why), or None if it can."""
    model = engine.model
    d = engine.pending(st)
    assert d is not None
    if event["type"] == "action":
        labels = [player_label(p) for p in range(st.players)]
        if event.get("player") not in labels:
            return "malformed", "unknown player"
        if d.kind != "choice":
            return "violation", "chance is due"
        if labels.index(event["player"]) != d.player or event.get("action") not in (d.labels or []):
            return "violation", "not this player's legal action"
        return None
    if d.kind != "choice" and "outcome" in event:
        keys = [k for k in CHANCE_KEYS if k in event]
        key = keys[0]
        if key not in d.event or d.event[key] != event[key]:
            return "violation", "other chance is due"
        outcome = event["outcome"]
        if key == "roll" and outcome not in {f.name for f in model.faces}:
            return "malformed", "no such face"
        if key == "draw" and outcome not in {k.name for k in model.kinds}:
            return "malformed", "no such kind"
        if outcome not in (d.labels or []):
            return "violation", "impossible outcome"
        return None
    return "violation", "a choice is due"


def _apply(engine: Engine, st: Any, event: Event) -> None:
    engine.apply(st, event["outcome"] if event["type"] == "chance" else event["action"])


@functools.cache
def _engine(game: str) -> Engine:
    return engine_for(game)


def oracle(game: str, players: int, events: list[Event]) -> tuple[str, int | None, int, Any, int | None]:
    """(status, line, steps replayed, final state, line of the recorded result) of the header + ``events``."""
    engine = _engine(game)
    st = engine.new_state(players)
    recorded: tuple[int, Event] | None = None
    for i, event in enumerate(events):
        line = i + 2
        if event["type"] == "comment":
            continue
        if recorded is not None or (st.over and event["type"] != "result"):
            return "malformed", line, st.step, st, None
        if event["type"] == "result":
            recorded = (line, event)
            continue
        if "step" in event and event["step"] != st.step + 1:
            return "malformed", line, st.step, st, None
        why = _fits(engine, st, event)
        if why is not None:
            return why[0], line, st.step, st, None
        _apply(engine, st, event)
    if not st.over:
        return "incomplete", None, st.step, st, recorded[0] if recorded else None
    if recorded is not None:
        line, event = recorded
        if event["winners"] != st.result["winners"] or event["standings"] != st.result["standings"]:
            return "violation", line, st.step, st, line
        if event["digest"] != st.digest():
            return "malformed", line, st.step, st, line
    return "compliant", None, st.step, st, None


def legal_at(game: str, players: int, original: list[Event], index: int, event: Event) -> bool:
    """Whether ``event`` may replace ``original[index]`` (the original prefix replayed first)."""
    engine = _engine(game)
    st = engine.new_state(players)
    for e in original[:index]:
        _apply(engine, st, e)
    return _fits(engine, st, event) is None


# ------------------------------------------------------------------ mutations


def _renumber(events: list[Event]) -> list[Event]:
    out, step = [], 0
    for e in events:
        if e["type"] in ("chance", "action"):
            step += 1
            e = {**e, "step": step}
        out.append(e)
    return out


class Mutation:
    """One tampered trace: its kind, the first differing line, and the events after the header."""

    def __init__(self, kind: str, source: tuple[str, int, int], index: int, events: list[Event],
                 single: Event | None = None) -> None:
        self.kind = kind
        self.game, self.players, self.seed = source
        self.index = index  # index in the original events (after the header) of the first change
        self.line = index + 2  # its line in the file
        self.events = events
        self.single = single  # for a one-event change: the new event

    def __repr__(self) -> str:
        return f"<{self.kind} of {Path(self.game).name} p{self.players} s{self.seed} at line {self.line}>"


def _mutations_of(n: int, source: tuple[str, int, int]) -> list[Mutation]:
    out: list[Mutation] = []
    game, players, seed = source
    engine = _engine(game)
    events = make_trace(game, players, seed)[1:]  # the result line is the last event
    body = events[:-1]
    rng = Rng(2024, stream=n)

    def pick(pred: Any) -> list[int]:
        where = [i for i, e in enumerate(body) if pred(e)]
        return [where[rng.below(len(where))] for _ in range(PICKS)] if where else []

    def single(kind: str, i: int, new: Event) -> None:
        out.append(Mutation(kind, source, i, events[:i] + [new] + events[i + 1:], new))

    def lacks(label: str) -> list[str]:
        return sorted(set(faces) - set(_die_faces(engine, label)))

    labels = sorted({e["action"] for e in body if e["type"] == "action"})
    faces = [f.name for f in engine.model.faces]
    kinds = [k.name for k in engine.model.kinds]
    for i in pick(lambda e: e["type"] == "action"):
        others = [x for x in labels if x != body[i]["action"]]
        single("action-label", i, {**body[i], "action": others[rng.below(len(others))]})
    for i in pick(lambda e: e["type"] == "action"):
        others = [player_label(p) for p in range(players) if player_label(p) != body[i]["player"]]
        single("player-other", i, {**body[i], "player": others[rng.below(len(others))]})
    for i in pick(lambda e: e["type"] == "action"):
        single("player-unknown", i, {**body[i], "player": player_label(players + rng.below(3))})
    for i in pick(lambda e: "roll" in e):
        has = [f for f in _die_faces(engine, body[i]["roll"]) if f != body[i]["outcome"]]
        single("face-has", i, {**body[i], "outcome": has[rng.below(len(has))]})
    for i in pick(lambda e: "roll" in e and lacks(e["roll"])):
        other = lacks(body[i]["roll"])
        single("face-lacks", i, {**body[i], "outcome": other[rng.below(len(other))]})
    for i in pick(lambda e: "roll" in e):
        single("face-unknown", i, {**body[i], "outcome": ["Kitten", "chicken", "Double Chicken"][rng.below(3)]})
    for i in pick(lambda e: "draw" in e):
        others = [k for k in kinds if k != body[i]["outcome"]]
        single("draw-other", i, {**body[i], "outcome": others[rng.below(len(others))]})
    for i in pick(lambda e: "draw" in e):
        single("draw-unknown", i, {**body[i], "outcome": "Dragon"})
    for i in pick(lambda e: "first_player" in e):
        others = [player_label(p) for p in range(players) if player_label(p) != body[i]["outcome"]]
        single("first-player", i, {**body[i], "outcome": others[rng.below(len(others))]})
    for flavour, fix in (("kept", list), ("renumbered", _renumber)):
        for _ in range(PICKS):
            i = rng.below(len(events))  # may be the result line
            out.append(Mutation(f"drop-{flavour}", source, i, fix(events[:i] + events[i + 1:])))
        for _ in range(PICKS):
            i = rng.below(len(body) - 1)
            if {**body[i], "step": 0} == {**body[i + 1], "step": 0} and flavour == "renumbered":
                continue  # swapping two equal events changes nothing
            swapped = events[:i] + [events[i + 1], events[i]] + events[i + 2:]
            out.append(Mutation(f"swap-{flavour}", source, i, fix(swapped)))
        for _ in range(PICKS):
            i = rng.below(len(body))
            out.append(Mutation(f"dup-{flavour}", source, i + 1, fix(events[:i + 1] + events[i:])))
    for _ in range(PICKS):
        i = rng.below(len(events))
        out.append(Mutation("truncate", source, i, events[:i]))
    return out


@functools.cache
def mutations() -> list[Mutation]:
    return [m for n, source in enumerate(SOURCES) for m in _mutations_of(n, source)]


# ------------------------------------------------------------------ the test


def _replay(tmp_path: Path, m: Mutation) -> Verdict:
    path = tmp_path / "m.jsonl"
    path.write_text(trace_text([free_chance(make_trace(m.game, m.players, m.seed)[0]), *m.events]), encoding="utf-8")
    return Replayer(_engine(m.game), read_trace(path)).run()


def _classify(m: Mutation, v: Verdict) -> str:
    if v.status == "compliant":
        return "compliant"
    if v.status == "incomplete":
        return "incomplete"
    assert v.line is not None, (m, v)
    return "at-line" if v.line == m.line else "later"


def test_there_are_enough_mutations() -> None:
    assert len(mutations()) >= 200
    assert len({(m.kind, m.game, m.players, m.index, json.dumps(m.events[m.index:m.index + 2])) for m in mutations()}) \
        >= 200


def test_tampered_traces_are_caught_where_they_break(tmp_path: Path) -> None:
    seen: Counter[tuple[str, str, str]] = Counter()
    for m in mutations():
        v = _replay(tmp_path, m)
        where = _classify(m, v)
        seen[(m.kind, v.status, where)] += 1
        status, line, steps, st, result_line = oracle(m.game, m.players, m.events)

        # 1. the verdict is the independent replay's (a trace that records a result the
        #    game never reaches may be called incomplete or be reported at its result line)
        allowed = {(status, line)}
        if status == "incomplete" and result_line is not None:
            allowed |= {("violation", result_line), ("malformed", result_line)}
        assert (v.status, v.line) in allowed, (m, v.status, v.line, v.message, status, line)
        assert v.steps == steps, (m, v)
        if v.status == "violation" and v.step is not None:
            assert v.step == steps + 1, (m, v)

        # 2. never before the first differing line
        if v.line is not None:
            assert v.line >= m.line, (m, v.message)

        # 3. what each kind of mutation must give
        kind = m.kind
        if m.single is not None:
            if legal_at(m.game, m.players, m.events, m.index, m.single):
                assert where != "at-line", (m, v.message)
            else:
                assert where == "at-line", (m, v.message)
                unknown = kind in ("face-unknown", "draw-unknown", "player-unknown")
                assert v.status == ("malformed" if unknown else "violation"), (m, v.message)
                assert v.event is None or v.event == {**m.single}, (m, v.event)
        elif kind in ("swap-kept", "dup-kept"):
            assert (v.status, where) == ("malformed", "at-line"), (m, v.message)
            assert "out of order" in v.message
        elif kind == "drop-kept":
            if m.index == len(m.events):  # the result line was dropped
                assert v.status == "compliant", (m, v.message)
            elif m.events[m.index]["type"] == "result":  # the last event was dropped
                assert v.status in ("incomplete", "violation", "malformed"), (m, v.message)
            else:
                assert (v.status, where) == ("malformed", "at-line"), (m, v.message)
        elif kind == "truncate":
            if m.index == len(make_trace(m.game, m.players, m.seed)) - 2:  # only the result line is gone
                assert v.status == "compliant", (m, v.message)
            else:
                assert v.status == "incomplete", (m, v.message)
                assert v.steps == len(m.events), (m, v)
        else:  # drop/swap/dup with renumbered steps: found at the change or after it
            assert v.status != "compliant" or kind == "drop-renumbered", (m, v.message)

        # 4. a compliant verdict is confirmed by a fresh replay with the engine
        if v.status == "compliant":
            assert st.over and v.result == st.result, m
            recorded = [e for e in m.events if e["type"] == "result"]
            for r in recorded:
                assert (r["winners"], r["standings"], r["digest"]) == (st.result["winners"], st.result["standings"],
                                                                       st.digest())

    kinds = Counter(kind for kind, _, _ in seen.elements())
    for kind in ("action-label", "player-other", "player-unknown", "face-has", "face-lacks", "face-unknown",
                 "draw-other", "draw-unknown", "first-player", "drop-kept", "drop-renumbered", "swap-kept",
                 "swap-renumbered", "dup-kept", "dup-renumbered", "truncate"):
        assert kinds[kind] >= PICKS, (kind, kinds)
    statuses = Counter(status for _, status, _ in seen.elements())
    assert {"violation", "malformed", "incomplete"} <= set(statuses), statuses

    def count(kind: str, status: str | None = None, where: str | None = None) -> int:
        return sum(n for (k, s, w), n in seen.items()
                   if k == kind and (status is None or s == status) and (where is None or w == where))

    # each expected outcome occurs
    assert count("action-label", "violation", "at-line") > 0  # e.g. "Reroll" where it is not offered
    assert count("action-label", where="later") + count("action-label", "incomplete") > 0  # the other legal choice
    assert count("player-other", "violation", "at-line") == kinds["player-other"]
    assert count("player-unknown", "malformed", "at-line") == kinds["player-unknown"]
    assert count("face-has", where="at-line") == 0
    assert count("face-has", where="later") > 0
    assert count("face-lacks", "violation", "at-line") == kinds["face-lacks"]
    assert count("face-unknown", "malformed", "at-line") == kinds["face-unknown"]
    assert count("draw-unknown", "malformed", "at-line") == kinds["draw-unknown"]
    assert count("draw-other", "violation", "at-line") > 0  # a kind that is not in the Seed Bag
    assert count("first-player", where="later") == kinds["first-player"]
    assert count("drop-kept", "malformed", "at-line") > 0
    assert count("drop-renumbered", "violation") > 0
    assert count("swap-renumbered", "violation", "at-line") > 0
    assert count("dup-renumbered", "violation", "at-line") > 0
    assert count("truncate", "incomplete") > 0


def test_some_tampered_traces_through_the_cli(tmp_path: Path) -> None:
    """Through `rulelang replay`: exit 1, and the verdict names the trace line."""
    picked = [m for m in mutations() if m.kind in ("face-lacks", "player-other", "face-unknown", "swap-kept")][::3]
    assert len(picked) >= 8
    for m in picked:
        path = tmp_path / "m.jsonl"
        head = free_chance(make_trace(m.game, m.players, m.seed)[0])
        path.write_text(trace_text([head, *m.events]), encoding="utf-8")
        result = CliRunner().invoke(main, ["replay", str(path)])
        assert result.exit_code == 1, (m, result.output)
        assert result.stdout == ""
        if m.kind in ("face-lacks", "player-other"):
            assert f"(trace line {m.line}):" in result.stderr.splitlines()[0], (m, result.stderr)
        else:
            assert result.stderr.startswith(f"malformed trace:\n{path.as_posix()}:{m.line}:1: error:"), m
