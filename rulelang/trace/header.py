"""A trace's header: the rules file it names (loaded for replay) and what a player's view of it shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rulelang.compile.runtime import player_label
from rulelang.engine.engine import Engine
from rulelang.engine.position import COUNTED
from rulelang.errors import RulelangError
from rulelang.game import load_game
from rulelang.rng import seed_in_range
from rulelang.safeio import RULES_SUFFIX, inside
from rulelang.trace.reading import Trace, TraceError, line_span
from rulelang.views import redact_counters


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
    span = line_span(trace, trace.header["_line"])
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
                         line_span(trace, line))
    if rules is None:
        path = _named_rules_file(trace, path)
    options = header.get("options") or {}
    if not isinstance(options, dict):
        raise TraceError("the header's options must be an object", line_span(trace, line))
    engine = load_game(path, {k: json.dumps(v) if not isinstance(v, str) else v for k, v in options.items()})
    want = header.get("sha256")
    if isinstance(want, str):
        have = engine.model.files[-1][1]
        if have != want:
            warnings.append(f"{path} has changed since the trace was recorded (sha256 differs)")
    return engine, warnings
