"""The replay viewer: one self-contained HTML page to step through a replayed trace.

While a trace is replayed, the table is recorded after every step, as the engine left it
(everything, for a referee; or only what one player saw, from ``Engine.observe`` and the
redacted narration). The page embeds the frames as one JSON blob, escaped so that no text
of the rules or of the trace can end the script element, and its script inserts every
text with ``textContent``. It loads nothing from the network.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import attrs

from rulelang.compile.control import counter_shown
from rulelang.engine.engine import Engine
from rulelang.engine.state import State
from rulelang.narrate import Narrator, reading_names, sight, standings_lines
from rulelang.numbers import json_number
from rulelang.sim.summary import key_names as ranking_key_names
from rulelang.syntax.span import source_line
from rulelang.trace.replay import Replayer, Trace, Verdict
from rulelang.views import redact_narration

TEMPLATE = "viewer.html"
DATA_MARK = "/*RULELANG_DATA*/"
TITLE_MARK = "<!--RULELANG_TITLE-->"


@attrs.define
class Frame:
    """The table after one step of the replay (step 0: as play starts)."""

    step: int
    line: int | None
    table: dict[str, Any]
    lines: list[str]


class _Recorder(list):  # type: ignore[type-arg]
    """Stands in for a Replayer's narration list: each time the replay hands it the narration of
    an event, the state the engine has just reached is recorded as a frame."""

    def __init__(self, replayer: Replayer, seat: int | None, everything: bool) -> None:
        super().__init__()
        self.replayer = replayer
        self.seat = seat
        self.everything = everything
        self.frames: list[Frame] = []
        self.replayer_start = replayer.start
        self.narrator = Narrator(names=reading_names(replayer.engine), sees=sight(replayer.engine, seat))
        self.moves = Narrator(verbose=True, names=reading_names(replayer.engine))
        # the piles each card (or each copy of a kind) has: shown only while something is in them
        self.piles = tuple(f"{z.name} of " for z in replayer.engine.model.zones
                           if z.per_class is not None or z.per_kind is not None)

    def extend(self, events: Any) -> None:  # noqa: D401 (a list's method)
        events = list(events)
        super().extend(events)
        self.record(events)

    def append(self, event: Any) -> None:
        super().append(event)
        self.record([event])

    def start(self, narrate: bool = False) -> State:
        """The replayer's own ``start``, then the state play starts from recorded as frame 0."""
        st = self.replayer_start(narrate)
        self.frames.clear()  # (a replay started again begins again)
        self.record([], st)
        return st

    def record(self, events: list[dict[str, Any]], st: State | None = None) -> None:
        """Record the replayed state, and the play-by-play lines of ``events``, as a frame."""
        st = st if st is not None else self.replayer.state
        if st is None:
            return
        engine = self.replayer.engine
        shown = events if self.everything else redact_narration(engine, events, self.seat)
        lines = self.narrator.lines(shown) + self.narrator.flush()
        if not lines:  # a step with nothing to tell (a card dealt, a forced choice): what moved, as -v tells it
            lines = self.moves.lines(shown) + self.moves.flush()
        table = full_table(engine, st) if self.everything else engine.observe(st, self.seat)
        table["zones"] = {k: v for k, v in table["zones"].items()
                          if v not in ([], {"hidden": 0}) or not k.startswith(self.piles)}
        frame = Frame(st.step, self.replayer.current_line, _plain(table), lines)
        if self.frames and self.frames[-1].step == st.step:  # more narration of the same step
            last = self.frames[-1]
            last.lines.extend(lines)
            last.table = frame.table
            last.line = frame.line
        else:
            self.frames.append(frame)


def record_frames(replayer: Replayer, seat: int | None, everything: bool) -> list[Frame]:
    """Make ``replayer`` record a frame after every step (replay it with ``narrate=True``); the list fills
    as it runs."""
    recorder = _Recorder(replayer, seat, everything)
    replayer.narration = recorder
    replayer.start = recorder.start  # type: ignore[method-assign]
    return recorder.frames


def _plain(value: Any) -> Any:
    """A JSON-ready copy (fractions and other numbers as JSON numbers or text)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    return json_number(value)


def full_table(engine: Engine, st: State) -> dict[str, Any]:
    """The whole table, hidden zones and counters included (what a referee sees), in
    ``Engine.observe``'s shape; ``hidden`` lists the zones and counters not public."""
    obs = engine.observe(st, None)
    model = engine.model
    zones: dict[str, Any] = {}
    hidden: list[str] = []
    for key, z, _owner, ids in engine.table_zones(st):
        zones[key] = engine.shown(st, ids)
        if z.visibility != "public":
            hidden.append(key)
    counters: dict[str, Any] = {}
    bookkeeping: dict[str, Any] = {}
    for c in model.counters:
        value = st.counters[c.index]
        text = counter_shown(c.type, model.kinds, model.faces)
        shown = {f"P{p + 1}": text(v) for p, v in enumerate(value)} if c.per_player else text(value)
        (counters if c.doc is not None else bookkeeping)[c.name] = shown
        if c.visibility != "public":
            hidden.append(c.name)
    obs.update(zones=zones, counters=counters, bookkeeping=bookkeeping, hidden=hidden)
    d = engine.pending(st)
    if d is not None and d.kind == "choice" and d.player is not None:  # the options the waiting player has
        obs["legal_actions"] = engine.legal_actions(st, d.player)
    return obs


def _rule_text(rule: str | None) -> str | None:
    if not rule:
        return None
    try:
        file, line, _col = rule.rsplit(":", 2)
        text = source_line(file, int(line))
    except ValueError:
        return None
    return text.rstrip() if text is not None else None


def verdict_data(verdict: Verdict, seat: int | None, viewing: bool) -> dict[str, Any]:
    """What the page says of the verdict. Seen by a player (``viewing``), the details of a violation
    (the event, the reason, the legal options) are kept only for that player's own action: those of
    another player's move or of chance may name what the player could not see."""
    data: dict[str, Any] = {"status": verdict.status, "step": verdict.step, "line": verdict.line,
                            "rule": verdict.rule, "rule_text": _rule_text(verdict.rule)}
    event = verdict.event or {}
    own = viewing and seat is not None and event.get("type") == "action" and event.get("player") == f"P{seat + 1}"
    if not viewing or own:
        data.update(message=verdict.message, reason=verdict.reason, legal=verdict.legal,
                    legal_total=verdict.legal_total, event=event or None)
        if verdict.status == "incomplete":
            data["pending"] = verdict.pending
    else:
        what = {"violation": "breaks the rules", "malformed": "cannot be read as a trace or is not the game's",
                "incomplete": "stops before the game ends", "compliant": "keeps the rules"}[verdict.status]
        who = f" ({event['player']}'s move)" if event.get("type") == "action" else \
            " (a chance outcome)" if event.get("type") == "chance" else ""
        at = f"step {verdict.step}{who}" if verdict.step is not None else "the trace"
        data["message"] = f"{at} {what}" + ("" if verdict.status == "compliant" else
                                            ": the details concern what this player could not see")
    if verdict.status == "compliant":
        data["message"] = f"compliant: {verdict.steps} steps, every event keeps the rules"
    return data


def viewer_page(engine: Engine, trace: Trace, frames: list[Frame], verdict: Verdict, seat: int | None,
                viewing: bool) -> str:
    """The self-contained HTML page of the replay: ``frames`` and the verdict, as ``seat`` saw them when
    ``viewing`` (else everything)."""
    header = trace.header
    who = (f"P{seat + 1}" if seat is not None else "spectator") if viewing else None
    result = verdict.result if verdict.result is not None else None
    key_names = ranking_key_names(engine)
    data = {
        "title": engine.model.title,
        "file": str(header.get("file", "")),
        "trace": trace.path,
        "players": header.get("players"),
        "view": who,
        "frames": _packed(frames),
        "names": table_names(engine, frames),
        "verdict": verdict_data(verdict, seat, viewing),
        "standings": standings_lines(result, key_names) if result else [],
    }
    return page_html(data)


def table_names(engine: Engine, frames: list[Frame]) -> dict[str, str]:
    """The names a player reads for each zone and counter the frames show: a zone by its display name
    (``P1's tokens``, ``the pile on Card 2``), a counter by its description; a key with no
    other name is left out (the page shows it as it is)."""
    zones = {z.name: z for z in engine.model.zones}
    names: dict[str, str] = {c.name: c.doc for c in engine.model.counters if c.doc}
    keys = {key for f in frames for key in f.table.get("zones", {})}
    for key in sorted(keys):
        name, sep, owner = key.partition(" of ")
        z = zones.get(name)
        if z is None or not z.display:
            continue
        if not sep:
            names[key] = z.display
        elif z.per_player:
            names[key] = f"{owner}'s {z.display}"
        else:
            names[key] = f"{z.display} {engine.shown_name.get(owner, owner)}"
    return names


def _packed(frames: list[Frame]) -> list[dict[str, Any]]:
    """The frames for the page, each frame's zones given only where they changed since the frame before
    (``zones`` then holds the changed zones and ``gone`` the zones no longer there; the page rebuilds them)."""
    out: list[dict[str, Any]] = []
    before: dict[str, Any] | None = None
    for f in frames:
        table = dict(f.table)
        zones = table.get("zones", {})
        if before is not None:
            table["zones"] = {k: v for k, v in zones.items() if before.get(k) != v}
            gone = [k for k in before if k not in zones]
            if gone:
                table["gone"] = gone
            table["delta"] = True
        before = zones
        out.append({"step": f.step, "line": f.line, "table": table, "lines": f.lines})
    return out


def embed_json(data: Any) -> str:
    """``data`` as JSON that is safe inside a script element: no ``<``, ``>`` or ``&`` (so no ``</script>``
    and no comment opening), and no U+2028/U+2029."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    for ch, esc in (("<", "\\u003c"), (">", "\\u003e"), ("&", "\\u0026"),
                    ("\u2028", "\\u2028"), ("\u2029", "\\u2029")):
        text = text.replace(ch, esc)
    return text


def page_html(data: dict[str, Any]) -> str:
    """The template with ``data`` embedded."""
    template = resources.files("rulelang.trace").joinpath(TEMPLATE).read_text(encoding="utf-8")
    title = str(data.get("title", ""))
    title = title.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    before, after = template.split(DATA_MARK, 1)  # (the title may hold the marks: fill each part once)
    return before.replace(TITLE_MARK, title, 1) + embed_json(data) + after
